"""The window opens, solves, says what is wrong with bad input, and reads and writes files."""
from __future__ import annotations

import json

import numpy as np
import pytest

from knightgui.settings import use_folder as use_settings_folder
from knightgui_core.board.squares import Board
from knightgui_core.board.tour import Tour, check_path
from knightgui_core.walks.result import Walk

from gui_helpers import some_tour, wait_until


def _solve(window, qtbot, rows, cols=None, closed=False, start="a1"):
    c = window.controls
    c.mode.setCurrentIndex(c.mode.findData("single"))
    c.square_lock.setChecked(cols is None)
    c.rows.setValue(rows)
    c.cols.setValue(cols or rows)
    c.closed.setChecked(closed)
    c.start.setText(start)
    c.start.editingFinished.emit()
    with qtbot.waitSignal(window.worker.tourSolved, timeout=120_000):
        window.solve()
    wait_until(qtbot, lambda: not window.results.running)


def test_window_opens_with_its_panels(window, qtbot):
    assert window.isVisible()
    titles = {d.windowTitle() for d in (window.controls_dock, window.counter_dock,
                                        window.timing_dock, window.matrix_dock)}
    assert titles == {"Controls", "Solutions", "Timing", "Options matrix"}
    assert (window.view.rows, window.view.cols) == (8, 8)
    qtbot.wait(50)
    assert window.analysis is None          # the Analysis view is made when first opened
    assert window.act.analysis in window.act.view_menu.actions()


@pytest.mark.parametrize("n", [8, 100])
def test_solving_draws_a_valid_tour(window, qtbot, n):
    _solve(window, qtbot, n, start="1,1")
    path = window.view.path
    assert len(path) == n * n
    assert check_path(Board(n, n), path) is None
    assert window.view.path_item.segment_count() == n * n - 1
    assert window.results.tour is not None and window.results.tour.rows == n
    assert "tour" in window.statusBar().currentMessage()


def test_closed_single_tour_is_closed_on_the_board(window, qtbot):
    _solve(window, qtbot, 8, closed=True)
    t = window.results.tour
    assert t.closed and t.is_closed_path
    assert window.view.path_item.segment_count() == 64


def test_impossible_board_is_said_at_once_and_not_solved(window, qtbot):
    c = window.controls
    c.closed.setChecked(True)
    c.rows.setValue(5)                          # 5×5: odd×odd, no closed tour
    msg = window.statusBar().currentMessage()
    assert "no closed tour" in msg.lower()
    gen = window.worker.generation
    window.solve()
    qtbot.wait(50)
    assert window.worker.generation == gen      # nothing was submitted
    assert not window.results.running
    c.closed.setChecked(False)
    assert window.statusBar().currentMessage() == "" or \
        "no closed" not in window.statusBar().currentMessage()


def test_bad_square_and_order_are_explained(window, qtbot):
    c = window.controls
    c.start.setText("z9")
    c.start.editingFinished.emit()
    assert "start" in window.statusBar().currentMessage().lower()
    c.start.setText("a1")
    c.start.editingFinished.emit()
    c.order.setText("1234")
    c._check()
    assert "move order" in c.note.text().lower()


def test_end_must_be_a_knight_move_from_the_start(window):
    c = window.controls
    c.mode.setCurrentIndex(c.mode.findData("exhaustive"))
    c.closed.setChecked(True)
    c.start.setText("a8")
    c.start.editingFinished.emit()
    ends = sorted(c.end.itemText(i) for i in range(c.end.count()))
    assert ends == ["b6", "c7"]
    assert c.end.currentText() == "c7"
    b = Board(8, 8)
    window._square_clicked(b.parse("e4"), True)
    assert "e4" in window.statusBar().currentMessage()
    assert c.end.currentText() == "c7"
    window._square_clicked(b.parse("b6"), True)
    assert c.end.currentText() == "b6"
    window._square_clicked(b.parse("d5"), False)
    assert c.start.text() == "d5"


def test_corners_that_are_not_free_cannot_be_dashed(window):
    c = window.controls
    c.mode.setCurrentIndex(c.mode.findData("exhaustive"))
    c.closed.setChecked(True)
    c.start.setText("a8")
    c.start.editingFinished.emit()
    names = [lab.text() for lab in c.dash_labels]
    i = names.index("a8")
    assert not c.dash[i].isEnabled()
    assert "not free" in c.dash[i].toolTip()
    j = names.index("h1")
    assert c.dash[j].isEnabled()
    assert c.tail.count() == 1                     # a8→c7 has no ECD/XCD tail
    c.start.setText("d5")
    c.start.editingFinished.emit()
    c.end.setCurrentIndex(c.end.findText("e3"))
    tails = [c.tail.itemText(k) for k in range(1, c.tail.count())]
    assert "ECD  b3 a1 c2 e3" in tails and len(tails) == 6   # 1 ECD + 5 XCD
    assert all(cb.isEnabled() for cb in c.dash)              # d5→e3: every corner free


def test_bad_file_gives_a_dialog_and_good_files_round_trip(window, tmp_path, dialogs):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "knightgui-tour", "version": 1, "rows": 5,
                               "cols": 5, "closed": False, "path": [[0, 0]] * 25}))
    assert window.files.open_tour(filename=str(bad)) is False
    assert dialogs and "visited twice" in dialogs[-1][1]
    t = some_tour(6, 6)
    good = tmp_path / "t.csv"
    t.save(good)
    assert window.files.open_tour(filename=str(good)) is True
    np.testing.assert_array_equal(window.view.path, t.path)
    assert (window.controls.rows.value(), window.controls.cols.value()) == (6, 6)
    out = tmp_path / "out.json"
    assert window.files.save_tour(filename=str(out)) is True
    np.testing.assert_array_equal(Tour.load(out).path, t.path)
    png = tmp_path / "board.png"
    assert window.files.export_png(filename=str(png)) is True and png.stat().st_size > 1000
    svg = tmp_path / "board.svg"
    assert window.files.export_svg(filename=str(svg)) is True
    assert svg.read_text().count("<text") == 36


def test_analysis_walks_are_shown_on_the_board(window):
    t = some_tour(6, 6)
    window.show_tour(t)
    np.testing.assert_array_equal(window.view.path, t.path)
    window.show_tour(Walk(board=Board(7, 7), path=t.path[:5] % 49, message="stuck on X"))
    assert (window.view.rows, window.view.cols) == (7, 7) and len(window.view.path) == 5
    assert window.statusBar().currentMessage() == "stuck on X"
    assert window.controls.rows.value() == 7


def test_nothing_to_save_is_a_dialog_not_a_crash(window, tmp_path, dialogs):
    assert window.files.save_tour(filename=str(tmp_path / "x.json")) is False
    assert dialogs[-1][0] == "No tour"


def test_settings_are_remembered(qtbot, dialogs):
    from knightgui.window.main import MainWindow
    w = MainWindow()
    qtbot.addWidget(w)
    w.controls.rows.setValue(12)
    w.controls.tie.setCurrentIndex(w.controls.tie.findData("random"))
    w.set_view_options(numbers=False, colour="moves")
    assert w.controls.state()["rows"] == 12, "the model did not take the new size"
    w.close()
    from knightgui import settings
    stored = settings.qsettings()
    assert stored.status() == stored.Status.NoError, stored.fileName()
    assert '"rows": 12' in str(stored.value("controls")), (stored.fileName(),
                                                         stored.value("controls"))
    w2 = MainWindow()
    qtbot.addWidget(w2)
    assert w2.controls.rows.value() == 12
    assert w2.controls.tie.currentData() == "random"
    assert w2.view.show_numbers is False and w2.view.colour_mode == "moves"
    w2.close()


@pytest.mark.parametrize("rows,cols,closed,mode", [
    (1, 1, False, "single"), (3, 4, False, "single"), (2, 2, False, "single"),
    (5, 5, False, "exhaustive"), (6, 6, True, "exhaustive"), (3, 10, True, "single"),
])
def test_odd_boards_never_crash(window, qtbot, dialogs, rows, cols, closed, mode):
    c = window.controls
    c.mode.setCurrentIndex(c.mode.findData(mode))
    c.square_lock.setChecked(False)
    c.rows.setValue(rows)
    c.cols.setValue(cols)
    c.closed.setChecked(closed)
    c.start.setText("1,1")
    c.start.editingFinished.emit()
    c.limit.setValue(200)
    window.solve()
    wait_until(qtbot, lambda: not window.results.running, timeout=60)
    window.view.grab()
    window.toggle_animation()
    qtbot.wait(60)
    window.toggle_animation()
    assert not [d for d in dialogs if d[0] in ("Unexpected error", "Solver error")]
    if window.results.tour is not None:
        assert check_path(Board(rows, cols), window.results.tour.path,
                          window.results.tour.closed) is None


def test_hover_label_names_the_square_its_move_and_outlets(window):
    t = some_tour(8, 8)
    window.show_tour(t)
    sq = int(t.path[9])
    window._hovered(sq)
    text = window.hover_label.text()
    assert Board(8, 8).name(sq) in text and "move 10" in text and "outlets" in text
    window._hovered(-1)
    assert window.hover_label.text() == ""


def test_status_bar_says_where_the_rule_failed_and_what_took_over(window, qtbot):
    _solve(window, qtbot, 100, start="a1")
    msg = window.statusBar().currentMessage()
    assert ("Warnsdorff's rule (phadke) got stuck on cn1 (92,1) after 9,975 moves; "
            "tour by construction") in msg
    assert window.view.path[0] == 0


def test_window_names_squares_with_letters_on_every_width(window, qtbot):
    c = window.controls
    c.mode.setCurrentIndex(c.mode.findData("single"))
    c.square_lock.setChecked(False)
    c.rows.setValue(3)
    c.cols.setValue(30)
    c.start.setText("28,2")                   # col,row is accepted and shown by its letters
    c.start.editingFinished.emit()
    qtbot.wait(10)
    window._square_clicked(Board(3, 30).parse("ab2"), False)
    assert c.start.text() == "ab2"
    assert "ab2" in window.statusBar().currentMessage()
    window._hovered(Board(3, 30).parse("ad3"))
    assert window.hover_label.text().startswith("ad3")
    with qtbot.waitSignal(window.worker.tourSolved, timeout=120_000):
        window.solve()
    wait_until(qtbot, lambda: not window.results.running)
    assert window.view.path[0] == Board(3, 30).parse("ab2")


def test_the_counter_names_the_shown_tour(window):
    from knightgui_core.board.canonical import canonical_id, symmetry_maps
    t = some_tour(6, 6)
    window.show_tour(t)
    text = window.counter.identity.text()
    assert text.startswith(canonical_id(t.board, t.path)) and text.startswith("O6x6-")
    turned = Tour(t.board, symmetry_maps(6, 6)[5][t.path].astype(np.int32), False, {})
    window.show_tour(turned)
    assert window.counter.identity.text() == text          # the same tour, turned 90°
    window.show_tour(Walk(board=Board(7, 7), path=t.path[:5] % 49, message="stuck"))
    assert window.counter.identity.text() == "—"


def test_settings_that_cannot_be_written_say_so_in_one_line(qtbot, dialogs, tmp_path, caplog):
    from knightgui import settings
    from knightgui.window.main import MainWindow
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the settings folder should be")
    use_settings_folder(str(blocker / "deeper"))
    w = MainWindow(restore_settings=False)
    qtbot.addWidget(w)
    with pytest.raises(settings.SettingsError, match="could not write the settings to .*"
                       "not-a-folder"):
        settings.save(w)
    with caplog.at_level("WARNING", logger="knightgui.window"):
        w.close()                       # logs one line, closes all the same
    lines = [r for r in caplog.records if "could not write the settings" in r.getMessage()]
    assert len(lines) == 1 and lines[0].exc_info is None
    assert not w.isVisible() and not w.worker.isRunning()
    assert not [d for d in dialogs if d[0] == "Unexpected error"]
