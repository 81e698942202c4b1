"""The relaxed count behind the frontier count's residues: subgraphs of degrees 1 and 2
counted exactly, against a brute force over edge subsets and above the true tour counts;
the residues it saves, and the counts unchanged."""
from __future__ import annotations

import _thread
import itertools
import math
from collections import OrderedDict

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knightgui_core.frontier import bound as frontier_bound
from knightgui_core.frontier.bound import relaxed_bounds, step_tables
from knightgui_core.frontier.bound_kernel import (
    RelaxedBoard,
    relaxed_regrow,
    relaxed_step,
    relaxed_totals,
)
from knightgui_core.frontier.count import count_frontier
from knightgui_core.frontier.residues import (
    RELAXED_CELLS,
    bregman_bits,
    count_bound_bits,
    moduli_for,
)
from knightgui_core.system.errors import Cancelled

# A079137 (4 × n undirected paths) and A175881 (6 × n closed tours), n = 1, 2, …
A079137 = [0, 0, 8, 0, 82, 744, 6378, 31088, 189688, 1213112, 6683852, 36486328]
A175881 = [0, 0, 0, 0, 8, 9862, 1067638, 55488142, 3374967940, 239187240144,
           15360134570696, 964730606632516, 61989683445413228, 4005716717182224826,
           255967892553030600920, 16378998506224697063588, 1050504687249683771795632,
           67351449674771471216148786, 4314151246752166099728445868,
           276453522147273309254029785276]


def _brute(rows: int, cols: int) -> tuple[int, int]:
    """(2-factors, subgraphs of degrees 1..2 with two cells of degree 1), every edge subset."""
    cells = {(c, r): c * rows + r for c in range(cols) for r in range(rows)}
    edges = [(i, cells[(c + dc, r + dr)]) for (c, r), i in cells.items()
             for dc, dr in ((1, 2), (2, 1), (1, -2), (2, -1)) if (c + dc, r + dr) in cells]
    cycles = paths = 0
    for pick in itertools.product((0, 1), repeat=len(edges)):
        deg = [0] * len(cells)
        for on, (a, b) in zip(pick, edges):
            deg[a] += on
            deg[b] += on
        if all(1 <= d <= 2 for d in deg):
            ones = deg.count(1)
            cycles += ones == 0
            paths += ones == 2
    return cycles, paths


@pytest.mark.parametrize("rows,cols", [(3, 3), (3, 4), (2, 5), (3, 5), (4, 3), (2, 7)])
def test_the_relaxed_count_equals_a_brute_force(rows, cols):
    got = relaxed_bounds(rows, cols)
    assert (got.cycles[-1], got.paths[-1]) == _brute(rows, cols)
    assert (got.cycles[0], got.paths[0]) == _brute(rows, 1)    # every length on the way


@settings(max_examples=12, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4))
def test_every_length_of_one_pass_is_its_own_board(rows, cols):
    long = relaxed_bounds(rows, cols + 2)
    alone = relaxed_bounds(rows, cols, 1)
    assert long.cycles[cols - 1] == alone.cycles[-1] and long.paths[cols - 1] == alone.paths[-1]
    closed = relaxed_bounds(rows, cols + 2, closed_only=True)
    assert closed.cycles == long.cycles and set(closed.paths) == {0}
    if rows * cols <= 12:
        assert (alone.cycles[-1], alone.paths[-1]) == _brute(rows, cols)


def test_the_bound_lies_above_the_true_counts():
    four = relaxed_bounds(4, 12)
    assert all(p >= a for p, a in zip(four.paths, A079137))
    six = relaxed_bounds(6, 8, 2, closed_only=True)
    assert all(c >= a for c, a in zip(six.cycles, A175881))
    assert six.cycles[5] == 36236 and A175881[5] == 9862           # 6×6: 3.7× the tours
    five = count_frontier(5, [5, 6])
    got = relaxed_bounds(5, 6)
    for b in five.boards:
        assert got.paths[b.cols - 1] >= b.paths and got.cycles[b.cols - 1] >= b.cycles


def test_a_count_wider_than_its_words_stops_at_the_length_before():
    full = relaxed_bounds(4, 30, 2)
    short = relaxed_bounds(4, 30, 1)
    assert len(full.paths) == 30 and max(full.paths) >= 1 << 64
    assert 0 < len(short.paths) < 30
    assert all(x < 1 << 64 for x in short.paths) and short.paths == full.paths[:len(short.paths)]
    capped = relaxed_bounds(5, 6, most=50)
    assert len(capped.paths) < 6


# the figures of the kernel before the count was cut into rounds and folded by
# the mirror (one call a board, as at 81dfaf9): 5×8 and 6×7 open, 6×8 closed
OLD_5x8_PATHS = (0, 0, 6, 196, 2252, 79716, 1610460, 47403710)
OLD_6x7_PATHS = (0, 0, 0, 3240, 79716, 10284288, 1156135334)
OLD_6x8_CYCLES = (0, 0, 0, 16, 325, 36236, 3021208, 171887538)


def test_the_same_figures_as_the_one_call_kernel(monkeypatch):
    assert relaxed_bounds(5, 8, 2).paths == OLD_5x8_PATHS
    assert relaxed_bounds(6, 8, 2, closed_only=True).cycles == OLD_6x8_CYCLES
    six = relaxed_bounds(6, 7, 1, 1 << 23)
    assert six.paths == OLD_6x7_PATHS and six.cycles[-1] == 3021208
    assert relaxed_bounds(5, 7, 2, 1 << 23).paths == OLD_5x8_PATHS[:7]


def test_a_cancel_stops_the_bound_between_rounds(monkeypatch):
    monkeypatch.setattr(frontier_bound, "ROUND", 64)       # many rounds on a small board
    asked: list[int] = []
    with pytest.raises(Cancelled):
        relaxed_bounds(5, 9, 2, 1 << 22, cancel=lambda: asked.append(1) or len(asked) > 40)
    assert len(asked) == 41                               # not one call after it
    # nothing kept from a cancelled count: the next call counts it all
    assert relaxed_bounds(5, 9, 2, 1 << 22, cancel=lambda: False).paths[7] == OLD_5x8_PATHS[7]


def test_the_kernels_refuse_arrays_that_do_not_fit():
    back, retire = step_tables(3, 4)
    tab = np.zeros((16, 2), np.uint64)
    tab[0] = (1 << 63, 1)
    io = np.zeros(3, np.int64)
    nt = np.zeros((16, 2), np.uint64)
    board = RelaxedBoard(back, retire, 3, 1, 2, 100)
    assert relaxed_step(tab, 0, 16, nt, board, 0, 0, io) == 1
    assert io[0] == 0 and io[1] == 0                       # no room for a state's successors
    nt = np.zeros((32, 2), np.uint64)
    assert relaxed_step(tab, 0, 16, nt, board, 0, 0, io) == 0 and io[1] == 1 and io[2] == 1
    bad = back.copy()
    bad[5, 0] = 9                                           # farther than the window
    for wrong in [(tab, 0, 17, nt, board, 0, 0, io),                    # past the table
                  (tab, 0, 16, nt[:15], board, 0, 0, io),               # not a power of two
                  (tab, 0, 16, nt, board._replace(words=2), 0, 0, io),  # words
                  (tab, 0, 16, nt, board._replace(max_ends=1), 0, 0, io),  # ends
                  (tab, 0, 16, nt, board, 0, 1, io),                    # fold
                  (tab, 0, 16, nt, board._replace(most=0), 0, 0, io),   # most
                  (tab, 0, 16, nt, board._replace(back=bad), 5, 0, io)]:
        io[:] = 0
        assert relaxed_step(*wrong) == -1
    full = np.zeros((16, 2), np.uint64)
    full[:, 0] = np.arange(1, 17, dtype=np.uint64) | np.uint64(1 << 63)
    full[:, 1] = 1
    assert relaxed_regrow(full, np.zeros((16, 2), np.uint64), 1) == -1   # too small
    assert relaxed_regrow(full, np.zeros((32, 2), np.uint64), 1) == 16
    totals = np.zeros((2, 1), np.uint64)
    assert relaxed_totals(tab, 1, board, totals) == -1                    # not a column's end
    assert relaxed_totals(tab, 2, board, totals) == 0


def test_fewer_residues_where_the_relaxed_count_is_smaller():
    # 5 × 9 open: Brégman's 71.2 bits want two residues, the relaxed count (29.6 bits) one
    assert bregman_bits(5, 9) > 64 and len(moduli_for(5, 9)) == 1
    assert math.log2(796_916_748) - 1e-9 < count_bound_bits(5, 9) < 30
    # 6 × 12 closed: two residues by Brégman, one by the 2-factors; above A175881's term
    assert bregman_bits(6, 12) > 64 and len(moduli_for(6, 12, True)) == 1
    assert count_bound_bits(6, 12, True) > math.log2(A175881[11])
    # 5 × 30 closed: the 2-factors still pass 64 bits (111.1): two residues, not Brégman's 4
    assert 64 < count_bound_bits(5, 30, True) < 64 + 62 and len(moduli_for(5, 30, True)) == 2
    assert bregman_bits(5, 30) > 64 + 2 * 62
    # every length of a sequence is covered, not only the longest
    assert moduli_for(6, range(1, 13), True) == moduli_for(6, 12, True)
    # 8 × 8 is past the cheap boards: Brégman's 106.8 bits, two residues
    assert len(moduli_for(8, 8)) == 2 and count_bound_bits(8, 8) == bregman_bits(8, 8)
    # 4 × 101 open: past the cheap cells (404 > 400), Brégman decides (635 bits: 11 residues)
    assert count_bound_bits(4, 101) == bregman_bits(4, 101) and len(moduli_for(4, 101)) == 11


@pytest.mark.slow
def test_seven_by_seven_and_six_by_n_take_fewer_residues(monkeypatch):
    # 7 × 7 open: 79.5 bits by Brégman (two residues), 278,517,961,992 relaxed paths (38.0
    # bits: one, asked by default); the true 82,787,609,160 undirected paths (A165134
    # halved) lie below. The same figure as the one-call kernel's
    assert bregman_bits(7, 7) > 64 and len(moduli_for(7, 7)) == 1
    assert 82_787_609_160 < 2 ** count_bound_bits(7, 7) < 2**40
    one = relaxed_bounds(7, 7, 1, 1 << 23)
    assert one.paths[-1] == 278_517_961_992 and one.peak_states < 8_154_893   # the fold
    monkeypatch.setitem(RELAXED_CELLS[False], 7, 0)
    assert len(moduli_for(7, 7)) == 2                        # Brégman alone
    # 6 × 20 closed: 203 bits by Brégman (four residues), two by the 2-factors
    assert bregman_bits(6, 20) > 64 + 2 * 62 and len(moduli_for(6, 20, True)) == 2
    assert count_bound_bits(6, 20, True) > math.log2(A175881[19])
    # 6 × 7 open: 66.9 bits by Brégman, one residue
    assert bregman_bits(6, 7) > 64 and len(moduli_for(6, 7)) == 1
    # 8 × 8 closed: 106.8 bits by Brégman (two residues), 56,691,832,946,529 2-factors (45.7
    # bits: one); the true 13,267,364,410,532 closed tours (A001230) lie below
    assert bregman_bits(8, 8) > 64 and len(moduli_for(8, 8, True)) == 1
    eight = relaxed_bounds(8, 8, 1, 1 << 24, closed_only=True)
    assert eight.cycles[-1] == 56_691_832_946_529 > 13_267_364_410_532


def test_the_frontier_counts_do_not_change_with_fewer_residues():
    res = count_frontier(4, range(1, 13))
    assert res.moduli == 1 and [b.paths for b in res.boards] == A079137
    six = count_frontier(6, range(1, 8), closed_only=True)
    assert six.moduli == 1 and [b.cycles for b in six.boards] == A175881[:7]


def test_ctrl_c_stops_the_bound_within_a_round(monkeypatch):
    """Ctrl-C (a KeyboardInterrupt in the calling thread) is heard when a kernel call
    returns: the count makes no further kernel call once it has arrived."""
    monkeypatch.setattr(frontier_bound, "ROUND", 1 << 10)
    monkeypatch.setattr(frontier_bound, "_CACHE", OrderedDict())
    real, calls = frontier_bound.relaxed_step, []

    def step(*args):
        calls.append(1)
        if len(calls) == 3:                      # Ctrl-C arrives during the third round
            _thread.interrupt_main()
        return real(*args)

    monkeypatch.setattr(frontier_bound, "relaxed_step", step)
    with pytest.raises(KeyboardInterrupt):
        relaxed_bounds(6, 9, 2, 1 << 23, cancel=lambda: False)
    assert len(calls) == 3


def test_the_estimate_and_the_count_share_one_bound(monkeypatch):
    # 4 × 16 open: 99.1 bits by Brégman (two residues), one by the relaxed count, which the
    # estimate (memory_estimate asks moduli_for) and then the count ask: counted once
    calls = []
    real = frontier_bound._count
    monkeypatch.setattr(frontier_bound, "_CACHE", OrderedDict())
    monkeypatch.setattr(frontier_bound, "_count", lambda *a: calls.append(1) or real(*a))
    assert bregman_bits(4, 16) > 64 and len(moduli_for(4, 16, cancel=lambda: False)) == 1
    assert count_frontier(4, [16], cancel=lambda: False).moduli == 1
    assert calls == [1]
