"""Watch the search (issue 27 item 3): the exhaustive search played on the board, paused,
stepped, stopped at once, and handed to the solver thread at full speed with the same
results."""
from __future__ import annotations

import numpy as np

from knightgui_core.tietree.enumeration.enumerator import Enumerator

from gui_helpers import open_exhaustive, wait_until


def _exhaustive(window, size=6, start="a1"):
    open_exhaustive(window, size, start)


def test_watch_plays_the_search_and_counts_what_the_engine_counts(window, qtbot):
    _exhaustive(window)
    ref = Enumerator(6, 6, start="a1")
    ref.count()
    window.act.watch.setChecked(True)
    window.act.watch_speed.setValue(0)             # as fast as painting allows
    ended = []
    window.watcher.finished.connect(lambda *a: ended.append(a))
    window.solve()
    assert window.watcher.active and window.act.cancel.isEnabled()
    assert not window.results.running              # the solver thread is not used
    wait_until(qtbot, lambda: bool(ended), timeout=60)
    assert ended[0] == (ref.solutions, ref.dead_ends, ref.forward_moves)
    assert window.counter.values["total"] == ref.solutions
    assert not window.watcher.active and window.watcher.frames >= 1


def test_the_path_grows_backs_up_and_marks_the_ties(window, qtbot):
    _exhaustive(window, 8, "a8")
    window.act.watch.setChecked(True)
    window.act.watch_speed.setValue(2000)
    window.solve()
    wait_until(qtbot, lambda: window.watcher.last is not None
               and window.watcher.last.forward_moves > 300, timeout=30)
    window.act.watch_pause.trigger()              # pause
    assert window.watcher.paused
    moves = window.watcher.last.forward_moves
    qtbot.wait(100)
    assert window.watcher.last.forward_moves == moves          # paused: nothing moves
    for _ in range(5):
        window.act.watch_step.trigger()
    step = window.watcher.last
    assert step.forward_moves == moves + 5
    path = window.view.path
    assert len(path) == step.number and path[-1] == step.square
    b = window.controls.board()
    assert all(b.is_knight_move(int(a), int(c)) for a, c in zip(path, path[1:]))
    window.cancel()                                # stops at once
    assert not window.watcher.active and window.act.watch.isChecked()


def test_watch_off_finishes_at_full_speed_with_the_same_solutions(window, qtbot):
    _exhaustive(window)
    window.act.watch.setChecked(True)
    window.act.watch_speed.setValue(50)
    window.solve()
    qtbot.wait(100)
    assert window.watcher.active
    window.act.watch.trigger()                     # off: the solver thread takes over
    assert not window.watcher.active
    wait_until(qtbot, lambda: not window.results.running, timeout=60)
    want = [s.path for s in Enumerator(6, 6, start="a1").first(1000)]
    r = window.results
    assert r.exhausted and len(r.store) == len(want) == r.found
    for i in (0, len(want) // 2, len(want) - 1):
        np.testing.assert_array_equal(r.store.path(i), want[i])


def test_changing_the_board_stops_the_watch(window, qtbot):
    _exhaustive(window)
    window.act.watch.setChecked(True)
    window.act.watch_speed.setValue(10)
    window.solve()
    assert window.watcher.active
    window.controls.rows.setValue(7)
    assert not window.watcher.active


def test_a_closed_search_with_dead_ends_plays_on_and_says_so(window, qtbot):
    c = window.controls
    c.mode.setCurrentIndex(c.mode.findData("exhaustive"))
    c.closed.setChecked(True)
    c.start.setText("a8")
    c.start.editingFinished.emit()                 # a8→c7: dead ends come early
    window.act.watch.setChecked(True)
    window.act.watch_speed.setValue(5000)
    messages = []
    window.watcher.status.connect(messages.append)
    window.solve()
    wait_until(qtbot, lambda: window.watcher.last is not None
               and window.watcher.last.dead_ends >= 2 and window.watcher.last.solutions >= 5,
               timeout=30)
    assert window.watcher.active
    assert any(m.startswith("Dead end") for m in messages)
    assert not any(m.startswith("Watch stopped") for m in messages)
    window.cancel()


def _backtracking(window, n=8, topology="plane", leaper="2,3"):
    c = window.controls
    c.model.update(mode="single", method="backtrack", rows=n, start="a1", topology=topology,
                   leaper=leaper, closed=False)


def test_watch_plays_the_backtracking_walk_to_the_tour_the_solver_finds(window, qtbot):
    from knightgui_core.walks.solve import solve
    _backtracking(window, 6, "torus", "2,3")
    window.act.watch.setChecked(True)
    window.act.watch_speed.setValue(0)
    ended = []
    window.watcher.finished.connect(lambda *a: ended.append(a))
    window.solve()
    assert window.watcher.active and not window.results.running
    wait_until(qtbot, lambda: bool(ended), timeout=60)
    ref = solve(6, 6, start="a1", method="backtrack", topology="torus", leaper=(2, 3))
    assert ended[0][0] == int(ref.ok) and ended[0][2] == ref.nodes
    assert window.view.path.tolist() == ref.path.tolist()
    assert "Watched to the end" in window.statusBar().currentMessage()


def test_a_watched_backtracking_walk_backs_up_and_hands_over_at_full_speed(window, qtbot):
    _backtracking(window, 8)                      # the zebra on 8×8: many dead ends
    window.act.watch.setChecked(True)
    window.act.watch_speed.setValue(5000)
    window.solve()
    wait_until(qtbot, lambda: window.watcher.last is not None
               and window.watcher.last.dead_ends > 3, timeout=30)
    step = window.watcher.last
    path = window.view.path
    assert len(path) == step.number
    b = window.controls.board()
    assert all(b.is_knight_move(int(a), int(c)) for a, c in zip(path, path[1:]))
    assert "no options matrix" in window.matrix.caption.text()
    window.act.watch.trigger()                    # off: the same search on the solver thread
    assert not window.watcher.active
    wait_until(qtbot, lambda: not window.results.running, timeout=120)
    from knightgui_core.walks.solve import solve
    ref = solve(8, 8, start="a1", method="backtrack", leaper=(2, 3))
    assert window.view.path.tolist() == ref.path.tolist()


def test_a_paused_watch_says_so_stops_its_clocks_and_captions_the_shown_move(
        window, qtbot, monkeypatch):
    """Issue 35: paused at move 45, the options matrix's caption said move 64 (the matrix is
    redrawn ten times a second, the board every frame); "Watching…" and Elapsed ran on."""
    from knightgui.window import watch_player
    monkeypatch.setattr(watch_player, "MATRIX_EVERY", 5.0)    # one redraw, then when it must
    _exhaustive(window, 8, "a8")
    window.act.watch.setChecked(True)
    window.act.watch_speed.setValue(2000)
    window.solve()
    wait_until(qtbot, lambda: window.watcher.last is not None
               and window.watcher.last.forward_moves > 300, timeout=30)
    window.act.watch_pause.trigger()
    caption = window.matrix.caption.text
    assert window.watcher.paused
    assert caption().startswith(f"Watching: move {len(window.view.path):,},")
    state = window.counter.state.text()
    assert state.startswith(f"Paused at move {len(window.view.path):,}")
    assert window.timing.labels["status"].text() == "paused"
    elapsed = window.timing.labels["elapsed"].text()
    qtbot.wait(400)
    assert window.timing.labels["elapsed"].text() == elapsed        # the clock stopped
    for _ in range(3):
        window.act.watch_step.trigger()
        n = len(window.view.path)
        assert caption().startswith(f"Watching: move {n:,},")
        assert window.counter.state.text().startswith(f"Paused at move {n:,}")
    window.act.watch_pause.trigger()                                 # go on
    assert not window.watcher.paused and window.timing.running
    wait_until(qtbot, lambda: window.timing.labels["elapsed"].text() != elapsed, timeout=5)
    assert not window.counter.state.text().startswith("Paused")
    window.cancel()


def test_watching_shows_no_tour_id(window, qtbot):
    from gui_helpers import some_tour
    window.show_tour(some_tour(6, 6))
    assert window.counter.identity.text().startswith("O6x6-")
    _exhaustive(window)
    window.act.watch.setChecked(True)
    window.act.watch_speed.setValue(10)
    window.solve()
    assert window.watcher.active
    assert window.counter.identity.text() == "—"    # the board shows the search, no tour
    window.cancel()
