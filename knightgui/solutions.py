"""Found solutions kept in memory, packed, so stepping back and forth is instant.

Paths go in one growable 2-D array (uint16 when the board has fewer than 65,535 squares);
the options matrices are sparse (a handful of non-empty rows each) and go in CSR form:
``mo_rows`` / ``mo_vals`` with ``mo_ptr`` offsets. About 250 bytes per 8×8 solution.
"""
from __future__ import annotations

import numpy as np


class SolutionStore:
    def __init__(self, size: int = 0):
        self.size = int(size)
        self._n = 0
        self._paths = np.zeros((0, max(self.size, 1)), dtype=np.uint16)
        self._index = np.zeros(0, dtype=np.int64)
        self._branch = np.zeros(0, dtype=np.int32)
        self._ptr = np.zeros(1, dtype=np.int64)
        self._rows = np.zeros(0, dtype=np.int32)
        self._vals = np.zeros((0, 8), dtype=np.int8)
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

    def extend(self, items) -> int:
        """Append :class:`knightgui.worker.Compact` solutions; returns the new length."""
        items = list(items)
        if not items:
            return self._n
        if self._n == 0:
            self.size = len(items[0].path)
            dt = np.uint16 if self.size < 65535 else np.int32
            self._paths = np.zeros((0, self.size), dtype=dt)
            self.mo_length = int(items[0].length)
        n0, n1 = self._n, self._n + len(items)
        self._paths = self._grow(self._paths, n1)
        self._index = self._grow(self._index, n1)
        self._branch = self._grow(self._branch, n1)
        self._ptr = self._grow(self._ptr, n1 + 1)
        add = sum(len(c.mo_rows) for c in items)
        self._rows = self._grow(self._rows, self._nnz + add)
        self._vals = self._grow(self._vals, self._nnz + add)
        for i, c in enumerate(items, start=n0):
            self._paths[i] = c.path
            self._index[i] = c.index
            self._branch[i] = c.branch
            m = len(c.mo_rows)
            self._rows[self._nnz:self._nnz + m] = c.mo_rows
            self._vals[self._nnz:self._nnz + m] = c.mo_vals
            self._nnz += m
            self._ptr[i + 1] = self._nnz
        self._n = n1
        return n1

    def _check(self, i: int) -> int:
        if not 0 <= i < self._n:
            raise IndexError(f"solution {i + 1} is not stored ({self._n} kept)")
        return i

    def path(self, i: int) -> np.ndarray:
        return self._paths[self._check(i)].astype(np.int32)

    def index(self, i: int) -> int:
        return int(self._index[self._check(i)])

    def branch(self, i: int) -> int:
        return int(self._branch[self._check(i)])

    def mo(self, i: int) -> np.ndarray:
        """Dense ``int8[L + 1, 8]`` options matrix of solution ``i`` (0-based)."""
        self._check(i)
        out = np.zeros((self.mo_length, 8), dtype=np.int8)
        a, b = self._ptr[i], self._ptr[i + 1]
        out[self._rows[a:b]] = self._vals[a:b]
        return out

    def nbytes(self) -> int:
        return int(self._paths[: self._n].nbytes + self._rows[: self._nnz].nbytes
                   + self._vals[: self._nnz].nbytes + 16 * self._n)
