"""Warnsdorff walk kernels: the greedy walk, every tie rule of docs/spec.md §3 (the
backtracking walk, which ranks candidates with the same keys, is
:mod:`knightgui_core.walks.backtrack_kernel`).

numba only; arrays and ints in, arrays and ints out. Neighbours are computed arithmetically
(no [N, 8] table), so a 1000×1000 walk touches a few MB. Outlet counts are kept up to date
incrementally: visiting a square lowers the count of each of its (≤ 8) neighbours by one.

Ranking key of a candidate (smaller is better), an int64:
``score << 40 | secondary`` where ``score`` is its outlets (or the dash override) and
``secondary`` breaks ties by the rule:

====  ============  ==========================================================
code  rule          secondary key
====  ============  ==========================================================
0     phadke        7 − move type index (highest type first)
1     first         position of the type in the order
2     last          7 − position in the order
3     random        random 24 bits, then position in the order
4     center-far    (max distance − squared distance from centre), then order
5     lookahead     fewest outlets among its own onward candidates, then order
6     pohl          smallest sum of onward exits of its unvisited neighbours,
                    then order (Ganzfried's reading of Pohl 1967)
7     pohl-random   the same sum, then random, then order
8     center-far-r  farthest from the centre, then random, then order
====  ============  ==========================================================

:func:`greedy_walk` compares the keys lexicographically, (outlets, rule key, residual key),
so no key can overflow on any board size. The centre rules (4, 8) read two more fields from
the high bits of ``tie`` (:func:`roth_code`): bits 8–11 the centre (0 the exact centre,
1 the 1-based ``(n/2, n/2)`` of an even board, i.e. half a square towards a1, 2 half a
square towards the far corner) and bits 12–15 the distance (0 Euclidean, 1 Manhattan,
2 Chebyshev). The backtracking walk's ``rank_candidates`` uses the exact centre and
Euclidean distance only.
"""
from __future__ import annotations

import numpy as np

from ..board.tie_rule import TieRule
from ..system.jit import njit
from ..system.rng_kernel import new_state, xorshift64

#: the codes :func:`greedy_walk` knows (the low 8 bits of ``tie``): TieRule.PHADKE … CENTER_FAR_RANDOM
N_TIE_CODES = int(TieRule.CENTER_FAR_RANDOM) + 1
CENTRES = ("exact", "one-based", "far")
METRICS = ("euclid", "manhattan", "chebyshev")


def roth_code(residual_random: bool, centre: int = 0, metric: int = 0) -> int:
    """The ``tie`` code of a centre rule with a centre and a distance of :data:`CENTRES` /
    :data:`METRICS` (indices); see the module docstring."""
    if not (0 <= centre < len(CENTRES) and 0 <= metric < len(METRICS)):
        raise ValueError(f"centre must be 0..{len(CENTRES) - 1}, metric 0..{len(METRICS) - 1}")
    base = TieRule.CENTER_FAR_RANDOM if residual_random else TieRule.CENTER_FAR
    return int(base) | (int(centre) << 8) | (int(metric) << 12)

DC = np.array([2, 1, -1, -2, -2, -1, 1, 2], dtype=np.int64)
DR = np.array([-1, -2, -2, -1, 1, 2, 2, 1], dtype=np.int64)
SHIFT = 40
SALT = 0x2545F4914F6CDD1D


@njit
def _padded_state(rows, cols, score):
    """Board with a two-square frame: ``free[p]`` is 1 for on-board squares, ``outlets[p]``
    their outlet counts, ``pscore[p]`` the dash override (−1 none). Neighbours of ``p`` are
    ``p + off[t]`` with no bounds checks."""
    W = cols + 4
    H = rows + 4
    free = np.zeros(W * H, dtype=np.uint8)
    outlets = np.zeros(W * H, dtype=np.int8)
    pscore = np.full(W * H if score.shape[0] > 0 else 0, -1, dtype=np.int8)
    for r in range(rows):
        base = (r + 2) * W + 2
        for c in range(cols):
            free[base + c] = 1
            if score.shape[0] > 0:
                pscore[base + c] = score[r * cols + c]
    off = np.empty(8, dtype=np.int64)
    for t in range(8):
        off[t] = DR[t] * W + DC[t]
    for r in range(rows):
        base = (r + 2) * W + 2
        for c in range(cols):
            p = base + c
            n = 0
            for t in range(8):
                n += free[p + off[t]]
            outlets[p] = n
    return free, outlets, pscore, off


@njit
def _visit(q, cnt, off):
    """Mark the padded square ``q`` visited (its byte to 100) and take one outlet from each
    of its neighbours (``cnt`` the int8 padded board, ``off`` int64[8] neighbour offsets)."""
    cnt[q] = 100
    for t in range(8):
        cnt[q + off[t]] -= 1


@njit
def _greedy_ordered(rows, cols, start, prio, outlets, free, off, path, ties):
    """The greedy walk for the fixed-priority rules (phadke, first, last) without dashes:
    candidates are scanned in priority order and the first with the fewest outlets wins.
    ``cnt`` folds "visited or off the board" into the outlet count (≥ 64), so each candidate
    costs one load. Returns the number of squares visited."""
    size = rows * cols
    W = cols + 4
    cnt = np.empty(outlets.shape[0], dtype=np.int8)
    for p in range(cnt.shape[0]):
        cnt[p] = outlets[p] if free[p] else 100
    q = (start // cols + 2) * W + start % cols + 2
    _visit(q, cnt, off)
    o0 = off[prio[0]]
    o1 = off[prio[1]]
    o2 = off[prio[2]]
    o3 = off[prio[3]]
    o4 = off[prio[4]]
    o5 = off[prio[5]]
    o6 = off[prio[6]]
    o7 = off[prio[7]]
    path[0] = start
    ties[0] = 0
    m = 1
    while m < size:
        best = q + o0
        bo = cnt[best]
        nb = 1
        for oo in (o1, o2, o3, o4, o5, o6, o7):
            s = q + oo
            o = cnt[s]
            if o < bo:
                bo = o
                best = s
                nb = 1
            elif o == bo:
                nb += 1
        if bo >= 9:
            break
        ties[m] = 1 if nb > 1 else 0
        q = best
        _visit(q, cnt, off)
        path[m] = (q // W - 2) * cols + (q % W - 2)
        m += 1
    return m


@njit
def _centre_key(c: int, r: int, cx2: int, cy2: int, metric: int) -> int:
    """Rule key of the centre rules for the square at column ``c``, row ``r`` (smaller is
    better: farther from the centre ``(cx2 / 2, cy2 / 2)``, doubled coordinates)."""
    dx = abs(2 * c - cx2)
    dy = abs(2 * r - cy2)
    if metric == 1:
        return -(dx + dy)
    if metric == 2:
        return -max(dx, dy)
    return -(dx * dx + dy * dy)


@njit
def _greedy_centre(rows, cols, start, sec_t, cnt, off, cx2, cy2, metric, path, ties):
    """The greedy walk for the centre rule with a fixed residual order and no dashes: the
    fewest outlets; among tied candidates the farthest from the centre, then the order. The
    distance is computed only when a tie is met. ``cnt`` as in :func:`_greedy_ordered`
    (visited or off the board ≥ 64). Returns the number of squares visited."""
    size = rows * cols
    W = cols + 4
    q = (start // cols + 2) * W + start % cols + 2
    qr = np.int64(start // cols)
    qc = np.int64(start % cols)
    _visit(q, cnt, off)
    path[0] = start
    ties[0] = 0
    m = 1
    while m < size:
        bo = 64
        bt = -1
        nb = 0
        bk = np.int64(0)
        have_k = False
        for t in range(8):
            o = cnt[q + off[t]]
            if o > bo:
                continue
            if o < bo:
                bo = o
                bt = t
                nb = 1
                have_k = False
                continue
            nb += 1
            if not have_k:
                bk = _centre_key(qc + DC[bt], qr + DR[bt], cx2, cy2, metric)
                have_k = True
            k = _centre_key(qc + DC[t], qr + DR[t], cx2, cy2, metric)
            if k < bk or (k == bk and sec_t[t] < sec_t[bt]):
                bt = t
                bk = k
        if bt < 0:
            break
        ties[m] = 1 if nb > 1 else 0
        q += off[bt]
        qr += DR[bt]
        qc += DC[bt]
        _visit(q, cnt, off)
        path[m] = qr * cols + qc
        m += 1
    return m


@njit
def greedy_walk(rows: int, cols: int, start: int, tie: int, order_pos: np.ndarray, seed: int,
                score: np.ndarray, path: np.ndarray, ties: np.ndarray) -> int:
    """One Warnsdorff walk from ``start`` without backtracking.

    Fills ``path[:m]`` and ``ties[:m]`` (1 where the move was chosen among tied candidates)
    and returns ``m``, the number of squares visited (``rows * cols`` on success).
    Works on a padded board (see ``_padded_state``): about 30 ns a move.

    ``tie``: a :class:`TieRule` code; ``order_pos`` int64[8]: position of each move-type index in the
    move order; ``score`` int8[rows * cols] dash overrides (-1 none) or int8[0]; ``path``
    int32[rows * cols] and ``ties`` uint8[rows * cols] (outputs).
    """
    size = rows * cols
    W = cols + 4
    free, outlets, pscore, off = _padded_state(rows, cols, score)
    have_score = pscore.shape[0] > 0
    # secondary keys that do not change during the walk
    base = tie & 0xFF
    sec_t = np.empty(8, dtype=np.int64)
    for t in range(8):
        if base == TieRule.PHADKE:
            sec_t[t] = 7 - t
        elif base == TieRule.LAST:
            sec_t[t] = 7 - order_pos[t]
        else:
            sec_t[t] = order_pos[t]
    if base <= TieRule.LAST and not have_score:
        prio = np.argsort(sec_t)
        return _greedy_ordered(rows, cols, start, prio, outlets, free, off, path, ties)
    centred = base == TieRule.CENTER_FAR or base == TieRule.CENTER_FAR_RANDOM
    randomised = (base == TieRule.RANDOM or base == TieRule.POHL_RANDOM
                  or base == TieRule.CENTER_FAR_RANDOM)
    # centre in doubled coordinates (2c − cx2): exact, 1-based n/2, or half a square on;
    # the distance of a candidate is computed from its row and column (no table: at
    # 2000×2000 a table of keys is 32 MB to fill and read)
    mode = (tie >> 8) & 0xF
    metric = (tie >> 12) & 0xF
    cx2 = np.int64(cols - 1 if mode == 0 else (cols - 2 if mode == 1 else cols))
    cy2 = np.int64(rows - 1 if mode == 0 else (rows - 2 if mode == 1 else rows))
    rng = new_state(seed, SALT)
    if base == TieRule.CENTER_FAR and not have_score:
        # one byte a square: the outlet count, or ≥ 64 for a visited or off-board square
        # (a square loses at most 8 outlets, so 100 stays above 64)
        cnt = outlets
        for p in range(cnt.shape[0]):
            if free[p] == 0:
                cnt[p] = 100
        return _greedy_centre(rows, cols, start, sec_t, cnt, off, cx2, cy2, metric, path, ties)
    q = (start // cols + 2) * W + start % cols + 2
    qr = np.int64(start // cols)
    qc = np.int64(start % cols)
    free[q] = 0
    for t in range(8):
        outlets[q + off[t]] -= 1
    path[0] = start
    ties[0] = 0
    m = 1
    while m < size:
        best = np.int64(-1)
        bt = 0
        bk1 = np.int64(0)
        bk2 = np.int64(0)
        bo = 99
        nbest = 0
        for t in range(8):
            s = q + off[t]
            if free[s] == 0:
                continue
            o = np.int64(outlets[s])
            if have_score and pscore[s] >= 0:
                o = np.int64(pscore[s])
            if o > bo:
                continue
            # rule key k1, residual key k2 (random bits, then the order)
            k2 = sec_t[t]
            if randomised:
                k2 += np.int64(xorshift64(rng) >> np.uint64(40)) * 8
            if base <= TieRule.RANDOM:
                k1 = np.int64(0)
            elif centred:
                k1 = _centre_key(qc + DC[t], qr + DR[t], cx2, cy2, metric)
            else:
                la = np.int64(15)
                total = np.int64(0)
                for u in range(8):
                    s2 = s + off[u]
                    if free[s2] and s2 != q:
                        v = np.int64(outlets[s2]) - 1
                        total += v
                        if v < la:
                            la = v
                k1 = la if base == TieRule.LOOKAHEAD else total
            if o < bo:
                bo = o
                nbest = 1
            else:
                nbest += 1
                if k1 > bk1 or (k1 == bk1 and k2 >= bk2):
                    continue
            bk1 = k1
            bk2 = k2
            best = s
            bt = t
        if best < 0:
            break
        ties[m] = 1 if nbest > 1 else 0
        q = best
        qr += DR[bt]
        qc += DC[bt]
        free[q] = 0
        for t in range(8):
            outlets[q + off[t]] -= 1
        path[m] = qr * cols + qc
        m += 1
    return m
