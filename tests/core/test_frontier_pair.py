"""The two-word frontier step (boards of 8 to 12 rows): the same counts as the one-word step
on small boards, as the visited-set counter and the OEIS on tall ones; its tables, threads,
parts and checks. The long runs are ``slow``."""
from __future__ import annotations

import numpy as np
import pytest

from knightgui_core.frontier import count as frontier_count
from knightgui_core.frontier.count import MAX_ROWS, FrontierError, count_frontier
from knightgui_core.frontier.pair import PAIR
from knightgui_core.frontier.pair_kernel import (
    PAIR_WINDOW,
    pair_absorb,
    pair_expand,
    pair_regrow,
)
from knightgui_core.frontier.word import grow_word_table, new_word_table, table_states
from knightgui_core.frontier.word_kernel import CellStep, Successors
from knightgui_core.run.runner import run_tasks
from knightgui_core.studies.all_tours import run_all_tours

# A079137: undirected paths of 4 × n; A169696: of 3 × n (3×8: 396, 3×10: 3,048);
# A070030: closed tours of 3 × n (3×10: 16, 3×12: 176); A193055: closed tours of 8 × n
A079137_8 = 31088
A193055 = [0, 0, 0, 0, 44202, 55488142]
TOP = np.uint64(1) << np.uint64(63)


def _serial(tasks):
    return run_tasks(tasks, scheduler="threads", workers=1)


def _seen(res):
    return [(b.cycles, b.paths) for b in res.boards], res.column_states, res.state_cells


@pytest.mark.parametrize("rows,cols,closed", [(3, [4, 6, 8], False), (4, [5, 6, 8], False),
                                              (5, [5, 6], False), (6, [6], True),
                                              (7, [3, 4], False)])
@pytest.mark.parametrize("fold", [True, False])
def test_two_words_read_small_boards_as_one_word_does(monkeypatch, rows, cols, closed, fold):
    one = count_frontier(rows, cols, closed_only=closed, threads=1, fold=fold)
    monkeypatch.setattr(frontier_count, "_layout", lambda k: PAIR)
    two = count_frontier(rows, cols, closed_only=closed, threads=2, fold=fold)
    assert _seen(two) == _seen(one)
    assert one.boards[-1].paths or one.boards[-1].cycles


@pytest.mark.parametrize("rows,cols", [(9, 3), (10, 3)])
def test_tall_boards_agree_with_the_visited_set_counter(rows, cols):
    visited = run_all_tours(rows, cols, runner=_serial).to_dict()
    b = count_frontier(rows, [cols]).boards[0]
    assert 2 * b.paths == visited["totals"]["tours"]
    assert b.cycles == visited["undirected_closed_tours"]
    assert b.paths == {9: 560, 10: 3048}[rows]


def test_eight_rows_closed_up_to_four_columns_and_twelve_rows():
    res = count_frontier(8, [1, 2, 3, 4], closed_only=True)
    assert [b.cycles for b in res.boards] == A193055[:4]
    assert res.column_states[:2] == [1, (1024 + 32) // 2]     # folded: 32 are their own image
    assert count_frontier(12, [3], closed_only=True).boards[0].cycles == 176
    assert MAX_ROWS == (PAIR_WINDOW - 1) // 2 == 12
    with pytest.raises(FrontierError, match="rows high"):
        count_frontier(13, [3])


def test_threads_parts_growth_and_starts_on_two_word_keys(monkeypatch):
    one = count_frontier(8, [4], closed_only=True, threads=1, fold=False)
    for threads in (2, 3):
        many = count_frontier(8, [4], closed_only=True, threads=threads, fold=False)
        assert many.column_states == one.column_states == [1, 1024, 167580, 0]
        assert many.state_cells == one.state_cells
    folded = count_frontier(8, [4], closed_only=True, threads=2)
    assert folded.column_states == [1, 528, 84043, 0] and folded.boards == one.boards
    with monkeypatch.context() as mp:     # every table starts small and grows many times
        mp.setattr(frontier_count, "_expect", lambda states, growth: 1)
        small = count_frontier(8, [4], closed_only=True, threads=2, fold=False)
    assert small.column_states == one.column_states
    parts = [count_frontier(9, [3], part=(2, i, 3)).boards[0].paths for i in range(3)]
    assert sum(parts) == 560 and min(parts) > 0
    starts = [count_frontier(8, [3], end_at=c).boards[0].paths for c in range(24)]
    assert sum(starts) == 2 * 396 and starts[0] > 0


def test_a_pair_table_grows_and_keeps_every_count():
    mods = np.array([0, (1 << 61) - 1], np.uint64)
    tab = new_word_table(16, 2, 2)
    his = (np.arange(1, 13, dtype=np.uint64) % np.uint64(3)) | TOP   # his repeat: the los differ
    los = np.arange(12, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    tab[:12, 0], tab[:12, 1] = his, los
    tab[:12, 2] = np.arange(12, dtype=np.uint64)
    tab[:12, 3] = np.arange(100, 112, dtype=np.uint64)
    big = grow_word_table(tab, mods, PAIR)
    assert big.shape == (40, 4) and table_states(big) == 12
    held = {(int(h), int(lo)): (int(a), int(b)) for h, lo, a, b in big if h}
    assert held == {(int(h), int(lo)): (i, 100 + i) for i, (h, lo) in enumerate(zip(his, los))}
    assert pair_regrow(tab, new_word_table(16, 2, 2)[:8], mods) == -2    # too few slots
    assert pair_regrow(tab, new_word_table(64, 1, 2), mods) == -2        # residues differ


def test_the_pair_kernels_refuse_arrays_that_do_not_fit():
    mods = np.zeros(1, np.uint64)
    tab = new_word_table(16, 1, 2)
    tab[0, 0], tab[0, 2] = TOP, 5
    buf, fill = np.zeros((2, 32, 3), np.uint64), np.zeros(2, np.int64)
    total, io = np.zeros((2, 1), np.uint64), np.zeros(2, np.int64)
    nb = np.full(4, -1, np.int64)
    rem, endok = np.full(18, 2, np.uint8), np.ones(18, np.uint8)
    rem[0] = 0
    cell = CellStep(nb, rem, endok, 17, 1, 0, 1)
    out = Successors(buf, fill, total)
    assert pair_expand(tab, 16, mods, cell, out, io) == 1                    # fits
    p = int(fill.argmax())
    assert fill.sum() == 1 and buf[p, 0, 2] == 5 and buf[p, 0, 0] & TOP      # count, key
    again = np.zeros(2, np.int64)
    assert pair_expand(tab, 17, mods, cell, out, again) == -2               # past the table
    assert pair_expand(tab, 16, mods, cell._replace(earlier=np.array([0, 17, -1, -1], np.int64)),
                       out, again) == -2                                    # past the window
    wide = np.full(27, 2, np.uint8)
    assert pair_expand(tab, 16, mods, CellStep(nb, wide, wide, 26, 1, 0, 1), out,
                       again) == -2                                         # 26 cells: no pair
    assert pair_expand(tab, 16, mods, cell._replace(unread=rem[:5]), out,
                       again) == -2                                         # rem too short
    bad_end = endok.copy()
    bad_end[3] = 3
    assert pair_expand(tab, 16, mods, cell._replace(may_end=bad_end), out,
                       again) == -2                                         # endok past 2
    assert pair_expand(tab, 16, mods, cell,
                       out._replace(buffers=np.zeros((2, 32, 2), np.uint64)),
                       again) == -2                                         # one-word rows
    ttab = new_word_table(16, 1, 2)
    assert pair_absorb(buf[p], 1, ttab, mods, np.zeros(2, np.int64)) == 1
    assert pair_absorb(buf[p], 1, ttab, mods, np.zeros(2, np.int64)) == 0   # the key was there
    assert int(ttab[ttab[:, 0] != 0][0, 2]) == 10                           # its counts added
    assert pair_absorb(buf[p], 33, ttab, mods, np.zeros(2, np.int64)) == -2  # past the buffer
    assert pair_absorb(buf[p], 1, new_word_table(16, 1), mods, np.zeros(2, np.int64)) == -2


@pytest.mark.slow              # 15.0 s and 6.9 s of CPU on one thread
def test_eight_by_four_open_and_eight_by_five_closed():
    assert count_frontier(8, [4]).boards[0].paths == A079137_8
    assert count_frontier(8, [5], closed_only=True).boards[0].cycles == A193055[4]


@pytest.mark.slow
@pytest.mark.timeout(3600)      # 302.6 s of CPU, 11.7 GiB
def test_eight_by_six_closed():
    assert count_frontier(8, [6], closed_only=True).boards[0].cycles == A193055[5]


@pytest.mark.slow
@pytest.mark.timeout(3600)      # some 210 s of CPU for the frontier, 1 s for the other
def test_nine_by_four_open_agrees_with_the_visited_set_counter():
    visited = run_all_tours(9, 4, runner=_serial).to_dict()
    b = count_frontier(9, [4]).boards[0]
    assert 2 * b.paths == visited["totals"]["tours"] and b.paths == 189688
