"""Symmetric tours counted on the quotient (core.tietree.alltours.symmetric_tours) against the list of
every tour (core.tietree.alltours.all_tours_list) filtered by the symmetry, and the quotient's own
plain lister; the impossible cases and their reasons; Knuth's 8×8 figure (slow)."""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from knightgui_core.board.squares import Board
from knightgui_core.tietree.alltours.all_tours_list import AllToursLister
from knightgui_core.tietree.alltours.symmetric_listing import SymmetricLister, symmetric_tours
from knightgui_core.tietree.alltours.symmetric_tours import (
    SYMMETRIES,
    count_plan,
    is_symmetric,
    permutation,
    plan,
)
from knightgui_core.tietree.counting.subtrees import CountError


@lru_cache(maxsize=4)
def _paths_from(rows: int, cols: int, start: int) -> np.ndarray:
    """Every directed path from ``start`` (kept: the symmetries of a board share them)."""
    lister = AllToursLister(rows, cols, start)
    parts = []
    while not lister.done:
        parts.append(lister.block(1 << 16).astype(np.int64))
    return np.concatenate(parts) if parts else np.zeros((0, rows * cols), np.int64)


def _symmetric_rows(paths: np.ndarray, perm: np.ndarray, closed: bool) -> np.ndarray:
    """Which rows' sets of moves the permutation maps onto themselves."""
    n = paths.shape[1]
    a = paths
    b = np.roll(paths, -1, axis=1) if closed else paths[:, 1:]
    if not closed:
        a = paths[:, :-1]

    def keys(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return np.sort(np.minimum(x, y) * n + np.maximum(x, y), axis=1)

    return (keys(a, b) == keys(perm[a], perm[b])).all(axis=1)


def _filtered(rows: int, cols: int, symmetry: str, closed: bool) -> int:
    """The symmetric undirected tours by filtering every listed tour."""
    board = Board(rows, cols)
    perm = permutation(symmetry, rows, cols)
    if closed:                       # every closed tour passes a1: twice, one each way
        p = _paths_from(rows, cols, 0)
        nbr = board.neighbours
        shut = (nbr[p[:, -1]] == p[:, :1]).any(axis=1) if len(p) else np.zeros(0, bool)
        got = int(_symmetric_rows(p[shut], perm, True).sum())
        assert got % 2 == 0
        return got // 2
    got = sum(int(_symmetric_rows(_paths_from(rows, cols, s), perm, False).sum())
              for s in range(board.size))
    assert got % 2 == 0
    return got // 2


def _cases(boards: list[tuple[int, int]]) -> list[tuple[int, int, str, bool]]:
    return [(r, c, s, closed) for r, c in boards for s in SYMMETRIES for closed in (False, True)
            if r == c or s not in ("quarter-turn", "diagonal")]


@pytest.mark.parametrize("rows,cols,symmetry,closed",
                         _cases([(3, 4), (4, 3), (3, 7), (3, 10), (4, 5), (4, 7), (5, 5),
                                 (5, 6)])
                         + [(6, 6, s, True) for s in SYMMETRIES])
def test_quotient_count_equals_filtering_every_tour(rows, cols, symmetry, closed):
    p = plan(Board(rows, cols), symmetry, closed)
    want = _filtered(rows, cols, symmetry, closed)
    assert count_plan(p) == want
    listed = list(symmetric_tours(p))
    assert len(listed) == want
    board = Board(rows, cols)
    seen = set()
    for t in listed:
        assert sorted(t) == list(range(board.size))
        assert all(board.is_knight_move(a, b) for a, b in zip(t, t[1:]))
        if closed:
            assert board.is_knight_move(t[-1], t[0])
        assert is_symmetric(board, t, symmetry, closed)
        pairs = list(zip(t, t[1:])) + ([(t[-1], t[0])] if closed else [])
        seen.add(frozenset(frozenset(e) for e in pairs))
    assert len(seen) == len(listed)                  # each tour once


def test_counts_that_are_not_zero_are_tested_above():
    """The cases above are not all empty: the reflected, turned and reversed kinds occur."""
    assert count_plan(plan(Board(3, 10), "half-turn", True)) == 4
    assert count_plan(plan(Board(3, 10), "mirror-cols", True)) == 4
    assert count_plan(plan(Board(6, 6), "quarter-turn", True)) == 10
    assert count_plan(plan(Board(6, 6), "half-turn", True)) == 78
    assert count_plan(plan(Board(5, 5), "half-turn", False)) == 32
    # 4×3: two symmetric open tours up to the board's symmetries (OEIS A328340), each
    # met with its mirror image
    assert count_plan(plan(Board(4, 3), "half-turn", False)) == 4


@pytest.mark.parametrize("rows,cols,symmetry,closed,words", [
    (6, 6, "diagonal", True, "fixes 6 squares"),
    (6, 6, "diagonal", False, "fixes 6 squares"),
    (8, 8, "quarter-turn", False, "quarter turn"),
    (8, 8, "quarter-turn", True, "swaps the colours"),
    (8, 8, "mirror-rows", True, "swaps the colours"),
    (8, 8, "mirror-cols", False, "no move joins a square to its image"),
    (7, 7, "half-turn", True, "even number of squares"),
    (5, 8, "mirror-rows", True, "fixes 8 squares"),
])
def test_impossible_symmetries_say_why_in_one_line(rows, cols, symmetry, closed, words):
    p = plan(Board(rows, cols), symmetry, closed)
    assert not p.parts
    assert words in p.reason and "\n" not in p.reason
    assert count_plan(p) == 0


@pytest.mark.parametrize("rows,cols,symmetry,words", [
    (6, 6, "spin", "unknown symmetry"),
    (5, 6, "quarter-turn", "only a square board"),
    (5, 6, "diagonal", "only a square board"),
])
def test_bad_symmetries_are_refused(rows, cols, symmetry, words):
    with pytest.raises(CountError, match=words):
        plan(Board(rows, cols), symmetry, True)


def test_other_boards_are_refused_and_leapers_counted():
    with pytest.raises(CountError, match="plane"):
        plan(Board(6, 6, "torus"), "half-turn", True)
    with pytest.raises(CountError, match="at most"):
        plan(Board(12, 12), "mirror-rows", True)
    # the (1,4)-leaper on 5×5: compared with its listed tours
    board = Board(5, 5, "plane", (1, 4))
    p = plan(board, "half-turn", False)
    tours = list(symmetric_tours(p))
    assert count_plan(p) == len(tours)
    assert all(is_symmetric(board, t, "half-turn", False) for t in tours)


@pytest.mark.slow
@pytest.mark.parametrize("rows,cols,want", [(4, 9, 224), (5, 7, 576)])
def test_bigger_open_boards_equal_filtering(rows, cols, want):
    """Every path of 4×9 and 5×7 listed (about half a minute each on a shared machine)."""
    got = count_plan(plan(Board(rows, cols), "half-turn", False))
    assert got == _filtered(rows, cols, "half-turn", False) == want


@pytest.mark.slow
def test_knuth_8x8_half_turn_closed_tours():
    """TAOCP Pre-Fascicle 8A: 2,432,932 closed tours of 8×8 that a half turn keeps."""
    assert count_plan(plan(Board(8, 8), "half-turn", True), 256 << 20) == 2_432_932


def test_the_window_lister_counts_big_boards_a_budget_at_a_time():
    """Over 36 squares the lister counts by steps (a cancel can come between them)."""
    lister = SymmetricLister(Board(6, 7), "mirror-rows", closed=True)
    assert not lister.listed
    calls = 0
    while not lister.done:
        assert len(lister.block(10, budget=50)) == 0
        calls += 1
    assert lister.found == 530 == count_plan(plan(Board(6, 7), "mirror-rows", True))
    assert calls > 3 and lister.nodes > 150
    small = SymmetricLister(Board(6, 6), "quarter-turn", closed=True)
    assert small.listed and len(small.block(100)) == small.found == 10 and small.done
