"""The frontier count (column by column) against the OEIS and against the visited-set counter.

Reference numbers are copied from the OEIS entries named beside them; the long runs are
``slow``.
"""
from __future__ import annotations

import pytest

from knightgui_core.frontier import count as frontier_count
from knightgui_core.frontier.count import (
    FrontierError,
    count_bound_bits,
    count_frontier,
    crt,
    moduli_for,
)
from knightgui_core.frontier.residues import bregman_bits
from knightgui_core.run.runner import run_tasks
from knightgui_core.studies.all_tours import run_all_tours

# A175881: closed tours of 6 × n, n = 1, 2, …
A175881 = [0, 0, 0, 0, 8, 9862, 1067638, 55488142, 3374967940, 239187240144,
           15360134570696, 964730606632516, 61989683445413228, 4005716717182224826,
           255967892553030600920, 16378998506224697063588, 1050504687249683771795632,
           67351449674771471216148786, 4314151246752166099728445868,
           276453522147273309254029785276]
# A175855 (5 × 2n closed), read off A383661 (closed tours on the first 2m cells of a 5-row
# board; 5 × 2n is m = 5n): 5×6, 5×8, 5×10, 5×12, 5×14
A175855_FROM_6 = [8, 44202, 13311268, 4557702762, 1495135512514]
# A169696 (3 × n undirected paths), read off A389759 at 3n cells: 3×4, 3×6, …, 3×12
A169696_FROM_4 = [8, 0, 396, 3048, 57248]
# A079137: undirected paths of 4 × n, n = 1, 2, …
A079137 = [0, 0, 8, 0, 82, 744, 6378, 31088, 189688, 1213112, 6683852, 36486328]
# A083386 (5 × n undirected paths), read off A389755 at 5n cells: 5×5, 5×6, 5×7, 5×8
A083386_FROM_5 = [864, 18784, 622868, 18061054]


def _serial(tasks):
    return run_tasks(tasks, scheduler="threads", workers=1)


def test_five_by_2n_closed_tours_to_ten_columns():
    res = count_frontier(5, range(1, 11), closed_only=True)
    assert [b.cols for b in res.boards] == list(range(1, 11))
    got = [b.cycles for b in res.boards]
    assert got[5::2] == A175855_FROM_6[:3]
    assert got[:5] == [0] * 5 and all(x == 0 for x in got[6::2])   # an odd area has none
    assert all(b.paths is None for b in res.boards)


@pytest.mark.slow
def test_six_by_n_closed_tours_to_six_columns():
    res = count_frontier(6, range(1, 7), closed_only=True)
    assert [b.cycles for b in res.boards] == A175881[:6]


@pytest.mark.slow
def test_five_rows_closed_and_open_at_once():
    res = count_frontier(5, [5, 6, 8])
    got = {b.cols: (b.cycles, b.paths) for b in res.boards}
    assert got[6][0] == A175855_FROM_6[0] and got[8][0] == A175855_FROM_6[1]
    assert got[5] == (0, A083386_FROM_5[0])
    assert got[6][1] == A083386_FROM_5[1] and got[8][1] == A083386_FROM_5[3]


def test_three_and_four_rows_match_the_oeis_paths():
    three = count_frontier(3, [4, 6, 8, 10, 12])
    assert [b.paths for b in three.boards] == A169696_FROM_4
    assert [b.cycles for b in three.boards][-2:] == [16, 176]      # A070030: 3×10, 3×12
    four = count_frontier(4, range(1, 13))
    assert [b.paths for b in four.boards] == A079137
    assert all(b.cycles == 0 for b in four.boards)                 # 4 × n has none


@pytest.mark.parametrize("rows,cols", [(3, 4), (3, 7), (4, 5), (4, 6), (3, 10)])
def test_frontier_agrees_with_the_visited_set_counter(rows, cols):
    visited = run_all_tours(rows, cols, runner=_serial).to_dict()
    res = count_frontier(min(rows, cols), max(rows, cols))
    b = res.boards[0]
    assert 2 * b.paths == visited["totals"]["tours"]
    assert b.paths == visited["undirected_paths"]
    assert b.cycles == visited["undirected_closed_tours"]


def test_a_board_read_the_other_way_gives_the_same_counts():
    tall = count_frontier(5, [4]).boards[0]
    wide = count_frontier(4, [5]).boards[0]
    assert (tall.cycles, tall.paths) == (wide.cycles, wide.paths) == (0, A079137[4])


def test_counts_beyond_64_bits_are_exact():
    # 6 × 15 and longer exceed 2^64 (A175881); the residues join through the CRT
    assert A175881[14] > 2**64
    mods = moduli_for(6, 20)
    assert len(mods) >= 3 and mods[0] == 0
    big = A175881[19]
    assert crt([big % (m or 2**64) for m in mods], mods) == big


def test_the_count_bound_holds_the_known_counts_with_fewer_residues():
    import math
    # directed closed tours of 6 × 20 and directed open tours of 7 × 7 (A165134) lie below
    assert count_bound_bits(6, 20) > math.log2(2 * A175881[19])
    assert bregman_bits(7, 7) > math.log2(165_575_218_320)    # the relaxed bound: slow test
    # Brégman's bound is far below N · Π deg(v) (152 bits on 8 × 8): two residues, not three
    assert count_bound_bits(8, 8) < 110 and len(moduli_for(8, 8)) == 2
    assert len(moduli_for(6, 6)) == 1 and len(moduli_for(1, 3)) == 1


def test_the_parts_of_a_split_add_up_to_the_whole():
    whole = count_frontier(4, [7, 8])
    parts = [count_frontier(4, [7, 8], part=(3, i, 3)) for i in range(3)]
    assert [sum(p.boards[j].paths for p in parts) for j in range(2)] == A079137[6:8]
    assert all(0 < p.column_states[2] < whole.column_states[2] for p in parts)
    assert sum(p.column_states[2] for p in parts) == whole.column_states[2]
    with pytest.raises(FrontierError, match="part"):
        count_frontier(4, [7], part=(7, 0, 2))


def test_refusals_are_one_line():
    with pytest.raises(FrontierError, match="rows high"):
        count_frontier(0, 5)
    with pytest.raises(FrontierError, match="rows high"):
        count_frontier(20, 5)
    with pytest.raises(FrontierError, match="columns"):
        count_frontier(5, [0])
    with pytest.raises(FrontierError, match="GiB"):
        count_frontier(6, 8, memory_limit=1 << 20)


def test_tables_that_fill_up_are_moved_on_and_the_step_goes_on(monkeypatch):
    # every new table starts at a few dozen slots: each cell stops and goes on many times
    monkeypatch.setattr(frontier_count, "_expect", lambda states, growth: 1)
    res = count_frontier(4, range(1, 9))
    assert [b.paths for b in res.boards] == A079137[:8]
    assert res.peak_states > 1000
    closed = count_frontier(5, [6, 8], closed_only=True)
    assert [b.cycles for b in closed.boards] == A175855_FROM_6[:2]


def test_the_board_s_right_edge_prunes_states_early():
    # the cells of the last columns lack later neighbours: states that need them die at once
    short = count_frontier(4, [6])
    longer = count_frontier(4, [6, 10])
    assert short.boards[0].paths == longer.boards[0].paths == A079137[5]
    assert short.column_states[4] < longer.column_states[4]


@pytest.mark.slow
def test_six_by_n_closed_tours_to_twenty_columns():
    res = count_frontier(6, range(1, 21), closed_only=True)
    assert [b.cycles for b in res.boards] == A175881


@pytest.mark.slow
def test_five_by_2n_closed_tours_to_fourteen_columns():
    res = count_frontier(5, [6, 8, 10, 12, 14], closed_only=True)
    assert [b.cycles for b in res.boards] == A175855_FROM_6


def test_a_seven_row_frontier_reads_a_three_row_board_the_other_way():
    tall = count_frontier(7, [3]).boards[0]
    assert (tall.cycles, tall.paths) == (0, 52)                     # A389759 at 21 cells: 3×7
    # 8 rows: a window of 17 cells, keys of two words (7 rows: one)
    taller = count_frontier(8, [3]).boards[0]
    assert (taller.cycles, taller.paths) == (0, A169696_FROM_4[2])  # 3×8


@pytest.mark.slow
@pytest.mark.parametrize("rows,cols,closed_only", [(5, 5, False), (5, 8, False),
                                                   (6, 6, True), (6, 7, True)])
def test_frontier_agrees_with_the_visited_set_counter_on_bigger_boards(rows, cols, closed_only):
    # 6-row open paths take the frontier 22 M states (docs/counts.md): closed tours only there
    visited = run_all_tours(rows, cols, runner=_serial).to_dict()
    b = count_frontier(rows, [cols], closed_only=closed_only).boards[0]
    assert b.cycles == visited["undirected_closed_tours"]
    if not closed_only:
        assert 2 * b.paths == visited["totals"]["tours"]
