"""Every-tour mode with a board symmetry (issue 38, item 1): the symmetric tours listed and
stepped through, the centre or axis drawn, the reason shown when there are none."""
from __future__ import annotations

from knightgui_core.board.squares import Board
from knightgui_core.tietree.alltours.symmetric_tours import is_symmetric

from gui_helpers import open_exhaustive, wait_until


def _every(window, size: int, symmetry: str, closed: bool) -> None:
    open_exhaustive(window, size, "a1")
    c = window.controls
    c.all_tours.setChecked(True)
    c.closed.setChecked(closed)
    c.symmetry.setCurrentIndex(c.symmetry.findData(symmetry))
    assert c.model.settings.symmetry == symmetry


def test_half_turn_closed_tours_of_6x6_are_listed_and_stepped(window, qtbot):
    _every(window, 6, "half-turn", True)
    assert window.view.symmetry_item.name == "half-turn"
    assert not window.controls.symmetry.isHidden()
    window.solve()
    wait_until(qtbot, lambda: not window.results.running, timeout=60)
    r = window.results
    assert r.exhausted and r.found == len(r.store) == 78
    board = Board(6, 6)
    for i in (0, 40, 77):
        assert r.show_solution(i)
        path = [int(x) for x in window.view.path]
        assert sorted(path) == list(range(36))
        assert is_symmetric(board, path, "half-turn", True)
    assert "the half-turn maps onto itself" in window.matrix.caption.text()


def test_the_axis_follows_the_symmetry_and_leaves_with_every_tour(window, qtbot):
    _every(window, 6, "mirror-rows", False)
    item = window.view.symmetry_item
    assert item.name == "mirror-rows" and len(item.segments()) == 1
    seg = item.segments()[0]
    assert (seg.y1(), seg.y2()) == (3.0, 3.0)            # between the third and fourth rows
    window.controls.all_tours.setChecked(False)
    assert item.name == "" and window.controls.symmetry.isHidden()


def test_a_symmetry_with_no_tour_says_why(window, qtbot):
    _every(window, 6, "diagonal", True)
    window.solve()
    wait_until(qtbot, lambda: "fixes 6 squares" in window.statusBar().currentMessage(),
               timeout=30)


def test_over_36_squares_the_tours_are_counted_not_listed(window, qtbot):
    _every(window, 7, "half-turn", False)
    window.solve()
    wait_until(qtbot, lambda: not window.results.running, timeout=60)
    r = window.results
    assert r.exhausted and r.found == 220_016 and len(r.store) == 0


def test_a_long_symmetric_count_stops_when_cancelled(window, qtbot):
    """8×8 under the half turn counts for tens of seconds, a budget of states at a time:
    Cancel ends it between two budgets."""
    import time
    _every(window, 8, "half-turn", True)
    window.solve()
    wait_until(qtbot, lambda: window.worker.busy_gen > 0 and window.results.running, timeout=60)
    qtbot.wait(300)
    t0 = time.perf_counter()
    window.controls.cancel_btn.click()
    wait_until(qtbot, lambda: not window.results.running, timeout=20)
    assert time.perf_counter() - t0 < 10
    assert window.results.found < 2_432_932


def test_watch_is_off_for_every_tour_and_solve_lists_the_symmetric_tours(window, qtbot):
    a = window.act
    open_exhaustive(window, 6, "d4")
    a.watch.setChecked(True)                     # Watch on for Phadke's enumeration
    assert a.watch.isEnabled()
    _every(window, 6, "half-turn", True)
    assert not a.watch.isEnabled() and not a.watch_speed.isEnabled()
    window.solve()                               # the symmetric listing, not a watched search
    assert not window.watcher.active
    wait_until(qtbot, lambda: window.results.exhausted, timeout=60)
    r = window.results
    assert r.found == len(r.store) == 78 and window.watcher.request is None
    assert r.show_solution(0)
    assert is_symmetric(Board(6, 6), [int(x) for x in window.view.path], "half-turn", True)
    window.controls.all_tours.setChecked(False)
    assert a.watch.isEnabled()
