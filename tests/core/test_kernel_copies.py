"""The search loop's deliberate copies, driven over the same cases and compared.

The tie-tree search exists in several kernels, each shaped for one job: counting with the
general state (``enumerate_kernel.count_kernel``) and on a bitboard (``bitboard_kernel.
count_bits``); stepping to each solution (``advance_kernel`` / ``advance_bits``); collecting
whole solutions with their options matrices (``collect_kernel`` / ``collect_bits``); keeping
them as changes (``keep_kernel``); streaming paths to a file (``stream_kernel``); counting
the strict open case subtree by subtree (``count_kernel``) and by states
(``memo_kernel``, with and without a table); counting by states with dashes and a reserved
end on a bitboard (``bits_memo_kernel``, Phadke's study); and rebuilding an options matrix from a path
(``options_kernel``). Every copy must find the same solutions, in the same order where it
lists them, for every case below; a change to one copy that the others do not share fails
here.
"""
from __future__ import annotations

import numpy as np
import pytest

from knightgui_core.tietree import bitboard_kernel as _k64
from knightgui_core.tietree.bits_table import BitsTable, count_by_states
from knightgui_core.tietree.enumerator import Enumerator
from knightgui_core.tietree.solution_writer import solution_blocks
from knightgui_core.tietree.subtrees import CountBoard, count_subtrees
from knightgui_core.tietree.table import TransTable

# (rows, cols, start, end, dashes): open and closed, with and without corner dashes, boards
# on both sides of the bitboard's 64 squares
CASES = [
    (5, 5, "a1", None, None),
    (6, 6, "c3", None, None),
    (5, 6, "b2", None, None),
    (6, 6, "a1", "c2", None),
    (8, 8, "a8", "c7", None),
    (8, 8, "c6", "d4", {"a1": "full", "h1": "A"}),
    (8, 8, "a8", "c7", {"h1": "full"}),
    (6, 11, "c3", None, None),
    (6, 11, "a1", "c2", None),
]


def _solutions(en: Enumerator) -> np.ndarray:
    """Every solution's whole path (collect kernels), in order."""
    sols = en.first(1 << 20)
    return np.array([s.path for s in sols], dtype=np.int64).reshape(len(sols), -1)


def _bits_modes(rows, cols):
    return (False, True) if rows * cols <= 64 else (False,)


@pytest.mark.parametrize("rows,cols,start,end,dashes", CASES)
def test_every_copy_finds_the_same_solutions(rows, cols, start, end, dashes):
    ref = None
    for bits in _bits_modes(rows, cols):
        # counting kernels
        en = Enumerator(rows, cols, start, end, dashes, bits=bits)
        counted = en.engine.count()
        solutions, dead = int(counted[0]), int(counted[1])
        if ref is None:
            ref = (solutions, dead)
        assert (solutions, dead) == ref, ("count", bits)
        if bits:
            # by states (bits_memo_kernel, Phadke's study): the same three counts
            e = en.engine
            b0 = _k64.initial_bits(e.board.size, e.chain, e.start)
            by = count_by_states(e.att, np.array([e.start]), e.masks[:1].copy(),
                                 e.masks[1:].copy(), b0[:1].copy(), b0[1:].copy(),
                                 BitsTable(1 << 20, memo_min=2))
            assert tuple(by[0, :3]) == tuple(int(x) for x in counted[:3]), "by states"
        # stepping kernel
        step = Enumerator(rows, cols, start, end, dashes, bits=bits).count()
        assert (step["solutions"], step["dead_ends"]) == ref, ("advance", bits)
        # collect kernel: the paths themselves
        paths = _solutions(Enumerator(rows, cols, start, end, dashes, bits=bits))
        assert len(paths) == solutions, ("collect", bits)
        # keep kernel: the same solutions, as changes from the previous one
        kept = Enumerator(rows, cols, start, end, dashes, bits=bits).block_compact(
            solutions + 1, key_every=3)
        assert len(kept) == solutions, ("keep", bits)
        L = kept.length - 1
        cur = np.zeros(L, dtype=np.int64)
        for i in range(solutions):
            cur[int(kept.frm[i]):L] = kept.squares[kept.sptr[i]:kept.sptr[i + 1]]
            np.testing.assert_array_equal(np.concatenate([cur, kept.tail]), paths[i])
        # stream kernel: whole tours in blocks
        streamed = [p.copy() for _, block, _ in solution_blocks(
            Enumerator(rows, cols, start, end, dashes, bits=bits), block=7) for p in block]
        assert len(streamed) == solutions, ("stream", bits)
        for i in range(solutions):
            np.testing.assert_array_equal(streamed[i], paths[i])
        # options kernel: each collected matrix rebuilt from its path
        en2 = Enumerator(rows, cols, start, end, dashes, bits=bits)
        replay = en2.options_replay()
        for s in en2.first(min(solutions, 40)):
            np.testing.assert_array_equal(replay.matrix(s.path), s.mo, err_msg=f"options {bits}")
    # the strict open case: count_kernel's subtrees and memo_kernel's states
    if end is None and not dashes:
        cb = CountBoard(rows, cols)
        plain = count_subtrees(cb, start, [()])
        memo = count_subtrees(cb, start, [()], table=TransTable(cb.n, 1 << 22, memo_min=2))
        assert (plain.tours, plain.dead_ends) == ref == (memo.tours, memo.dead_ends)
