"""numba kernels for the move-order analysis (docs/spec.md §7): plain Warnsdorff walks for
many move orders × many start squares at once.

The walks run on a *padded* board: the board sits in a frame two squares wide, so a knight
step is a constant offset with no bounds check. Padded width ``W = cols + 4``; the square
``(col, row)`` has index ``(row + 2) * W + (col + 2)``
(:func:`knightgui_core.studies.orders.walks.padded_layout` builds the tables). ``outlets0``
``int32[(rows + 4) * W]`` holds each board square's knight moves onto the board, ``FRAME``
on the frame. A running walk keeps the *current* outlets in it: entering ``q`` lowers its
8 neighbours by one and sets ``q`` to ``FRAME``, so visited squares look like the frame
(lowered at most 8 times, they stay above ``LIMIT``) and are never chosen. The next square
is one pass over the order's 8 moves keeping the smallest key ``outlets * 8 + rank``
(``rank``: the move's place in the order for ``first``, 7 minus it for ``last``; 0-outlet
candidates compete); the walk stops when the smallest count is at or above ``LIMIT``.

:func:`orders_chunk` walks each order on its own (the reference the tests compare with);
:mod:`knightgui_core.studies.orders.tree_kernel` makes each distinct walk once for all the
orders that make it.
"""
from __future__ import annotations

import numpy as np

from ...system.jit import njit

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

    Serial and GIL-free: :func:`knightgui_core.studies.orders.run_orders` runs slices of the
    orders on threads. One walk at a time: two interleaved are slower compiled ahead of time.
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
