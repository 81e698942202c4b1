"""Base pieces of the block construction (:mod:`knightgui_core.construct.huge`), found by search.

Every piece is a Hamiltonian path or cycle of a small board (at most 11 × 14 squares) with
extra conditions, found by :func:`knightgui_core.construct.hamsearch_kernel.ham_search` (Warnsdorff-ordered
depth-first search, seeded, deterministic) the first time it is needed, checked square by
square (:func:`_verify`), then kept for the life of the process. Nothing is stored on disk
and nothing is typed in by hand: the conditions below are the whole specification.

A piece is a ``Piece(h, w, seq, closed, cut)``: ``seq`` holds local flat indices
``y * w + x`` in path order; ``closed`` says ``seq[-1] → seq[0]`` is a knight move and part of
the piece; ``cut >= 0`` says the step ``seq[cut] → seq[(cut + 1) % len]`` is *virtual* (not a
knight move: the two halves are separate strands joined through neighbouring pieces).

Grid blocks (both sides 5..10; 11 for on-demand odd blocks)
-----------------------------------------------------------
A block that is not odd × odd gets a closed tour; an odd × odd block gets an open tour from its
corner (0, 0). Both must contain the four *gadget* edges (local ``(x, y)``, block ``w`` × ``h``):

* ``h_right``  (w-2, 0)–(w-1, 2)    ``h_left``   (0, 1)–(1, 3)
* ``v_top``    (0, h-2)–(2, h-1)    ``v_bottom`` (1, 0)–(3, 1)

Side by side, ``h_right`` of the left block and ``h_left`` of the right block are parallel
knight moves one knight move apart: (X-2, 0)–(X, 1) and (X-1, 2)–(X+1, 3) are knight moves
(X = first column of the right block). Removing both edges and adding those two joins two
cycles into one (or a cycle into a path). ``v_top`` / ``v_bottom`` do the same vertically.

Strips (3 or 4 rows)
--------------------
A strip ``H`` × n is cut into a left cap, k period blocks of width 4 and a right cap. Each
period block holds two strands: ``ain → … → aout`` and ``bin → … → bout``; ``aout`` of one
block is a knight move from ``ain`` of the next, ``bout`` of the next a knight move from
``bin`` of this one. The right cap is one path ``ain → … → bout`` (the turn). A *closed* left
cap is one path ``bin → … → aout`` (the strands meet and the tour closes); an *open* left cap
is ``start → … → aout`` plus ``bin → … → end``; an empty left cap starts the tour at ``ain``
and ends it at ``bout``. On 4 × n every open tour has exactly one step between the two
inner rows, so tours cannot be built from blocks that each hold a full path — hence strands.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from ..system.errors import KnightguiError
from .hamsearch_kernel import ham_search, local_neighbours


class BaseSearchError(KnightguiError, RuntimeError):
    """A base piece could not be found within its search budget (a bug, never expected)."""


@dataclass(frozen=True)
class Piece:
    h: int
    w: int
    seq: np.ndarray
    closed: bool = False
    cut: int = -1


def gadgets(h: int, w: int) -> dict[str, tuple[tuple[int, int], tuple[int, int]]]:
    """The four gadget edges of a ``w`` × ``h`` grid block, as ((x, y), (x, y)) pairs."""
    return {"h_right": ((w - 2, 0), (w - 1, 2)), "h_left": ((0, 1), (1, 3)),
            "v_top": ((0, h - 2), (2, h - 1)), "v_bottom": ((1, 0), (3, 1))}


ALL_GADGETS = ("h_right", "h_left", "v_top", "v_bottom")

#: Strip strands (local (x, y) of a 4-wide period block): ain, aout, bin, bout.
STRIP_PORTS = {3: ((0, 0), (2, 1), (2, 0), (0, 1)),
               4: ((0, 0), (3, 2), (3, 1), (0, 3))}
STRIP_PERIOD = 4
#: Widths for which the pieces exist (found once by exhaustive exploration; each is checked
#: again by the tests, and a missing one raises BaseSearchError).
STRIP_RIGHT = {3: (4, 8, 10), 4: (5, 6, 7, 8)}
STRIP_LEFT_CLOSED = {3: (8, 10, 12, 14), 4: ()}
STRIP_LEFT_OPEN = {3: (0, 3, 4, 6, 7, 8, 9, 10, 11), 4: (0,)}

_BUDGETS = ((2_000, 4), (20_000, 8), (200_000, 16), (2_000_000, 16))


def _knight(a, b) -> bool:
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return (dx == 1 and dy == 2) or (dx == 2 and dy == 1)


def _graph(h, w, edges, virtual):
    """Neighbour table (with a 9th column for virtual edges) and required-partner array."""
    nb = local_neighbours(h, w)
    if virtual:
        nb = np.concatenate([nb, np.full((h * w, 1), -1, dtype=np.int32)], axis=1)
    req = np.full(h * w, -1, dtype=np.int32)
    for a, b in list(edges) + list(virtual):
        ia, ib = a[1] * w + a[0], b[1] * w + b[0]
        if req[ia] >= 0 or req[ib] >= 0:
            raise ValueError(f"square used by two required edges in {h}×{w}: {a}, {b}")
        req[ia], req[ib] = ib, ia
    for a, b in virtual:
        ia, ib = a[1] * w + a[0], b[1] * w + b[0]
        nb[ia, 8], nb[ib, 8] = ib, ia
    return nb, req


def _search(h, w, ends, edges=(), virtual=(), budgets=_BUDGETS, reversible=False):
    """First path found over ``ends`` = [(start, end or None), ...], trying every option
    with a small budget before raising it. Returns local flat indices or ``None``.
    ``reversible``: a path whose virtual edges all run backwards is returned reversed."""
    nb, req = _graph(h, w, edges, virtual)
    n = h * w
    path = np.empty(n, dtype=np.int32)
    # a virtual edge is directed: its first square must come right before its second
    order = [(a[1] * w + a[0], b[1] * w + b[0]) for a, b in virtual]
    dead = set()
    for budget, seeds in budgets:
        for seed in range(1, seeds + 1):
            for k, (s, e) in enumerate(ends):
                if k in dead:
                    continue
                r = ham_search(nb, s[1] * w + s[0], -1 if e is None else e[1] * w + e[0],
                               req, budget, seed, path)
                if r == n:
                    pos = np.empty(n, dtype=np.int64)
                    pos[path] = np.arange(n)
                    if all(pos[ia] + 1 == pos[ib] for ia, ib in order):
                        return path.copy()
                    if reversible and all(pos[ib] + 1 == pos[ia] for ia, ib in order):
                        return path[::-1].copy()
                if r == 0:
                    dead.add(k)   # that option has no solution at all
        if len(dead) == len(ends):
            return None
    return None


def _corner_cycle_ends(h, w):
    """A closed tour through corner c is a path c → one neighbour … other neighbour."""
    out = []
    for (cx, cy), sx, sy in (((0, 0), 1, 1), ((w - 1, 0), -1, 1), ((0, h - 1), 1, -1),
                             ((w - 1, h - 1), -1, -1)):
        a = (cx + sx, cy + 2 * sy)
        b = (cx + 2 * sx, cy + sy)
        out += [((cx, cy), a), ((cx, cy), b)]
    return out


def _verify(p: Piece, edges=(), virtual=()) -> Piece:
    """Check a piece square by square; raise BaseSearchError if anything is off."""
    h, w, seq = p.h, p.w, p.seq
    n = h * w
    what = f"base piece {h}×{w}"
    if seq.shape != (n,) or np.unique(seq).size != n or seq.min() < 0 or seq.max() >= n:
        raise BaseSearchError(f"{what} is not a permutation of its squares")
    xy = [(int(s) % w, int(s) // w) for s in seq]
    steps = {(min(a, b), max(a, b)) for a, b in zip(seq[:-1].tolist(), seq[1:].tolist())}
    if p.closed:
        steps.add((min(int(seq[-1]), int(seq[0])), max(int(seq[-1]), int(seq[0]))))
        if not _knight(xy[-1], xy[0]):
            raise BaseSearchError(f"{what} is marked closed but does not close")
    jumps = {(a[1] * w + a[0], b[1] * w + b[0]) for a, b in virtual}
    for k in range(n - 1):
        if (k != p.cut and (int(seq[k]), int(seq[k + 1])) not in jumps
                and not _knight(xy[k], xy[k + 1])):
            raise BaseSearchError(f"{what}: step {k} is not a knight move")
    for a, b in edges:
        ia, ib = a[1] * w + a[0], b[1] * w + b[0]
        if (min(ia, ib), max(ia, ib)) not in steps:
            raise BaseSearchError(f"{what} lacks the required edge {a}–{b}")
    pairs = set(zip(seq[:-1].tolist(), seq[1:].tolist()))
    for jump in jumps:
        if jump not in pairs:
            raise BaseSearchError(f"{what} lacks the strand jump {jump}")
    return p


# ------------------------------------------------------------------ grid blocks
@functools.cache
def grid_block(h: int, w: int) -> Piece:
    """Closed tour (or, odd × odd, open tour from (0, 0)) of a ``w`` × ``h`` block with all
    four gadget edges."""
    if not (5 <= h <= 11 and 5 <= w <= 11):
        raise ValueError(f"grid blocks have sides 5..11, not {h}×{w}")
    edges = [gadgets(h, w)[g] for g in ALL_GADGETS]
    closed = (h * w) % 2 == 0
    ends = _corner_cycle_ends(h, w) if closed else [((0, 0), None)]
    seq = _search(h, w, ends, edges)
    if seq is None:
        raise BaseSearchError(f"no {'closed' if closed else 'open'} base tour found for a "
                              f"{w}×{h} block")
    return _verify(Piece(h, w, seq, closed), edges)


@functools.lru_cache(maxsize=4096)
def odd_block_from(h: int, w: int, start: tuple[int, int], need: tuple[str, ...]) -> Piece | None:
    """Open tour of an odd × odd block from local ``start`` with the gadget edges ``need``,
    or ``None`` when the (small) search budget finds none."""
    g = gadgets(h, w)
    edges = [g[k] for k in need]
    seq = _search(h, w, [(start, None)], edges, budgets=((5_000, 4), (50_000, 4)))
    if seq is None:
        return None
    return _verify(Piece(h, w, seq, False), edges)


# ----------------------------------------------------------------------- strips
def _ports(H, width, at_right):
    """Strip ports placed in a piece of ``width`` columns: the period block's right-hand
    ports (aout, bin) shifted to the piece's right border, or its left ports (ain, bout)."""
    ain, aout, bin_, bout = STRIP_PORTS[H]
    if at_right:
        d = width - STRIP_PERIOD
        return (aout[0] + d, aout[1]), (bin_[0] + d, bin_[1])
    return ain, bout


@functools.cache
def strip_piece(H: int, kind: str, width: int) -> Piece:
    """``kind``: ``period`` (width 4), ``right``, ``left_closed`` or ``left_open``."""
    (ain, bout), (aout, bin_) = _ports(H, width, False), _ports(H, width, True)
    if kind in ("period", "right"):
        ends = [(ain, bout)]
    elif kind == "left_closed":
        ends = [(bin_, aout)]
    elif kind == "left_open":
        ends = [((x, y), None) for x in range(width) for y in range(H) if (x, y) not in (aout, bin_)]
    else:
        raise ValueError(f"unknown strip piece kind {kind!r}")
    virtual = [(aout, bin_)] if kind in ("period", "left_open") else []
    seq = _search(H, width, ends, virtual=virtual, reversible=kind == "left_open")
    if seq is None:
        raise BaseSearchError(f"no {kind} strip piece found for {H}×{width}")
    cut = width * H - 1 if kind == "left_closed" else -1   # aout last, bin first
    if virtual:
        a, b = virtual[0]
        ia = a[1] * width + a[0]
        cut = int(np.flatnonzero(seq == ia)[0])
        if int(seq[cut + 1]) != b[1] * width + b[0]:
            raise BaseSearchError(f"{kind} strip piece {H}×{width}: strands out of order")
    return _verify(Piece(H, width, seq, False, cut), virtual=virtual)


@functools.lru_cache(maxsize=1024)
def strip_left_open_from(H: int, width: int, start: tuple[int, int]) -> Piece | None:
    """An open left cap whose tour starts at local ``start``, or ``None``."""
    aout, bin_ = _ports(H, width, True)
    if start in (aout, bin_) or not (0 <= start[0] < width and 0 <= start[1] < H):
        return None
    seq = _search(H, width, [(start, None)], virtual=[(aout, bin_)],
                  budgets=((5_000, 4), (50_000, 4)))
    if seq is None:
        return None
    ia = aout[1] * width + aout[0]
    cut = int(np.flatnonzero(seq == ia)[0])
    if int(seq[cut + 1]) != bin_[1] * width + bin_[0]:
        return None
    return _verify(Piece(H, width, seq, False, cut), virtual=[(aout, bin_)])


def middle_ports(H: int, width: int) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int],
                                             tuple[int, int]]:
    """Ports of a middle piece ``width`` wide: (right out, right in, left out, left in).
    The right pair is a period block's (aout, bin) at the piece's right border; the left pair
    is the same pair mirrored onto its left border (the chain to the left is mirrored)."""
    _, aout, bin_, _ = STRIP_PORTS[H]
    r_out, r_in = _ports(H, width, True)
    m = STRIP_PERIOD - 1
    return r_out, r_in, (m - aout[0], aout[1]), (m - bin_[0], bin_[1])


@functools.lru_cache(maxsize=1024)
def strip_middle_from(H: int, width: int, start: tuple[int, int]) -> Piece | None:
    """A middle piece whose tour starts at local ``start``: one path through the piece with
    two strand jumps, right out ⇒ right in (the chain to the right, there and back) and left
    out ⇒ left in (the mirrored chain to the left), in either order; or ``None``."""
    ports = middle_ports(H, width)
    if start in ports or len(set(ports)) < 4 or not (0 <= start[0] < width and 0 <= start[1] < H):
        return None
    virtual = [(ports[0], ports[1]), (ports[2], ports[3])]
    seq = _search(H, width, [(start, None)], virtual=virtual,
                  budgets=((5_000, 4), (50_000, 4)))
    if seq is None:
        return None
    return _verify(Piece(H, width, seq, False), virtual=virtual)


#: 4-row strips, starts mid-board: period blocks with three strands (local (x, y)):
#: X1in → X1out (leftwards), X2in → X2out (rightwards), Yin → Yout (leftwards, to the end).
#: On 4 × n every open tour has one step between the middle rows, so the strands left of
#: the start must turn without one: two strands go out and back, the third ends the tour.
TRIPLE_PORTS = {4: ((3, 0), (0, 2), (0, 3), (3, 1), (3, 2), (0, 0))}
TRIPLE_LEFT = {4: (4, 5, 6, 7)}


@functools.cache
def triple_piece(H: int, kind: str, width: int) -> Piece:
    """``period`` (width 4): X1in … X1out ⇒ X2in … X2out ⇒ Yin … Yout; ``cap``: the left
    end, X1in … X2out ⇒ Yin … (free end), ports at its right border."""
    x1in, x1out, x2in, x2out, yin, yout = TRIPLE_PORTS[H]
    if kind == "period":
        virtual = [(x1out, x2in), (x2out, yin)]
        seq = _search(H, width, [(x1in, yout)], virtual=virtual)
    elif kind == "cap":
        d = width - STRIP_PERIOD
        virtual = [((x2out[0] + d, x2out[1]), (yin[0] + d, yin[1]))]
        seq = _search(H, width, [((x1in[0] + d, x1in[1]), None)], virtual=virtual)
    else:
        raise ValueError(f"unknown triple piece kind {kind!r}")
    if seq is None:
        raise BaseSearchError(f"no triple-strand {kind} found for {H}×{width}")
    return _verify(Piece(H, width, seq, False), virtual=virtual)


@functools.lru_cache(maxsize=1024)
def triple_middle_from(H: int, width: int, start: tuple[int, int]) -> Piece | None:
    """Middle piece of a 4-row strip whose tour starts at local ``start``: start … X1out ⇒
    X2in … right out ⇒ right in … Yout, where X1out, X2in, Yout are the triple block's
    left-side ports and right out / in a period block's (aout, bin) at the right border."""
    _, x1out, x2in, _, _, yout = TRIPLE_PORTS[H]
    r_out, r_in = _ports(H, width, True)
    ports = {x1out, x2in, yout, r_out, r_in}
    if start in ports or len(ports) < 5 or not (0 <= start[0] < width and 0 <= start[1] < H):
        return None
    virtual = [(x1out, x2in), (r_out, r_in)]
    seq = _search(H, width, [(start, yout)], virtual=virtual,
                  budgets=((5_000, 4), (50_000, 2)))
    if seq is None:
        return None
    return _verify(Piece(H, width, seq, False), virtual=virtual)


@functools.lru_cache(maxsize=1024)
def small_board_from(h: int, w: int, start: tuple[int, int]) -> Piece | None:
    """Open tour of a small whole board from ``start`` by search (None: none found)."""
    seq = _search(h, w, [(start, None)], budgets=((20_000, 4), (500_000, 2)))
    return None if seq is None else _verify(Piece(h, w, seq, False))


@functools.cache
def whole_board(h: int, w: int, closed: bool) -> Piece:
    """A tour of a whole small board (used where no decomposition applies, e.g. 3×9, 3×10)."""
    if closed:
        ends = _corner_cycle_ends(h, w)
    else:
        ends = [((x, y), None) for y in range(h) for x in range(w)]
    seq = _search(h, w, ends)
    if seq is None:
        raise BaseSearchError(f"no {'closed' if closed else 'open'} tour found for {w}×{h}")
    return _verify(Piece(h, w, seq, closed))
