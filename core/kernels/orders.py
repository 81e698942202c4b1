"""numba kernels for the move-order analysis (SPEC §7): plain Warnsdorff walks for many move
orders × many start squares at once.

The walks run on a *padded* board: the ``rows`` × ``cols`` board sits inside a frame two
squares wide, so a knight step is a constant offset and never needs a bounds check.

* Padded width ``W = cols + 4``; the square ``(col, row)`` has padded index
  ``(row + 2) * W + (col + 2)``; :func:`padded_layout` builds the tables.
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

from core._jit import njit, prange
from core.board import DCOL, DROW

#: Outlet value that marks a frame or visited square.
FRAME = 1 << 20
#: Smallest outlet value that means "not a candidate" (FRAME minus at most 8 decrements).
LIMIT = FRAME - 64


def padded_layout(rows: int, cols: int):
    """Tables for the padded board.

    Returns ``(width, offsets, outlets0, to_padded)``:
    ``offsets`` int32[8] is the padded-index step of move types 1..8 (index t - 1);
    ``outlets0`` int32[(rows + 4) * width] as described in the module docstring;
    ``to_padded`` int32[rows * cols] maps a flat board square (``row * cols + col``) to its
    padded index.
    """
    if rows < 1 or cols < 1:
        raise ValueError("board must have at least one row and one column")
    w = cols + 4
    offsets = (DROW.astype(np.int64) * w + DCOL.astype(np.int64)).astype(np.int32)
    sq = np.arange(rows * cols, dtype=np.int64)
    to_padded = ((sq // cols + 2) * w + (sq % cols + 2)).astype(np.int32)
    outlets0 = np.full((rows + 4) * w, FRAME, dtype=np.int32)
    onboard = np.zeros((rows + 4) * w, dtype=np.bool_)
    onboard[to_padded] = True
    for p in to_padded:
        outlets0[p] = int(onboard[p + offsets].sum())
    return w, offsets, outlets0, to_padded


@njit(inline="always")
def step(outlets, steps, q):
    """One Warnsdorff step from padded square ``q`` (already marked visited).

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


@njit(parallel=True)
def orders_chunk(orders, last, outlets0, offsets, starts, squares, out_len, out_closed):
    """Walk every order of ``orders`` from every start, in parallel over orders.

    orders      int8[k, 8]   move types 1..8, each row a permutation (the move order)
    last        int          0: ties go to the first tied move in the order; 1: the last
    outlets0    int32[P]     padded start-of-walk outlet table (see ``padded_layout``)
    offsets     int32[8]     padded step of move types 1..8
    starts      int32[s]     padded indices of the start squares
    squares     int          number of board squares (a walk of this length is complete)
    out_len     int16[k, s]  squares visited by each walk (output)
    out_closed  uint8[k, s]  1 when the walk is complete and ends a knight move from its start

    Two walks advance side by side in one loop (independent work the CPU overlaps, about
    1.8× faster than one at a time); the longer one then finishes alone.
    """
    k = orders.shape[0]
    ns = starts.shape[0]
    for i in prange(k):
        steps = np.empty(8, dtype=np.int32)
        for r in range(8):
            pos = 7 - r if last else r
            steps[r] = offsets[orders[i, pos] - 1]
        wa = np.empty_like(outlets0)
        wb = np.empty_like(outlets0)
        for j0 in range(0, ns, 2):
            j1 = j0 + 1
            wa[:] = outlets0
            sa = starts[j0]
            wa[sa] = FRAME
            qa, ea, na = sa, sa, 1
            if j1 < ns:
                wb[:] = outlets0
                sb = starts[j1]
                wb[sb] = FRAME
                qb, eb, nb = sb, sb, 1
            else:
                sb, qb, eb, nb = -1, -1, -1, 0
            while qa >= 0 and qb >= 0:
                qa = step(wa, steps, qa)
                qb = step(wb, steps, qb)
                if qa >= 0:
                    ea = qa
                    na += 1
                if qb >= 0:
                    eb = qb
                    nb += 1
            while qa >= 0:
                qa = step(wa, steps, qa)
                if qa >= 0:
                    ea = qa
                    na += 1
            while qb >= 0:
                qb = step(wb, steps, qb)
                if qb >= 0:
                    eb = qb
                    nb += 1
            out_len[i, j0] = na
            out_closed[i, j0] = _closed_end(ea, sa, offsets) if na == squares else 0
            if j1 < ns:
                out_len[i, j1] = nb
                out_closed[i, j1] = _closed_end(eb, sb, offsets) if nb == squares else 0


@njit
def one_walk(order, last, outlets0, offsets, start, squares, path):
    """The walk of one order from one start; ``path`` int32[squares] receives padded indices.
    Returns the number of squares visited."""
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
