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

numba only; arrays and ints in, arrays and ints out. The backtracking search over the
same keys is :mod:`knightgui_core.walks.table_backtrack_kernel`. The public wrapper
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
