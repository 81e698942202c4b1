"""Warnsdorff walk kernels: greedy and backtracking, every tie rule of docs/spec.md §3.

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
2 Chebyshev). :func:`rank_candidates` (backtracking) uses the exact centre and Euclidean
distance only.
"""
from __future__ import annotations

import numpy as np

from .._jit import njit
from .rng import new_state, xorshift64

(TIE_PHADKE, TIE_FIRST, TIE_LAST, TIE_RANDOM, TIE_CENTER_FAR, TIE_LOOKAHEAD, TIE_POHL,
 TIE_POHL_RANDOM, TIE_CENTER_FAR_RANDOM) = range(9)
#: the codes :func:`greedy_walk` knows (the low 8 bits of ``tie``)
N_TIE_CODES = 9
CENTRES = ("exact", "one-based", "far")
METRICS = ("euclid", "manhattan", "chebyshev")


def roth_code(residual_random: bool, centre: int = 0, metric: int = 0) -> int:
    """The ``tie`` code of a centre rule with a centre and a distance of :data:`CENTRES` /
    :data:`METRICS` (indices); see the module docstring."""
    if not (0 <= centre < len(CENTRES) and 0 <= metric < len(METRICS)):
        raise ValueError(f"centre must be 0..{len(CENTRES) - 1}, metric 0..{len(METRICS) - 1}")
    base = TIE_CENTER_FAR_RANDOM if residual_random else TIE_CENTER_FAR
    return base | (int(centre) << 8) | (int(metric) << 12)

DC = np.array([2, 1, -1, -2, -2, -1, 1, 2], dtype=np.int64)
DR = np.array([-1, -2, -2, -1, 1, 2, 2, 1], dtype=np.int64)
SHIFT = 40
SALT = 0x2545F4914F6CDD1D


@njit
def init_outlets(rows: int, cols: int, outlets: np.ndarray) -> None:
    """Fill ``outlets[sq]`` (int32[rows * cols]) with the number of knight moves from each
    square (empty board)."""
    for r in range(rows):
        for c in range(cols):
            n = 0
            for t in range(8):
                cc = c + DC[t]
                rr = r + DR[t]
                if 0 <= cc < cols and 0 <= rr < rows:
                    n += 1
            outlets[r * cols + c] = n


@njit
def mark(sq: int, rows: int, cols: int, visited: np.ndarray, outlets: np.ndarray, on: int) -> None:
    """Mark ``sq`` visited (``on`` = 1) or free again (``on`` = 0) and move the outlets of
    its neighbours down or up by one. ``visited`` uint8[rows * cols], ``outlets``
    int32[rows * cols] (:func:`init_outlets`)."""
    visited[sq] = on
    delta = -1 if on else 1
    c = sq % cols
    r = sq // cols
    for t in range(8):
        cc = c + DC[t]
        rr = r + DR[t]
        if 0 <= cc < cols and 0 <= rr < rows:
            outlets[rr * cols + cc] += delta


@njit
def rank_candidates(q: int, rows: int, cols: int, visited: np.ndarray, outlets: np.ndarray,
                    score: np.ndarray, tie: int, order_pos: np.ndarray, rng: np.ndarray,
                    out_sq: np.ndarray, out_key: np.ndarray) -> int:
    """Candidates of the knight on ``q`` sorted by key (best first). Returns their number.

    ``score[sq] >= 0`` overrides the outlets of ``sq`` (corner dash); an empty ``score``
    means no overrides. ``visited`` > 0 excludes a square (visited or reserved).

    ``visited`` uint8[N], ``outlets`` int32[N] (see :func:`mark`), ``score`` int8[N] or
    int8[0]; ``tie``: a ``TIE_*`` code; ``order_pos`` int64[8]: position of each move-type
    index in the move order; ``rng`` uint64[1] (:mod:`.rng`); ``out_sq``, ``out_key``
    int64[8] receive the candidates and their keys.
    """
    n = 0
    c = q % cols
    r = q // cols
    have_score = score.shape[0] > 0
    for t in range(8):
        cc = c + DC[t]
        rr = r + DR[t]
        if cc < 0 or cc >= cols or rr < 0 or rr >= rows:
            continue
        s = rr * cols + cc
        if visited[s]:
            continue
        o = np.int64(outlets[s])
        if have_score and score[s] >= 0:
            o = np.int64(score[s])
        base = tie & 0xFF
        if base == 0:
            sec = np.int64(7 - t)
        elif base == 1:
            sec = order_pos[t]
        elif base == 2:
            sec = np.int64(7) - order_pos[t]
        elif base == 3:
            sec = np.int64(xorshift64(rng) >> np.uint64(40)) * 8 + order_pos[t]
        elif base == 4 or base == 8:
            dx = 2 * cc - (cols - 1)
            dy = 2 * rr - (rows - 1)
            far = np.int64(cols) * cols + np.int64(rows) * rows
            sec = far - (np.int64(dx) * dx + np.int64(dy) * dy)
            if base == 8:   # 16 random bits between the distance and the order
                sec = (sec << 19) | (np.int64(xorshift64(rng) >> np.uint64(48)) << 3)
            else:
                sec = sec << 3
            sec += order_pos[t]
        else:
            best = np.int64(15)
            total = np.int64(0)
            for u in range(8):
                c2 = cc + DC[u]
                r2 = rr + DR[u]
                if 0 <= c2 < cols and 0 <= r2 < rows:
                    s2 = r2 * cols + c2
                    if visited[s2] == 0:
                        v = np.int64(outlets[s2]) - 1  # s will be visited by then
                        total += v
                        if v < best:
                            best = v
            if base == 5:
                sec = best * 8 + order_pos[t]
            elif base == 6:
                sec = total * 8 + order_pos[t]
            else:
                sec = ((total << 24) | np.int64(xorshift64(rng) >> np.uint64(40))) * 8 \
                    + order_pos[t]
        key = (o << SHIFT) | sec
        # insertion sort (at most 8 items)
        j = n
        while j > 0 and out_key[j - 1] > key:
            out_key[j] = out_key[j - 1]
            out_sq[j] = out_sq[j - 1]
            j -= 1
        out_key[j] = key
        out_sq[j] = s
        n += 1
    return n


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
    cnt[q] = 100
    o0 = off[prio[0]]
    o1 = off[prio[1]]
    o2 = off[prio[2]]
    o3 = off[prio[3]]
    o4 = off[prio[4]]
    o5 = off[prio[5]]
    o6 = off[prio[6]]
    o7 = off[prio[7]]
    for t in range(8):
        cnt[q + off[t]] -= 1
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
        cnt[q] = 100
        for t in range(8):
            cnt[q + off[t]] -= 1
        path[m] = (q // W - 2) * cols + (q % W - 2)
        m += 1
    return m


@njit
def greedy_walk(rows: int, cols: int, start: int, tie: int, order_pos: np.ndarray, seed: int,
                score: np.ndarray, path: np.ndarray, ties: np.ndarray) -> int:
    """One Warnsdorff walk from ``start`` without backtracking.

    Fills ``path[:m]`` and ``ties[:m]`` (1 where the move was chosen among tied candidates)
    and returns ``m``, the number of squares visited (``rows * cols`` on success).
    Works on a padded board (see ``_padded_state``): about 30 ns a move.

    ``tie``: a ``TIE_*`` code; ``order_pos`` int64[8]: position of each move-type index in the
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
        if base == 0:
            sec_t[t] = 7 - t
        elif base == 2:
            sec_t[t] = 7 - order_pos[t]
        else:
            sec_t[t] = order_pos[t]
    if base <= 2 and not have_score:
        prio = np.argsort(sec_t)
        return _greedy_ordered(rows, cols, start, prio, outlets, free, off, path, ties)
    centred = base == 4 or base == 8
    randomised = base == 3 or base == 7 or base == 8
    # centre in doubled coordinates (2c − cx2): exact, 1-based n/2, or half a square on;
    # the distance of a candidate is computed from its row and column (no table: at
    # 2000×2000 a table of keys is 32 MB to fill and read)
    mode = (tie >> 8) & 0xF
    metric = (tie >> 12) & 0xF
    cx2 = np.int64(cols - 1 if mode == 0 else (cols - 2 if mode == 1 else cols))
    cy2 = np.int64(rows - 1 if mode == 0 else (rows - 2 if mode == 1 else rows))
    rng = new_state(seed, SALT)
    # one byte a square: the outlet count, or ≥ 64 for a visited or off-board square (each
    # square loses at most 8 outlets, so 100 stays above 64): one load per candidate
    cnt = outlets
    for p in range(cnt.shape[0]):
        if free[p] == 0:
            cnt[p] = 100
    q = (start // cols + 2) * W + start % cols + 2
    qr = np.int64(start // cols)
    qc = np.int64(start % cols)
    cnt[q] = 100
    for t in range(8):
        cnt[q + off[t]] -= 1
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
            o = np.int64(cnt[s])
            if o >= 64:
                continue
            if have_score and pscore[s] >= 0:
                o = np.int64(pscore[s])
            if o > bo:
                continue
            # rule key k1, residual key k2 (random bits, then the order)
            k2 = sec_t[t]
            if randomised:
                k2 += np.int64(xorshift64(rng) >> np.uint64(40)) * 8
            if base <= 3:
                k1 = np.int64(0)
            elif centred:
                dx = abs(2 * (qc + DC[t]) - cx2)
                dy = abs(2 * (qr + DR[t]) - cy2)
                if metric == 1:
                    k1 = -(dx + dy)               # farther is better (smaller key)
                elif metric == 2:
                    k1 = -max(dx, dy)
                else:
                    k1 = -(dx * dx + dy * dy)
            else:
                la = np.int64(15)
                total = np.int64(0)
                for u in range(8):
                    s2 = s + off[u]
                    c2 = np.int64(cnt[s2])
                    if c2 < 64 and s2 != q:
                        v = c2 - 1
                        total += v
                        if v < la:
                            la = v
                k1 = la if base == 5 else total
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
        cnt[q] = 100
        for t in range(8):
            cnt[q + off[t]] -= 1
        path[m] = qr * cols + qc
        m += 1
    return m


@njit
def backtrack_walk(rows: int, cols: int, start: int, closed: bool, tie: int,
                   order_pos: np.ndarray, seed: int, score: np.ndarray, node_budget: int,
                   path: np.ndarray, ties: np.ndarray, stats: np.ndarray) -> int:
    """Depth-first search over Warnsdorff-ordered candidates with an explicit stack.

    Returns the number of squares in ``path`` (``rows * cols`` when a tour was found).
    ``stats[0]`` = nodes expanded, ``stats[1]`` = deepest depth reached (squares),
    ``stats[2]`` = 1 when a tour was found (``path`` holds it), else 0 (``path[:returned]``
    holds the stack where the search stopped).
    With ``closed`` the last square must be a knight move from ``start``.

    ``tie``, ``order_pos``, ``score``, ``path`` and ``ties`` as in :func:`greedy_walk`;
    ``stats`` int64[3] (output); ``node_budget``: most nodes to expand.
    """
    size = rows * cols
    visited = np.zeros(size, dtype=np.uint8)
    outlets = np.empty(size, dtype=np.int32)
    init_outlets(rows, cols, outlets)
    rng = new_state(seed, SALT)
    cand = np.empty((size, 8), dtype=np.int64)
    key = np.empty((size, 8), dtype=np.int64)
    ncand = np.zeros(size, dtype=np.int64)
    nxt = np.zeros(size, dtype=np.int64)
    sc = start % cols
    sr = start // cols
    mark(start, rows, cols, visited, outlets, 1)
    path[0] = start
    depth = 1  # number of squares on the path
    nodes = np.int64(0)
    best = 1
    ncand[0] = rank_candidates(start, rows, cols, visited, outlets, score, tie, order_pos,
                               rng, cand[0], key[0])
    nxt[0] = 0
    while True:
        if depth == size:
            if not closed:
                break
            lc = path[depth - 1] % cols
            lr = path[depth - 1] // cols
            dc = abs(lc - sc)
            dr = abs(lr - sr)
            if (dc == 1 and dr == 2) or (dc == 2 and dr == 1):
                break
            # not closed: undo the last square and go on
            depth -= 1
            mark(path[depth], rows, cols, visited, outlets, 0)
            continue
        lvl = depth - 1
        if nxt[lvl] >= ncand[lvl] or nodes >= node_budget:
            if depth == 1 or nodes >= node_budget:
                stats[0] = nodes
                stats[1] = best
                stats[2] = 0
                return depth
            depth -= 1
            mark(path[depth], rows, cols, visited, outlets, 0)
            continue
        i = nxt[lvl]
        nxt[lvl] += 1
        s = cand[lvl, i]
        ties[depth] = 1 if (ncand[lvl] > 1 and (key[lvl, 0] >> SHIFT) == (key[lvl, 1] >> SHIFT)) else 0
        mark(s, rows, cols, visited, outlets, 1)
        path[depth] = s
        depth += 1
        nodes += 1
        if depth > best:
            best = depth
        if depth < size:
            if closed and outlets[start] == 0:
                # no unvisited square is left next to the start: the tour cannot close
                ncand[depth - 1] = 0
            else:
                ncand[depth - 1] = rank_candidates(s, rows, cols, visited, outlets, score,
                                                   tie, order_pos, rng, cand[depth - 1],
                                                   key[depth - 1])
            nxt[depth - 1] = 0
    stats[0] = nodes
    stats[1] = best
    stats[2] = 1
    return depth
