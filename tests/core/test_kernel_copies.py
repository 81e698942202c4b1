"""The tie-tree search's uses, driven over the same cases and compared.

The depth-first search (take the lowest onward count, follow every tie, back up) is written
once: ``enumerate_kernel.search``. Each state layout is a set of small operations bound into
it (the array state, any size with dashes: ``held``, ``ends_here``, ``tie_mask``, ``back_to``,
``step_to`` of ``enumerate_kernel``; the bitboard of at most 64 squares: ``bitboard_kernel.BITS``),
each asking its one tie rule (``tied_slots`` / ``tied_slots_bits``, then ``first_choice``), and
each use is a visitor bound the same way: nothing (counting and stepping, ``no_visit``),
whole solutions with their options matrices (``visit``), paths in blocks
(``stream_kernel.copy_row``), changes from the previous solution (``keep_kernel.write_delta``).
``specialise`` makes one copy per layout and use. The options matrix is rebuilt from a path
with the same tie rule (``options_kernel``). The count by states (``count_kernel``,
``memo_kernel``, ``bits_memo_kernel``: Phadke's study) is a search of its own. Every use must
find the same solutions, in the same order where it lists them, for every case below, on both
layouts.
"""
from __future__ import annotations

import numpy as np
import pytest

from knightgui_core.tietree.counting.bits_table import BitsTable, count_by_states
from knightgui_core.tietree.counting.subtrees import CountBoard, count_subtrees
from knightgui_core.tietree.counting.table import TransTable
from knightgui_core.tietree.enumeration import bitboard_kernel as _k64
from knightgui_core.tietree.enumeration.enumerator import Enumerator
from knightgui_core.tietree.enumeration.solution_writer import solution_blocks

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


@pytest.mark.jit_only   # reads numba's dispatchers (py_func); the bundle's kernels are compiled
def test_each_use_is_the_one_loop_with_its_layout_and_visitor_bound():
    from knightgui_core.tietree.enumeration import enumerate_kernel as k
    from knightgui_core.tietree.enumeration import keep_kernel as keep
    from knightgui_core.tietree.enumeration import options_kernel as options
    from knightgui_core.tietree.enumeration import stream_kernel as stream
    array = {name: getattr(k, name) for name in _k64.BITS}
    assert set(array) == {"held", "ends_here", "tie_mask", "back_to", "step_to"}
    uses = {k._advance: (array, k.no_visit), _k64._advance_bits: (_k64.BITS, k.no_visit),
            k._collect: (array, k.visit), _k64._collect_bits: (_k64.BITS, k.visit),
            stream._rows: (array, stream.copy_row),
            stream._rows_bits: (_k64.BITS, stream.copy_row),
            keep._keep: (array, keep.write_delta), keep._keep_bits: (_k64.BITS, keep.write_delta)}
    names = set()
    for copy, (layout, visitor) in uses.items():
        fn = copy.py_func
        assert fn.__code__ is k.search.py_func.__code__     # the loop, not a copy of it
        for name, op in layout.items():
            assert fn.__globals__[name] is op, (fn.__qualname__, name)
            assert op.targetoptions.get("inline") == "always", name
        assert fn.__globals__["visit"] is visitor
        assert visitor.targetoptions.get("inline") == "always"
        names.add(fn.__qualname__)
    assert len(names) == len(uses)                               # one cache entry each
    # the tie rule is asked, never written out again, by the layouts and the options replay
    for fn, rule in ((k.tie_mask, "tied_slots"), (_k64.tie_mask_bits, "tied_slots_bits"),
                     (options.options_rows, "tied_slots"),
                     (options.options_rows_bits, "tied_slots_bits")):
        assert rule in fn.py_func.__code__.co_names, fn
    assert "first_choice" in k.search.py_func.__code__.co_names
