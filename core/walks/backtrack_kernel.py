"""The backtracking Warnsdorff walk (a tour from any start when one exists on small
boards): candidates ranked with the keys of :mod:`knightgui_core.walks.walk_kernel` (see its
docstring for the tie codes), tried best first, undone on a dead end, within a node budget.

numba only; arrays and ints in, arrays and ints out; neighbours are computed arithmetically
and outlet counts kept up to date incrementally (:func:`mark`).
"""
from __future__ import annotations

import numpy as np

from ..board.tie_rule import TieRule
from ..system.jit import njit
from ..system.rng_kernel import new_state, xorshift64
from .walk_kernel import DC, DR, SALT, SHIFT


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
    int8[0]; ``tie``: a :class:`TieRule` code; ``order_pos`` int64[8]: position of each move-type
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
        if base == TieRule.PHADKE:
            sec = np.int64(7 - t)
        elif base == TieRule.FIRST:
            sec = order_pos[t]
        elif base == TieRule.LAST:
            sec = np.int64(7) - order_pos[t]
        elif base == TieRule.RANDOM:
            sec = np.int64(xorshift64(rng) >> np.uint64(40)) * 8 + order_pos[t]
        elif base == TieRule.CENTER_FAR or base == TieRule.CENTER_FAR_RANDOM:
            dx = 2 * cc - (cols - 1)
            dy = 2 * rr - (rows - 1)
            far = np.int64(cols) * cols + np.int64(rows) * rows
            sec = far - (np.int64(dx) * dx + np.int64(dy) * dy)
            if base == TieRule.CENTER_FAR_RANDOM:   # 16 random bits between the distance and the order
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
            if base == TieRule.LOOKAHEAD:
                sec = best * 8 + order_pos[t]
            elif base == TieRule.POHL:
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
