"""Found solutions kept in memory, compactly, so stepping back and forth is instant.

Each solution is kept as what changed since the one before it (the scheme is in
:mod:`knightgui_core.kernels.keep`): the tour positions from its branch row on, one byte a
square on boards of at most 256 squares, two up to 65,536 (four beyond), and its non-empty
options-matrix rows from the branch row on; every 64th solution is kept whole. A solution is
rebuilt from the nearest whole one before it (at most 63 small steps). Open tours from d5 on
8×8: about 60 bytes a solution (``bench/gui.py`` prints the figure).

The solver thread fills :class:`Packed` runs with
:meth:`knightgui_core.enumerate.Enumerator.block_compact`, compacted inside the search
kernel, so keeping solutions costs little next to finding them.
"""
from __future__ import annotations

import bisect
from typing import TypeAlias

import numpy as np

from knightgui_core.solutions import CompactBlock

#: A run of consecutive solutions, packed: what the solver thread sends to the window
#: (fields in :class:`knightgui_core.solutions.CompactBlock`).
Packed: TypeAlias = CompactBlock


def path_dtype(size: int):
    """How stored squares are held: uint8 up to 256 squares, uint16 up to 65,536, else int32."""
    return np.uint8 if size <= 256 else np.uint16 if size <= 65536 else np.int32


def pack(first: int, paths: np.ndarray, mo: np.ndarray, branches: np.ndarray) -> Packed:
    """Pack what :meth:`knightgui_core.enumerate.Enumerator.block` returns (every solution
    whole; vectorised). The solver thread uses the faster
    :meth:`~knightgui_core.enumerate.Enumerator.block_compact` instead."""
    g, size = paths.shape
    L = mo.shape[1] - 1
    tail = paths[0, L:] if g else np.zeros(0, dtype=np.int32)
    keep = (mo[:, :, 1:] != 0).any(axis=2)            # [g, L + 1]: rows with options
    which, rows = np.nonzero(keep)
    ptr = np.zeros(g + 1, dtype=np.int64)
    np.cumsum(keep.sum(axis=1), out=ptr[1:])
    vals = mo[which, rows].astype(np.int8)
    vals[:, 0] = 0
    return Packed(int(first), paths[:, :L].astype(path_dtype(size)).reshape(-1),
                  np.arange(g + 1, dtype=np.int64) * L, np.zeros(g, dtype=np.int32),
                  rows.astype(np.int32), vals, ptr, np.asarray(branches, dtype=np.int32),
                  np.asarray(tail, dtype=np.int32), int(mo.shape[1]))


class SolutionStore:
    """Solutions 1, 2, … of one enumeration, appended in runs (:meth:`extend`), read back
    by 0-based position: :meth:`path`, :meth:`mo`, :meth:`branch`, :meth:`index`."""

    def __init__(self, size: int = 0):
        self.size = int(size)
        self._n = 0
        self._first = 1
        self._L = 0
        self._sq = np.zeros(0, dtype=path_dtype(self.size))
        self._sptr = np.zeros(1, dtype=np.int64)
        self._frm = np.zeros(0, dtype=np.int32)
        self._branch = np.zeros(0, dtype=np.int32)
        self._ptr = np.zeros(1, dtype=np.int64)
        self._rows = np.zeros(0, dtype=np.int32)
        self._vals = np.zeros((0, 8), dtype=np.int8)
        self._tail = np.zeros(0, dtype=np.int32)
        self._keys: list[int] = []      # positions stored whole, ascending
        self._nsq = 0
        self._nnz = 0
        self.mo_length = 0

    def __len__(self) -> int:
        return self._n

    def clear(self, size: int | None = None):
        self.__init__(self.size if size is None else size)

    @staticmethod
    def _grow(a: np.ndarray, need: int) -> np.ndarray:
        if need <= a.shape[0]:
            return a
        cap = max(need, 2 * a.shape[0], 256)
        out = np.zeros((cap,) + a.shape[1:], dtype=a.dtype)
        out[: a.shape[0]] = a
        return out

    def extend(self, batches) -> int:
        """Append :class:`Packed` runs of solutions (one or a list); returns the new length."""
        for b in ([batches] if isinstance(batches, Packed) else batches):
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
            self._sq = np.zeros(0, dtype=b.squares.dtype)
        elif (int(b.length) != self.mo_length or int(b.first) != self._first + self._n
              or not np.array_equal(b.tail, self._tail)):
            raise ValueError("solutions of another enumeration (or out of order) cannot join "
                             "this store")
        if int(b.frm[0]) != 0:
            raise ValueError("a run of solutions must start with a whole one")
        n0, n1 = self._n, self._n + g
        ns, m = int(b.sptr[-1]), len(b.rows)
        self._sq = self._grow(self._sq, self._nsq + ns)
        self._sptr = self._grow(self._sptr, n1 + 1)
        self._frm = self._grow(self._frm, n1)
        self._branch = self._grow(self._branch, n1)
        self._ptr = self._grow(self._ptr, n1 + 1)
        self._rows = self._grow(self._rows, self._nnz + m)
        self._vals = self._grow(self._vals, self._nnz + m)
        self._sq[self._nsq:self._nsq + ns] = b.squares[:ns]
        self._sptr[n0 + 1:n1 + 1] = self._nsq + b.sptr[1:]
        self._frm[n0:n1] = b.frm
        self._branch[n0:n1] = b.branch
        self._rows[self._nnz:self._nnz + m] = b.rows
        self._vals[self._nnz:self._nnz + m] = b.vals
        self._ptr[n0 + 1:n1 + 1] = self._nnz + b.ptr[1:]
        self._keys.extend((np.flatnonzero(np.asarray(b.frm) == 0) + n0).tolist())
        self._nsq += ns
        self._nnz += m
        self._n = n1

    def _check(self, i: int) -> int:
        if not 0 <= i < self._n:
            raise IndexError(f"solution {i + 1} is not stored ({self._n} kept)")
        return i

    def _key(self, i: int) -> int:
        return self._keys[bisect.bisect_right(self._keys, i) - 1]

    def path(self, i: int) -> np.ndarray:
        """int32[N]: the whole path of solution ``i`` (0-based), tail included."""
        self._check(i)
        out = np.empty(self._L + len(self._tail), dtype=np.int32)
        out[self._L:] = self._tail
        sq, sptr, frm = self._sq, self._sptr, self._frm
        for j in range(self._key(i), i + 1):
            out[int(frm[j]):self._L] = sq[sptr[j]:sptr[j + 1]]
        return out

    def index(self, i: int) -> int:
        """1-based number of solution ``i`` in its enumeration."""
        return self._first + self._check(i)

    def branch(self, i: int) -> int:
        return int(self._branch[self._check(i)])

    def mo(self, i: int) -> np.ndarray:
        """Dense ``int8[L + 1, 8]`` options matrix of solution ``i`` (0-based)."""
        self._check(i)
        out = np.zeros((self.mo_length, 8), dtype=np.int8)
        for j in range(self._key(i), i + 1):
            out[int(self._frm[j]):] = 0
            a, b = self._ptr[j], self._ptr[j + 1]
            out[self._rows[a:b]] = self._vals[a:b]
        return out

    def nbytes(self) -> int:
        """Bytes of the kept solutions: squares, options rows, offsets, branch rows."""
        return int(self._sq[: self._nsq].nbytes + self._rows[: self._nnz].nbytes
                   + self._vals[: self._nnz].nbytes + 24 * self._n + self._tail.nbytes
                   + 8 * len(self._keys))

    def reserved_bytes(self) -> int:
        """Bytes allocated, including the room the growable arrays keep for more."""
        return int(sum(a.nbytes for a in (self._sq, self._sptr, self._frm, self._branch,
                                          self._ptr, self._rows, self._vals, self._tail))
                   + 8 * len(self._keys))
