"""Batch of greedy Warnsdorff walks for the tie-break study: many (board side, start) jobs
with one tie rule, in parallel. Each job is one call of the single-tour kernel
:func:`core.kernels.walk.greedy_walk` (the same walk ``core.solve.solve(method="greedy")``
makes), so the study and the solver cannot disagree.
"""
from __future__ import annotations

import numpy as np

from core._jit import njit, prange
from core.kernels.walk import greedy_walk


@njit(parallel=True)
def greedy_jobs(sides, starts, tie, order_pos, seed, out_len, out_end):
    """Walk job ``j`` on a ``sides[j]`` × ``sides[j]`` board from flat square ``starts[j]``.

    sides      int64[J]   board side of each job
    starts     int64[J]   start square (``row * side + col``)
    tie        int        tie rule code (``core.rules.TIE_CODES``)
    order_pos  int64[8]   position of each move type in the order (``order_positions``)
    seed       int        seed for the ``random`` rule (same meaning as in ``solve``)
    out_len    int64[J]   squares visited (``side²`` when the walk completed)
    out_end    int64[J]   the last square of the walk (where it got stuck)
    """
    score = np.zeros(0, dtype=np.int8)
    for j in prange(sides.shape[0]):
        n = sides[j]
        path = np.empty(n * n, dtype=np.int32)
        ties = np.empty(n * n, dtype=np.uint8)
        m = greedy_walk(n, n, starts[j], tie, order_pos, seed, score, path, ties)
        out_len[j] = m
        out_end[j] = path[m - 1]
