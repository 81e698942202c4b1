"""Tours of 3- and 4-row strips for :mod:`knightgui_core.construct.huge` (method in its docstring and in
:mod:`knightgui_core.construct.blocks`): a left cap, period blocks 4 wide carrying two strands, a right
cap. Also the table packing and the symmetry helpers shared with the grid construction."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

import numpy as np

from . import blocks as cb
from . import construct_kernel as kc

#: Strips of at most this many squares are searched whole when a start is not met otherwise.
SMALL = 120
#: Widest left cap searched from a start (open 3-row strips). The fixed caps stop at 11
#: columns; a few middle-row starts near the ends (columns 8 and 12 of long 3-row strips)
#: need a wider cap, found in milliseconds by the same search.
WIDEST_CAP = 26


def table(pieces: Sequence[cb.Piece]) -> kc.PieceTable:
    """Concatenate base pieces into the table the kernels take, a
    :class:`~knightgui_core.construct.construct_kernel.PieceTable` (``seq``, ``position``
    int32[S]; ``start`` int64[E + 1]; ``width``, ``height``, ``cut`` int64[E])."""
    starts = np.zeros(len(pieces) + 1, dtype=np.int64)
    for k, p in enumerate(pieces):
        starts[k + 1] = starts[k] + p.seq.size
    seq = np.concatenate([p.seq for p in pieces]).astype(np.int32)
    ipos = np.empty_like(seq)
    for k, p in enumerate(pieces):
        ipos[starts[k] + p.seq] = np.arange(p.seq.size, dtype=np.int32)
    w = np.array([p.w for p in pieces], dtype=np.int64)
    h = np.array([p.h for p in pieces], dtype=np.int64)
    cut = np.array([p.cut for p in pieces], dtype=np.int64)
    return kc.PieceTable(seq, starts, w, h, ipos, cut)


def plan(H: int, n: int, closed: bool,
         left: int | None = None) -> tuple[str, int, int, int] | None:
    """``(left_kind, l, k, r)`` for an H × n strip: a left cap of width ``l`` (kind
    ``left_open`` / ``left_closed``, or none when ``l == 0``), ``k`` period blocks, a right
    cap of width ``r``; None when no such cut exists."""
    P = cb.STRIP_PERIOD
    lefts = ([left] if left is not None else
             cb.STRIP_LEFT_CLOSED[H] if closed else cb.STRIP_LEFT_OPEN[H])
    for l in lefts:
        for r in cb.STRIP_RIGHT[H]:
            k, rem = divmod(n - l - r, P)
            if n - l - r >= 0 and rem == 0:
                return ("left_closed" if closed else "left_open"), l, k, r
    return None


def strip(H: int, n: int, closed: bool, left_piece: cb.Piece | None = None,
          bare: bool = False) -> np.ndarray:
    """Tour (int32 flat indices) of an H-row, n-column board. ``bare``: no left cap (the
    tour starts at the first block's ``ain`` and ends at its ``bout``)."""
    pl = plan(H, n, closed, 0 if bare else None if left_piece is None else left_piece.w)
    if pl is None:
        return cb.whole_board(H, n, closed).seq.astype(np.int32)
    left_kind, l, k, r = pl
    pieces = [cb.strip_piece(H, "period", cb.STRIP_PERIOD), cb.strip_piece(H, "right", r)]
    if l:
        pieces.append(left_piece if left_piece is not None else cb.strip_piece(H, left_kind, l))
    # piece ids left to right: [left] period * k, right; their first columns
    kinds = np.zeros((1 if l else 0) + k + 1, dtype=np.int64)
    x0 = np.empty(kinds.size, dtype=np.int64)
    if l:
        kinds[0] = 2
        x0[0] = 0
    x0[(1 if l else 0):] = l + cb.STRIP_PERIOD * np.arange(k + 1, dtype=np.int64)
    kinds[-1] = 1
    path = np.empty(H * n, dtype=np.int32)
    code = 0 if not l else (1 if left_kind == "left_open" else 2)
    written = kc.strip_path(n, kinds, x0, table(pieces), code, path)
    if written != H * n:
        raise RuntimeError(f"strip construction wrote {written} of {H * n} squares")  # a bug
    return path


def match_end(path: np.ndarray, rows: int, cols: int, s: int) -> bool:
    """Mirror / reverse ``path`` (int32[rows * cols]) in place so it starts at ``s`` when a
    mirror image of the board maps one of its ends there. Returns whether it did."""
    sx, sy = s % cols, s // cols
    for rev, e in ((False, int(path[0])), (True, int(path[-1]))):
        ex, ey = e % cols, e // cols
        for fx in (False, True):
            for fy in (False, True):
                if ((cols - 1 - ex) if fx else ex) == sx and ((rows - 1 - ey) if fy else ey) == sy:
                    if fx or fy:
                        kc.remap(path, rows, cols, fx, fy, False)
                    if rev:
                        path[:] = path[::-1]
                    return True
    return False


def open_strip(H: int, n: int, s: int | None) -> tuple[np.ndarray, bool]:
    """Open tour of an H-row (3 or 4), n-column strip, trying to start at ``s``.
    Returns ``(path, honoured)``."""
    path = strip(H, n, False)
    if s is None:
        return path, True
    if match_end(path, H, n, s):
        return path, True
    sx, sy = s % n, s // n
    if (H * n) % 2 and (sx + sy) % 2:
        return path, False     # an odd board's open tours start on the corners' colour
    if H == 4 and sy in (1, 2):
        return path, False     # 4-row open tours start on an outer row
    for fx in (False, True):
        x = n - 1 - sx if fx else sx
        for fy in (False, True):
            y = H - 1 - sy if fy else sy
            for width in range(max(3, x + 1), min(n, WIDEST_CAP) + 1):
                if width > n or plan(H, n, False, width) is None:
                    continue
                piece = cb.strip_left_open_from(H, width, (x, y))
                if piece is None:
                    continue
                p = strip(H, n, False, piece)
                if fx or fy:
                    kc.remap(p, H, n, fx, fy, False)
                if p[0] == s:
                    return p, True
    if H * n <= SMALL:
        piece = cb.small_board_from(H, n, (sx, sy))
        if piece is not None:
            return piece.seq.astype(np.int32), True
    if H == 3:
        p = _middle(H, n, sx, sy)
        if p is not None:
            return p, True
    else:
        for fx in (False, True):
            for fy in (False, True):
                x = n - 1 - sx if fx else sx
                y = H - 1 - sy if fy else sy
                p = _middle4(n, x, y)
                if p is not None:
                    if fx or fy:
                        kc.remap(p, H, n, fx, fy, False)
                    return p, True
    return path, False


def _cls4(x, y):
    """Strand class on 4-row boards: (colour + inner row) mod 2. Every step of an open
    tour but one stays in its class."""
    return (x + y + (0 if y in (0, 3) else 1)) % 2


def _middle_pieces(widths: Iterable[int], first: int, n: int, sx: int, sy: int,
                   fits: Callable[[int, int, int], bool], tries: int,
                   make: Callable[[int, tuple[int, int]], cb.Piece | None]
                   ) -> Iterator[tuple[int, int, int, cb.Piece]]:
    """The middle pieces that hold the start ``(sx, sy)`` of an n-column strip: for each
    width of ``widths`` and each first column ``a`` (from ``first`` on) that keeps column
    ``sx`` inside, when ``fits(a, width, right)`` (``right`` the columns left on its right),
    the piece ``make(width, (sx - a, sy))`` builds from the start, as ``(a, width, right,
    piece)`` (none when ``make`` finds none). At most ``tries`` are built."""
    for width in widths:
        for a in range(max(first, sx - width + 1), sx + 1):
            right = n - a - width
            if not fits(a, width, right):
                continue
            tries -= 1
            if tries < 0:
                return
            piece = make(width, (sx - a, sy))
            if piece is not None:
                yield a, width, right, piece


def _middle4(n, sx, sy, tries=12):
    """4-row open tour from (sx, sy): a middle piece, the two-strand chain to its right
    and three-strand blocks to its left (two strands out and back, one to the end)."""
    H, P = 4, cb.STRIP_PERIOD
    if sy not in (0, 3):
        return None              # open 4×n tours start on an outer row
    x1out = cb.TRIPLE_PORTS[H][1]

    def fits(a: int, width: int, right: int) -> bool:
        # the start, the left strands and the right chain's first strand share a class
        return _bare_ok(H, right) and (_cls4(sx, sy) == _cls4(a + x1out[0], x1out[1])
                                       == _cls4(a + width, 0))

    for a, width, right, mid in _middle_pieces(
            (5, 7, 9, 4, 6, 8), cb.TRIPLE_LEFT[H][0], n, sx, sy, fits, tries,
            lambda width, at: cb.triple_middle_from(H, width, at)):
        l = next(c for c in cb.TRIPLE_LEFT[H] if (a - c) % P == 0)
        k = (a - l) // P
        per = cb.triple_piece(H, "period", P)
        cap = cb.triple_piece(H, "cap", l)
        return _assemble4(n, a, width, right, l, k, mid, per, cap)
    return None


def _assemble4(n, a, width, right, l, k, mid, per, cap):
    H, P = 4, cb.STRIP_PERIOD
    _, x1out, x2in, x2out, yin, _ = cb.TRIPLE_PORTS[H]
    r_out, r_in = cb._ports(H, width, True)

    def at(piece, sq):
        return int(np.flatnonzero(piece.seq == sq[1] * piece.w + sq[0])[0])

    d = l - P
    m1, m2 = at(mid, x1out), at(mid, r_out)
    p1, p2 = at(per, x1out), at(per, x2out)
    c1 = at(cap, (x2out[0] + d, x2out[1]))
    path = np.empty(H * n, dtype=np.int32)
    q = 0
    ms, ps, cs_ = mid.seq, per.seq, cap.seq
    q = kc.place(ms[:m1 + 1], width, a, False, n, path, q)                   # start … X1out
    q = kc.place_blocks(ps[:p1 + 1], P, l + P * (k - 1), -P, k, n, path, q)   # X1 leftwards
    q = kc.place(cs_[:c1 + 1], l, 0, False, n, path, q)                      # the turn
    q = kc.place_blocks(ps[p1 + 1:p2 + 1], P, l, P, k, n, path, q)           # X2 rightwards
    q = kc.place(ms[m1 + 1:m2 + 1], width, a, False, n, path, q)             # … right out
    q = kc.place(strip(H, right, False, bare=True), right, a + width, False, n, path, q)
    q = kc.place(ms[m2 + 1:], width, a, False, n, path, q)                   # right in … Yout
    q = kc.place_blocks(ps[p2 + 1:], P, l + P * (k - 1), -P, k, n, path, q)  # Y leftwards
    q = kc.place(cs_[c1 + 1:], l, 0, False, n, path, q)                      # … the end
    if q != H * n:
        raise RuntimeError("4-row middle construction lost squares")  # a bug
    return path


def _bare_ok(H, width):
    return width > 0 and plan(H, width, False, 0) is not None


def _middle(H, n, sx, sy, tries=16):
    """Open tour from (sx, sy) through a middle piece: chains to its left (mirrored) and to
    its right, each a bare strip (no left cap) entered and left at the piece's ports."""
    for a, width, right, piece in _middle_pieces(
            range(4, 12), 1, n, sx, sy,
            lambda a, _w, right: _bare_ok(H, a) and _bare_ok(H, right), tries,
            lambda width, at: cb.strip_middle_from(H, width, at)):
        r_out, r_in, l_out, l_in = cb.middle_ports(H, width)
        jumps = {r_out[1] * width + r_out[0]: (strip(H, right, False, bare=True), right,
                                               a + width, False),
                 l_out[1] * width + l_out[0]: (strip(H, a, False, bare=True), a, 0, True)}
        path = np.empty(H * n, dtype=np.int32)
        seq = piece.seq
        at, k0 = 0, 0
        for k in range(seq.size):
            u = int(seq[k])
            if u in jumps:
                at = kc.place(seq[k0:k + 1], width, a, False, n, path, at)
                part, pw, x_off, mirror = jumps[u]
                at = kc.place(part, pw, x_off, mirror, n, path, at)
                k0 = k + 1
        at = kc.place(seq[k0:], width, a, False, n, path, at)
        if at == H * n:
            return path
        raise RuntimeError("middle strip construction lost squares")  # a bug
    return None
