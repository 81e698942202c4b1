"""Board tables built in one pass each (numba), for boards of millions of squares (numpy
made temporaries of 8 × N int64, 256 MB each at 2000×2000).

* :func:`neighbour_table` fills ``out`` int32[rows * cols, 8]: the square reached by move
  type t+1 (``dcol[t]``, ``drow[t]``, int32[8]), or -1 off the board;
  :func:`wrapped_neighbour_table` the same on a cylinder or a torus.
* :func:`compact_table` fills, for each square ``s``, ``lst[s, :count[s]]`` (int32[N, 8])
  with the on-board neighbours ``u`` of ``nbr`` (int32[N, 8]) that have ``keep[u] != 0``
  (``keep`` int8[N]), in move-type order, and ``types[s, i]`` (int8[N, 8]) with their move
  types 1..8; unused entries are -1 and 0; ``count`` int32[N].

The callers build the arrays with the right shapes and dtypes; these kernels trust them.
"""
from __future__ import annotations

import numpy as np

from ..system.jit import njit


@njit
def neighbour_table(rows: int, cols: int, dcol: np.ndarray, drow: np.ndarray,
                    out: np.ndarray) -> None:
    """Fill ``out`` int32[rows * cols, 8] (see the module docstring): the plane, the
    :func:`wrapped_neighbour_table` of a board with no side wrapped."""
    wrapped_neighbour_table(rows, cols, dcol, drow, False, False, out)


@njit
def wrapped_neighbour_table(rows: int, cols: int, dcol: np.ndarray, drow: np.ndarray,
                            wrap_cols: bool, wrap_rows: bool, out: np.ndarray) -> None:
    """Fill ``out`` int32[rows * cols, 8] for a board whose columns (``wrap_cols``) and rows
    (``wrap_rows``) may wrap: the square reached by move type t+1, or -1 when the move leaves
    a side that does not wrap, lands on its own square, or lands where an earlier move type
    of the same square already does (one edge per pair of squares). Where every wrapped side
    is longer than twice the longest leap, neither can happen and the checks are skipped."""
    reach = 0
    for t in range(8):
        reach = max(reach, abs(dcol[t]), abs(drow[t]))
    clash = (wrap_cols and cols <= 2 * reach) or (wrap_rows and rows <= 2 * reach)
    for r in range(rows):
        for c in range(cols):
            s = r * cols + c
            for t in range(8):
                cc = c + dcol[t]
                rr = r + drow[t]
                if wrap_cols and (cc < 0 or cc >= cols):     # no modulo on most squares
                    cc %= cols
                if wrap_rows and (rr < 0 or rr >= rows):
                    rr %= rows
                u = -1
                if 0 <= cc < cols and 0 <= rr < rows:
                    u = rr * cols + cc
                if clash:
                    if u == s:
                        u = -1
                    if u >= 0:
                        for t2 in range(t):
                            if out[s, t2] == u:
                                u = -1
                out[s, t] = u


@njit
def compact_table(nbr: np.ndarray, keep: np.ndarray, lst: np.ndarray, types: np.ndarray,
                  count: np.ndarray) -> None:
    """Fill ``lst``, ``types`` and ``count`` from ``nbr`` and ``keep`` (see the module
    docstring)."""
    n = nbr.shape[0]
    for s in range(n):
        k = 0
        for t in range(8):
            u = nbr[s, t]
            if u >= 0 and keep[u] != 0:
                lst[s, k] = u
                types[s, k] = t + 1
                k += 1
        count[s] = k
        for i in range(k, 8):
            lst[s, i] = -1
            types[s, i] = 0
