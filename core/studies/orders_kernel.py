"""numba kernels for the move-order analysis (docs/spec.md §7): plain Warnsdorff walks for many move
orders × many start squares at once.

The walks run on a *padded* board: the ``rows`` × ``cols`` board sits inside a frame two
squares wide, so a knight step is a constant offset and never needs a bounds check.

* Padded width ``W = cols + 4``; the square ``(col, row)`` has padded index
  ``(row + 2) * W + (col + 2)``; :func:`knightgui_core.studies.orders.padded_layout` builds the tables.
* ``outlets0``: ``int32[(rows + 4) * W]`` — for a board square, the number of board squares a
  knight move away; for a frame square, ``FRAME`` (a large value).
* While a walk runs the same array holds the *current* outlets: entering square ``q`` lowers the
  count of each of its 8 neighbours by one (incremental update), and ``q`` itself is set to
  ``FRAME``. So visited squares and the frame look like squares with a huge outlet count and
  are never chosen; a square is lowered at most 8 times, so it stays above ``LIMIT``.
* Choosing the next square is one pass over the 8 moves of the order: lower the neighbour's
  count and keep the smallest key ``outlets * 8 + rank``, where ``rank`` is the position of the
  move in the order (``first``) or 7 minus it (``last``). 0-outlet candidates compete; the walk
  stops when the smallest outlet count is at or above ``LIMIT`` (no candidate).
"""
from __future__ import annotations

import numpy as np

from ..system.jit import njit

#: Outlet value that marks a frame or visited square.
FRAME = 1 << 20
#: Smallest outlet value that means "not a candidate" (FRAME minus at most 8 decrements).
LIMIT = FRAME - 64


@njit(inline="always")
def step(outlets: np.ndarray, steps: np.ndarray, q: int) -> int:
    """One Warnsdorff step from padded square ``q`` (already marked visited).

    ``outlets`` int32[P]: the current outlets of the padded board (see the module docstring).
    ``steps`` int32[8]: padded offsets in *rank* order (rank 0 wins a tie). Lowers the outlets
    of ``q``'s neighbours, marks the chosen square visited and returns it, or -1 when there is
    no candidate.
    """
    best = LIMIT * 8
    for r in range(8):
        c = q + steps[r]
        d = outlets[c] - 1
        outlets[c] = d
        key = d * 8 + r
        if key < best:
            best = key
    if best >= LIMIT * 8:
        return -1
    nxt = q + steps[best & 7]
    outlets[nxt] = FRAME
    return nxt


@njit(inline="always")
def _closed_end(end, start, offsets):
    for r in range(8):
        if end + offsets[r] == start:
            return 1
    return 0


@njit
def orders_chunk(orders: np.ndarray, last: int, outlets0: np.ndarray, offsets: np.ndarray,
                 starts: np.ndarray, squares: int, out_len: np.ndarray,
                 out_closed: np.ndarray) -> None:
    """Walk every order of ``orders`` from every start.

    orders      int8[k, 8]   move types 1..8, each row a permutation (the move order)
    last        int          0: ties go to the first tied move in the order; 1: the last
    outlets0    int32[P]     padded start-of-walk outlet table (see ``studies.orders.padded_layout``)
    offsets     int32[8]     padded step of move types 1..8
    starts      int32[s]     padded indices of the start squares
    squares     int          number of board squares (a walk of this length is complete)
    out_len     int16[k, s]  squares visited by each walk (output)
    out_closed  uint8[k, s]  1 when the walk is complete and ends a knight move from its start

    Serial and GIL-free: :func:`knightgui_core.studies.orders.run_orders` runs slices of the orders on
    several threads. (Two walks interleaved in one loop were 1.8x faster under numba's
    ``parallel=True`` but 2.4x slower compiled serially, as the bundle's ahead-of-time build
    does; one walk at a time is fast in both.)
    """
    k = orders.shape[0]
    ns = starts.shape[0]
    steps = np.empty(8, dtype=np.int32)
    work = np.empty_like(outlets0)
    for i in range(k):
        for r in range(8):
            pos = 7 - r if last else r
            steps[r] = offsets[orders[i, pos] - 1]
        for j in range(ns):
            for t in range(work.shape[0]):   # (faster than work[:] = outlets0 here)
                work[t] = outlets0[t]
            s = starts[j]
            work[s] = FRAME
            q, e, n = s, s, 1
            while q >= 0:
                q = step(work, steps, q)
                if q >= 0:
                    e = q
                    n += 1
            out_len[i, j] = n
            out_closed[i, j] = _closed_end(e, s, offsets) if n == squares else 0


@njit
def one_walk(order: np.ndarray, last: int, outlets0: np.ndarray, offsets: np.ndarray, start: int,
             squares: int, path: np.ndarray) -> int:
    """The walk of one order from one start; ``path`` int32[squares] receives padded indices.
    Returns the number of squares visited. ``order`` int8[8]: move types 1..8; ``last``,
    ``outlets0`` int32[P] (not modified), ``offsets`` int32[8] and ``squares`` as in
    :func:`orders_chunk`; ``start``: padded index of the start square."""
    steps = np.empty(8, dtype=np.int32)
    for r in range(8):
        pos = 7 - r if last else r
        steps[r] = offsets[order[pos] - 1]
    work = outlets0.copy()
    q = start
    work[q] = FRAME
    path[0] = q
    n = 1
    while True:
        q = step(work, steps, q)
        if q < 0:
            return n
        path[n] = q
        n += 1


@njit
def orders_tree(prec: np.ndarray, outlets0: np.ndarray, offsets: np.ndarray, start: int,
                squares: int, col: int, idx: np.ndarray, tmp: np.ndarray, snap: np.ndarray,
                stack: np.ndarray, out_len: np.ndarray, out_closed: np.ndarray) -> int:
    """Every order's walk from one start, sharing the walks: orders that resolve every tie
    they meet the same way make the same walk, so the walk is made once for all of them, and
    a tie among the move types D splits the orders by which type of D they rank first.

    prec        int64[k]     order i's precedence: bit 8a + b set when it ranks move type
                             a + 1 before b + 1 (a wins a tie with b)
    outlets0, offsets, squares as in :func:`orders_chunk`; ``start``: padded index
    col         int          the column of ``out_len``/``out_closed`` this start fills
    idx, tmp    int64[k]     scratch (the orders, grouped in place)
    snap        int32[squares + 1, P]  scratch: the outlets at each open tie
    stack       int64[8 * (squares + 1), 5]  scratch: groups still to walk
    out_len     int16[k, s], out_closed uint8[k, s] as in :func:`orders_chunk`
    Returns the number of distinct walks made.

    Most of the time goes to splitting the orders at ties (every order meets each tie of
    its walk), so a split is two passes over the group: the winner of each order by its
    precedence bits (one test per tied type) packed with the order, then a counting sort.
    """
    k = prec.shape[0]
    for i in range(k):
        idx[i] = i
    for t in range(snap.shape[1]):
        snap[0, t] = outlets0[t]
    snap[0, start] = FRAME
    stack[0, 0] = 0
    stack[0, 1] = k
    stack[0, 2] = 0
    stack[0, 3] = -1
    stack[0, 4] = 1
    sp = 1
    walks = 0
    work = np.empty(snap.shape[1], dtype=np.int32)
    cnt = np.zeros(8, dtype=np.int64)
    pos = np.zeros(8, dtype=np.int64)
    tl = np.zeros(8, dtype=np.int64)
    while sp > 0:
        sp -= 1
        lo = stack[sp, 0]
        hi = stack[sp, 1]
        lvl = stack[sp, 2]
        c = stack[sp, 3]
        n = stack[sp, 4]
        for t in range(work.shape[0]):
            work[t] = snap[lvl, t]
        if c >= 0:
            work[c] = FRAME
            q = c
        else:
            q = start
        while True:
            mn = np.int64(LIMIT)
            for t in range(8):
                cc = q + offsets[t]
                d = np.int64(work[cc]) - 1
                work[cc] = d
                if d < mn:
                    mn = d
            if mn >= LIMIT:
                walks += 1
                closed = np.int64(0)
                if n == squares:
                    closed = np.int64(_closed_end(q, start, offsets))
                for i in range(lo, hi):
                    out_len[idx[i], col] = n
                    out_closed[idx[i], col] = closed
                break
            nt = 0
            for t in range(8):
                if work[q + offsets[t]] == mn:
                    tl[nt] = t
                    nt += 1
            if nt == 1:
                c = q + offsets[tl[0]]
                work[c] = FRAME
                q = c
                n += 1
                continue
            # a tie: group the orders by the tied type they rank first
            for t in range(8):
                cnt[t] = 0
            for i in range(lo, hi):
                o = idx[i]
                p = prec[o]
                win = tl[0]
                for j in range(1, nt):
                    t = tl[j]
                    if (p >> (8 * t + win)) & 1:
                        win = t
                tmp[i] = o * 8 + win
                cnt[win] += 1
            at = lo
            for t in range(8):
                pos[t] = at
                at += cnt[t]
            for i in range(lo, hi):
                w = tmp[i] & 7
                idx[pos[w]] = tmp[i] >> 3
                pos[w] += 1
            nl = lvl + 1
            for t in range(work.shape[0]):
                snap[nl, t] = work[t]
            at = lo
            for t in range(8):
                if cnt[t] > 0:
                    stack[sp, 0] = at
                    stack[sp, 1] = at + cnt[t]
                    stack[sp, 2] = nl
                    stack[sp, 3] = q + offsets[t]
                    stack[sp, 4] = n + 1
                    sp += 1
                    at += cnt[t]
            break
    return walks
