"""Every label true in the window a newcomer meets (issue 35): the End field, the Tour id,
the single tour's caption, a walk from the Analysis view."""
from __future__ import annotations

import numpy as np

from knightgui_core.board.squares import Board
from knightgui_core.board.tour import Tour
from knightgui_core.walks.result import Walk
from knightgui_core.walks.solve import solve

from gui_helpers import some_tour, wait_until

_GREEN = "#1f6f2f"


def _single(window, qtbot, **values) -> None:
    window.controls.model.update(mode="single", **values)
    with qtbot.waitSignal(window.worker.tourSolved, timeout=120_000):
        window.solve()
    wait_until(qtbot, lambda: not window.results.running)


def test_the_end_field_shows_no_end_the_tour_does_not_have(window, qtbot):
    """A single closed zebra tour ended on another square than the greyed End field's c7;
    the field now says nothing it does not mean, and a closed tour shown from elsewhere
    puts its own start and end in the controls."""
    _single(window, qtbot, rows=10, cols=10, leaper="2,3", closed=True, start="e5")
    tour = window.results.tour
    b = Board(10, 10, "plane", (2, 3))
    assert tour is not None and tour.closed and b.name(int(tour.path[-1])) == "h3"
    end = window.controls.end
    assert not end.isVisibleTo(window) or end.currentText() == b.name(int(tour.path[-1]))
    res = solve(8, 8, start="c3", closed=True)
    assert res.ok
    window.controls.model.update(mode="exhaustive", rows=8, cols=8, leaper="1,2",
                                 closed=True, start="a8")
    window.show_tour(res.tour)
    b8 = Board(8, 8)
    assert window.controls.start.text() == "c3"
    assert end.isVisibleTo(window) and end.currentText() == b8.name(int(res.path[-1]))


def test_the_tour_id_leaves_with_its_board_and_fits_its_dock(window, qtbot):
    _single(window, qtbot, rows=10, cols=10, closed=False, start="a1")
    ident = window.counter.identity
    assert ident.text().startswith("O10x10-")
    window.controls.rows.setValue(8)                   # another board: no id of the old one
    assert ident.text() == "—"
    # at the window's size, three lines of id (the last one long) and a wrapped state line
    # are all shown, and the id does not widen the dock (the board would shrink)
    width = window.counter_dock.width()
    t = some_tour(8, 8)
    window.counter.show_identity(Tour(t.board, t.path, False, {
        "same_as": "solution 10,428 reflected in the other diagonal"}))
    window.counter.set_counts(137_300, 137_300, None, False, 137_300,
                              state="Cancelled after 137,300 solutions (Solve: start again)")
    qtbot.wait(100)
    for lab in (ident, window.counter.state):
        assert lab.height() >= lab.heightForWidth(lab.width()), lab.text()
        assert lab.geometry().bottom() < window.counter.height()
    assert window.counter_dock.width() == width


def test_a_tour_closed_by_path_reversals_says_so(window, qtbot):
    """The rule's walk from a8 does not close; path reversals close it. The caption said
    "0 ties broken by 'phadke'" (the reversed tour keeps no ties)."""
    _single(window, qtbot, rows=8, cols=8, closed=True, start="a8")
    ref = solve(8, 8, start="a8", closed=True)
    n = ref.info["reversals"]
    assert n > 0 and ref.method.startswith("warnsdorff greedy + rotations")
    caption = window.matrix.caption.text()
    assert f"closed by {n:,} path reversal" in caption and "ties broken" not in caption
    lab = window.matrix.caption                         # its two lines hold it
    assert lab.heightForWidth(lab.width()) <= lab.height()
    assert f"closed by {n:,} path reversal" in window.statusBar().currentMessage()
    _single(window, qtbot, closed=False)                # the rule's own walk: its ties
    ties = int(np.count_nonzero(solve(8, 8, start="a8").ties))
    assert f"{ties:,} ties broken by 'phadke'" in window.matrix.caption.text()


def test_a_walk_from_the_analysis_has_one_start_and_a_warning_colour(window):
    t = some_tour(8, 8)
    walk = Walk(board=Board(8, 8), path=t.path[:10], message="stuck on X")
    assert window.controls.start_square() not in (-1, int(walk.path[0]))
    window.show_tour(walk)
    kinds = [k for *_, k in window.view.markers._items]
    assert kinds.count("start") + kinds.count("want") == 1
    state = window.counter.state
    assert _GREEN not in state.styleSheet()
    assert state.text() == "incomplete walk: 10 of 64 squares"
    window.show_tour(t)                                  # a tour: green again
    assert _GREEN in state.styleSheet()
