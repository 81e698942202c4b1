"""Play mode in the window: moves, refusal, undo/redo, click-back, hint, a lost
position, "Can it be finished?" on the solver thread (the GUI thread stays live), "Finish
it", save/open, a restart, the torus and the zebra."""
from __future__ import annotations

import json
import time

from PySide6.QtCore import QTimer

from knightgui.play.view import END, LOST, TIE
from knightgui.window.main import MainWindow
from knightgui_core.board.squares import Board

from gui_helpers import wait_until


def _play(window, rows=8, cols=8, **kw):
    window.controls.model.update(rows=rows, cols=cols, square=rows == cols, **kw)
    window.controls.model.update(mode="play")
    assert window.play.active and window.controls.play_box.isVisible()
    return window.play


def _click(window, *names):
    b = window.play.model.board
    for n in names:
        window.view.squareClicked.emit(b.parse(n), False)


def _status(window) -> str:
    return window.statusBar().currentMessage()


def test_play_mode_from_the_shortcut_and_the_mode_box(window, qtbot):
    c = window.controls
    assert not c.play_box.isVisible() and not window.play.active
    window.play.act_mode.trigger()                       # Ctrl+P
    assert c.model.settings.mode == "play" and c.play_box.isVisible()
    assert c.mode.currentData() == "play" and c.rules_box.isVisible()
    window.play.act_mode.trigger()
    assert c.model.settings.mode == "single" and not c.play_box.isVisible()
    assert window.play.act_mode.shortcut().toString() == "Ctrl+P"


def test_moves_are_numbered_and_legal_squares_carry_onward_counts(window):
    p = _play(window)
    _click(window, "a1")
    assert p.model.path == (0,) and window.controls.model.settings.start == "a1"
    _click(window, "c2")
    b = p.model.board
    assert window.view.move_number(b.parse("c2")) == 2
    rings = {(col, row): o for col, row, o, _c, _n in window.view.candidates._items}
    e1 = b.parse("e1")
    assert rings[(e1 % 8, e1 // 8)] == 3 and len(rings) == len(p.model.legal())
    assert "Move 2: c2" in _status(window)


def test_a_non_move_is_refused_in_the_status_bar(window, dialogs):
    p = _play(window)
    _click(window, "a1", "b3", "d3")
    assert p.model.path == tuple(Board(8, 8).parse(s) for s in ("a1", "b3"))
    assert _status(window).startswith("Refused: b3 to d3 is not a move of the knight")
    assert dialogs == []


def test_undo_redo_and_click_back(window):
    p = _play(window)
    _click(window, "a1", "b3", "c5", "d7")
    p.act_undo.trigger()
    p.act_undo.trigger()
    assert len(p.model.path) == 2 and window.controls.play_box.redo_btn.isEnabled()
    p.act_redo.trigger()
    assert len(p.model.path) == 3 and window.view.move_number(p.model.path[-1]) == 3
    _click(window, "a1")                                 # back to the start
    assert p.model.path == (0,) and len(p.model.redo_squares) == 3
    assert window.view.move_number(Board(8, 8).parse("b3")) == 0
    assert p.act_undo.shortcut().toString() == "Ctrl+Z"
    assert p.act_redo.shortcut().toString() == "Ctrl+Shift+Z"


def test_the_hint_names_the_rules_choice_and_its_ties(window):
    window.controls.model.update(tie="first")
    p = _play(window)
    _click(window, "a1")
    p.act_hint.trigger()
    b = p.model.board
    assert _status(window).startswith("Hint: b3 (5 onward moves); c2 ties with it")
    chosen = [(col, row) for col, row, _o, ch, _n in window.view.candidates._items if ch]
    assert chosen == [(b.parse("b3") % 8, b.parse("b3") // 8)]
    c2 = b.parse("c2")
    assert (c2 % 8, c2 // 8, TIE) in p.overlay.marks.marks()
    _click(window, "c2")                                 # a move clears the hint
    assert not p.model.hint_shown and not any(k == TIE for *_x, k in p.overlay.marks.marks())


def test_a_lost_position_is_marked(window):
    p = _play(window)
    _click(window, "c2", "a3", "b1", "d2", "b3", "d4")   # a1 can no longer be reached
    a1 = (0, 0, LOST)
    assert a1 in p.overlay.marks.marks()
    assert "lost: a1 can no longer be reached" in window.controls.play_box.info.text()
    p.new()
    _click(window, "c2", "d4", "f5", "d6", "f7", "e5")   # a1 and h8 can only be last
    kinds = {(c, r): k for c, r, k in p.overlay.marks.marks()}
    assert kinds[(0, 0)] == END and kinds[(7, 7)] == END


def test_can_it_be_finished_runs_on_the_thread_and_draws_a_finish(window, qtbot):
    p = _play(window, 6, 6)
    _click(window, "a1", "b3", "c5")
    p.act_ask.trigger()
    wait_until(qtbot, lambda: p.model.answer is not None, timeout=30)
    a = p.model.answer
    assert a.extendable and a.counted and a.open > 0
    assert f"{a.open:,} ways to finish, {a.closed:,} of them closed" in _status(window)
    assert p.overlay.finish_shown == a.example and len(a.example) == 33
    p.act_undo.trigger()                                  # a move drops the answer
    assert p.model.answer is None and p.overlay.finish_shown == ()
    p.new()
    _click(window, "c2", "a3", "b1", "d2", "b3", "d4")
    p.act_ask.trigger()
    wait_until(qtbot, lambda: p.model.answer is not None, timeout=30)
    assert _status(window).startswith("No finish exists")


def test_the_gui_thread_stays_live_while_a_count_runs_and_a_move_cancels_it(window, qtbot):
    """The count runs on the worker thread with the GIL released: the GUI thread keeps
    ticking. The kernel is loaded first by a count that ends at once (loading a cached
    kernel holds the GIL, as the app's warm-up thread does at start)."""
    import knightgui_core as kg
    from knightgui_core.walks.hand.completions import completions
    board = kg.Board(8, 8)
    tour = kg.solve(board).tour
    assert completions(board, list(tour.path[:52]), 30).counted    # 12 free: loads the kernel
    p = _play(window, 8, 8)
    _click(window, "a1")
    window.controls.play_box.budget.setValue(30)
    ticks: list[float] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start(10)
    p.act_ask.trigger()                                  # 63 free squares: not done soon
    assert window.worker.isRunning() and window.act.cancel.isEnabled()
    qtbot.wait(400)             # the count under way (a first start may still load kernels)
    ticks.clear()
    qtbot.wait(600)
    assert p.model.answer is None, "the count of 63 free squares finished at once?"
    assert len(ticks) >= 20, f"the GUI thread ticked {len(ticks)} times in 0.6 s"
    assert max(b - a for a, b in zip(ticks, ticks[1:])) < 1.0    # 2 cores, loaded
    t0 = time.perf_counter()
    _click(window, "b3")                                 # the next move cancels the count
    assert not window.act.cancel.isEnabled()
    wait_until(qtbot, lambda: window.worker.busy_gen == 0, timeout=5)
    assert time.perf_counter() - t0 < 2.0
    timer.stop()
    assert p.model.answer is None and len(p.model.path) == 2


def test_finish_it_appends_the_rules_closed_finish_and_undo_walks_back(window, qtbot):
    window.controls.model.update(closed=True)
    p = _play(window, 8, 8)
    _click(window, "a1", "b3")
    window.solve()                                       # Solve (Ctrl+R) finishes in play
    wait_until(qtbot, lambda: p.model.finished, timeout=60)
    assert p.model.closed and "finished the closed tour in 62 moves" in _status(window)
    assert window.controls.play_box.info.text().startswith("A closed tour of the 8×8 board")
    p.act_undo.trigger()
    assert len(p.model.path) == 63 and p.model.redo_squares


def test_a_tour_made_by_hand_is_recognised(window):
    from knightgui_core.walks.solve import solve
    p = _play(window, 5, 5)
    res = solve(5, 5, start=0)
    b = Board(5, 5)
    _click(window, *(b.name(int(s)) for s in res.path))
    assert p.model.finished and not p.model.closed
    assert _status(window).startswith("An open tour of the 5×5 board — 25 squares in")


def test_save_and_open_a_position(window, qtbot, tmp_path):
    p = _play(window, 6, 6)
    _click(window, "a1", "b3", "c5")
    p.act_undo.trigger()
    name = tmp_path / "pos.json"
    assert p.files.save_file(filename=str(name))
    d = json.loads(name.read_text())
    assert d["partial"] is True and d["path"] == [[0, 0], [1, 2]] and d["redo"] == [[2, 4]]
    p.new()
    window.controls.model.update(mode="single", rows=8)
    assert p.files.open_file(filename=str(name))
    assert p.active and p.model.path == (0, Board(6, 6).parse("b3"))
    assert window.controls.model.settings.rows == 6 and p.model.redo_squares
    assert "play on" in _status(window)


def test_the_position_survives_a_restart(qtbot, dialogs):
    w = MainWindow(restore_settings=True)
    qtbot.addWidget(w)
    w.show()
    _play(w, 6, 6)
    _click(w, "a1", "b3", "c5")
    w.close()
    w2 = MainWindow(restore_settings=True)
    qtbot.addWidget(w2)
    assert w2.play.active and len(w2.play.model.path) == 3
    wait_until(qtbot, lambda: w2.view.move_number(Board(6, 6).parse("c5")) == 3, timeout=5)
    w2.close()


def test_torus_and_zebra(window, qtbot):
    p = _play(window, 10, 10, topology="torus", leaper="2,3")
    b = p.model.board
    assert b.topology == "torus" and b.leaper == (2, 3)
    _click(window, "a1")
    legal = dict(p.model.legal())
    assert len(legal) == 8                           # a zebra on a torus: 8 moves anywhere
    far = next(s for s in legal if abs(s % 10 - 0) > 3 or abs(s // 10) > 3)
    window.view.squareClicked.emit(far, False)        # across the wrapping edge
    assert p.model.path[-1] == far
    bad = next(s for s in range(100) if s not in p.model.path
               and s not in dict(p.model.legal()))
    window.view.squareClicked.emit(bad, False)
    assert "not a move of the zebra (2,3) on this torus" in _status(window)
    assert len(p.model.path) == 2
    p.act_finish.trigger()
    wait_until(qtbot, lambda: p.model.finished, timeout=60)
    assert len(set(p.model.path)) == 100


def test_the_controls_fit_the_default_window_in_play_mode(window, qtbot):
    window.controls.model.update(mode="play", closed=True)
    window.resize(1280, 820)
    wait_until(qtbot, lambda: (window.width(), window.height()) == (1280, 820), timeout=5)
    qtbot.wait(60)
    from PySide6.QtWidgets import QScrollArea
    areas = window.controls_dock.findChildren(QScrollArea)
    assert areas
    for a in areas:
        assert not a.verticalScrollBar().isVisible(), "play mode scrolls at 1280×820"
        assert not a.horizontalScrollBar().isVisible()
    g = window.controls.play_box
    for w in (g.undo_btn, g.redo_btn, g.hint_btn, g.ask_btn, g.finish_btn, g.budget,
              window.controls.solve_btn):
        assert w.isVisible() and w.visibleRegion().boundingRect().size() == w.size()


def test_a_count_past_its_budget_says_so_honestly(window, qtbot):
    p = _play(window, 8, 8)
    _click(window, "a1")
    window.controls.play_box.budget.setValue(1)
    p.act_ask.trigger()
    wait_until(qtbot, lambda: p.model.answer is not None, timeout=30)
    a = p.model.answer
    assert a.extendable and not a.counted and a.example
    assert _status(window).startswith("Can still be finished: how many ways is unknown "
                                      "within the 1 s budget (")


def test_on_a_big_board_the_verdict_comes_from_the_solver_thread(window, qtbot):
    from knightgui.play.model import LIVE_VERDICT_MAX
    p = _play(window, 600, 600)
    assert p.model.board.size > LIVE_VERDICT_MAX and p.model.verdict_elsewhere
    _click(window, "c2", "a3", "b1", "d2", "b3", "d4")
    assert "checking the position" in window.controls.play_box.info.text()
    wait_until(qtbot, lambda: p.model.verdict is not None, timeout=60)
    assert p.model.verdict.lost and (0, 0, LOST) in p.overlay.marks.marks()
    p.act_hint.trigger()                                 # hints work up to 1,000,000 squares
    assert _status(window).startswith("Hint: ")
    p.act_ask.trigger()                                  # counts: 10,000 squares at most
    wait_until(qtbot, lambda: "Refused: counting finishes takes boards of at most 10,000"
               in _status(window), timeout=30)


def test_the_run_docks_say_play_mode_not_stale(window):
    _play(window, 6, 6)
    _click(window, "a1")                                 # the start changes: still play words
    texts = [window.matrix.caption.text(), window.timing.labels["status"].text(),
             window.counter.state.text()]
    assert texts[0].startswith("Play mode: a tour by hand") and texts[1] == "play mode"
    assert "Play group" in texts[2] and len(set(texts)) == 3    # no sentence said twice
    assert not any("stale" in t.lower() for t in texts)
