"""Found solutions kept in memory, packed, so stepping back and forth is instant.

Paths go in one growable 2-D array (uint16 when the board has fewer than 65,535 squares);
the options matrices are sparse (a handful of non-empty rows each) and go in CSR form:
``mo_rows`` / ``mo_vals`` with ``mo_ptr`` offsets. About 250 bytes per 8×8 solution.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def path_dtype(size: int):
    """How a stored path is held: uint16 below 65,535 squares, else int32."""
    return np.uint16 if size < 65535 else np.int32


@dataclass
class Packed:
    """A run of consecutive solutions, packed (see the module docstring): what the solver
    thread sends to the window. ``ptr`` int64[g + 1] delimits each solution's non-empty
    options-matrix rows ``rows`` int32[M] and their values ``vals`` int8[M, 8]."""

    first: int                  # 1-based index of the first solution
    paths: np.ndarray           # uint16 / int32 [g, N] flat squares, tour order
    branch: np.ndarray          # int32[g]
    ptr: np.ndarray
    rows: np.ndarray
    vals: np.ndarray
    length: int                 # L + 1 rows in a full options matrix

    def __len__(self) -> int:
        return len(self.paths)


def pack(first: int, paths: np.ndarray, mo: np.ndarray, branches: np.ndarray) -> Packed:
    """Pack what :meth:`knightgui_core.enumerate.Enumerator.block` returns; vectorised (no Python
    work per solution)."""
    g, size = paths.shape
    keep = (mo[:, :, 1:] != 0).any(axis=2)            # [g, L + 1]: rows with options
    which, rows = np.nonzero(keep)
    ptr = np.zeros(g + 1, dtype=np.int64)
    np.cumsum(keep.sum(axis=1), out=ptr[1:])
    return Packed(int(first), paths.astype(path_dtype(size)),
                  np.asarray(branches, dtype=np.int32), ptr, rows.astype(np.int32),
                  mo[which, rows].astype(np.int8), int(mo.shape[1]))


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
            self.size = b.paths.shape[1]
            self._paths = np.zeros((0, self.size), dtype=b.paths.dtype)
            self.mo_length = int(b.length)
        n0, n1 = self._n, self._n + g
        m = len(b.rows)
        self._paths = self._grow(self._paths, n1)
        self._index = self._grow(self._index, n1)
        self._branch = self._grow(self._branch, n1)
        self._ptr = self._grow(self._ptr, n1 + 1)
        self._rows = self._grow(self._rows, self._nnz + m)
        self._vals = self._grow(self._vals, self._nnz + m)
        self._paths[n0:n1] = b.paths
        self._index[n0:n1] = np.arange(b.first, b.first + g)
        self._branch[n0:n1] = b.branch
        self._rows[self._nnz:self._nnz + m] = b.rows
        self._vals[self._nnz:self._nnz + m] = b.vals
        self._ptr[n0 + 1:n1 + 1] = self._nnz + b.ptr[1:]
        self._nnz += m
        self._n = n1

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
