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

import ast
from pathlib import Path

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


def _callers(package: Path) -> dict[str, set[str]]:
    """Name called → the functions of ``package``'s modules whose source calls it."""
    out: dict[str, set[str]] = {}
    for path in sorted(package.glob("*.py")):
        for fn in ast.walk(ast.parse(path.read_text())):
            if not isinstance(fn, ast.FunctionDef):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                    out.setdefault(node.func.id, set()).add(fn.name)
    return out


@pytest.mark.jit_only   # reads the copies' names from numba's dispatchers
def test_the_search_and_its_tie_rule_are_written_once():
    """The source, not the compiled copies: one function of the enumeration package takes
    the first tied move (the search loop every use is specialised from), and each layout's
    tie rule is asked only by that layout and by the options replay. A second hand-written
    loop or rule would make these sets grow; the behaviour of every copy is checked
    against the others above."""
    from knightgui_core.tietree.enumeration import enumerate_kernel as k
    package = Path(k.__file__).parent
    calls = _callers(package)
    assert calls["first_choice"] == {"search"}
    assert calls["tied_slots"] == {"tie_mask", "options_rows"}
    assert calls["tied_slots_bits"] == {"tie_mask_bits", "options_rows_bits"}
    uses = [k._advance, _k64._advance_bits, k._collect, _k64._collect_bits]
    from knightgui_core.tietree.enumeration import keep_kernel as keep
    from knightgui_core.tietree.enumeration import stream_kernel as stream
    uses += [stream._rows, stream._rows_bits, keep._keep, keep._keep_bits]
    names = {getattr(u, "py_func", u).__qualname__ for u in uses}
    assert len(names) == len(uses)                        # a cache entry of its own each
