"""The one-word frontier step (boards of at most 7 rows): its tables, its threads, its checks."""
from __future__ import annotations

import numpy as np

from knightgui_core.frontier.count import count_frontier
from knightgui_core.frontier.word import (
    grow_word_table,
    new_word_table,
    table_states,
    word_cell,
)
from knightgui_core.frontier.word_kernel import (
    CellStep,
    Successors,
    word_absorb,
    word_expand,
    word_regrow,
)

# A083386 (5 × n undirected paths) at 5×5, 5×6; A175855 at 5×6 (closed)
PATHS_5 = {5: 864, 6: 18784}
CLOSED_5 = {6: 8}


def test_threads_split_the_states_and_their_counts_add_up():
    one = count_frontier(5, [5, 6], threads=1, fold=False)
    for threads in (2, 3):
        many = count_frontier(5, [5, 6], threads=threads, fold=False)
        assert [(b.cycles, b.paths) for b in many.boards] == \
            [(CLOSED_5.get(b.cols, 0), PATHS_5[b.cols]) for b in one.boards]
        assert many.column_states == one.column_states
        assert many.peak_states == one.peak_states == 145_980


def test_each_thread_keeps_its_own_share_and_none_twice():
    first = new_word_table(16, 1)
    first[0, 0] = np.uint64(1) << np.uint64(63)
    first[0, 1] = 1
    nb = np.full(4, -1, np.int64)
    rem = np.full(12, 2, np.uint8)
    rem[0] = 0
    endok = np.ones(12, np.uint8)
    tables, _, got = [first], None, 1
    # the first cells of a 5-row board: no earlier neighbours, every cell is kept empty
    for _ in range(2):
        tables, _, got = word_cell(tables, np.zeros(1, np.uint64),
                                   CellStep(nb, rem, endok, 11, 1, 0, 1), got, 3,
                                   lambda nbytes: None)
    assert got == 1 and sum(table_states(t) for t in tables) == 1
    whole = count_frontier(4, [8], threads=1)
    parts = count_frontier(4, [8], threads=4)
    assert parts.boards[0].paths == whole.boards[0].paths == 31088
    assert parts.state_cells == whole.state_cells


def test_a_table_grows_and_keeps_every_count():
    mods = np.zeros(2, np.uint64)
    mods[1] = (1 << 61) - 1
    tab = new_word_table(16, 2)
    keys = (np.arange(1, 13, dtype=np.uint64) * np.uint64(0x1234567)) | (np.uint64(1) << np.uint64(63))
    tab[:12, 0] = keys
    tab[:12, 1] = np.arange(12, dtype=np.uint64)
    tab[:12, 2] = np.arange(100, 112, dtype=np.uint64)
    big = grow_word_table(tab, mods)
    assert big.shape[0] > 16 and table_states(big) == 12
    held = {int(k): (int(a), int(b)) for k, a, b in big if k}
    assert held == {int(k): (i, 100 + i) for i, k in enumerate(keys)}
    assert word_regrow(tab, new_word_table(16, 2)[:8], mods) == -2     # too few slots
    assert word_regrow(tab, new_word_table(64, 1), mods) == -2         # residues differ


def test_the_kernels_refuse_arrays_that_do_not_fit():
    mods = np.zeros(1, np.uint64)
    tab = new_word_table(16, 1)
    tab[0, 0] = np.uint64(1) << np.uint64(63)
    tab[0, 1] = 5
    buf, fill = np.zeros((2, 32, 2), np.uint64), np.zeros(2, np.int64)
    total, io = np.zeros((2, 1), np.uint64), np.zeros(2, np.int64)
    nb = np.full(4, -1, np.int64)
    rem, endok = np.zeros(8, np.uint8), np.ones(8, np.uint8)
    rem[1:] = 2
    cell = CellStep(nb, rem, endok, 7, 1, 0, 1)
    out = Successors(buf, fill, total)
    assert word_expand(tab, 16, mods, cell, out, io) == 1                   # fits
    assert fill.sum() == 1 and buf[fill.argmax(), 0, 1] == 5               # the count went along
    again = np.zeros(2, np.int64)
    assert word_expand(tab, 17, mods, cell, out, again) == -2               # past the table
    assert word_expand(tab, 16, mods, cell._replace(earlier=np.array([0, 9, -1, -1], np.int64)),
                       out, again) == -2                                    # past the window
    assert word_expand(tab, 16, mods, cell._replace(window=16), out,
                       again) == -2                                         # 16 cells: no word
    assert word_expand(tab, 16, mods, cell._replace(unread=rem[:5]), out,
                       again) == -2                                         # rem too short
    assert word_expand(tab, 16, mods, cell,
                       out._replace(buffers=np.zeros((2, 32, 3), np.uint64)),
                       again) == -2                                         # residues differ
    assert word_expand(tab, 16, mods, cell, out._replace(filled=np.array([99, 0])),
                       again) == -2
    ttab = new_word_table(16, 1)
    p = int(fill.argmax())
    assert word_absorb(buf[p], 1, ttab, mods, np.zeros(2, np.int64)) == 1
    assert word_absorb(buf[p], 1, ttab, mods, np.zeros(2, np.int64)) == 0   # the key was there
    assert int(ttab[ttab[:, 0] != 0][0, 1]) == 10                           # its counts added
    assert word_absorb(buf[p], 33, ttab, mods, np.zeros(2, np.int64)) == -2  # past the buffer
    assert word_absorb(buf[p], 1, ttab, mods, np.array([-1, 0], np.int64)) == -2


def test_closed_and_open_counts_on_seven_rows_read_the_other_way():
    # 7 × 3 and 7 × 4 read on two threads equal 3 × 7 and 4 × 7 read the usual way
    tall = count_frontier(7, [3, 4], threads=2)
    wide = [count_frontier(3, [7]), count_frontier(4, [7])]
    assert [(b.cycles, b.paths) for b in tall.boards] == \
        [(w.boards[0].cycles, w.boards[0].paths) for w in wide]
    assert wide[1].boards[0].paths == 6378                  # A079137: 4 × 7
