"""Found solutions kept in memory, compactly, so stepping back and forth is instant.

Each solution is kept as what changed since the one before it (the scheme is in
:mod:`knightgui_core.tietree.enumeration.keep_kernel`), every 64th whole; a solution is
rebuilt from the nearest whole one before it, its options matrix from its path
(:class:`knightgui_core.tietree.enumeration.replay.OptionsReplay`). Open tours from d5 on
8×8: about 24 bytes a solution (``bench/gui.py --keep``). The solver thread fills the
:class:`Packed` runs inside the search kernel; the window's thread only appends them.
"""
from __future__ import annotations

import bisect
import sys
from typing import TypeAlias

import numpy as np

from knightgui_core.tietree.enumeration.kept_solutions import CompactBlock, join_blocks

#: A run of consecutive solutions, packed: what the solver thread sends to the window
#: (fields in :class:`knightgui_core.tietree.enumeration.kept_solutions.CompactBlock`).
Packed: TypeAlias = CompactBlock


#: runs shorter than this are joined before they reach the store (a run costs a whole first
#: solution and a few array headers)
MIN_RUN = 1024


def fewer_runs(runs: list[Packed]) -> list[Packed]:
    """The consecutive ``runs`` with each stretch of short ones (under :data:`MIN_RUN`
    solutions) joined into one; long runs are passed on as they are, without a copy."""
    out: list[Packed] = []
    short: list[Packed] = []
    for r in runs:
        if len(r) >= MIN_RUN:
            if short:
                out.append(join_blocks(short))
                short = []
            out.append(r)
        elif len(r):
            short.append(r)
    if short:
        out.append(join_blocks(short))
    return out


class SolutionStore:
    """Solutions 1, 2, … of one enumeration, appended in runs (:meth:`extend`), read back
    by 0-based position: :meth:`path`, :meth:`mo`, :meth:`branch`, :meth:`index`. The runs
    are kept as they come (a list append, never a copy); a solution is found by bisecting
    the runs' first positions."""

    def __init__(self, size: int = 0):
        self.size = int(size)
        self._n = 0
        self._first = 1
        self._L = 0
        self._tail = np.zeros(0, dtype=np.int32)
        self._blocks: list[Packed] = []
        self._starts: list[int] = []    # position of each run's first solution, ascending
        self.mo_length = 0
        self._last: tuple[int, np.ndarray] | None = None     # the path decoded last

    def __len__(self) -> int:
        return self._n

    def clear(self, size: int | None = None):
        """Forget every solution (and take ``size`` squares a solution, when given)."""
        SolutionStore.__init__(self, self.size if size is None else size)

    def extend(self, batches) -> int:
        """Append :class:`Packed` runs of solutions (one or a list); returns the new length.
        The runs are kept, not copied: their arrays must not change afterwards."""
        for b in ([batches] if isinstance(batches, CompactBlock) else batches):
            self._append(b)
        return self._n

    def _append(self, b: Packed) -> None:
        g = len(b)
        if not g:
            return
        if self._n == 0:
            self._tail = np.asarray(b.tail, dtype=np.int32).copy()
            self.mo_length = int(b.length)
            self._L = self.mo_length - 1
            self.size = self._L + len(self._tail)
            self._first = int(b.first)
        elif (int(b.length) != self.mo_length or int(b.first) != self._first + self._n
              or not np.array_equal(b.tail, self._tail)):
            raise ValueError("solutions of another enumeration (or out of order) cannot join "
                             "this store")
        if int(b.frm[0]) != 0:
            raise ValueError("a run of solutions must start with a whole one")
        self._blocks.append(b)
        self._starts.append(self._n)
        self._n += g

    def _locate(self, i: int) -> tuple[Packed, int, int]:
        """(run, solution ``i``'s position in it, the whole one it is rebuilt from)."""
        if not 0 <= i < self._n:
            raise IndexError(f"solution {i + 1} is not stored ({self._n} kept)")
        r = bisect.bisect_right(self._starts, i) - 1
        b = self._blocks[r]
        j = i - self._starts[r]
        k = j
        while b.frm[k] != 0:        # a run starts whole, so this stops inside the run
            k -= 1
        return b, j, k

    def path(self, i: int) -> np.ndarray:
        """int32[N]: the whole path of solution ``i`` (0-based), tail included."""
        if self._last is not None and self._last[0] == i:
            return self._last[1].copy()
        b, j, k = self._locate(i)
        L = self._L
        out = np.empty(L + len(self._tail), dtype=np.int32)
        out[L:] = self._tail
        sq, sptr, frm = b.squares, b.sptr, b.frm
        for m in range(k, j + 1):
            out[int(frm[m]):L] = sq[sptr[m]:sptr[m + 1]]
        self._last = (i, out.copy())
        return out

    def paths(self, lo: int, hi: int) -> np.ndarray:
        """int32[hi - lo, N]: the whole paths of solutions ``lo … hi - 1`` (0-based), rebuilt
        in one pass over their runs (a few µs a solution, against tens for :meth:`path`)."""
        if not 0 <= lo <= hi <= self._n:
            raise IndexError(f"solutions {lo + 1}…{hi} are not all stored ({self._n} kept)")
        L = self._L
        out = np.empty((hi - lo, L + len(self._tail)), dtype=np.int32)
        out[:, L:] = self._tail
        cur = np.empty(L, dtype=np.int32)
        i = lo
        while i < hi:
            b, j, k = self._locate(i)
            end = min(hi - i, len(b) - j) + j        # exclusive, within this run
            sq, sptr, frm = b.squares, b.sptr, b.frm
            for m in range(k, end):
                cur[int(frm[m]):L] = sq[sptr[m]:sptr[m + 1]]
                if m >= j:
                    out[i - lo + m - j, :L] = cur
            i += end - j
        return out

    def index(self, i: int) -> int:
        """1-based number of solution ``i`` in its enumeration."""
        self._locate(i)
        return self._first + i

    def branch(self, i: int) -> int:
        """Branch row of solution ``i`` (0: no backtracking before it)."""
        b, j, _ = self._locate(i)
        return int(b.branch[j])

    def mo(self, i: int) -> np.ndarray:
        """Dense ``int8[L + 1, 8]`` options matrix of solution ``i`` (0-based), rebuilt from
        its path (all zeros when the runs came without a way to rebuild it)."""
        b, _, _ = self._locate(i)
        if b.options is None:
            return np.zeros((self.mo_length, 8), dtype=np.int8)
        return b.options.matrix(self.path(i))

    def nbytes(self) -> int:
        """Bytes of the kept solutions: squares, offsets, branch rows."""
        return int(sum(a.nbytes for b in self._blocks for a in (b.squares, b.sptr, b.frm,
                                                                   b.branch))
                   + self._tail.nbytes)

    def reserved_bytes(self) -> int:
        """Bytes allocated: the runs' arrays (each exactly its size) and their headers."""
        head = sys.getsizeof(np.empty(0))
        return int(self.nbytes() + sum(4 * head + sys.getsizeof(b) for b in self._blocks))
