"""Assembly kernels of the linear-time construction (see :mod:`core.construct`).

The tour under construction is a successor array ``succ`` (int32[rows*cols]): ``succ[s]`` is
the square after ``s``, -1 after the last square of an open tour. Base pieces come in one
table: ``tab_seq`` (int32, local flat indices ``y * w + x`` of every piece, one after the
other), piece ``e`` occupying ``tab_seq[tab_start[e]:tab_start[e + 1]]`` with width
``tab_w[e]``; ``tab_ipos`` is the inverse (local square → index in its piece);
``tab_closed[e]`` marks closed pieces, ``tab_cut[e]`` a virtual step (strips).

Everything here is O(rows*cols) with a small constant: each square is written once by
``assemble_*`` and read once by :func:`follow`.
"""
from __future__ import annotations

import numpy as np

from .._jit import njit


@njit
def _offsets(cols, tab_seq, tab_start, tab_w):
    """Global offset of every piece square from its block origin (no division later)."""
    off = np.empty(tab_seq.shape[0], dtype=np.int64)
    for e in range(tab_w.shape[0]):
        w = tab_w[e]
        for k in range(tab_start[e], tab_start[e + 1]):
            u = tab_seq[k]
            off[k] = (u // w) * cols + (u % w)
    return off


@njit
def _write(succ, base, e, reverse, off, tab_start, tab_closed):
    """Write piece ``e`` at global ``base`` into ``succ``, forwards or backwards."""
    a = tab_start[e]
    b = tab_start[e + 1]
    if not reverse:
        for k in range(a, b - 1):
            succ[base + off[k]] = base + off[k + 1]
        succ[base + off[b - 1]] = base + off[a] if tab_closed[e] else -1
    else:
        for k in range(a, b - 1):
            succ[base + off[k + 1]] = base + off[k]
        succ[base + off[a]] = base + off[b - 1] if tab_closed[e] else -1


@njit
def _follows(e, u, v, tab_seq, tab_start, tab_ipos):
    """Whether local square ``v`` comes right after ``u`` in piece ``e`` (cyclically)."""
    a = tab_start[e]
    n = tab_start[e + 1] - a
    i = tab_ipos[a + u]
    return tab_seq[a + (i + 1) % n] == v


@njit
def _join(succ, x1, x2, e, base, y1, y2, cols, w, off, tab_seq, tab_start, tab_ipos,
          tab_closed):
    """Place piece ``e`` at ``base`` and join it to the placed tour through the placed
    edge x1–x2 and the new piece's edge y1–y2 (local), where x1–y1 and x2–y2 are knight
    moves. Returns 0, or 1 when x1–x2 is not an edge of the placed tour."""
    gy1 = base + (y1 // w) * cols + y1 % w
    gy2 = base + (y2 // w) * cols + y2 % w
    if succ[x1] == x2:
        # new piece must run y2 -> y1; tour becomes x1 -> y1 ... y2 -> x2
        fw = _follows(e, y2, y1, tab_seq, tab_start, tab_ipos)
        _write(succ, base, e, not fw, off, tab_start, tab_closed)
        succ[x1] = gy1
        succ[gy2] = x2
        return 0
    if succ[x2] == x1:
        fw = _follows(e, y1, y2, tab_seq, tab_start, tab_ipos)
        _write(succ, base, e, not fw, off, tab_start, tab_closed)
        succ[x2] = gy2
        succ[gy1] = x1
        return 0
    return 1


@njit
def _gadget(h, w, which):
    """Local flat squares (y * w + x) of gadget edge ``which``: 0 h_right, 1 h_left,
    2 v_top, 3 v_bottom (see core.construct_base)."""
    if which == 0:
        return 0 * w + (w - 2), 2 * w + (w - 1)
    if which == 1:
        return 1 * w + 0, 3 * w + 1
    if which == 2:
        return (h - 2) * w + 0, (h - 1) * w + 2
    return 0 * w + 1, 1 * w + 3


@njit
def _attach(succ, cols, row_off, col_off, btype, i, j, pi, pj, off, tab_seq, tab_start,
            tab_w, tab_h, tab_ipos, tab_closed):
    """Place block (i, j) joined to the placed block (pi, pj), a grid neighbour."""
    e = btype[i, j]
    pe = btype[pi, pj]
    w, h = tab_w[e], tab_h[e]
    pw, ph = tab_w[pe], tab_h[pe]
    base = np.int64(row_off[i]) * cols + col_off[j]
    pbase = np.int64(row_off[pi]) * cols + col_off[pj]
    if pi == i:
        if pj < j:     # placed block on the left: its h_right meets our h_left
            xa, xb = _gadget(ph, pw, 0)
            ya, yb = _gadget(h, w, 1)
        else:
            xa, xb = _gadget(ph, pw, 1)
            ya, yb = _gadget(h, w, 0)
    else:
        if pi < i:     # placed block below: its v_top meets our v_bottom
            xa, xb = _gadget(ph, pw, 2)
            ya, yb = _gadget(h, w, 3)
        else:
            xa, xb = _gadget(ph, pw, 3)
            ya, yb = _gadget(h, w, 2)
    x1 = pbase + (xa // pw) * cols + xa % pw
    x2 = pbase + (xb // pw) * cols + xb % pw
    return _join(succ, x1, x2, e, base, ya, yb, cols, w, off, tab_seq, tab_start, tab_ipos,
                 tab_closed)


@njit
def assemble_grid(cols, row_off, col_off, btype, tab_seq, tab_start, tab_w, tab_h, tab_ipos,
                  tab_closed, root_i, root_j, succ):
    """Blocks on a grid, joined along a comb: every block row is a chain, block column 0
    joins the rows. The root block is written first, forwards (so an open root keeps its
    start); all others are joined to a placed neighbour. Returns the number of failed joins
    (0 when all went well)."""
    R = btype.shape[0]
    C = btype.shape[1]
    off = _offsets(cols, tab_seq, tab_start, tab_w)
    e = btype[root_i, root_j]
    _write(succ, np.int64(row_off[root_i]) * cols + col_off[root_j], e, False, off, tab_start,
           tab_closed)
    bad = 0
    for j in range(root_j + 1, C):
        bad += _attach(succ, cols, row_off, col_off, btype, root_i, j, root_i, j - 1, off,
                       tab_seq, tab_start, tab_w, tab_h, tab_ipos, tab_closed)
    for j in range(root_j - 1, -1, -1):
        bad += _attach(succ, cols, row_off, col_off, btype, root_i, j, root_i, j + 1, off,
                       tab_seq, tab_start, tab_w, tab_h, tab_ipos, tab_closed)
    for i in range(root_i + 1, R):
        bad += _attach(succ, cols, row_off, col_off, btype, i, 0, i - 1, 0, off,
                       tab_seq, tab_start, tab_w, tab_h, tab_ipos, tab_closed)
    for i in range(root_i - 1, -1, -1):
        bad += _attach(succ, cols, row_off, col_off, btype, i, 0, i + 1, 0, off,
                       tab_seq, tab_start, tab_w, tab_h, tab_ipos, tab_closed)
    for i in range(R):
        if i == root_i:
            continue
        for j in range(1, C):
            bad += _attach(succ, cols, row_off, col_off, btype, i, j, i, j - 1, off,
                           tab_seq, tab_start, tab_w, tab_h, tab_ipos, tab_closed)
    return bad


@njit
def assemble_strip(cols, piece, x0, tab_seq, tab_start, tab_w, tab_cut, succ):
    """A strip (rows 0..H-1 of a board ``cols`` wide) cut into pieces left to right:
    ``piece[k]`` is the table entry at column ``x0[k]``. Each piece's steps are written
    except its virtual one; neighbours P | Q are joined by aout(P) → ain(Q) and
    bout(Q) → bin(P). Returns the first square of the tour."""
    off = _offsets(cols, tab_seq, tab_start, tab_w)
    P = piece.shape[0]
    for k in range(P):
        e = piece[k]
        a = tab_start[e]
        b = tab_start[e + 1]
        base = np.int64(x0[k])
        cut = tab_cut[e]
        for t in range(a, b - 1):
            if t - a != cut:
                succ[base + off[t]] = base + off[t + 1]
            else:
                succ[base + off[t]] = -1
        succ[base + off[b - 1]] = -1
    for k in range(P - 1):
        e = piece[k]
        f = piece[k + 1]
        a = tab_start[e]
        n = tab_start[e + 1] - a
        base = np.int64(x0[k])
        nbase = np.int64(x0[k + 1])
        cut = tab_cut[e]
        aout = base + off[a + cut]
        bin_ = base + off[a + (cut + 1) % n]
        ain = nbase + off[tab_start[f]]
        bout = nbase + off[tab_start[f + 1] - 1]
        succ[aout] = ain
        succ[bout] = bin_
    return np.int64(x0[0]) + off[tab_start[piece[0]]]


@njit
def follow(succ, start, path):
    """Walk ``succ`` from ``start`` into ``path``; returns the number of squares written
    (stops early at -1 or when the path is full)."""
    n = path.shape[0]
    cur = start
    k = 0
    while k < n and cur >= 0:
        path[k] = cur
        cur = succ[cur]
        k += 1
    return k
