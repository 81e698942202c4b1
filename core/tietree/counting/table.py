"""The transposition table of the count engine: its memory, its window, one per thread.

:class:`TransTable` owns the arrays of :mod:`knightgui_core.tietree.counting.memo_kernel` for
one board within a size in bytes (:func:`table_bytes` checks it), mapped once at its largest
(only the pages in use are touched) and doubled within it. The default is a quarter of this
machine's memory shared by one table per core (:func:`default_table_bytes`): each worker keeps
its own, as two threads writing one entry at once could tear it.

>>> t = TransTable(36, 1 << 20)
>>> t.entries, t.limit_bytes <= 1 << 20
(16384, True)
"""
from __future__ import annotations

import mmap
import os
import threading
from dataclasses import dataclass

import numpy as np

from ...system.errors import InputError
from ...system.limits import available_memory
from . import memo_kernel as _m

__all__ = ["TableError", "TableConfig", "TransTable", "table_bytes", "default_table_bytes",
           "thread_table", "MIN_TABLE_BYTES", "MEMO_MIN"]

#: the smallest table worth having (one MiB)
MIN_TABLE_BYTES = 1 << 20
#: tie nodes with fewer squares left than this are walked, not looked up: below it a walk is
#: cheaper than a lookup (6 and 7 are fastest, 5 and 8 slower: ``bench/table.py``)
MEMO_MIN = 6
#: tables at least this big are mapped with huge pages where the system offers them
HUGE_PAGE_BYTES = 4 << 20
#: a table more than half full doubles once it has replaced this many times its entries since
#: it last doubled: a doubling touches fresh memory (seconds a GiB), so a short count keeps a
#: small table and a long one (11×11) grows to its limit (doubling when half full is slower
#: and ends bigger: bench/table.py)
GROW_EVICTIONS = 2.0
#: on boards of at least :data:`EAGER_SQUARES` squares, where a start's count is long, a table
#: below this size doubles after only :data:`GROW_EVICTIONS_EAGER` times its entries replaced:
#: what a small table replaces early is walked again later (about 7 % fewer forward moves on
#: 10×10 from d1: bench/table.py); a short count would only pay for zeroing the pages
EAGER_BYTES = 64 << 20
EAGER_SQUARES = 100
GROW_EVICTIONS_EAGER = 0.25
#: buckets a table starts with (2**15 buckets of 2 entries of 64 bytes: 4 MiB)
START_BUCKETS = 1 << 15


class TableError(InputError):
    """A table size this machine cannot take (zero, negative, not a number, more than it has)."""


def default_table_bytes() -> int:
    """A quarter of the memory this process could use, shared by one table per core."""
    return max(MIN_TABLE_BYTES, available_memory() // 4 // max(1, os.cpu_count() or 1))


def table_bytes(value: object) -> int:
    """A table size in MiB (int, float or text such as ``512``) as bytes, checked:
    at least 1 MiB and at most the memory this process could use."""
    if isinstance(value, bool):
        raise TableError(f"table size: expected a number of MiB, got {value!r}")
    try:
        mib = float(str(value).strip()) if isinstance(value, str) else float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise TableError(f"table size: expected a number of MiB, got {str(value)[:40]!r}") from None
    if not np.isfinite(mib) or mib < 1:
        raise TableError(f"table size: {str(value)[:40]} MiB is not a size (at least 1 MiB)")
    got = int(mib * (1 << 20))
    avail = available_memory()
    if got > avail:
        raise TableError(f"table size: {mib:,.0f} MiB is more than the {avail >> 20:,} MiB "
                         "this machine can give")
    return got


@dataclass(frozen=True)
class TableConfig:
    """How a count uses the table: ``bytes`` per table (0: no table, the plain search),
    ``lengths`` (dead ends by length), ``memo_min``: tie nodes with fewer squares left are
    not looked up."""

    bytes: int = 0
    lengths: bool = False
    memo_min: int = MEMO_MIN


class TransTable:
    """The arrays of one table for boards of ``n`` squares within ``nbytes`` bytes; with
    ``lengths``, each entry also keeps the dead ends of its subtree by length (for nodes with
    at most ``width`` - 1 squares left, which makes entries bigger and the table shorter).
    It starts at :data:`START_BUCKETS` buckets (or its limit) and :meth:`grow` doubles it."""

    def __init__(self, n: int, nbytes: int, *, lengths: bool = False, memo_min: int = MEMO_MIN,
                 width: int = 40):
        self.n = int(n)
        self.lengths = bool(lengths)
        self.width = int(width) if lengths else 1
        self.per_entry = 8 * 8 + (16 * self.width if lengths else 0)
        # the limit holds at every moment; the largest size stays where it was when a doubling
        # copied into a second table (2/3 of the limit), so counts keep their measured memory
        nbytes = int(nbytes)
        per_bucket = _m.WAYS * self.per_entry
        top = 0
        if per_bucket <= nbytes:
            top = 1
            while True:
                nxt = top * 2
                peak = nxt * per_bucket + (top * per_bucket if nxt > START_BUCKETS else 0)
                if peak > nbytes:
                    break
                top = nxt
        self.max_buckets = top
        #: entries in use (counted by the kernel's inserts into empty entries)
        self.filled = 0
        #: the table's evictions (``cfg[CF_EVICTED]``) when it last doubled
        self._evicted_mark = 0
        self.cfg = np.zeros(_m.CF_SIZE, dtype=np.int64)
        self.cfg[_m.CF_MIN] = max(2, int(memo_min))
        self.cfg[_m.CF_MAX] = (self.width - 1) if lengths else self.n
        self.cfg[_m.CF_LENS] = 1 if lengths else 0
        self._make(min(top, START_BUCKETS))

    def _make(self, buckets: int) -> None:
        cap = max(1, self.max_buckets * _m.WAYS)
        # 8 words an entry, the first on a 64-byte boundary: one cache line each
        raw = _zeroed_words(cap * 8 + 8)
        off = (-raw.ctypes.data % 64) // 8
        self._all = raw[off: off + cap * 8].reshape(cap, 8)
        self._all_len = np.zeros((cap if self.lengths else 1, self.width), dtype=np.int64)
        self._all_lp = np.zeros((cap if self.lengths else 1, self.width), dtype=np.float64)
        self._view(buckets)

    def _view(self, buckets: int) -> None:
        rows = max(1, buckets * _m.WAYS)
        self.buckets = buckets
        self.entries = buckets * _m.WAYS
        self.bytes = self.entries * self.per_entry
        self.tab = self._all[:rows]
        self.tabf = self.tab.view(np.float64)
        self.tlen = self._all_len[:rows] if self.lengths else self._all_len
        self.tlp = self._all_lp[:rows] if self.lengths else self._all_lp
        self.cfg[_m.CF_BUCKETS] = buckets
        #: the same arrays as the memo kernels take them
        self.record = _m.Table(self.cfg, self.tab, self.tabf, self.tlen, self.tlp)

    @property
    def limit_bytes(self) -> int:
        """The size the table may grow to."""
        return self.max_buckets * _m.WAYS * self.per_entry

    def evictions_to_grow(self) -> float:
        """Entries replaced since the last doubling that make a half-full table double:
        :data:`GROW_EVICTIONS_EAGER` times its entries below :data:`EAGER_BYTES` on a board
        of at least :data:`EAGER_SQUARES` squares, else :data:`GROW_EVICTIONS` times."""
        eager = self.n >= EAGER_SQUARES and self.bytes < EAGER_BYTES
        factor = GROW_EVICTIONS_EAGER if eager else GROW_EVICTIONS
        return factor * self.entries

    def grow_if_full(self) -> bool:
        """Double the table, below its limit, when more room pays: more than half full and
        :meth:`evictions_to_grow` entries replaced since it last doubled, or every
        entry in use (in place: each bucket splits in two, no entry is lost). Returns True
        when it grew."""
        if self.buckets == 0 or self.buckets >= self.max_buckets:
            return False
        evicted = int(self.cfg[_m.CF_EVICTED]) - self._evicted_mark
        if self.filled < self.entries and (2 * self.filled <= self.entries
                                           or evicted < self.evictions_to_grow()):
            return False
        rows = 2 * self.entries
        lens = self.lengths
        self.filled = int(_m.memo_rehash(self._all[:rows],
                                         self._all_len[:rows] if lens else self._all_len,
                                         self._all_lp[:rows] if lens else self._all_lp,
                                         self.buckets))
        self._view(self.buckets * 2)
        self._evicted_mark = int(self.cfg[_m.CF_EVICTED])
        return True

    def grow_to_limit(self) -> None:
        """The table at its full size at once (empty), for a kernel that does not grow it
        (:mod:`knightgui_core.tietree.alltours.alltours_kernel`)."""
        if self.max_buckets > self.buckets:
            self.tab[:] = 0
            self._view(self.max_buckets)
            self.filled = 0

    def used(self) -> int:
        """Entries in use."""
        return int(np.count_nonzero(self.tab[: self.entries, 2]))


def _zeroed_words(n: int) -> np.ndarray:
    """``n`` zeroed uint64 words. A big table is mapped anonymously and offered to the kernel
    as transparent huge pages (Linux ``madvise``): random lookups over gigabytes then miss
    the TLB far less (bench/table.py). Elsewhere, or when that fails, plain ``np.zeros``."""
    nbytes = n * 8
    if nbytes >= HUGE_PAGE_BYTES and hasattr(mmap, "MADV_HUGEPAGE"):
        try:
            mm = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
            try:
                mm.madvise(mmap.MADV_HUGEPAGE)
            except OSError:
                pass                    # huge pages off: the mapping still serves
            return np.frombuffer(mm, dtype=np.uint64, count=n)
        except (OSError, ValueError, AttributeError):
            pass
    return np.zeros(n, dtype=np.uint64)


_local = threading.local()


def thread_table(rows: int, cols: int, config: TableConfig,
                 board: object = None) -> TransTable | None:
    """This thread's table for the board and ``config`` (made on first use, kept for the
    next task of the same board — the same size, topology and leaper: ``board`` when it is
    not the knight's plane — None when the config asks for no table)."""
    if config.bytes <= 0:
        return None
    key = (int(rows), int(cols), int(config.bytes), bool(config.lengths), int(config.memo_min),
           board)
    have = getattr(_local, "table", None)
    if have is not None and have[0] == key:
        return have[1]
    _local.table = None                 # let the old one go before the new one is made
    t = TransTable(rows * cols, config.bytes, lengths=config.lengths, memo_min=config.memo_min)
    _local.table = (key, t)
    return t
