"""What a newcomer met in the window (issue 35): "Stale: mode changed" on a fresh window, the
toolbar's boxes taking the mouse wheel without focus, and docks that widened for a long text
and never narrowed. Each test fails on the code before its fix."""
from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget

from knightgui import settings
from knightgui.window.main import MainWindow

from gui_helpers import open_exhaustive, some_tour


def _texts(w: MainWindow) -> list[str]:
    return [w.counter.state.text(), w.timing.labels["status"].text(), w.matrix.caption.text()]


def _window(qtbot, restore: bool) -> MainWindow:
    w = MainWindow(restore_settings=restore)
    qtbot.addWidget(w)
    w.resize(1280, 820)
    w.show()
    qtbot.waitExposed(w)
    return w


def test_a_fresh_window_with_restored_settings_says_nothing_is_stale(qtbot):
    first = _window(qtbot, restore=False)
    c = first.controls
    c.mode.setCurrentIndex(c.mode.findData("exhaustive"))   # not the default mode, nor size
    c.rows.setValue(6)
    settings.save(first)
    first.close()
    w = _window(qtbot, restore=True)                        # the next start: nothing run yet
    assert w.controls.model.settings.mode == "exhaustive" and w.controls.model.settings.rows == 6
    assert not any("stale" in t.lower() for t in _texts(w)), _texts(w)
    w.controls.rows.setValue(7)                             # still nothing to be stale
    assert not any("stale" in t.lower() for t in _texts(w)), _texts(w)
    # once a tour is shown, a change of board makes its figures stale, as before
    w.show_tour(some_tour(7, 7))
    w.controls.rows.setValue(8)
    assert w.counter.state.text().startswith("Stale: board"), _texts(w)
    w.close()


def _wheel(window: QWidget, box: QWidget, qtbot, notch: int) -> None:
    """One notch of the mouse wheel over the middle of ``box``, as the system sends it."""
    pos = box.mapTo(window, box.rect().center())
    QTest.wheelEvent(window.windowHandle(), pos, QPoint(0, 120 * notch))
    qtbot.wait(20)


def test_the_toolbar_boxes_take_the_wheel_only_with_focus(qtbot):
    w = _window(qtbot, restore=False)
    open_exhaustive(w, 6, "a1")          # solutions to step and a tour: every box acts
    w.solve()
    qtbot.waitUntil(lambda: not w.results.running and w.results.tour is not None,
                    timeout=60000)
    w.activateWindow()
    a = w.act
    for box in (a.play_speed, a.anim_speed, a.watch_speed, a.jump_box):
        assert box.isEnabled()
        if box.value() == box.maximum():
            box.setValue(box.maximum() - 5)
        w.view.setFocus()
        before = box.value()
        _wheel(w, box, qtbot, notch=1)
        assert box.value() == before, f"{box.toolTip()!r} took the wheel without focus"
        assert not box.hasFocus()
        box.setFocus()
        qtbot.waitUntil(box.hasFocus)
        _wheel(w, box, qtbot, notch=1)
        assert box.value() > before, f"{box.toolTip()!r} refused the wheel with focus"
    w.close()


def test_long_texts_never_widen_the_docks(qtbot):
    w = _window(qtbot, restore=False)
    qtbot.wait(50)
    docks = (w.controls_dock, w.counter_dock, w.timing_dock, w.matrix_dock)
    before = [d.width() for d in docks]
    board = w.view.width()
    c = w.counter
    labels = [c.current, c.found, c.total, c.state, c.identity, *w.timing.labels.values(),
              w.matrix.caption, w.controls.note]
    for text in ("C100x100-" + "0123456789abcdef" * 8,            # one long word
                 "a walk stuck after 12,345,678 moves on d4 " * 5):  # a long sentence
        for label in labels:
            label.setText(text)
        qtbot.wait(50)
        assert [d.width() for d in docks] == before, text[:20]
        assert w.view.width() == board
    w.close()


def test_the_hovered_square_line_follows_a_new_tour_under_a_still_pointer(qtbot):
    w = _window(qtbot, restore=False)
    tour = some_tour(6, 6)
    w.controls.rows.setValue(6)
    first = int(tour.path[0])
    w.view.squareHovered.emit(first)        # the pointer rests on the tour's first square
    w.view._hover = first
    assert "not visited" in w.hover_label.text()
    w.show_tour(tour)                       # the tour is drawn; the pointer has not moved
    assert "move 1" in w.hover_label.text(), w.hover_label.text()
    w.close()
