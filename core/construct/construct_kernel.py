"""Assembly kernels of the linear-time construction (see :mod:`knightgui_core.construct.huge`).

The tour is written straight into the output ``path`` (int32[rows*cols]); no other array of
board size is allocated, so a 2000 × 2000 tour costs 16 MB.

Base pieces come in one table, a :class:`PieceTable`. Piece ``e`` has
``L = start[e+1] - start[e]`` squares: ``seq[start[e]:...]`` holds local flat indices
``y * w + x`` in path order, ``position`` the inverse (local square → index), ``width`` /
``height`` the block size, ``cut`` a virtual step (strips). Kernels first turn local squares
into offsets from the block origin on a board ``cols`` wide, stored twice over (``off2``, 2L
entries per piece) so that a walk round a cycle never wraps.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..system.jit import njit


class PieceTable(NamedTuple):
    """The base pieces, concatenated (``knightgui_core.construct.strips.table``): ``seq``
    int32[S] each piece's local squares in path order, ``start`` int64[E + 1] where piece
    ``e``'s begin in ``seq``, ``width`` and ``height`` int64[E] its block's size,
    ``position`` int32[S] each local square's index in its piece's path, ``cut`` int64[E]
    the index of a piece's virtual step (``seq[cut] → seq[cut + 1]`` is no move: a strip
    piece's out strand ends there), or -1."""

    seq: np.ndarray
    start: np.ndarray
    width: np.ndarray
    height: np.ndarray
    position: np.ndarray
    cut: np.ndarray


@njit
def _offsets2(cols, tab_seq, tab_start, tab_w):
    """Per piece, the global offsets of its squares (from the block origin), twice over."""
    E = tab_w.shape[0]
    start2 = np.empty(E + 1, dtype=np.int64)
    start2[0] = 0
    for e in range(E):
        start2[e + 1] = start2[e] + 2 * (tab_start[e + 1] - tab_start[e])
    off2 = np.empty(start2[E], dtype=np.int64)
    for e in range(E):
        w = tab_w[e]
        L = tab_start[e + 1] - tab_start[e]
        for k in range(L):
            u = tab_seq[tab_start[e] + k]
            o = (u // w) * cols + (u % w)
            off2[start2[e] + k] = o
            off2[start2[e] + L + k] = o
    return off2, start2


# ------------------------------------------------------------------------ grid
@njit
def _parent(i, j, ri, rj):
    """Parent of block (i, j) in the comb rooted at (ri, rj): along the root's row towards
    the root, else along its own row towards column 0, then along column 0 to the root row."""
    if i == ri:
        if j > rj:
            return i, j - 1
        if j < rj:
            return i, j + 1
        return -1, -1
    if j > 0:
        return i, j - 1
    if i > ri:
        return i - 1, 0
    return i + 1, 0


@njit
def _gadget(h, w, which):
    """Local squares (y * w + x) of gadget ``which``: 0 h_right (w-2,0)-(w-1,2),
    1 h_left (0,1)-(1,3), 2 v_top (0,h-2)-(2,h-1), 3 v_bottom (1,0)-(3,1)."""
    if which == 0:
        return w - 2, 2 * w + w - 1
    if which == 1:
        return w, 3 * w + 1
    if which == 2:
        return (h - 2) * w, (h - 1) * w + 2
    return 1, w + 3


@njit
def _join_kinds(pi, pj, ci, cj):
    """Gadgets used by parent (pi, pj) and child (ci, cj): x1–y1 and x2–y2 are knight moves."""
    if pi == ci:
        if pj < cj:
            return 0, 1
        return 1, 0
    if pi < ci:
        return 2, 3
    return 3, 2


@njit
def grid_path(cols: int, row_off: np.ndarray, col_off: np.ndarray, btype: np.ndarray,
              pieces: PieceTable, root_i: int, root_j: int, root_entry: int,
              path: np.ndarray) -> int:
    """Write the tour of a grid of blocks into ``path``.

    Blocks form a comb (see ``_parent``); a child block is spliced into its parent through
    their shared gadget edges: the walk leaves the parent at x1, goes round the child from y1
    to y2 and comes back at x2. The walk is a depth-first traversal with an explicit stack.
    ``root_entry``: local square of the root block to start at (an open root starts at its
    first square). Returns the number of squares written, or -1 on an inconsistency.

    ``row_off`` int64[R + 1] / ``col_off`` int64[C + 1]: first row / column of each block row /
    column (the last entry is the board side); ``btype`` int32[R, C]: the table entry of each
    block; ``pieces`` the table of base pieces; ``path`` int32[rows * cols] (output).
    """
    tab_seq, tab_start, tab_w, tab_h, tab_ipos = (pieces.seq, pieces.start, pieces.width,
                                                  pieces.height, pieces.position)
    R = btype.shape[0]
    C = btype.shape[1]
    off2, start2 = _offsets2(cols, tab_seq, tab_start, tab_w)
    nblocks = R * C
    # one frame per block on the current branch
    f_i = np.empty(nblocks, dtype=np.int64)
    f_j = np.empty(nblocks, dtype=np.int64)
    f_q = np.empty(nblocks, dtype=np.int64)      # position in off2 coordinates of step t
    f_d = np.empty(nblocks, dtype=np.int64)
    f_t = np.empty(nblocks, dtype=np.int64)      # next step to write
    f_n = np.empty(nblocks, dtype=np.int64)      # events
    f_k = np.empty(nblocks, dtype=np.int64)      # next event
    ev_t = np.empty((nblocks, 4), dtype=np.int64)
    ev_ci = np.empty((nblocks, 4), dtype=np.int64)
    ev_cj = np.empty((nblocks, 4), dtype=np.int64)
    ev_in = np.empty((nblocks, 4), dtype=np.int64)   # child's entry square (local)
    ev_out = np.empty((nblocks, 4), dtype=np.int64)  # child's exit square (local)
    p = 0
    top = -1
    bi = root_i
    bj = root_j
    entry = root_entry
    exit_ = -1
    while True:
        if bi >= 0:
            # ---- open a frame for block (bi, bj), entered at `entry`, leaving at `exit_`
            top += 1
            e = btype[bi, bj]
            a = tab_start[e]
            L = tab_start[e + 1] - a
            w = tab_w[e]
            h = tab_h[e]
            i_in = tab_ipos[a + entry]
            d = 1
            if exit_ >= 0 and tab_seq[a + (i_in + 1) % L] == exit_:
                d = -1
            f_i[top] = bi
            f_j[top] = bj
            f_d[top] = d
            f_q[top] = i_in if d == 1 else i_in + L
            f_t[top] = 0
            n_ev = 0
            for nb in range(4):
                ci = bi + (1 if nb == 2 else (-1 if nb == 3 else 0))
                cj = bj + (1 if nb == 0 else (-1 if nb == 1 else 0))
                if ci < 0 or ci >= R or cj < 0 or cj >= C:
                    continue
                pi, pj = _parent(ci, cj, root_i, root_j)
                if pi != bi or pj != bj:
                    continue
                gx, gy = _join_kinds(bi, bj, ci, cj)
                ce = btype[ci, cj]
                x1, x2 = _gadget(h, w, gx)
                y1, y2 = _gadget(tab_h[ce], tab_w[ce], gy)
                t1 = ((tab_ipos[a + x1] - i_in) * d) % L
                t2 = ((tab_ipos[a + x2] - i_in) * d) % L
                if t2 == t1 + 1:
                    te, cin, cout = t1, y1, y2
                elif t1 == t2 + 1:
                    te, cin, cout = t2, y2, y1
                else:
                    return -1
                k = n_ev
                while k > 0 and ev_t[top, k - 1] > te:
                    ev_t[top, k] = ev_t[top, k - 1]
                    ev_ci[top, k] = ev_ci[top, k - 1]
                    ev_cj[top, k] = ev_cj[top, k - 1]
                    ev_in[top, k] = ev_in[top, k - 1]
                    ev_out[top, k] = ev_out[top, k - 1]
                    k -= 1
                ev_t[top, k] = te
                ev_ci[top, k] = ci
                ev_cj[top, k] = cj
                ev_in[top, k] = cin
                ev_out[top, k] = cout
                n_ev += 1
            f_n[top] = n_ev
            f_k[top] = 0
            bi = -1
        if top < 0:
            return p
        # ---- write the current frame up to its next event (or its end)
        e = btype[f_i[top], f_j[top]]
        L = tab_start[e + 1] - tab_start[e]
        base = np.int64(row_off[f_i[top]]) * cols + col_off[f_j[top]]
        o = start2[e]
        d = f_d[top]
        q = f_q[top]
        t = f_t[top]
        k = f_k[top]
        stop = ev_t[top, k] + 1 if k < f_n[top] else L
        for s in range(t, stop):
            path[p] = base + off2[o + q + d * s]
            p += 1
        f_t[top] = stop
        if k < f_n[top]:
            f_k[top] = k + 1
            bi = ev_ci[top, k]
            bj = ev_cj[top, k]
            entry = ev_in[top, k]
            exit_ = ev_out[top, k]
        else:
            top -= 1


# ---------------------------------------------------------------------- strips
@njit
def strip_path(cols: int, piece: np.ndarray, x0: np.ndarray, pieces: PieceTable,
               left_kind: int, path: np.ndarray) -> int:
    """Write a strip tour (rows 0..H-1 of a board ``cols`` wide) into ``path``.

    ``piece[k]`` is the table entry at column ``x0[k]``; piece 0 is a left cap when
    ``left_kind`` is 1 (open: start … aout ⇒ bin … end) or 2 (closed: bin … aout), else a
    period block; the last piece is the right cap. Order: the left cap's first strand, every
    period block's ``ain … aout`` left to right, the right cap, every period block's
    ``bin … bout`` right to left, the left cap's second strand. Returns squares written.

    ``piece`` int64[P] and ``x0`` int64[P]: table entry and first column of each piece, left
    to right; ``pieces`` the table of base pieces; ``path`` int32[H * cols] (output).
    """
    tab_seq, tab_start, tab_w, tab_cut = pieces.seq, pieces.start, pieces.width, pieces.cut
    off2, start2 = _offsets2(cols, tab_seq, tab_start, tab_w)
    P = piece.shape[0]
    first = 1 if left_kind == 1 or left_kind == 2 else 0
    p = 0
    if first:
        e = piece[0]
        p = _emit(path, p, x0[0], off2, start2[e], 0,
                  _size(tab_start, e) if left_kind == 2 else tab_cut[e] + 1)
    for k in range(first, P - 1):
        p = _emit(path, p, x0[k], off2, start2[piece[k]], 0, tab_cut[piece[k]] + 1)
    e = piece[P - 1]
    p = _emit(path, p, x0[P - 1], off2, start2[e], 0, _size(tab_start, e))
    for k in range(P - 2, first - 1, -1):
        e = piece[k]
        p = _emit(path, p, x0[k], off2, start2[e], tab_cut[e] + 1, _size(tab_start, e))
    if left_kind == 1:
        e = piece[0]
        p = _emit(path, p, x0[0], off2, start2[e], tab_cut[e] + 1, _size(tab_start, e))
    return p


@njit(inline="always")
def _size(tab_start, e):
    """The number of squares of piece ``e``."""
    return tab_start[e + 1] - tab_start[e]


@njit(inline="always")
def _emit(path, p, x, off2, o, lo, hi):
    """Write the squares ``lo`` to ``hi - 1`` of the piece whose offsets start at ``off2[o]``,
    placed at column ``x``, into ``path[p:]``; returns the next index."""
    for s in range(lo, hi):
        path[p] = x + off2[o + s]
        p += 1
    return p


# ----------------------------------------------------------------- in-place maps
@njit
def rotate_to(path: np.ndarray, s: int) -> bool:
    """Rotate ``path`` (int32[N], a closed tour) in place so that it starts at square ``s``
    (three reversals). Returns False when ``s`` is not in the path."""
    n = path.shape[0]
    k = -1
    for i in range(n):
        if path[i] == s:
            k = i
            break
    if k < 0:
        return False
    _rev(path, 0, k - 1)
    _rev(path, k, n - 1)
    _rev(path, 0, n - 1)
    return True


@njit
def _rev(a, i, j):
    while i < j:
        t = a[i]
        a[i] = a[j]
        a[j] = t
        i += 1
        j -= 1


@njit(inline="always")
def _column_row(s, cols, mirror):
    """The column and row of flat square ``s`` on a board ``cols`` wide, the column counted
    from the right edge when ``mirror``."""
    x = s % cols
    y = s // cols
    if mirror:
        x = cols - 1 - x
    return x, y


@njit
def remap(path: np.ndarray, rows: int, cols: int, fx: bool, fy: bool, transpose: bool) -> None:
    """In place on ``path`` (int32[N] flat squares): mirror squares of a ``rows`` × ``cols``
    board left-right (``fx``) and/or top-bottom (``fy``), then, with ``transpose``, read the
    board as its transpose (``(x, y)`` on ``rows`` × ``cols`` becomes column ``y``, row ``x``
    of ``cols`` × ``rows``)."""
    for i in range(path.shape[0]):
        x, y = _column_row(path[i], cols, fx)
        if fy:
            y = rows - 1 - y
        if transpose:
            path[i] = x * rows + y
        else:
            path[i] = y * cols + x


@njit
def place(src: np.ndarray, src_cols: int, x_off: int, mirror: bool, cols: int, dst: np.ndarray,
          at: int) -> int:
    """Copy the tour ``src`` of a board ``src_cols`` wide into ``dst[at:]`` as squares of a
    board ``cols`` wide, shifted right by ``x_off`` columns (mirrored left-right first when
    ``mirror``). ``src`` int32[m], ``dst`` int32[n] with ``at + m <= n``. Returns the next
    free index of ``dst``."""
    for i in range(src.shape[0]):
        x, y = _column_row(src[i], src_cols, mirror)
        dst[at + i] = y * cols + x_off + x
    return at + src.shape[0]


@njit
def place_blocks(seq: np.ndarray, w: int, x_first: int, step: int, count: int, cols: int,
                 dst: np.ndarray, at: int) -> int:
    """Copy the same piece slice ``seq`` (local squares of a piece ``w`` wide, rows from 0)
    for ``count`` blocks whose first columns are ``x_first + i * step``. ``seq`` int32[m],
    ``dst`` int32[n] with ``at + count * m <= n``. Returns the next free index of ``dst``."""
    for i in range(count):
        x0 = x_first + i * step
        for k in range(seq.shape[0]):
            u = seq[k]
            dst[at] = (u // w) * cols + x0 + u % w
            at += 1
    return at
