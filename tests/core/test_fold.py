"""Folding a start's tie tree by the symmetries that keep it in place
(knightgui_core.tietree.counting.fold): counts and probabilities per start are those of the unfolded
count, on every board kind, and the folded count does less work where a start has symmetry."""
from __future__ import annotations

import numpy as np
import pytest

from knightgui_core.board.squares import Board
from knightgui_core.run.runner import RunReport
from knightgui_core.studies.count_study import CountOptions, run_count, start_tasks
from knightgui_core.tietree.counting.fold import fold, fold_roots, stabilizer
from knightgui_core.tietree.counting.subtrees import CountBoard, CountError, split


def _serial(tasks):
    rep = RunReport(total=len(tasks), computed=len(tasks))
    for t in tasks:
        rep.results[t.key] = t.fn(*t.args)
    return rep


def _same(a, b):
    assert a.per_start.keys() == b.per_start.keys()
    for sq, ra in a.per_start.items():
        rb = b.per_start[sq]
        assert (ra["tours"], ra["closed"], ra["dead_ends"]) == \
               (rb["tours"], rb["closed"], rb["dead_ends"]), sq
        assert ra["p_success"] == pytest.approx(rb["p_success"], abs=1e-12), sq
        assert ra["p_closed"] == pytest.approx(rb["p_closed"], abs=1e-12), sq


BOARDS = [(5, 5, None), (6, 6, None), (7, 7, None), (8, 8, None), (5, 6, None), (7, 5, None),
          (6, 7, None), (5, 5, Board(5, 5, "torus")), (6, 6, Board(6, 6, "cylinder")),
          (5, 7, Board(5, 7, "cylinder")), (7, 7, Board(7, 7, "plane", (1, 3))),
          (6, 6, Board(6, 6, "torus", (1, 3)))]


@pytest.mark.parametrize("rows, cols, board", BOARDS,
                         ids=[f"{r}x{c}-{b.topology if b else 'plane'}" for r, c, b in BOARDS])
def test_folded_counts_equal_the_unfolded_per_start(rows, cols, board):
    a = run_count(rows, cols, "all", runner=_serial, options=CountOptions(board=board, lengths=True))
    b = run_count(rows, cols, "all", runner=_serial,
                  options=CountOptions(board=board, lengths=True, fold=False))
    _same(a, b)
    assert a.dead_end_lengths is not None and b.dead_end_lengths is not None
    assert {k: v["paths"] for k, v in a.dead_end_lengths.items()} == \
           {k: v["paths"] for k, v in b.dead_end_lengths.items()}


def test_folded_9x9_centre_and_diagonal_with_small_budgets_equal_the_unfolded():
    """Folded tasks that split themselves carry their weight to the next rounds."""
    a = run_count(9, 9, "e5,c3", runner=_serial, options=CountOptions(budget=200_000))
    b = run_count(9, 9, "e5,c3", runner=_serial, options=CountOptions(fold=False))
    _same(a, b)
    assert a.rounds > 1 and a.tasks["total"] > 2
    assert a.forward_moves < b.forward_moves / 2     # the centre is counted once, not 8 times


def test_stabilizers_of_squares():
    b8, b9 = Board(8, 8), Board(9, 9)
    assert len(stabilizer(b9, b9.square("e5"))) == 7           # the centre: all eight
    assert len(stabilizer(b9, b9.square("c3"))) == 1           # a diagonal
    assert len(stabilizer(b9, b9.square("e2"))) == 1           # the middle column
    assert len(stabilizer(b8, b8.square("a1"))) == 1
    assert stabilizer(b8, b8.square("b1")) == []
    assert stabilizer(Board(5, 6), 0) == []                   # a rectangle's corner
    torus = Board(5, 5, "torus")
    assert all(len(stabilizer(torus, s)) == 7 for s in range(25))
    for g in stabilizer(b9, b9.square("e5")):                 # permutations fixing e5
        assert sorted(g.tolist()) == list(range(81)) and g[b9.square("e5")] == 40


def test_fold_weights_cover_the_split():
    cb = CountBoard(9, 9)
    for name in ("e5", "c3", "e2", "a1", "b1"):
        s = cb.square(name)
        least = 1 if stabilizer(cb.board, s) else 0
        for depth in (0, 1, 2, 3):
            roots = fold_roots(cb, s, depth)
            assert sum(w for _, w in roots) == len(split(cb, s, max(depth, least)))
    assert fold_roots(cb, "e5", 0) == [((1,), 8)]
    assert [w for _, w in fold_roots(cb, "c3", 0)] == [2] * len(fold_roots(cb, "c3", 0))


def test_a_map_that_is_not_a_symmetry_is_refused():
    cb = CountBoard(8, 8)
    s = cb.square("b1")
    shift = np.roll(np.arange(64), 1)           # not a symmetry of the board
    with pytest.raises(CountError, match="does not map"):
        fold(cb, s, split(cb, s, 1), [shift])


def test_start_tasks_weigh_and_unfolded_tasks_weigh_one():
    folded = start_tasks(9, 9, [40, 1])
    assert [(t.params["prefixes"], w) for t, w in folded] == [([[1]], 8), ([[]], 1)]
    plain = start_tasks(9, 9, [40], fold=False)
    assert [(t.params["prefixes"], w) for t, w in plain] == [([[]], 1)]


def test_the_tie_break_studys_exact_corner_value_is_the_whole_corners():
    from knightgui_core.studies.tiebreaks import exact_corner_success
    from knightgui_core.tietree.counting.subtrees import count_subtrees
    got = exact_corner_success([5, 6, 7, 8])
    for n, p in got.items():
        whole = count_subtrees(CountBoard(n, n), 0, [()]).p_success     # unfolded, no table
        assert p == pytest.approx(whole, abs=1e-12), n
