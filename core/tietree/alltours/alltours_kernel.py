"""Counting every knight's path from a start, not only Warnsdorff's (a dynamic program).

The ways to finish a path depend only on the knight's square and the unvisited squares, so
the count is a depth-first search whose finished nodes are kept in a table (the layout of
:mod:`knightgui_core.tietree.counting.memo_kernel`: the whole key in each entry, so a collision
can only miss) and added at once when met again. Cuts keep it among states that can still
finish (``d(u)``: the unvisited neighbours of an unvisited square ``u``):

* one square left: the path ends there if the knight reaches it, else nowhere;
* with two or more left, a square of degree 0 is dead;
* a square of degree 1 is the path's last square unless it is the very next one, so three of
  them, or two that the knight cannot step onto now, and the state is dead;
* a knight with no unvisited neighbour is stuck.

(A test that the unvisited squares still form one piece removed 3 % of the nodes on 5×8 and
cost more than it saved.) The degrees, and how many are 0 and 1, follow move by move (eight
squares a move), so a cut costs a look at the knight's neighbours, not a pass over the board.

The count takes at most 64 squares, one word of unvisited squares (the lister's two-word
search, :mod:`knightgui_core.tietree.alltours.alltours_list_kernel`, reaches 128 with
:func:`_visit` and :func:`_dead` below). Arrays of :func:`count_all` (``N`` squares):

* ``att``   uint64[N]  the piece's moves from each square, one bit a square.
* ``q``     int64[N + 1], ``free`` uint64[N + 1], ``pend`` uint64[N + 1], ``acc``
  int64[N + 1, 2] (paths, closed paths found below each open node): the search's stack.
* ``tab``   uint64[C, 8]  the table (C = 2 × ``nbuckets``; ``nbuckets`` 0: no table);
  word 3 holds the paths below a state, word 4 the closed ones.
* ``out``   int64[4]  paths, closed paths, table hits, nodes expanded.
"""
from __future__ import annotations

import numpy as np

from ...system.jit import njit, trailing_zeros
from ..counting.memo_kernel import KEY_BITS, _bucket, _find, _slot_for
from ..enumeration.bitboard_kernel import popcount

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@njit(inline="always")
def _walk(att: np.ndarray, deg: np.ndarray, cnt: np.ndarray, c: int, f0: np.uint64,
          f1: np.uint64, sign: int) -> tuple[int, int]:
    """The one walk over the unvisited neighbours of square ``c`` (``f0, f1``: the
    unvisited squares, two words): how many of them have degree 0 and 1, and with ``sign``
    -1 or +1 each one's degree moved by it, ``cnt`` following. :func:`_dead` walks with
    ``sign`` 0 (LLVM drops the updates), :func:`_visit` drops the two counts; both are this
    loop written into them."""
    zero = np.int64(0)
    one = np.int64(0)
    w = 0
    while w < 2:
        m = (att[c, 0] & f0) if w == 0 else (att[c, 1] & f1)
        while m:
            u = np.int64(trailing_zeros(m)) + 64 * w
            m &= m - _ONE
            old = deg[u]
            if old == 0:
                zero += 1
            elif old == 1:
                one += 1
            if sign != 0:
                new = old + sign
                deg[u] = new
                if old <= 1:
                    cnt[old] -= 1
                if new <= 1:
                    cnt[new] += 1
        w += 1
    return zero, one


@njit
def _visit(att: np.ndarray, deg: np.ndarray, cnt: np.ndarray, c: int, f0: np.uint64,
           f1: np.uint64, sign: int) -> None:
    """Square ``c`` leaves (``sign`` -1) or rejoins (+1) the unvisited squares ``f0, f1``
    (which never hold ``c``): the degrees of its unvisited neighbours and the numbers of
    unvisited squares of degree 0 and 1 (``cnt``) follow (:func:`_walk`)."""
    if sign < 0:
        if deg[c] <= 1:
            cnt[deg[c]] -= 1
    _walk(att, deg, cnt, c, f0, f1, sign)
    if sign > 0:
        if deg[c] <= 1:
            cnt[deg[c]] += 1


@njit
def _dead(att: np.ndarray, deg: np.ndarray, cnt: np.ndarray, q: int, f0: np.uint64,
          f1: np.uint64) -> bool:
    """The two cuts of the module docstring, for the knight on ``q`` with ``f0, f1`` left:
    the squares of degree 0 and 1 (``cnt``) less those next to the knight (:func:`_walk`)."""
    zero, one = _walk(att, deg, cnt, q, f0, f1, 0)
    return cnt[0] - zero > 0 or cnt[1] - one > 1


@njit
def _leave(att: np.ndarray, deg: np.ndarray, cnt: np.ndarray, c: int, f: np.uint64) -> None:
    """Square ``c`` leaves the unvisited squares (``f`` no longer holds it): the degrees of
    its unvisited neighbours and the numbers of squares of degree 0 and 1 (``cnt``) follow."""
    d = deg[c]
    if d <= 1:
        cnt[d] -= 1
    m = att[c] & f
    while m:
        u = trailing_zeros(m)
        m &= m - _ONE
        old = deg[u]
        deg[u] = old - 1
        if old <= 2:
            cnt[old - 1] += 1
            if old == 1:
                cnt[1] -= 1


@njit
def _rejoin(att: np.ndarray, deg: np.ndarray, cnt: np.ndarray, c: int, f: np.uint64) -> None:
    """The undo of :func:`_leave`: ``c`` is unvisited again (``f`` does not hold it)."""
    m = att[c] & f
    while m:
        u = trailing_zeros(m)
        m &= m - _ONE
        old = deg[u]
        deg[u] = old + 1
        if old <= 1:
            cnt[old] -= 1
            if old == 0:
                cnt[1] += 1
    d = deg[c]
    if d <= 1:
        cnt[d] += 1


@njit
def count_all(att: np.ndarray, n: int, start: int, q: np.ndarray, free: np.ndarray,
              pend: np.ndarray, acc: np.ndarray, tab: np.ndarray, nbuckets: int,
              memo_min: int, out: np.ndarray) -> None:
    """Every path of the piece from ``start`` through all ``n`` squares (``n`` ≤ 64):
    ``out[0]`` paths, ``out[1]`` of them closed (last square a move from the start),
    ``out[2]`` table hits, ``out[3]`` nodes expanded. States with at least ``memo_min``
    squares left are kept in and read from the table."""
    f = _ZERO
    for s in range(n):
        if s != start:
            f |= _ONE << np.uint64(s)
    tag = np.uint64((start << 8) | (1 << 16) | (1 << 17))
    for i in range(4):
        out[i] = 0
    # degrees (unvisited neighbours) of the unvisited squares, and how many have 0 and 1
    deg = np.zeros(n, dtype=np.int64)
    cnt = np.zeros(2, dtype=np.int64)
    for u in range(n):
        if u != start:
            d = popcount(att[u] & f)
            deg[u] = d
            if d <= 1:
                cnt[d] += 1
    home = att[start]
    # level k: the piece on q[k] with free[k] unvisited; pend[k]: moves not tried yet
    k = 0
    q[0] = start
    free[0] = f
    fresh = True
    while True:
        if fresh:
            fresh = False
            g = free[k]
            cur = q[k]
            acc[k, 0] = 0
            acc[k, 1] = 0
            pend[k] = _ZERO
            if g == 0:                                   # only the start square: n == 1
                acc[k, 0] = 1
            elif (g & (g - _ONE)) == 0:                  # one square left
                if att[cur] & g:
                    acc[k, 0] = 1
                    if home & g:
                        acc[k, 1] = 1
            else:
                nb = att[cur] & g
                dead = cnt[0] > 0 or cnt[1] > 2 or nb == 0
                if not dead and cnt[1] > 1:
                    one = cnt[1]
                    m = nb
                    while m:
                        u = trailing_zeros(m)
                        m &= m - _ONE
                        if deg[u] == 1:
                            one -= 1
                    dead = one > 1
                if not dead:
                    hit = False
                    if nbuckets > 0 and n - 1 - k >= memo_min:
                        w2 = np.uint64(cur) | tag
                        s = _find(tab, _bucket(g, _ZERO, w2, nbuckets), g, _ZERO, w2)
                        if s >= 0:
                            acc[k, 0] = np.int64(tab[s, 3])
                            acc[k, 1] = np.int64(tab[s, 4])
                            out[2] += 1
                            hit = True
                    if not hit:
                        out[3] += 1
                        pend[k] = nb
        # next option of level k, or close it
        p = pend[k]
        if p:
            c = trailing_zeros(p)
            pend[k] = p & (p - _ONE)
            q[k + 1] = c
            nf = free[k] & ~(_ONE << np.uint64(c))
            free[k + 1] = nf
            _leave(att, deg, cnt, c, nf)
            k += 1
            fresh = True
            continue
        # level k is finished: keep it, add it to its parent
        if nbuckets > 0 and n - 1 - k >= memo_min and free[k] != 0:
            g = free[k]
            w2 = np.uint64(q[k]) | tag
            s, _ev = _slot_for(tab, _bucket(g, _ZERO, w2, nbuckets), g, _ZERO, w2)
            tab[s, 0] = g
            tab[s, 1] = _ZERO
            tab[s, 2] = w2 | (np.uint64(min(acc[k, 0], (1 << 40) - 1)) << np.uint64(KEY_BITS))
            tab[s, 3] = np.uint64(acc[k, 0])
            tab[s, 4] = np.uint64(acc[k, 1])
        if k == 0:
            out[0] = acc[0, 0]
            out[1] = acc[0, 1]
            return
        acc[k - 1, 0] += acc[k, 0]
        acc[k - 1, 1] += acc[k, 1]
        _rejoin(att, deg, cnt, q[k], free[k])
        k -= 1
