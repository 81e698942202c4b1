"""Listing every knight's path from a start (core.tietree.alltours.all_tours_list) against a plain
depth-first search in Python, and against the count."""
from __future__ import annotations

import numpy as np
import pytest

from knightgui_core.board.squares import Board
from knightgui_core.board.tour import check_path
from knightgui_core.studies.all_tours import all_tours_task
from knightgui_core.tietree.alltours.all_tours_list import AllToursLister
from knightgui_core.tietree.counting.subtrees import CountError


def _plain_paths(rows: int, cols: int, start: int) -> list[tuple[int, ...]]:
    """Every knight's path from ``start`` through all squares, by brute force, in the order
    of the squares' indices at each step."""
    n = rows * cols
    moves = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]

    def nxt(s: int) -> list[int]:
        c, r = s % cols, s // cols
        return sorted((r + dr) * cols + c + dc for dc, dr in moves
                      if 0 <= c + dc < cols and 0 <= r + dr < rows)

    out: list[tuple[int, ...]] = []
    path = [start]
    seen = {start}

    def go() -> None:
        if len(path) == n:
            out.append(tuple(path))
            return
        for u in nxt(path[-1]):
            if u not in seen:
                seen.add(u)
                path.append(u)
                go()
                path.pop()
                seen.discard(u)

    go()
    return out


@pytest.mark.parametrize("rows,cols,start", [(5, 5, 0), (5, 5, 12), (3, 4, 0), (3, 4, 1),
                                             (4, 5, 2), (3, 7, 0), (1, 1, 0)])
def test_the_listing_is_the_plain_search_in_the_same_order(rows, cols, start):
    want = _plain_paths(rows, cols, start)
    lister = AllToursLister(rows, cols, start)
    got = [tuple(int(s) for s in p) for p in lister.first(len(want) + 5)]
    assert got == want
    assert lister.done and lister.found == len(want)


def test_blocks_of_any_size_and_a_small_budget_give_the_same_paths():
    whole = AllToursLister(5, 5, "c3").first(10_000)
    lister = AllToursLister(5, 5, "c3")
    parts = []
    sizes = iter([1, 7, 3, 50, 2, 1000, 1000])
    while not lister.done:
        parts.append(lister.block(next(sizes, 10), budget=5))    # stops often, resumes
    got = np.concatenate(parts)
    assert np.array_equal(got, whole)
    assert lister.block(5).shape == (0, 25)                     # nothing after the end


def test_every_path_is_a_tour_and_the_number_is_the_count():
    b = Board(6, 6)
    lister = AllToursLister(6, 6, "b1")
    total = 0
    while not lister.done:
        block = lister.block(50_000)
        total += len(block)
        for p in block[:: max(1, len(block) // 200)]:
            assert check_path(b, p, False) is None
        assert len({p.tobytes() for p in block}) == len(block)
    assert total == all_tours_task(6, 6, "b1")["tours"]


def test_bad_boards_and_starts_say_what_is_wrong():
    with pytest.raises(CountError, match="at most 128 squares"):
        AllToursLister(12, 12, 0)
    with pytest.raises(CountError, match="start"):
        AllToursLister(5, 5, "z9")
    with pytest.raises(ValueError, match="at least one"):
        AllToursLister(5, 5, 0).block(0)
