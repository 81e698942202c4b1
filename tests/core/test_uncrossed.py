"""The longest uncrossed knight's path and cycle (core/studies/uncrossed.py): the published
lengths, and lengths and counts checked against a second, plain implementation."""
from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from uncrossed_plain import plain_longest, segments_cross

from knightgui_core.studies.uncrossed import (
    UncrossedError,
    canonical_moves,
    crossing_table,
    longest_uncrossed,
    move_segments,
)
from knightgui_core.system.errors import Cancelled

# OEIS A003192 (paths) and A157416 (cycles), n×n, moves
PATHS = {3: 2, 4: 5, 5: 10, 6: 17, 7: 24, 8: 35}
CYCLES = {3: 0, 4: 4, 5: 8, 6: 12, 7: 24, 8: 32}
# the longest uncrossed cycles on m×n, m ≤ n ≤ 8, as tabulated by the ICPC World Finals 2018
# judges' solution to "Uncrossed Knight's" (rows 3..8, columns m..8)
CYCLES_MN = {3: [0, 0, 4, 6, 6, 6], 4: [4, 6, 8, 10, 12], 5: [8, 12, 14, 18],
             6: [12, 18, 22], 7: [24, 26], 8: [32]}


def _fast(n: int) -> bool:
    return n <= 6


@pytest.mark.parametrize("n", [pytest.param(n, marks=() if _fast(n) else pytest.mark.slow)
                               for n in range(3, 9)])
def test_longest_path_on_n_by_n_is_oeis_a003192(n):
    r = longest_uncrossed(n, n)
    assert r.length == PATHS[n]
    assert len(r.path) == r.length + 1 and len(set(r.path)) == len(r.path)
    assert r.count >= 1 and r.total >= r.count


@pytest.mark.parametrize("n", [pytest.param(n, marks=() if n <= 7 else pytest.mark.slow)
                               for n in range(3, 9)])
def test_longest_cycle_on_n_by_n_is_oeis_a157416(n):
    r = longest_uncrossed(n, n, cycle=True)
    assert r.length == CYCLES[n] and len(r.path) == r.length


@pytest.mark.parametrize("m, n", [(m, n) for m in CYCLES_MN for n in range(m, 9)
                                  if m * n <= 42])
def test_longest_cycle_on_m_by_n_matches_the_published_table(m, n):
    assert longest_uncrossed(m, n, cycle=True).length == CYCLES_MN[m][n - m]


@pytest.mark.slow
@pytest.mark.parametrize("m, n", [(m, n) for m in CYCLES_MN for n in range(m, 9) if m * n > 42])
def test_longest_cycle_on_bigger_m_by_n_matches_the_published_table(m, n):
    assert longest_uncrossed(m, n, cycle=True).length == CYCLES_MN[m][n - m]


@pytest.mark.parametrize("m, n", [(3, 3), (3, 4), (4, 4), (3, 5), (4, 5), (3, 6), (3, 7),
                                  (5, 5), (4, 6)])
@pytest.mark.parametrize("cycle", [False, True])
def test_lengths_and_counts_agree_with_a_plain_search(m, n, cycle):
    r = longest_uncrossed(m, n, cycle=cycle)
    assert (r.length, r.count, r.total) == plain_longest(m, n, cycle)
    # and what the fast search returns is an uncrossed path (or cycle) of that length
    seq = [(s % n, s // n) for s in r.path] + ([(r.path[0] % n, r.path[0] // n)]
                                              if cycle and r.path else [])
    moves = list(zip(seq, seq[1:]))
    assert len(moves) == r.length
    for i, (a, b) in enumerate(moves):
        assert sorted((abs(a[0] - b[0]), abs(a[1] - b[1]))) == [1, 2]
        for c, d in moves[i + 1:]:
            assert not segments_cross(a, b, c, d)


def test_crossing_table_against_the_plain_geometry():
    edges = move_segments(5, 5)
    table = crossing_table(5, 5, edges)
    pts = [((int(a) % 5, int(a) // 5), (int(b) % 5, int(b) // 5)) for a, b in edges]
    for i in range(len(edges)):
        for j in range(len(edges)):
            if i != j:
                assert table[i, j] == segments_cross(*pts[i], *pts[j]), (pts[i], pts[j])
    assert table.any() and np.array_equal(table, table.T)


def test_symmetric_copies_count_once():
    # a1-c2-e1 on 5×3 and its mirror e1-c2-a1... the same move set; its left–right mirror
    # differs from it as a set but is the same up to symmetry
    key, images = canonical_moves(3, 5, [0, 7, 4], False)
    key2, images2 = canonical_moves(3, 5, [4, 7, 0], False)
    assert key == key2 and images == images2 == 2


def test_bad_boards_and_limits_are_refused_in_one_line():
    with pytest.raises(UncrossedError, match="rows"):
        longest_uncrossed(0, 5)
    with pytest.raises(UncrossedError, match="cols"):
        longest_uncrossed(5, 99)
    with pytest.raises(UncrossedError, match="more than 100 nodes"):
        longest_uncrossed(6, 6, node_limit=100)
    stop = threading.Event()
    stop.set()
    with pytest.raises(Cancelled):
        longest_uncrossed(5, 5, cancel=stop)


def test_a_cancel_stops_a_long_proof_inside_a_start_square():
    stop = threading.Event()
    seen = []
    threading.Timer(0.5, stop.set).start()
    t0 = time.perf_counter()
    with pytest.raises(Cancelled):                  # 7×7 takes seconds a start square
        longest_uncrossed(7, 7, cancel=stop, progress=lambda d, t: seen.append((d, t)))
    assert time.perf_counter() - t0 < 3.0 and seen[0] == (0, 10)
