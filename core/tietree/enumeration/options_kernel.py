"""The options matrix of one enumeration solution, rebuilt from its path (numba).

The window keeps only the squares of its solutions
(:mod:`knightgui_core.tietree.enumeration.keep_kernel`) and rebuilds a matrix when it is shown.
At number k the search stood on ``path[k]`` with ``path[1..k]`` taken, so the moves tied
there are the ones it met first; it took the highest tied slot first and a backtrack takes
the highest stored option next, so while ``path[k + 1]`` is the move in slot ``s``, row k holds
the tied move types of the slots below ``s``, ascending: the search's own ``mo[k]`` at that
solution (column 0 left 0). Both kernels ask the search's own tie rule
(``tied_slots``, ``tied_slots_bits``, written in), so the replay cannot choose differently
(``tests/core/test_options_replay.py``).
"""
from __future__ import annotations

import numpy as np

from ...system.jit import njit
from .bitboard_kernel import tied_slots_bits
from .enumerate_kernel import BLOCKED, store_ties, tied_slots


@njit
def options_rows(nl: np.ndarray, ntype: np.ndarray, ncount: np.ndarray, dl: np.ndarray,
                 dcount: np.ndarray, key0: np.ndarray, tour: np.ndarray, L: int,
                 out: np.ndarray) -> int:
    """Write the options matrix of the solution whose numbers 1..L stand on
    ``tour[0..L-1]`` into ``out`` int8[L + 1, 8] (zeroed by the caller). Tables as in
    :func:`knightgui_core.tietree.enumeration.enumerate_kernel.advance_kernel` (``nl``, ``dl`` int32[N, 8],
    ``ntype`` int8[N, 8], ``ncount``, ``dcount`` int32[N]); ``key0`` int32[N] the scores with
    only the start numbered (``new_state``); ``tour`` int32[>= L]. Returns 0, or the number
    k whose next move is not one the search takes there (then ``out`` is partly written)."""
    key = key0.copy()
    for k in range(1, L):
        q = tour[k - 1]
        c = tour[k]
        mask = tied_slots(nl, ncount, key, q)
        chosen = -1
        for i in range(ncount[q]):
            if nl[q, i] == c:
                chosen = i
        if chosen < 0 or (mask >> chosen) & 1 == 0:
            return k
        store_ties(out, k, mask, chosen, ntype, q)
        key[c] += BLOCKED
        for i in range(dcount[c]):
            key[dl[c, i]] -= 1
    return 0


@njit
def options_rows_bits(tslot: np.ndarray, ntype: np.ndarray, att: np.ndarray,
                      masks: np.ndarray, bits0: np.ndarray, tour: np.ndarray, L: int,
                      out: np.ndarray) -> int:
    """:func:`options_rows` for the bitboard search: ``tslot`` int8[N, N], ``ntype``
    int8[N, 8], ``att`` uint64[N], ``masks`` uint64[2] (dashed cells, end squares), ``bits0``
    uint64[2] of ``initial_bits``; the same ``tour``, ``out`` and return."""
    one = np.uint64(1)
    dash = masks[0]
    free = bits0[0]
    avail = bits0[1]
    for k in range(1, L):
        q = tour[k - 1]
        c = tour[k]
        if ((att[q] & avail) >> np.uint64(c)) & one == 0:
            return k
        mask = tied_slots_bits(tslot, att, q, free, avail, dash)
        chosen = tslot[q, c]
        if (mask >> chosen) & 1 == 0:
            return k
        store_ties(out, k, mask, chosen, ntype, q)
        b = ~(one << np.uint64(c))
        free &= b
        avail &= b
    return 0
