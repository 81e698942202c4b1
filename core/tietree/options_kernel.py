"""The options matrix of one enumeration solution, rebuilt from its path (numba).

The window keeps only the squares of the solutions it finds (:mod:`knightgui_core.tietree.keep_kernel`)
and rebuilds a solution's options matrix when it is shown. The matrix follows from the path:
at number k the search stood on ``path[k]`` with the squares ``path[1..k]`` taken; the moves
tied for the best Warnsdorff score there are the same as when the search first came there,
the highest tied slot was taken first, and a backtrack takes the highest stored option
next. So while ``path[k + 1]`` is the move in slot ``s``, the row of number k holds exactly
the tied move types of the slots below ``s``, ascending — what the search's own ``mo[k]``
holds at that solution (column 0, the search's option count, is left 0).

Both kernels walk the path forward with the scores of
:func:`knightgui_core.tietree.enumerate_kernel.advance_kernel` (``key``) and
:func:`knightgui_core.tietree.bitboard_kernel.advance_bits` (bitboards), written out here:
numba's cache of this file would not notice an edit to a kernel in another file.
``tests/core/test_options_replay.py`` checks them against the search's matrices.
"""
from __future__ import annotations

import numpy as np

from ..system.jit import njit, trailing_zeros

BLOCKED = 1 << 20          # knightgui_core.tietree.enumerate_kernel.BLOCKED (checked by the tests)


@njit(inline="always")
def _popcount(x):
    """Set bits of a uint64 (inlined: see :mod:`knightgui_core.tietree.keep_kernel`)."""
    n = 0
    while x:
        x &= x - np.uint64(1)
        n += 1
    return n


@njit(inline="always")
def _stored_options(out, k, mask, chosen, ntype, q):
    """Row ``k`` of the matrix: the move types of the tied slots (bits of ``mask``) below the
    slot ``chosen`` taken, ascending, in columns 1, 2, …"""
    n = 0
    for i in range(chosen):
        if (mask >> i) & 1:
            n += 1
            out[k, n] = ntype[q, i]


@njit
def options_rows(nl: np.ndarray, ntype: np.ndarray, ncount: np.ndarray, dl: np.ndarray,
                 dcount: np.ndarray, key0: np.ndarray, tour: np.ndarray, L: int,
                 out: np.ndarray) -> int:
    """Write the options matrix of the solution whose numbers 1..L stand on
    ``tour[0..L-1]`` into ``out`` int8[L + 1, 8] (zeroed by the caller). Tables as in
    :func:`knightgui_core.tietree.enumerate_kernel.advance_kernel` (``nl``, ``dl`` int32[N, 8],
    ``ntype`` int8[N, 8], ``ncount``, ``dcount`` int32[N]); ``key0`` int32[N] the scores with
    only the start numbered (``new_state``); ``tour`` int32[>= L]. Returns 0, or the number
    k whose next move is not one the search takes there (then ``out`` is partly written)."""
    key = key0.copy()
    for k in range(1, L):
        q = tour[k - 1]
        c = tour[k]
        best = BLOCKED - 1
        mask = 0
        chosen = -1
        for i in range(ncount[q]):
            s = nl[q, i]
            sc = key[s]
            lt = 1 if sc < best else 0
            le = 1 if sc <= best else 0
            mask = (mask * (1 - lt)) | (le << i)
            best = min(best, sc)
            if s == c:
                chosen = i
        if chosen < 0 or (mask >> chosen) & 1 == 0:
            return k
        _stored_options(out, k, mask, chosen, ntype, q)
        key[c] += BLOCKED
        for i in range(dcount[c]):
            key[dl[c, i]] -= 1
    return 0


@njit
def options_rows_bits(tslot: np.ndarray, ntype: np.ndarray, att: np.ndarray,
                      masks: np.ndarray, bits0: np.ndarray, tour: np.ndarray, L: int,
                      out: np.ndarray) -> int:
    """:func:`options_rows` for the bitboard search of
    :func:`knightgui_core.tietree.bitboard_kernel.advance_bits` (boards of at most 64 squares):
    ``tslot`` int8[N, N], ``ntype`` int8[N, 8], ``att`` uint64[N], ``masks`` uint64[2]
    (dashed cells, end squares) as there, ``bits0`` uint64[2] the (unvisited, candidate)
    squares with only the start numbered (``initial_bits``). Same ``tour``, ``out`` and
    return."""
    one = np.uint64(1)
    dash = masks[0]
    free = bits0[0]
    avail = bits0[1]
    for k in range(1, L):
        q = tour[k - 1]
        c = tour[k]
        best = 99
        mask = 0
        cand = att[q] & avail
        if (cand >> np.uint64(c)) & one == 0:
            return k
        while cand:
            u = trailing_zeros(cand)
            cand &= cand - one
            i = tslot[q, u]
            sc = _popcount(att[u] & free)
            if dash != 0 and (dash >> np.uint64(u)) & one:
                sc = 1
            lt = 1 if sc < best else 0
            le = 1 if sc <= best else 0
            mask = (mask * (1 - lt)) | (le << i)
            best = min(best, sc)
        chosen = tslot[q, c]
        if (mask >> chosen) & 1 == 0:
            return k
        _stored_options(out, k, mask, chosen, ntype, q)
        b = ~(one << np.uint64(c))
        free &= b
        avail &= b
    return 0
