"""Distinct Warnsdorff tours: the vectorised count against a plain one built on canonical_id."""
from __future__ import annotations

import numpy as np
import pytest

from knightgui_core.board.canonical import canonical_form, is_cycle
from knightgui_core.board.squares import Board
from knightgui_core.studies.distinct import DistinctError, distinct_counts, normal_forms
from knightgui_core.tietree.enumeration.enumerator import Enumerator


def plain(rows, cols):
    """Every tour from every start, one Python object at a time."""
    b = Board(rows, cols)
    tours = [s.path.astype(np.int64) for st in range(b.size)
             for s in Enumerator(rows, cols, st).first(1 << 20)]
    normal, canon = set(), {}
    for p in tours:
        cyc = is_cycle(b, p)
        if cyc:
            i = int(np.argmin(p))
            f = np.roll(p, -i)
            r = np.concatenate([f[:1], f[:0:-1]])
            key = min(tuple(f), tuple(r))
        else:
            key = min(tuple(p), tuple(p[::-1]))
        if key not in normal:
            normal.add(key)
            c = tuple(canonical_form(b, p))
            canon[c] = canon.get(c, 0) + 1
    sizes: dict[str, int] = {}
    for v in canon.values():
        sizes[str(v)] = sizes.get(str(v), 0) + 1
    return len(tours), len(normal), len(canon), sizes


@pytest.mark.parametrize("rows,cols", [(5, 5), (6, 6), (5, 6), (4, 7)])
def test_distinct_counts_agree_with_a_plain_count(rows, cols):
    r = distinct_counts(rows, cols)
    tours, distinct, up_to_sym, sizes = plain(rows, cols)
    assert (r.tours, r.distinct, r.distinct_up_to_symmetry) == (tours, distinct, up_to_sym)
    assert r.orbit_sizes == dict(sorted(sizes.items(), key=lambda kv: int(kv[0])))
    assert sum(int(k) * v for k, v in r.orbit_sizes.items()) == r.distinct


def test_6x6_figures():
    r = distinct_counts(6, 6)
    assert (r.tours, r.closed) == (1_984, 360)          # the count study's totals
    assert r.distinct < r.tours and r.distinct_up_to_symmetry * 8 >= r.distinct


def test_normal_forms_of_a_cycle_forget_start_and_direction():
    b = Board(6, 6)
    c = next(s.path.astype(np.int64) for s in Enumerator(6, 6, "a1", "b3").first(5))
    assert is_cycle(b, c)
    rows = np.stack([c, np.roll(c, 5), np.roll(c[::-1], 11)])
    forms = normal_forms(rows, np.ones(3, dtype=bool))
    assert (forms == forms[0]).all() and forms[0, 0] == 0


def test_a_board_too_big_is_one_line():
    with pytest.raises(DistinctError, match="at most 255 squares"):
        distinct_counts(16, 16)


def test_phadke_strict_cycles_and_a_plain_check_on_a_few_algorithms():
    from knightgui_core.studies import phadke as P
    from knightgui_core.studies.distinct import distinct_of_algorithms
    algos = P.algorithms("strict")[:4]
    r = distinct_of_algorithms(algos)
    tours = [s.path.astype(np.int64) for a in algos
             for s in Enumerator(8, 8, a.start, a.end).first(1 << 20)]
    assert r.tours == r.closed == len(tours)                  # Phadke's tours are closed
    grid = np.arange(64).reshape(8, 8)       # the board's eight symmetries as permutations
    symmetries = [np.rot90(g, k).ravel() for g in (grid, grid.T) for k in range(4)]

    def cycles(paths):
        """Each closed tour up to its start and direction: the lesser of its two readings
        from square 0, as 64 bytes (squares + 1, so no byte is the NUL numpy strips)."""
        at = (np.arange(64) + paths.argmin(axis=1)[:, None]) % 64
        ahead = np.take_along_axis(paths, at, axis=1)
        back = ahead[:, np.r_[0, 63:0:-1]]
        a, b = (np.ascontiguousarray(x + 1, np.uint8).view("S64").ravel() for x in (ahead, back))
        return np.where(a < b, a, b)

    every = np.array(tours)
    least = cycles(every)
    canon = least.copy()
    for s in symmetries[1:]:
        turned = cycles(s[every])
        canon = np.where(turned < canon, turned, canon)
    cycles, canon = set(least.tolist()), set(canon.tolist())
    assert r.distinct == len(cycles) and r.distinct_up_to_symmetry == len(canon)
    assert r.distinct_full == sum(int(k) * v for k, v in r.full_orbit_sizes.items())
