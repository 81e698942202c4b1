"""Warnsdorff walks over a neighbour table: every board and piece (a cylinder, a torus, any
(a, b)-leaper), every tie rule of :mod:`knightgui_core.walks.walk_kernel`.

The knight on the plane has faster kernels (a padded board, neighbours by arithmetic); these
read the neighbour table ``nbr`` int32[N, 8] of :attr:`knightgui_core.board.squares.Board.neighbours`
(``nbr[s, t]`` the square reached by move type t+1, or -1), so wrapping edges and other
leaps cost nothing extra. On the knight's plane board they choose exactly what the other
kernels choose (same keys, same random draws; tests/core/test_table_walk.py holds them to it).

Keys of a candidate ``s`` reached by move type index ``t`` (compared in this order, smaller is
better): its outlets (the dash override ``score[s]`` when ``score[s] >= 0``), the rule key
(:func:`rule_key`: 0, the centre key or the look-ahead sum), then the residual key: the
rule's move-type key ``sec_t[t]``, with ``random 24 bits × 8`` added for the random rules.
The centre rules read the centre and the distance from the high bits of ``tie`` as
:func:`knightgui_core.walks.walk_kernel.roth_code` writes them; the centre is taken in the
board's coordinates whatever its edges.

numba only; arrays and ints in, arrays and ints out. The public wrapper
(:func:`knightgui_core.walks.solve.solve`) builds the table and checks the start.
"""
from __future__ import annotations

import numpy as np

from ..board.tie_rule import TieRule
from ..system.jit import njit
from ..system.rng_kernel import new_state, xorshift64
from .walk_kernel import SALT, _centre_key


@njit
def table_outlets(nbr: np.ndarray, free: np.ndarray, outlets: np.ndarray) -> None:
    """``outlets[s]`` (int32[N]) = number of free neighbours of each square (``free``
    uint8[N], 1 free)."""
    for s in range(nbr.shape[0]):
        n = 0
        for t in range(8):
            u = nbr[s, t]
            if u >= 0 and free[u]:
                n += 1
        outlets[s] = n


@njit
def table_visit(q: int, nbr: np.ndarray, free: np.ndarray, outlets: np.ndarray,
                on: int) -> None:
    """Mark ``q`` visited (``on`` 1) or free again (``on`` 0) and move its neighbours'
    outlets down or up by one."""
    free[q] = 1 - on
    delta = -1 if on else 1
    for t in range(8):
        u = nbr[q, t]
        if u >= 0:
            outlets[u] += delta


@njit
def move_keys(tie: int, order_pos: np.ndarray) -> np.ndarray:
    """``sec_t`` int64[8]: the rule's key of each move-type index (phadke: the highest type
    first; last: the order reversed; the others: the order)."""
    base = tie & 0xFF
    sec_t = np.empty(8, dtype=np.int64)
    for t in range(8):
        if base == TieRule.PHADKE:
            sec_t[t] = 7 - t
        elif base == TieRule.LAST:
            sec_t[t] = 7 - order_pos[t]
        else:
            sec_t[t] = order_pos[t]
    return sec_t


@njit
def centre_of(tie: int, rows: int, cols: int) -> tuple[int, int, int]:
    """``(cx2, cy2, metric)``: the centre in doubled coordinates and the distance code of a
    centre rule's ``tie``."""
    mode = (tie >> 8) & 0xF
    metric = (tie >> 12) & 0xF
    cx2 = cols - 1 if mode == 0 else (cols - 2 if mode == 1 else cols)
    cy2 = rows - 1 if mode == 0 else (rows - 2 if mode == 1 else rows)
    return cx2, cy2, metric


@njit
def rule_key(s: int, nbr: np.ndarray, free: np.ndarray, outlets: np.ndarray, base: int,
             cols: int, cx2: int, cy2: int, metric: int) -> int:
    """The rule key of candidate ``s`` (the walker's square already visited): 0 for the
    order and random rules, the centre key for Roth's, the fewest onward outlets
    (look-ahead) or their sum (Pohl) for the others."""
    if base <= TieRule.RANDOM:
        return np.int64(0)
    if base == TieRule.CENTER_FAR or base == TieRule.CENTER_FAR_RANDOM:
        return _centre_key(np.int64(s % cols), np.int64(s // cols), cx2, cy2, metric)
    la = np.int64(15)
    total = np.int64(0)
    for u in range(8):
        s2 = nbr[s, u]
        if s2 >= 0 and free[s2]:
            v = np.int64(outlets[s2]) - 1      # s will be visited by then
            total += v
            if v < la:
                la = v
    return la if base == TieRule.LOOKAHEAD else total


@njit
def _table_ordered(nbr: np.ndarray, start: int, prio: np.ndarray, path: np.ndarray,
                   ties: np.ndarray) -> int:
    """The walk of the fixed-priority rules (phadke, first, last) without overrides: the
    candidates in priority order, the first with the fewest outlets wins. One byte a square,
    its outlets or 100 once visited, so a candidate costs two loads."""
    n = nbr.shape[0]
    cnt = np.empty(n, dtype=np.int8)
    for s in range(n):
        k = 0
        for t in range(8):
            if nbr[s, t] >= 0:
                k += 1
        cnt[s] = k
    q = start
    cnt[q] = 100
    for t in range(8):
        u = nbr[q, t]
        if u >= 0:
            cnt[u] -= 1
    path[0] = start
    ties[0] = 0
    m = 1
    while m < n:
        best = -1
        bo = 100
        nb = 0
        for i in range(8):
            s = nbr[q, prio[i]]
            if s < 0:
                continue
            o = cnt[s]
            if o < bo:
                bo = o
                best = s
                nb = 1
            elif o == bo:
                nb += 1
        if bo >= 64:
            break
        ties[m] = 1 if nb > 1 else 0
        q = best
        cnt[q] = 100
        for t in range(8):
            u = nbr[q, t]
            if u >= 0:
                cnt[u] -= 1
        path[m] = q
        m += 1
    return m


@njit
def table_greedy_walk(nbr: np.ndarray, cols: int, start: int, tie: int,
                      order_pos: np.ndarray, seed: int, score: np.ndarray, path: np.ndarray,
                      ties: np.ndarray) -> int:
    """One Warnsdorff walk from ``start`` without backtracking on the board of ``nbr``
    (int32[N, 8], ``N`` a multiple of ``cols``).

    Fills ``path[:m]`` (int32[N]) and ``ties[:m]`` (uint8[N], 1 where the move was chosen
    among candidates tied on outlets) and returns ``m``, the squares visited (``N`` on
    success). ``tie``, ``order_pos`` (int64[8]), ``seed`` and ``score`` (int8[N] or int8[0])
    as in :func:`knightgui_core.walks.walk_kernel.greedy_walk`.
    """
    n = nbr.shape[0]
    rows = n // cols
    have_score = score.shape[0] > 0
    base = tie & 0xFF
    sec_t = move_keys(tie, order_pos)
    if base <= TieRule.LAST and not have_score:
        return _table_ordered(nbr, start, np.argsort(sec_t), path, ties)
    free = np.ones(n, dtype=np.uint8)
    outlets = np.empty(n, dtype=np.int32)
    table_outlets(nbr, free, outlets)
    randomised = (base == TieRule.RANDOM or base == TieRule.POHL_RANDOM
                  or base == TieRule.CENTER_FAR_RANDOM)
    cx2, cy2, metric = centre_of(tie, rows, cols)
    rng = new_state(seed, SALT)
    q = start
    table_visit(q, nbr, free, outlets, 1)
    path[0] = start
    ties[0] = 0
    m = 1
    while m < n:
        best = -1
        bk1 = np.int64(0)
        bk2 = np.int64(0)
        bo = np.int64(99)
        nbest = 0
        for t in range(8):
            s = nbr[q, t]
            if s < 0 or free[s] == 0:
                continue
            o = np.int64(outlets[s])
            if have_score and score[s] >= 0:
                o = np.int64(score[s])
            if o > bo:
                continue
            k2 = sec_t[t]
            if randomised:
                k2 += np.int64(xorshift64(rng) >> np.uint64(40)) * 8
            k1 = rule_key(s, nbr, free, outlets, base, cols, cx2, cy2, metric)
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
        if best < 0:
            break
        ties[m] = 1 if nbest > 1 else 0
        q = best
        table_visit(q, nbr, free, outlets, 1)
        path[m] = q
        m += 1
    return m


@njit
def table_rank(q: int, nbr: np.ndarray, free: np.ndarray, outlets: np.ndarray,
               score: np.ndarray, base: int, sec_t: np.ndarray, cols: int, cx2: int, cy2: int,
               metric: int, rng: np.ndarray, out_sq: np.ndarray, out_key: np.ndarray) -> int:
    """The free neighbours of ``q`` sorted best first by (outlets, rule key, residual key);
    returns their number. ``out_sq`` int64[8] receives them, ``out_key`` int64[8, 3] their
    keys. Every candidate draws its random bits (the random rules), as the knight's
    backtracking kernel does."""
    randomised = (base == TieRule.RANDOM or base == TieRule.POHL_RANDOM
                  or base == TieRule.CENTER_FAR_RANDOM)
    have_score = score.shape[0] > 0
    n = 0
    for t in range(8):
        s = nbr[q, t]
        if s < 0 or free[s] == 0:
            continue
        o = np.int64(outlets[s])
        if have_score and score[s] >= 0:
            o = np.int64(score[s])
        k2 = sec_t[t]
        if randomised:
            k2 += np.int64(xorshift64(rng) >> np.uint64(40)) * 8
        k1 = rule_key(s, nbr, free, outlets, base, cols, cx2, cy2, metric)
        j = n
        while j > 0 and (out_key[j - 1, 0] > o or (out_key[j - 1, 0] == o and (
                out_key[j - 1, 1] > k1 or (out_key[j - 1, 1] == k1 and out_key[j - 1, 2] > k2)))):
            out_key[j, 0] = out_key[j - 1, 0]
            out_key[j, 1] = out_key[j - 1, 1]
            out_key[j, 2] = out_key[j - 1, 2]
            out_sq[j] = out_sq[j - 1]
            j -= 1
        out_key[j, 0] = o
        out_key[j, 1] = k1
        out_key[j, 2] = k2
        out_sq[j] = s
        n += 1
    return n


#: fields of the backtracking search's state ``st`` (int64[8])
BT_DEPTH, BT_NODES, BT_BEST, BT_FOUND, BT_OVER, BT_BACKED, BT_DEAD, BT_LOW = range(8)


@njit
def backtrack_begin(nbr: np.ndarray, cols: int, start: int, tie: int, order_pos: np.ndarray,
                    seed: int, score: np.ndarray, free: np.ndarray, outlets: np.ndarray,
                    rng: np.ndarray, cand: np.ndarray, key: np.ndarray, ncand: np.ndarray,
                    nxt: np.ndarray, path: np.ndarray, ties: np.ndarray,
                    st: np.ndarray) -> None:
    """Start the backtracking search from ``start``: fill the state arrays (``free`` uint8[N],
    ``outlets`` int32[N], ``rng`` uint64[1], ``cand`` int64[N, 8], ``key`` int64[N, 8, 3],
    ``ncand``, ``nxt`` int64[N], ``path`` int32[N], ``ties`` uint8[N], ``st`` int64[8], see
    the ``BT_`` fields) for :func:`backtrack_run`."""
    rows = nbr.shape[0] // cols
    base = tie & 0xFF
    sec_t = move_keys(tie, order_pos)
    cx2, cy2, metric = centre_of(tie, rows, cols)
    rng[0] = new_state(seed, SALT)[0]
    for s in range(free.shape[0]):
        free[s] = 1
    table_outlets(nbr, free, outlets)
    for s in range(ncand.shape[0]):
        ncand[s] = 0
        nxt[s] = 0
    table_visit(start, nbr, free, outlets, 1)
    path[0] = start
    ties[0] = 0
    ncand[0] = table_rank(start, nbr, free, outlets, score, base, sec_t, cols, cx2, cy2,
                          metric, rng, cand[0], key[0])
    st[BT_DEPTH] = 1
    st[BT_NODES] = 0
    st[BT_BEST] = 1
    st[BT_FOUND] = 0
    st[BT_OVER] = 0
    st[BT_BACKED] = 0
    st[BT_DEAD] = 0
    st[BT_LOW] = 1


@njit
def backtrack_run(nbr: np.ndarray, cols: int, start: int, closed: bool, tie: int,
                  order_pos: np.ndarray, score: np.ndarray, node_budget: int, max_moves: int,
                  free: np.ndarray, outlets: np.ndarray, rng: np.ndarray, cand: np.ndarray,
                  key: np.ndarray, ncand: np.ndarray, nxt: np.ndarray, path: np.ndarray,
                  ties: np.ndarray, st: np.ndarray) -> None:
    """Go on with the search begun by :func:`backtrack_begin` for at most ``max_moves``
    forward moves (the watch makes one at a time), until a tour is found (``st[BT_FOUND]``
    1), the tree is exhausted or ``node_budget`` nodes are spent (``st[BT_OVER]`` 1). In
    ``st``, ``BT_BACKED`` counts the squares taken back in this call, ``BT_DEAD`` the dead
    ends met in all, ``BT_LOW`` the shortest the path became in this call."""
    size = nbr.shape[0]
    rows = size // cols
    base = tie & 0xFF
    sec_t = move_keys(tie, order_pos)
    cx2, cy2, metric = centre_of(tie, rows, cols)
    depth = st[BT_DEPTH]
    nodes = st[BT_NODES]
    best = st[BT_BEST]
    st[BT_BACKED] = 0
    st[BT_LOW] = depth
    moves = 0
    if st[BT_FOUND] or st[BT_OVER]:
        return
    while True:
        if depth == size:
            if not closed:
                st[BT_FOUND] = 1
                break
            last = path[depth - 1]
            closes = False
            for t in range(8):
                if nbr[last, t] == start:
                    closes = True
            if closes:
                st[BT_FOUND] = 1
                break
            st[BT_DEAD] += 1
            depth -= 1
            st[BT_BACKED] += 1
            table_visit(path[depth], nbr, free, outlets, 0)
            continue
        if moves >= max_moves:
            break
        lvl = depth - 1
        if nxt[lvl] >= ncand[lvl] or nodes >= node_budget:
            if depth == 1 or nodes >= node_budget:
                st[BT_OVER] = 1
                break
            if ncand[lvl] == 0:
                st[BT_DEAD] += 1             # a square with no way on
            depth -= 1
            st[BT_BACKED] += 1
            if depth < st[BT_LOW]:
                st[BT_LOW] = depth
            table_visit(path[depth], nbr, free, outlets, 0)
            continue
        i = nxt[lvl]
        nxt[lvl] += 1
        s = cand[lvl, i]
        ties[depth] = 1 if (ncand[lvl] > 1 and key[lvl, 0, 0] == key[lvl, 1, 0]) else 0
        table_visit(s, nbr, free, outlets, 1)
        path[depth] = s
        depth += 1
        nodes += 1
        moves += 1
        if depth > best:
            best = depth
        if depth < size:
            if closed and outlets[start] == 0:
                ncand[depth - 1] = 0
            else:
                ncand[depth - 1] = table_rank(s, nbr, free, outlets, score, base, sec_t, cols,
                                              cx2, cy2, metric, rng, cand[depth - 1],
                                              key[depth - 1])
            nxt[depth - 1] = 0
    st[BT_DEPTH] = depth
    st[BT_NODES] = nodes
    st[BT_BEST] = best


@njit
def table_backtrack_walk(nbr: np.ndarray, cols: int, start: int, closed: bool, tie: int,
                         order_pos: np.ndarray, seed: int, score: np.ndarray,
                         node_budget: int, path: np.ndarray, ties: np.ndarray,
                         stats: np.ndarray) -> int:
    """Depth-first search over Warnsdorff-ordered candidates (:func:`table_rank`) on the
    board of ``nbr``, with an explicit stack and a node budget; returns the squares on the
    path. ``stats`` int64[3]: nodes expanded, deepest depth, 1 when ``path`` holds a tour
    (closed: its last square is a move from ``start``). Arguments as in
    :func:`table_greedy_walk` and :func:`knightgui_core.walks.backtrack_kernel.backtrack_walk`.
    """
    size = nbr.shape[0]
    free = np.ones(size, dtype=np.uint8)
    outlets = np.empty(size, dtype=np.int32)
    rng = np.zeros(1, dtype=np.uint64)
    cand = np.empty((size, 8), dtype=np.int64)
    key = np.empty((size, 8, 3), dtype=np.int64)
    ncand = np.zeros(size, dtype=np.int64)
    nxt = np.zeros(size, dtype=np.int64)
    st = np.zeros(8, dtype=np.int64)
    backtrack_begin(nbr, cols, start, tie, order_pos, seed, score, free, outlets, rng, cand,
                    key, ncand, nxt, path, ties, st)
    backtrack_run(nbr, cols, start, closed, tie, order_pos, score, node_budget,
                  np.int64(1) << 62, free, outlets, rng, cand, key, ncand, nxt, path, ties, st)
    stats[0] = st[BT_NODES]
    stats[1] = st[BT_BEST]
    stats[2] = st[BT_FOUND]
    return st[BT_DEPTH]
