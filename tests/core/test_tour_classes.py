"""New tours among kept solutions (knightgui.solutions.classes), against a plain loop over
canonical ids, and the sentences that say what an old tour is."""
from __future__ import annotations

import numpy as np
import pytest

from knightgui.solutions.classes import BLOCK, TourClasses
from knightgui_core.board.canonical import canonical_form, canonical_id, canonical_rows, symmetry_maps
from knightgui_core.board.squares import Board
from knightgui_core.tietree.enumeration.enumerator import Enumerator
from knightgui_core.tietree.enumeration.solution_writer import solution_blocks


def _tours(rows: int, cols: int, start: str) -> np.ndarray:
    en = Enumerator(rows, cols, start=start)
    return np.concatenate([p for _f, p, _b in solution_blocks(en)]).astype(np.int64)


def _classes(board: Board, paths: list[np.ndarray], block: int = 64) -> TourClasses:
    return TourClasses(board, lambda i: paths[i], lambda: len(paths), block=block)


def test_canonical_rows_match_canonical_form_row_by_row():
    b = Board(6, 6)
    paths = _tours(6, 6, "c3")
    rows = canonical_rows(b, paths)
    for p, r in zip(paths, rows):
        assert np.array_equal(r, canonical_form(b, p))


def test_first_of_agrees_with_a_plain_loop_over_canonical_ids():
    b = Board(6, 6)
    paths = list(_tours(6, 6, "a1")) + list(_tours(6, 6, "f6")) + list(_tours(6, 6, "c3"))
    tc = _classes(b, paths)
    assert len(paths) > 3 * tc.block > 0 and BLOCK > tc.block     # several blocks
    seen: dict[str, int] = {}
    for i, p in enumerate(paths):
        first = seen.setdefault(canonical_id(b, p), i)
        assert tc.first_of(i) == first
        assert tc.is_new(i) == (first == i)
    assert tc.classes == len(seen)
    assert tc.classes < len(paths)  # a1 and f6 are mirror images: their tours repeat


def test_stepping_through_new_tours_only_visits_each_class_once():
    b = Board(6, 6)
    paths = list(_tours(6, 6, "a1")) + list(_tours(6, 6, "f6"))
    tc = _classes(b, paths)
    new, i = [], -1
    while (j := tc.next_new(i)) is not None:
        assert j > i
        new.append(j)
        i = j
    assert len(new) == tc.classes
    assert len({canonical_id(b, paths[j]) for j in new}) == len(new)
    back, i = [], len(paths)
    while (j := tc.previous_new(i)) is not None:
        back.append(j)
        i = j
    assert back[::-1] == new


def test_describe_names_the_symmetry_reversal_and_cycle():
    b = Board(6, 6)
    tour = _tours(6, 6, "a1")[0]
    maps = symmetry_maps(6, 6)
    rot = maps[5][tour]                     # "rotated 90° clockwise"
    paths = [tour, rot, tour[::-1], maps[1][tour]]
    tc = _classes(b, paths)
    assert tc.describe(0) is None
    assert tc.describe(1) == "solution 1 rotated 90° clockwise"
    assert tc.describe(2) in ("solution 1 reversed", "the same cycle as solution 1")
    assert tc.describe(3).startswith(("solution 1 mirrored left–right", "the same cycle as solution 1"))
    assert tc.next_new(0) is None


def test_a_cycle_met_from_another_square_is_the_same_cycle():
    b = Board(8, 8)
    en = Enumerator(8, 8, start="a8", end="c7")     # a8→c7 is a knight move: closed tours
    _f, block, _b = next(iter(solution_blocks(en)))
    closed = block[0].astype(np.int64)
    assert b.is_knight_move(int(closed[-1]), int(closed[0]))
    paths = [closed, np.roll(closed, 7), np.roll(closed[::-1], 3)]
    tc = _classes(b, paths)
    assert tc.describe(1) == "the same cycle as solution 1"
    assert tc.describe(2) == "the same cycle as solution 1"


def test_solutions_that_arrive_later_are_classified_when_asked():
    b = Board(6, 6)
    paths = list(_tours(6, 6, "a1"))
    shown: list[np.ndarray] = paths[:3]
    tc = _classes(b, shown)
    assert tc.next_new(2) is None
    shown.extend(paths[3:])
    assert tc.next_new(2) == 3


def test_bad_input_says_what_is_wrong():
    b = Board(6, 6)
    tc = _classes(b, [np.arange(36)])
    with pytest.raises(IndexError, match="not kept"):
        tc.first_of(5)
    with pytest.raises(ValueError, match="squares of the 6×6 board"):
        canonical_rows(b, np.array([[0, 99]]))


def test_the_store_rebuilds_a_range_of_paths_as_one_by_one():
    from knightgui.solutions.store import SolutionStore
    from knightgui_core.tietree.enumeration.enumerator import Enumerator as E
    store = SolutionStore()
    en = E(8, 8, start="a8", end="c7")
    store.extend([en.block_compact(100), en.block_compact(7), en.block_compact(300)])
    n = len(store)
    for lo, hi in ((0, n), (3, 5), (99, 108), (106, n), (n, n)):
        got = store.paths(lo, hi)
        assert got.shape == (hi - lo, 64)
        for k in range(lo, hi):
            assert np.array_equal(got[k - lo], store.path(k))
    with pytest.raises(IndexError):
        store.paths(0, n + 1)
    tc = TourClasses(Board(8, 8), store.path, lambda: len(store), paths=store.paths, block=50)
    assert tc.next_new(-1) == 0 and tc.first_of(n - 1) == n - 1
