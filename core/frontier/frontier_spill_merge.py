"""The slices' rows on disk read back and merged, and a table's rows sent to the slices' files.

A slice file (:mod:`.frontier_spill` names them) is raw ``uint64`` rows: key words, then
residues. :func:`_read_blocks` reads one :data:`BLOCK` rows at a time (a part of them by
other bits of the hash where a slice is read in parts); :class:`_Merge` adds them into one
table a thread share (equal keys: residues summed), :data:`CHUNK` rows between two looks at
the stop flag; :func:`_route` appends a table's rows to the files of their slices and shares
(:func:`.frontier_spill_kernel.spill_route`); :func:`_on_threads` runs either on threads
that a signal or an error in one of them stops within a chunk.
"""
from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from typing import Any

import numpy as np

from ..system.control import CancelLike, raise_if_cancelled
from ..system.errors import Cancelled, InputError
from .frontier_pair import PAIR
from .frontier_spill_kernel import spill_route
from .frontier_word import LOAD, WORD, grow_word_table, key_hash, new_word_table

__all__ = ["BLOCK", "CHUNK", "SpillError", "merge_rows"]

#: rows read or routed at a time
BLOCK = 1 << 21
#: rows merged between two looks at the stop flag
CHUNK = 1 << 17


class SpillError(InputError):
    """The spill folder is missing, unwritable or full, or a slice outgrew the memory."""


def _layout(words: int) -> Any:
    return WORD if words == 1 else PAIR


def _partition(rows: np.ndarray, words: int, slices: int, shares: int
               ) -> tuple[np.ndarray, np.ndarray]:
    """The used rows of ``rows`` grouped by slice and share
    (:func:`.frontier_spill_kernel.spill_route`) and where each bucket starts."""
    rows = np.ascontiguousarray(rows)
    out = np.empty_like(rows)
    starts = np.zeros(slices * shares + 1, np.int64)
    if spill_route(rows, words, slices, shares, out, starts) < 0:
        raise RuntimeError("the slice split refused its arrays")
    return out, starts


class _Merge:
    """``parts`` tables, one a thread share, into which rows are added (equal keys: their
    residues summed modulo each modulus), growing as needed; ``reserve(bytes)`` is told of
    every table made or grown (it raises to refuse)."""

    def __init__(self, mods: np.ndarray, words: int, parts: int,
                 reserve: Callable[[int], None], expect: int, stop: CancelLike = None) -> None:
        self.mods, self.words, self.reserve, self.stop = mods, words, reserve, stop
        self.layout = _layout(words)
        self.width = mods.shape[0] + words
        cap = int(max(expect, 16) / parts / LOAD * 1.1) + 64
        reserve(parts * cap * self.width * 8)
        self.tabs = [new_word_table(cap, mods.shape[0], words) for _ in range(parts)]
        self.filled = [0] * parts

    def add(self, j: int, rows: np.ndarray) -> None:
        """Adds ``rows`` (all of share ``j``) into table ``j``, :data:`CHUNK` rows at a time,
        :class:`Cancelled` between them once ``stop`` says so."""
        tab = self.tabs[j]
        rows = np.ascontiguousarray(rows)
        io = np.array([0, self.filled[j]], np.int64)
        while io[0] < rows.shape[0]:
            raise_if_cancelled(self.stop, "the frontier count")
            got = self.layout.absorb(rows, min(rows.shape[0], int(io[0]) + CHUNK), tab,
                                     self.mods, io)
            if got >= 0:
                continue
            if got != -1:
                raise RuntimeError("the slice merge refused its arrays")
            old = tab.nbytes
            self.reserve((tab.shape[0] * 3 // 2 + 16) * self.width * 8)
            tab = grow_word_table(tab, self.mods, self.layout)
            self.reserve(-old)
        self.tabs[j], self.filled[j] = tab, int(io[1])

    def add_files(self, j: int, paths: Sequence[str], part: tuple[int, int] = (0, 1)
                  ) -> int:
        """Adds the rows of the files ``paths`` (all of share ``j``; only part ``part``,
        :func:`_read_blocks`); the rows read."""
        read = 0
        for path in paths:
            for rows in _read_blocks(path, self.width, self.words, part):
                self.add(j, rows)
                read += rows.shape[0]
        return read


def merge_rows(sources: Sequence[np.ndarray], mods: np.ndarray, words: int, parts: int,
               reserve: Callable[[int], None], expect: int = 0) -> list[np.ndarray]:
    """The rows of ``sources`` (``uint64[n, words + m]`` each, keys never 0) merged into
    ``parts`` tables by thread share: one slot a key, its residues the sums of the rows'
    modulo each modulus."""
    merge = _Merge(mods, words, parts, reserve, expect)
    for src in sources:
        for a in range(0, src.shape[0], BLOCK):
            out, starts = _partition(src[a:a + BLOCK], words, 1, parts)
            for j in range(parts):
                merge.add(j, out[starts[j]:starts[j + 1]])
    return merge.tabs


def _read_blocks(path: str, width: int, words: int = 1,
                 part: tuple[int, int] = (0, 1)) -> Iterator[np.ndarray]:
    """The rows of a slice file, :data:`BLOCK` at a time; with ``part`` ``(q, parts)``
    only those whose key hash has ``q`` in bits 48 and up, modulo ``parts``."""
    size = os.path.getsize(path)
    if size % (width * 8):
        raise SpillError(f"the slice file {path} is cut short")
    nrows = size // (width * 8)
    for a in range(0, nrows, BLOCK):
        n = min(BLOCK, nrows - a)
        rows = np.fromfile(path, np.uint64, count=n * width,
                           offset=a * width * 8).reshape(n, width)
        if part[1] > 1:
            h = key_hash(rows[:, 0], rows[:, 1] if words == 2 else None)
            rows = rows[(h >> np.uint64(48)) % np.uint64(part[1]) == np.uint64(part[0])]
        yield rows


def _on_threads(fn: Callable[..., Any], args: Sequence[tuple[Any, ...]],
                leave: threading.Event, workers: int = 0) -> list[Any]:
    """``fn(*a)`` for each ``a`` of ``args`` on ``workers`` threads (0: one each); the
    caller waits in steps of a quarter second (a signal's handler runs then), and an
    exception there or in a thread sets ``leave`` for the others to read. Returns the
    results; raises the first error (one not :class:`Cancelled` if there is one)."""
    pool = ThreadPoolExecutor(max(1, workers or len(args)))
    try:
        futures = [pool.submit(fn, *a) for a in args]
        pending = set(futures)
        while pending:
            done, pending = wait(pending, 0.25, FIRST_EXCEPTION)
            if any(f.exception() is not None for f in done):
                leave.set()
        errors = [e for e in (f.exception() for f in futures) if e is not None]
        if errors:
            raise ([e for e in errors if not isinstance(e, Cancelled)] or errors)[0]
        return [f.result() for f in futures]
    except BaseException:
        leave.set()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _route(tab: np.ndarray, words: int, slices: int, shares: int, name: str,
           stop: CancelLike = None) -> int:
    """Appends the used slots of ``tab`` to the files of their slices and shares
    (``name.format(s, t)``); the rows written. They go in slot order, which the merge tables'
    slots follow (``PROBE_MOST`` grows one too small): read in that order a merge is faster."""
    rows_out = 0
    for a in range(0, tab.shape[0], BLOCK):
        raise_if_cancelled(stop, "the frontier count")
        out, starts = _partition(tab[a:a + BLOCK], words, slices, shares)
        for b in range(slices * shares):
            lo, hi = int(starts[b]), int(starts[b + 1])
            if hi > lo:
                with open(name.format(b // shares, b % shares), "ab") as f:
                    out[lo:hi].tofile(f)
        rows_out += int(starts[-1])
    return rows_out
