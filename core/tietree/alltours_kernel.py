"""Counting every knight's path from a start, not only Warnsdorff's (a dynamic program).

The number of ways to finish a path depends only on the knight's square and the set of
unvisited squares, so the count is a dynamic program over those states: a depth-first search
whose finished nodes are kept in a table (the layout of
:mod:`knightgui_core.tietree.memo_kernel`: the whole key in each entry, so a collision can only
miss) and added at once when met again. Two cuts keep the search among states that can still
finish:

* an unvisited square that is not next to the knight and has no unvisited neighbour can never
  be reached: the state is dead;
* an unvisited square that is not next to the knight and has one unvisited neighbour can only
  be the last square of the path: two of them and the state is dead.

The degrees of the unvisited squares, and how many have 0 and 1, are kept up to date move by
move (eight squares a move), so the cuts cost a look at the knight's neighbours, not a pass
over the board.

Arrays (``N`` squares, at most 128):

* ``att``   uint64[N, 2]  knight attack masks (two words).
* ``q``     int32[N + 1], ``free`` uint64[N + 1, 2], ``pend`` uint64[N + 1, 2], ``acc``
  int64[N + 1, 2] (paths, closed paths found below each open node): the search's stack.
* ``tab``   uint64[C, 8]  the table (C = 2 × ``nbuckets``; ``nbuckets`` 0: no table);
  word 3 holds the paths below a state, word 4 the closed ones.
* ``out``   int64[4]  paths, closed paths, table hits, nodes expanded.
"""
from __future__ import annotations

import numpy as np

from ..system.jit import njit, trailing_zeros
from .count_kernel import popcount2
from .memo_kernel import KEY_BITS, _bucket, _find, _slot_for

_ONE = np.uint64(1)


@njit
def _visit(att: np.ndarray, deg: np.ndarray, cnt: np.ndarray, c: int, f0: np.uint64,
           f1: np.uint64, sign: int) -> None:
    """Square ``c`` leaves (``sign`` -1) or rejoins (+1) the unvisited squares ``f0, f1``
    (which never hold ``c``): the degrees of its unvisited neighbours and the numbers of
    unvisited squares of degree 0 and 1 (``cnt``) follow."""
    if sign < 0:
        if deg[c] <= 1:
            cnt[deg[c]] -= 1
    w = 0
    while w < 2:
        m = (att[c, 0] & f0) if w == 0 else (att[c, 1] & f1)
        while m:
            u = np.int64(trailing_zeros(m)) + 64 * w
            m &= m - _ONE
            old = deg[u]
            new = old + sign
            deg[u] = new
            if old <= 1:
                cnt[old] -= 1
            if new <= 1:
                cnt[new] += 1
        w += 1
    if sign > 0:
        if deg[c] <= 1:
            cnt[deg[c]] += 1


@njit
def _dead(att: np.ndarray, deg: np.ndarray, cnt: np.ndarray, q: int, f0: np.uint64,
          f1: np.uint64) -> bool:
    """The two cuts of the module docstring, for the knight on ``q`` with ``f0, f1`` left:
    the squares of degree 0 and 1 (``cnt``) less those next to the knight."""
    zero = cnt[0]
    one = cnt[1]
    w = 0
    while w < 2:
        m = (att[q, 0] & f0) if w == 0 else (att[q, 1] & f1)
        while m:
            u = np.int64(trailing_zeros(m)) + 64 * w
            m &= m - _ONE
            if deg[u] == 0:
                zero -= 1
            elif deg[u] == 1:
                one -= 1
        w += 1
    return zero > 0 or one > 1


@njit
def count_all(att: np.ndarray, n: int, start: int, q: np.ndarray, free: np.ndarray,
              pend: np.ndarray, acc: np.ndarray, tab: np.ndarray, nbuckets: int,
              memo_min: int, out: np.ndarray) -> None:
    """Every path of the knight from ``start`` through all ``n`` squares: ``out[0]`` paths,
    ``out[1]`` of them closed (last square a knight move from the start), ``out[2]`` table
    hits, ``out[3]`` nodes expanded. States with at least ``memo_min`` squares left are kept
    in and read from the table."""
    f0 = np.uint64(0)
    f1 = np.uint64(0)
    for s in range(n):
        if s != start:
            if s < 64:
                f0 |= _ONE << np.uint64(s)
            else:
                f1 |= _ONE << np.uint64(s - 64)
    tag = np.uint64((start << 8) | (1 << 16) | (1 << 17))
    for i in range(4):
        out[i] = 0
    # degrees (unvisited neighbours) of the unvisited squares, and how many have 0 and 1
    deg = np.zeros(n, dtype=np.int64)
    cnt = np.zeros(2, dtype=np.int64)
    for u in range(n):
        if u != start:
            deg[u] = popcount2(att[u, 0] & f0, att[u, 1] & f1)
            if deg[u] <= 1:
                cnt[deg[u]] += 1
    # level k: the knight on q[k] with free[k] unvisited; pend[k]: moves not tried yet
    k = 0
    q[0] = start
    free[0, 0] = f0
    free[0, 1] = f1
    fresh = np.int64(1)
    while True:
        if fresh:
            fresh = np.int64(0)
            g0 = free[k, 0]
            g1 = free[k, 1]
            cur = q[k]
            acc[k, 0] = 0
            acc[k, 1] = 0
            done = np.int64(0)
            if g0 == 0 and g1 == 0:
                acc[k, 0] = 1
                if cur < 64:
                    if (att[start, 0] >> np.uint64(cur)) & _ONE:
                        acc[k, 1] = 1
                elif (att[start, 1] >> np.uint64(cur - 64)) & _ONE:
                    acc[k, 1] = 1
                done = np.int64(1)
            elif _dead(att, deg, cnt, cur, g0, g1):
                done = np.int64(1)
            elif nbuckets > 0 and n - 1 - k >= memo_min:
                w2 = np.uint64(cur) | tag
                s = _find(tab, _bucket(g0, g1, w2, nbuckets), g0, g1, w2)
                if s >= 0:
                    acc[k, 0] = np.int64(tab[s, 3])
                    acc[k, 1] = np.int64(tab[s, 4])
                    out[2] += 1
                    done = np.int64(1)
            if not done:
                out[3] += 1
                pend[k, 0] = att[cur, 0] & g0
                pend[k, 1] = att[cur, 1] & g1
            else:
                pend[k, 0] = 0
                pend[k, 1] = 0
        # next option of level k, or close it
        p0 = pend[k, 0]
        p1 = pend[k, 1]
        if p0 != 0 or p1 != 0:
            if p0:
                c = np.int64(trailing_zeros(p0))
                pend[k, 0] = p0 & (p0 - _ONE)
            else:
                c = np.int64(64) + np.int64(trailing_zeros(p1))
                pend[k, 1] = p1 & (p1 - _ONE)
            q[k + 1] = c
            if c < 64:
                free[k + 1, 0] = free[k, 0] & ~(_ONE << np.uint64(c))
                free[k + 1, 1] = free[k, 1]
            else:
                free[k + 1, 0] = free[k, 0]
                free[k + 1, 1] = free[k, 1] & ~(_ONE << np.uint64(c - 64))
            _visit(att, deg, cnt, c, free[k + 1, 0], free[k + 1, 1], -1)
            k += 1
            fresh = np.int64(1)
            continue
        # level k is finished: keep it, add it to its parent
        if nbuckets > 0 and n - 1 - k >= memo_min and (free[k, 0] != 0 or free[k, 1] != 0):
            g0 = free[k, 0]
            g1 = free[k, 1]
            w2 = np.uint64(q[k]) | tag
            s, _ev = _slot_for(tab, _bucket(g0, g1, w2, nbuckets), g0, g1, w2)
            tab[s, 0] = g0
            tab[s, 1] = g1
            tab[s, 2] = w2 | (np.uint64(min(acc[k, 0], (1 << 40) - 1)) << np.uint64(KEY_BITS))
            tab[s, 3] = np.uint64(acc[k, 0])
            tab[s, 4] = np.uint64(acc[k, 1])
        if k == 0:
            out[0] = acc[0, 0]
            out[1] = acc[0, 1]
            return
        acc[k - 1, 0] += acc[k, 0]
        acc[k - 1, 1] += acc[k, 1]
        _visit(att, deg, cnt, q[k], free[k, 0], free[k, 1], 1)
        k -= 1
