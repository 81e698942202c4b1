"""The frontier count's tables on boards of at most 7 rows: one word a key, on every core.

A cell's states are held in ``parts`` tables (:mod:`.frontier_word_kernel`: a slot is the
key and the residues of its count, key 0 empty), one per thread. To read a cell, thread
``j`` reads every table of the cell before and keeps the successors whose hash falls in
part ``j``, in a table of its own: no locks, no table written by two threads, and the parts
of one cell hold disjoint states whose counts add up to the whole. The kernels release the
GIL, so the threads run at once.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .frontier_word_kernel import word_regrow, word_step

__all__ = ["LOAD", "new_word_table", "grow_word_table", "word_cell", "table_states",
           "keep_word_part"]

#: the most a table is filled before it is moved into a bigger one
LOAD = 0.8


def new_word_table(cap: int, m: int) -> np.ndarray:
    """An empty table of ``cap`` slots (16 to 2^32 - 1) for ``m`` residues."""
    return np.zeros((max(16, int(cap)), m + 1), np.uint64)


def grow_word_table(tab: np.ndarray, mods: np.ndarray) -> np.ndarray:
    """The same states in a table half as big again."""
    big = new_word_table(tab.shape[0] * 3 // 2 + 16, mods.shape[0])
    if word_regrow(tab, big, mods) < 0:
        raise RuntimeError("the frontier's state table could not be moved on")
    return big


def table_states(tab: np.ndarray) -> int:
    """The states a table holds."""
    return int(np.count_nonzero(tab[:, 0]))


def keep_word_part(tables: list[np.ndarray], index: int, parts: int) -> int:
    """Drops every state whose key does not hash to ``index`` of ``parts`` (the tables are
    only read after this, never probed); the states left."""
    left = 0
    for tab in tables:
        keys = tab[:, 0]
        with np.errstate(over="ignore"):
            h = keys * np.uint64(0x9E3779B97F4A7C15)
            h ^= h >> np.uint64(31)
            h *= np.uint64(0xC2B2AE3D27D4EB4F)
            h ^= h >> np.uint64(29)
        keys[(h % np.uint64(parts)) != np.uint64(index)] = 0
        left += table_states(tab)
    return left


def word_cell(inputs: list[np.ndarray], mods: np.ndarray, nb: np.ndarray, rem: np.ndarray,
              endok: np.ndarray, window: int, open_mode: int, finish: int, carry: int,
              expect: int, parts: int, reserve: Callable[[int], None]
              ) -> tuple[list[np.ndarray], np.ndarray, int]:
    """Reads one cell from the tables ``inputs`` into ``parts`` new ones sized for
    ``expect`` states in all; ``reserve(bytes)`` is asked before any table is made or
    grown (it raises to refuse) and told of a table let go (a negative number). Returns
    the new tables, the finished boards' residues (``[cycles, paths]``) and the states
    held."""
    m = mods.shape[0]
    cap = int(expect / parts / LOAD * 1.1) + 64 if carry else 16
    lock = threading.Lock()

    def ask(nbytes: int) -> None:
        with lock:
            reserve(nbytes)

    def run(j: int) -> tuple[np.ndarray, np.ndarray, int]:
        ask(cap * (m + 1) * 8)
        ttab = new_word_table(cap, m)
        total = np.zeros((2, m), np.uint64)
        filled = 0
        for tab in inputs:
            io = np.array([0, filled], np.int64)
            while True:
                got = word_step(tab, mods, nb, rem, endok, window, open_mode,
                                finish if j == 0 else 0, carry, j, parts, ttab, total, io)
                if got >= 0:
                    break
                if got != -1:
                    raise RuntimeError(f"the frontier step refused its arrays ({got})")
                old = ttab.nbytes
                ask((ttab.shape[0] * 3 // 2 + 16) * (m + 1) * 8)
                ttab = grow_word_table(ttab, mods)
                ask(-old)
            filled = int(got)
        return ttab, total, filled

    if parts == 1:
        outs = [run(0)]
    else:
        with ThreadPoolExecutor(parts) as pool:
            outs = list(pool.map(run, range(parts)))
    total = np.zeros((2, m), np.uint64)
    for _, t, _ in outs:
        for row in range(2):
            for j in range(m):
                v = int(total[row, j]) + int(t[row, j])
                q = int(mods[j]) or 1 << 64
                total[row, j] = v % q
    return [o[0] for o in outs], total, sum(o[2] for o in outs)
