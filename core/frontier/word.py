"""The frontier count's tables on boards of at most 7 rows: one word a key, on every core.

A cell's states are held in ``parts`` tables (:mod:`.word_kernel`: a slot is the
key and the residues of its count, key 0 empty), one per thread, each holding the states of
its own share of the hash, so the parts of one cell are disjoint and their counts add up to
the whole. A cell is read in rounds: in each, thread ``j`` makes the successors of the next
states of its own range of every input table, sorted by share into ``parts`` buffers
(:func:`.word_kernel.word_expand`); after a barrier, thread ``j`` adds every
thread's buffer of share ``j`` into its own table (:func:`.word_kernel.word_absorb`);
after another barrier the next round starts. No locks around the tables, no table written
by two threads, every successor made once. The kernels release the GIL, so the threads run
at once.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..system.control import CancelLike, cancel_requested
from ..system.errors import Cancelled
from .word_kernel import CellStep, Successors, word_absorb, word_expand, word_regrow

__all__ = ["LOAD", "BUFFER", "SMALL", "Layout", "WORD", "new_word_table", "first_table",
           "grow_word_table", "word_cell", "table_states", "keep_word_part", "key_hash",
           "carry_code", "add_residues"]

#: the most a table is filled before it is moved into a bigger one
LOAD = 0.8
#: successors a buffer holds (one buffer per pair of threads)
BUFFER = 1 << 16
#: a cell expected to hold fewer states is read on one thread
SMALL = 1 << 15


@dataclass(frozen=True)
class Layout:
    """A table layout and its kernels: keys of ``words`` words (column 0 never 0 in a used
    slot) before the residues, and the step's ``expand``, ``absorb`` and ``regrow`` on it
    (:mod:`.word_kernel` for one word, :mod:`.pair_kernel` for two)."""

    words: int
    expand: Any
    absorb: Any
    regrow: Any


#: one-word keys: boards of at most 7 rows
WORD = Layout(1, word_expand, word_absorb, word_regrow)


def carry_code(i: int, rows: int, cells: int, fold: bool) -> int:
    """The step's ``carry`` for cell ``i`` of ``cells`` on a board ``rows`` high: 0 for the
    last cell (nothing carried on), 2 for a column's last cell when the states are folded
    by the top-bottom mirror (``fold``: a state and its image kept once, with their summed
    count; exact since the column's step commutes with the mirror), else 1."""
    if i >= cells - 1:
        return 0
    return 2 if fold and i % rows == rows - 1 else 1


def new_word_table(cap: int, m: int, words: int = 1) -> np.ndarray:
    """An empty table of ``cap`` slots (16 to 2^32 - 1) for ``m`` residues and keys of
    ``words`` words."""
    return np.zeros((max(16, int(cap)), m + words), np.uint64)


def first_table(m: int, words: int) -> np.ndarray:
    """The table before the first cell: the empty window once, its residues 1."""
    first = new_word_table(16, m, words)
    first[0, 0] = np.uint64(1) << np.uint64(63)
    first[0, words:] = 1
    return first


def grow_word_table(tab: np.ndarray, mods: np.ndarray, layout: Layout = WORD,
                    reserve: Callable[[int], None] | None = None) -> np.ndarray:
    """The same states in a table half as big again; ``reserve(bytes)``, if given, is asked
    for it first and told of ``tab`` let go (a negative number) after."""
    cap = tab.shape[0] * 3 // 2 + 16
    if reserve is not None:
        reserve(cap * tab.shape[1] * 8)
    big = new_word_table(cap, mods.shape[0], layout.words)
    if layout.regrow(tab, big, mods) < 0:
        raise RuntimeError("the frontier's state table could not be moved on")
    if reserve is not None:
        reserve(-tab.nbytes)
    return big


def table_states(tab: np.ndarray) -> int:
    """The states a table holds."""
    return int(np.count_nonzero(tab[:, 0]))


def key_hash(k0: np.ndarray, k1: np.ndarray | None) -> np.ndarray:
    """A 64-bit hash of each key (first words ``k0``, second words ``k1`` or None), the
    same for either table layout (not the tables' own slot hash)."""
    with np.errstate(over="ignore"):
        h = k0 * np.uint64(0x9E3779B97F4A7C15)
        if k1 is not None:
            h ^= k1 * np.uint64(0xC2B2AE3D27D4EB4F)
        h ^= h >> np.uint64(31)
        h *= np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(29)
    return h


def add_residues(total: list[list[int]], got: list[list[int]], mods: Sequence[int]) -> None:
    """Adds the residues ``got`` (``[cycles, paths]``) into ``total``, modulo each modulus
    (0 standing for 2^64)."""
    for row in range(2):
        for j, q in enumerate(mods):
            total[row][j] = (total[row][j] + int(got[row][j])) % (q or 1 << 64)


def keep_word_part(tables: list[np.ndarray], index: int, parts: int, words: int = 1) -> int:
    """Drops every state whose key (of ``words`` words) does not hash to ``index`` of
    ``parts`` (the tables are only read after this, never probed); the states left."""
    left = 0
    for tab in tables:
        keys = tab[:, 0]
        second = tab[:, 1] if words == 2 else None
        keys[key_hash(keys, second) % np.uint64(parts) != np.uint64(index)] = 0
        left += table_states(tab)
    return left


def word_cell(inputs: list[np.ndarray], mods: np.ndarray, cell: CellStep, expect: int,
              parts: int, reserve: Callable[[int], None], layout: Layout = WORD,
              stop: CancelLike = None) -> tuple[list[np.ndarray], np.ndarray, int]:
    """Reads ``cell`` (:class:`.word_kernel.CellStep`) from the tables ``inputs`` into
    ``parts`` new ones sized for ``expect`` states in all; ``reserve(bytes)`` is asked before
    any table is made or grown (it raises to refuse) and told of a table let go (a negative
    number). Returns the new tables, the finished boards' residues (``[cycles, paths]``) and
    the states held. ``layout``: the keys' words and the kernels (:data:`WORD` up to 7 rows).
    ``stop`` (a cancel flag, :mod:`knightgui_core.system.control`) is read after every round
    (at most :data:`BUFFER` successors a thread): :class:`Cancelled` is raised within a
    round, not at the end of the cell; a KeyboardInterrupt in the calling thread stops the
    threads as soon, so Ctrl-C on a big cell does not wait for it."""
    m = mods.shape[0]
    width = m + layout.words
    carry = cell.carry
    if expect < SMALL:
        parts = 1             # one thread for small cells (and the kernels' first calls)
    cap = int(expect / parts / LOAD * 1.1) + 64 if carry else 16
    lock = threading.Lock()
    barrier = threading.Barrier(parts)
    bufs = [np.zeros((parts, BUFFER, width), np.uint64) for _ in range(parts)]
    fills = [np.zeros(parts, np.int64) for _ in range(parts)]
    # thread j reads slots [lo, hi) of every input table: its own range of each
    ranges = [[(t.shape[0] * j // parts, t.shape[0] * (j + 1) // parts) for t in inputs]
              for j in range(parts)]
    done = [False] * parts

    def ask(nbytes: int) -> None:
        with lock:
            reserve(nbytes)

    def expand(j: int, out: Successors, where: list[int]) -> None:
        out.filled[:] = 0
        while where[0] < len(inputs):
            tab = inputs[where[0]]
            hi = ranges[j][where[0]][1]
            io = np.array([where[1], 0], np.int64)
            if layout.expand(tab, hi, mods, cell, out, io) < 0:
                raise RuntimeError("the frontier step refused its arrays")
            if io[0] < hi:
                where[1] = int(io[0])
                return
            where[0] += 1
            if where[0] < len(inputs):
                where[1] = ranges[j][where[0]][0]
        done[j] = True

    def absorb(j: int, ttab: np.ndarray, filled: int) -> tuple[np.ndarray, int]:
        for i in range(parts):
            io = np.array([0, filled], np.int64)
            while True:
                got = layout.absorb(bufs[i][j], int(fills[i][j]), ttab, mods, io)
                if got >= 0:
                    break
                if got != -1:
                    raise RuntimeError("the frontier's state table has no free slot")
                ttab = grow_word_table(ttab, mods, layout, ask)
            filled = int(got)
        return ttab, filled

    def run(j: int) -> tuple[np.ndarray, np.ndarray, int]:
        try:
            ask(cap * width * 8)
            ttab = new_word_table(cap, m, layout.words)
            total = np.zeros((2, m), np.uint64)
            out = Successors(bufs[j], fills[j], total)
            filled = 0
            where = [0, ranges[j][0][0]]
            while True:
                expand(j, out, where)
                barrier.wait()
                # read between the barriers, where no thread expands: a thread that read
                # it after the second could see a flag of the next round and leave alone
                finished = all(done)
                if stop is not None and cancel_requested(stop):
                    raise Cancelled("the frontier count was cancelled")
                if carry:
                    ttab, filled = absorb(j, ttab, filled)
                barrier.wait()
                if finished:
                    return ttab, total, filled
        except BaseException:
            barrier.abort()
            raise

    if parts == 1:
        outs = [run(0)]
    else:
        with ThreadPoolExecutor(parts) as pool:
            futures = [pool.submit(run, j) for j in range(parts)]
            try:                          # in steps: a signal's handler runs between them
                while wait(futures, 0.25).not_done:
                    pass
                errors = [f.exception() for f in futures]
            except BaseException:         # Ctrl-C here: the threads leave at their barrier
                barrier.abort()
                raise
            real = [e for e in errors if e is not None
                    and not isinstance(e, threading.BrokenBarrierError)]
            if real:
                raise real[0]
            outs = [f.result() for f in futures]
    total = [[0] * m, [0] * m]
    for _, t, _ in outs:
        add_residues(total, t.tolist(), mods.tolist())
    return [o[0] for o in outs], np.array(total, np.uint64), sum(o[2] for o in outs)
