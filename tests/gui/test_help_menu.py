"""The Help menu (issue 35): Getting started, Keyboard shortcuts built from the window's own
actions, About with version, licence and the figures' provenance; stepping keys work from the
first moment, before the board is clicked."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox, QTableWidget

from knightgui import __version__
from knightgui.window.help import about_text, shortcut_rows


def _help_actions(window):
    menus = {a.text().replace("&", ""): a.menu() for a in window.menuBar().actions()}
    assert "Help" in menus, list(menus)
    assert list(menus)[-1] == "Help"
    return {a.text(): a for a in menus["Help"].actions()}


def test_the_help_menu_offers_getting_started_shortcuts_and_about(window):
    acts = _help_actions(window)
    assert {"User guide", "Getting started", "Keyboard shortcuts", "About knightgui"} <= set(acts)
    assert acts["User guide"].shortcut().toString() == "F1"


def test_the_shortcuts_page_lists_every_action_key_of_the_window(window, qtbot):
    rows = shortcut_rows(window)
    keys = {r[1] for r in rows}
    for a in window.actions():
        if a.shortcut().toString():
            assert a.shortcut().toString() in keys, a.text()
    solve = [r for r in rows if r[2].startswith("Solve")]
    assert solve and solve[0][0] == "Run" and solve[0][1] == "Ctrl+R"
    _help_actions(window)["Keyboard shortcuts"].trigger()
    dialog = next(w for w in QApplication.topLevelWidgets()
                  if isinstance(w, QDialog) and w.objectName() == "shortcuts" and w.isVisible())
    table = dialog.findChild(QTableWidget)
    assert table.rowCount() == len(rows)
    assert any(table.item(i, 1).text() == "Ctrl+R" for i in range(table.rowCount()))
    dialog.close()


def test_getting_started_opens_a_page(window):
    """The guide's first page, in the app's guide viewer (tests/gui/test_guide.py has more)."""
    from knightgui.guide.viewer import GuideWindow
    _help_actions(window)["Getting started"].trigger()
    viewer = next(w for w in QApplication.topLevelWidgets()
                  if isinstance(w, GuideWindow) and w.isVisible())
    assert viewer.current_page() == viewer.guide.first
    assert viewer.browser.toPlainText().strip()
    viewer.close()


def test_about_names_version_licence_and_provenance(window, monkeypatch):
    seen = []
    monkeypatch.setattr(QMessageBox, "about", staticmethod(lambda p, t, text: seen.append(text)))
    _help_actions(window)["About knightgui"].trigger()
    assert seen and seen[0] == about_text()
    for word in (__version__, "MIT", "Phadke", "Knuth", "docs/results/index.md"):
        assert word in seen[0], word


def test_the_board_has_the_keyboard_in_a_fresh_window(window, qtbot):
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None, timeout=5000)
    assert QApplication.focusWidget() is window.view


def test_stepping_keys_work_after_solve_without_clicking_the_board(window, qtbot):
    """Typed a size, pressed Solve: Right steps the solutions, it does not move the text
    cursor of the box last typed in."""
    c = window.controls
    c.mode.setCurrentIndex(c.mode.findData("exhaustive"))
    c.closed.setChecked(True)
    c.rows.setValue(8)
    c.start.setText("a8")
    c.start.editingFinished.emit()
    c.end.setCurrentIndex(c.end.findText("c7"))
    c.rows.setFocus()
    window.act.solve.trigger()
    qtbot.waitUntil(lambda: not window.results.running, timeout=120_000)
    assert window.results.found == 14_258
    window.results.first()
    before = window.results.current
    focus = QApplication.focusWidget()
    qtbot.keyClick(focus if focus is not None else window, Qt.Key.Key_Right)
    assert window.results.current == before + 1, type(focus).__name__
