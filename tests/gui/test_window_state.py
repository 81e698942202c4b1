"""The window's state: the controls edit the request model and the window observes it (a
changed board, mode, start or end marks the old figures stale); the title names the app once;
the status bar and Timing give the same time; FileActions works on its own collaborators."""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt

from knightgui.window.files import FileActions
from knightgui.window.main import TITLE
from knightgui_core.board.tour import Tour

from gui_helpers import some_tour, wait_until


def _enumerate_a8_c7(window, qtbot):
    c = window.controls
    c.mode.setCurrentIndex(c.mode.findData("exhaustive"))
    c.closed.setChecked(True)
    c.start.setText("a8")
    c.start.editingFinished.emit()
    c.end.setCurrentIndex(c.end.findText("c7"))
    c.limit.setValue(300)
    window.solve()
    wait_until(qtbot, lambda: not window.results.running)
    assert window.counter.values["found"] == 300
    assert window.matrix.model.rowCount() > 0
    assert window.timing.labels["forward"].text() != "—"


def test_the_controls_write_the_model(window):
    c, m = window.controls, window.controls.model
    c.rows.setValue(10)
    assert (m.settings.rows, m.settings.cols) == (10, 10)
    c.tie.setCurrentIndex(c.tie.findData("first"))
    c.seed.setValue(9)
    assert (m.settings.tie, m.settings.seed) == ("first", 9)
    assert window.controls.request().rows == 10


def test_changing_the_board_marks_timing_counter_and_matrix_stale(window, qtbot):
    for change in (lambda c: c.rows.setValue(10),
                   lambda c: c.mode.setCurrentIndex(c.mode.findData("single")),
                   lambda c: (c.start.setText("b8"), c.start.editingFinished.emit()),
                   lambda c: c.end.setCurrentIndex(c.end.findText("b6"))):
        c = window.controls
        c.rows.setValue(8)
        _enumerate_a8_c7(window, qtbot)
        change(c)
        assert window.matrix.model.rowCount() == 0
        assert window.matrix.caption.text().startswith("Stale")
        assert window.counter.values["found"] is None
        assert window.counter.state.text().startswith("Stale")
        assert window.timing.labels["status"].text().startswith("stale")
        assert window.timing.labels["forward"].text() == "—"
        assert len(window.results.store) == 0


def test_a_change_during_a_search_cancels_it(window, qtbot):
    c = window.controls
    c.mode.setCurrentIndex(c.mode.findData("exhaustive"))
    c.rows.setValue(10)
    c.start.setText("a1")
    c.start.editingFinished.emit()
    window.solve()
    assert window.results.running
    c.rows.setValue(9)
    assert not window.results.running and not window.act.cancel.isEnabled()
    assert window.counter.state.text().startswith("Stale")


def test_the_seed_does_not_make_results_stale(window, qtbot):
    _enumerate_a8_c7(window, qtbot)
    window.controls.seed.setValue(3)
    assert window.counter.values["found"] == 300


def test_title_once_and_status_agrees_with_timing(window, qtbot):
    assert window.windowTitle() == TITLE and "knightgui" not in TITLE
    c = window.controls
    c.start.setText("a1")
    c.start.editingFinished.emit()
    with qtbot.waitSignal(window.worker.tourSolved, timeout=60_000):
        window.solve()
    wait_until(qtbot, lambda: not window.results.running)
    shown = window.timing.labels["time"].text()
    assert shown.endswith(" ms") or shown.endswith(" s")
    assert f"({shown})" in window.statusBar().currentMessage()


def test_file_actions_work_with_explicit_collaborators(qtbot, tmp_path, dialogs):
    from PySide6.QtWidgets import QWidget

    from knightgui.board.view import BoardView
    parent, view = QWidget(), BoardView()
    qtbot.addWidget(parent)
    qtbot.addWidget(view)
    shown: list[Tour] = []
    status: list[str] = []
    errors: list[tuple[str, str]] = []
    current = {"tour": None}
    fa = FileActions(parent, view, lambda: current["tour"], shown.append, status.append,
                     lambda t, x: errors.append((t, x)))
    assert fa.save_tour(filename=str(tmp_path / "x.json")) is False
    assert errors[-1][0] == "No tour"
    t = some_tour(6, 6)
    t.save(tmp_path / "t.json")
    assert fa.open_tour(filename=str(tmp_path / "t.json")) is True
    np.testing.assert_array_equal(shown[-1].path, t.path)
    assert status[-1].startswith("Opened t.json")
    current["tour"] = t
    assert fa.save_tour(filename=str(tmp_path / "y.csv")) is True
    np.testing.assert_array_equal(Tour.load(tmp_path / "y.csv").path, t.path)
    (tmp_path / "bad.json").write_text("{")
    assert fa.open_tour(filename=str(tmp_path / "bad.json")) is False
    assert errors[-1][0] == "Cannot open the tour"


def test_options_matrix_reads_its_cells_from_the_array(qtbot):
    from knightgui.panels.options_matrix import OptionsMatrixView
    mv = OptionsMatrixView()
    qtbot.addWidget(mv)
    mv.resize(420, 500)
    mv.show()
    mo = np.zeros((10_001, 8), dtype=np.int8)
    mo[7000, 3] = 5
    names = [f"s{i}" for i in range(10_000)]
    mv.show_matrix(mo, 7000, names)
    m = mv.model
    assert m.rowCount() == 10_000 and m.text(6999, 3) == "5" and m.text(6999, 0) == "s6999"
    assert m.data(m.index(6998, 2)) == "" and m.headerData(6999, Qt.Vertical) == "▶ 7000"
    # the branch row is scrolled into sight (once the new row count is laid out)
    qtbot.wait(20)
    top = mv.table.rowAt(0)
    bottom = mv.table.rowAt(mv.table.viewport().height() - 1)
    assert top <= 6999 <= bottom
    mo[300, 1] = 2                      # stepping: same row count, branch elsewhere
    mv.show_matrix(mo, 300, names)
    assert mv.table.rowAt(0) <= 299 <= mv.table.rowAt(mv.table.viewport().height() - 1)
    mv.clear("none")
    assert m.rowCount() == 0
