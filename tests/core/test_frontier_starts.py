"""The frontier's paths from one start square against the visited-set counter's.

The frontier forces the start to be an end of the path (``count_frontier(end_at=cell)``);
the visited-set counter walks from it (``all_tours_task``). Both count the directed paths
that start there, so summed over every start they give twice the undirected paths.
"""
from __future__ import annotations

import pytest

from knightgui_core.board.squares import Board
from knightgui_core.frontier.count import FrontierError, count_frontier
from knightgui_core.studies import tour_methods
from knightgui_core.studies.all_tours import all_tours_task
from knightgui_core.studies.tour_methods import (
    choose_method,
    memory_estimate,
    run_frontier,
    run_frontier_starts,
    start_cell,
)


def _visited(rows: int, cols: int, squares: list[tuple[int, int]]) -> list[int]:
    b = Board(rows, cols)
    return [all_tours_task(rows, cols, b.name(b.index(c, r)))["tours"] for c, r in squares]


def _some(rows: int, cols: int) -> list[tuple[int, int]]:
    """Two corners, the centre (or a square next to it) and an edge square."""
    return [(0, 0), (cols - 1, rows - 1), (cols // 2, rows // 2), (1, 0), (cols - 1, 1)]


@pytest.mark.parametrize("rows, cols", [(5, 5), (5, 6), (4, 6), (3, 7), (6, 5), (7, 3)])
def test_paths_from_a_start_equal_the_visited_set_counter(rows, cols):
    squares = _some(rows, cols)
    got, _ = run_frontier_starts(rows, cols, squares)
    assert got == _visited(rows, cols, squares)
    assert any(got)                      # the boards have paths from some of these starts


@pytest.mark.slow
@pytest.mark.timeout(900)       # three open 6×6 passes: 45 s of wall time at load 7
def test_six_by_six_corner_and_centre():
    squares = [(0, 0), (2, 2), (3, 2)]
    got, cycles = run_frontier_starts(6, 6, squares)
    assert got == _visited(6, 6, squares)
    assert cycles == 9862                # A175881: closed tours of 6×6
    assert got[1] == got[2]              # (2, 2) and (3, 2) are mirror images


@pytest.mark.parametrize("rows, cols, undirected", [(5, 5, 864), (4, 6, 744), (3, 4, 8)])
def test_every_start_sums_to_twice_the_undirected_paths(rows, cols, undirected):
    # A083386 (5×5), A079137 (4×6), A169696 (3×4)
    squares = [(c, r) for r in range(rows) for c in range(cols)]
    got, _ = run_frontier_starts(rows, cols, squares)
    whole = count_frontier(min(rows, cols), [max(rows, cols)]).boards[0].paths
    assert sum(got) == 2 * whole == 2 * undirected


def test_every_start_of_three_by_seven_against_the_visited_set_counter():
    squares = [(c, r) for r in range(3) for c in range(7)]
    got, cycles = run_frontier_starts(3, 7, squares)
    assert got == _visited(3, 7, squares)
    assert sum(got) == 2 * count_frontier(3, [7]).boards[0].paths > 0
    assert cycles == 0                   # an odd board has no closed tour


def test_each_cell_unfolded_matches_its_mirror():
    # no symmetry folding here: the cell itself is forced, on both halves of 4×5
    per = [count_frontier(4, [5], end_at=i).boards[0].paths for i in range(20)]
    assert per == [per[(4 - i // 4) * 4 + 3 - i % 4] for i in range(20)]
    assert sum(per) == 2 * 82            # A079137: 82 undirected paths on 4×5


def test_start_cell_reads_the_short_side_as_the_column():
    assert start_cell(5, 8, 3, 2) == 3 * 5 + 2
    assert start_cell(8, 5, 2, 3) == 3 * 5 + 2
    with pytest.raises(FrontierError):
        start_cell(5, 8, 8, 0)


def test_a_start_goes_where_the_whole_count_goes():
    assert choose_method(8, 9, "auto", per_start=True)[0] == "frontier"
    assert choose_method(8, 8, "frontier", per_start=True)[0] == "frontier"
    assert choose_method(4, 10, "auto", per_start=True)[0] == "frontier"
    with pytest.raises(FrontierError, match="at most 12"):
        choose_method(13, 13, "frontier", per_start=True)
    with pytest.raises(FrontierError):
        count_frontier(5, [5], end_at=25)
    with pytest.raises(FrontierError):
        count_frontier(5, [5], end_at=0, closed_only=True)


def test_the_memory_estimate_of_a_start_is_not_folded(monkeypatch, tmp_path):
    """A count from one start (``end_at``) keeps a state and its mirror image apart, so its
    tables are estimated from the unfolded states: above the folded estimate, and a budget
    between the two sends only the per-start count to the slices on disk."""
    for rows, cols, closed in ((5, 8, False), (6, 9, False), (5, 10, True)):
        whole = memory_estimate(rows, cols, closed)
        one = memory_estimate(rows, cols, closed, per_start=True)
        assert whole is not None and one is not None and one > whole * 1.3
    budget = (memory_estimate(5, 6, False) + memory_estimate(5, 6, False, per_start=True)) // 2
    spilled: list[int | None] = []

    def to_disk(rows, cols, **kw):
        spilled.append(kw["end_at"])
        return count_frontier(rows, cols, end_at=kw["end_at"])

    monkeypatch.setattr(tour_methods, "_spilled", to_disk)
    whole = run_frontier(5, [6], memory_limit=budget, spill=str(tmp_path))
    assert spilled == [] and whole.boards[0].paths == 18_784
    one = run_frontier(5, [6], memory_limit=budget, spill=str(tmp_path), end_at=0)
    assert spilled == [0] and one.boards[0].paths == count_frontier(5, [6], end_at=0).boards[0].paths
