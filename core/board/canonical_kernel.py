"""Canonical forms of many tours at once (numba): the work of
:func:`knightgui_core.board.canonical.canonical_rows`, about twenty times faster than its numpy
version, for the window's "new tours only" stepping over hundreds of thousands of tours.

:func:`canonical_rows_kernel` fills ``out`` int64[m, N] from ``paths`` int64[m, N] (squares
``0 <= s < S``), ``maps`` int64[k, S] (row g: the image of each square under the board's g-th
symmetry) and ``cycle`` uint8[m] (row i is a closed tour of the whole board): for each row,
the lexicographically smallest of its images under every map, each image read both ways (an
open path) or from square 0 both ways round (a cycle). A cycle row must hold square 0. The
public wrapper checks shapes, dtypes and ranges; this kernel trusts them.
"""
from __future__ import annotations

import numpy as np

from ..system.jit import njit


@njit
def canonical_rows_kernel(paths: np.ndarray, maps: np.ndarray, cycle: np.ndarray,
                          out: np.ndarray) -> None:
    """Fill ``out`` (see the module docstring)."""
    m, n = paths.shape
    k = maps.shape[0]
    q = np.empty(n, dtype=np.int64)
    cand = np.empty(n, dtype=np.int64)
    for i in range(m):
        have = np.int64(0)
        for g in range(k):
            z = np.int64(0)
            for t in range(n):
                v = maps[g, paths[i, t]]
                q[t] = v
                if v == 0:
                    z = t
            for way in range(2):
                # the image read forwards (way 0) or backwards (way 1); a cycle from square 0
                for t in range(n):
                    if cycle[i] != 0:
                        cand[t] = q[(z + t) % n] if way == 0 else q[(z - t + n) % n]
                    else:
                        cand[t] = q[t] if way == 0 else q[n - 1 - t]
                better = have == 0
                if have != 0:
                    for t in range(n):
                        if cand[t] != out[i, t]:
                            better = cand[t] < out[i, t]
                            break
                if better:
                    for t in range(n):
                        out[i, t] = cand[t]
                    have = np.int64(1)
