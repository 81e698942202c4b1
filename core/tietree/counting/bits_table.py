"""Counting many algorithms of one board (at most 64 squares) by the states of their tie trees:
the table of :mod:`knightgui_core.tietree.counting.bits_memo_kernel` and its checked entry point.

Phadke's study (22,432 algorithms on 8×8: dashes, reserved ends) counts each algorithm's tie
tree to exhaustion: 1.72 billion forward moves leaf by leaf, about a tenth of them through one
table kept across the algorithms. A table is exact (each entry holds its whole key), bounded
(``nbytes`` fixed when it is made) and lent to one thread at a time (:class:`TablePool`).

>>> t = BitsTable(4 << 20)
>>> t.entries, t.bytes
(65536, 4194304)
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterator
from contextlib import contextmanager, nullcontext

import numpy as np

from ...system.errors import InputError
from ...system.limits import available_memory
from . import bits_memo_kernel as _m
from .table import _zeroed_words

__all__ = ["BitsTable", "BitsTableError", "DEFAULT_BYTES", "MEMO_MIN", "TablePool",
           "count_by_states", "shared_pool"]

#: default size of one table: one start's share of Phadke's study fits in it
DEFAULT_BYTES = 16 << 20
#: tie nodes with fewer squares left are walked, not looked up (bench/phadke.py --window)
MEMO_MIN = 16
_MIN_BYTES = 1 << 20
_ENTRY = 64


class BitsTableError(InputError):
    """A table size or an input this counter cannot take."""


class BitsTable:
    """One table of ``nbytes`` bytes (rounded down to a power of two of buckets, at least
    1 MiB): tie nodes with ``memo_min`` ..= ``memo_max`` squares left are looked up."""

    def __init__(self, nbytes: int = DEFAULT_BYTES, memo_min: int = MEMO_MIN,
                 memo_max: int = 64):
        if isinstance(nbytes, bool) or not isinstance(nbytes, (int, np.integer)):
            raise BitsTableError(f"table size: expected a number of bytes, got {nbytes!r}")
        nbytes = int(nbytes)
        if nbytes < _MIN_BYTES or nbytes > available_memory():
            raise BitsTableError(f"table size: {nbytes:,} bytes is not a size this machine "
                                 f"can give (1 MiB to {available_memory() >> 20:,} MiB)")
        if not 2 <= int(memo_min) <= int(memo_max):
            raise BitsTableError(f"table window: {memo_min}..{memo_max} squares left is empty "
                                 "(the lower end is at least 2)")
        per_bucket = _m.WAYS * _ENTRY
        buckets = 1
        while buckets * 2 * per_bucket <= nbytes:
            buckets *= 2
        self.buckets = buckets
        self.entries = buckets * _m.WAYS
        self.bytes = self.entries * _ENTRY
        # one 64-byte line an entry, on huge pages where the system offers them
        raw = _zeroed_words(self.entries * 8 + 8)
        off = (-raw.ctypes.data % 64) // 8
        self.tab = raw[off: off + self.entries * 8].reshape(self.entries, 8)
        self.cfg = np.array([int(memo_min), int(memo_max), buckets], dtype=np.int64)
        #: probes, hits, stores, stores into empty entries, evictions, forward moves counted
        #: from the table instead of walked (added to by every call)
        self.stats = np.zeros(_m.SS_SIZE, dtype=np.int64)

    def used(self) -> int:
        """Entries in use."""
        return int(np.count_nonzero(self.tab[:, 4]))


class TablePool:
    """Tables lent to one thread at a time (two threads writing one entry at once could tear
    it), each given back under a key (the algorithms whose states it holds, e.g. their start)
    and lent again for that key first, so work spread over calls and threads (the runner's
    tasks) shares its subtrees. At most ``keep`` tables of ``nbytes`` are kept, the least
    recently returned dropped first: memory stays under ``(keep + busy threads) * nbytes``."""

    def __init__(self, nbytes: int = DEFAULT_BYTES, keep: int = 12,
                 memo_min: int = MEMO_MIN):
        BitsTable(_MIN_BYTES, memo_min)                  # checks the window at once
        self.nbytes = int(nbytes)
        self.keep = max(1, int(keep))
        self.memo_min = int(memo_min)
        self._lock = threading.Lock()
        self._free: OrderedDict[Hashable, BitsTable] = OrderedDict()

    @contextmanager
    def borrow(self, key: Hashable = None) -> Iterator[BitsTable]:
        """The table kept for ``key`` if it is free, else the least recently returned one,
        else a new one; given back under ``key`` when the block ends."""
        with self._lock:
            table = self._free.pop(key, None)
            if table is None and len(self._free) >= self.keep:
                _, table = self._free.popitem(last=False)
        if table is None:
            table = BitsTable(self.nbytes, self.memo_min)
        try:
            yield table
        finally:
            with self._lock:
                twin = self._free.pop(key, None)
                if twin is not None:            # lent meanwhile for the same key: first in
                    spare = object()            # line for another key (making a new table
                    self._free[spare] = twin    # costs more than reusing one)
                    self._free.move_to_end(spare, last=False)
                self._free[key] = table
                while len(self._free) > self.keep:
                    self._free.popitem(last=False)

    def kept(self) -> int:
        """Tables kept (not lent)."""
        with self._lock:
            return len(self._free)

    def release(self) -> None:
        """Drop every kept table (a lent one is kept again when given back)."""
        with self._lock:
            self._free.clear()


_POOL = TablePool()


def shared_pool() -> TablePool:
    """The process's pool (:data:`DEFAULT_BYTES` tables, at most 12 kept)."""
    return _POOL


def count_by_states(att: np.ndarray, starts: np.ndarray, dash_masks: np.ndarray,
                    end_masks: np.ndarray, free0: np.ndarray, avail0: np.ndarray,
                    table: BitsTable | None = None, share: Hashable = None) -> np.ndarray:
    """Count algorithms on one board of at most 64 squares to exhaustion, every tie followed:
    int64[A, 4] = (solutions, dead ends, forward moves, 1) per algorithm, the same as
    :func:`knightgui_core.tietree.enumeration.bitboard_kernel.count_batch_bits` on the same inputs.

    ``att`` uint64[N] knight attack masks (N ≤ 64); per algorithm i: ``starts[i]`` (int64,
    a square), ``dash_masks[i]`` (dashed cells), ``end_masks[i]`` (squares where the last
    free number may stand), ``free0[i]`` (unvisited squares once the start is numbered: the
    start's bit clear), ``avail0[i]`` (those of them that are not reserved), all uint64[A].
    ``table``: default one borrowed from :func:`shared_pool` under ``share`` (a key naming
    the algorithms whose subtrees it may hold, such as their start)."""
    att = np.ascontiguousarray(att)
    if att.dtype != np.uint64 or att.ndim != 1 or not 1 <= att.shape[0] <= 64:
        raise BitsTableError("attack masks: uint64[N] with 1 <= N <= 64")
    n = att.shape[0]
    starts = np.ascontiguousarray(starts, dtype=np.int64)
    words = [np.ascontiguousarray(w) for w in (dash_masks, end_masks, free0, avail0)]
    a = starts.shape[0]
    if starts.ndim != 1 or any(w.dtype != np.uint64 or w.shape != (a,) for w in words):
        raise BitsTableError("algorithms: starts int64[A]; dash, end, free and avail "
                             "masks uint64[A]")
    dash, endm, free, avail = words
    if a:
        if starts.min() < 0 or starts.max() >= n:
            raise BitsTableError(f"a start is off the board of {n} squares")
        board = np.uint64((1 << n) - 1) if n < 64 else np.uint64(0xFFFFFFFFFFFFFFFF)
        sbit = np.left_shift(np.uint64(1), starts.astype(np.uint64))
        if ((free & ~board).any() or (free & sbit).any() or (avail & ~free).any()
                or (endm & ~board).any() or (dash & ~board).any()):
            raise BitsTableError("masks: squares off the board, the start unvisited, or a "
                                 "candidate that is not unvisited")
    out = np.zeros((a, 4), dtype=np.int64)
    with nullcontext(table) if table is not None else _POOL.borrow(share) as t:
        _m.count_batch_memo(att, starts, dash, endm, free, avail, t.cfg, t.tab, t.stats, out)
    return out
