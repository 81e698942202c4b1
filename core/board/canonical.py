"""Which tours are really the same: canonical forms up to the board's symmetries.

Two tours are *the same* here when one becomes the other by a symmetry of the board (8 on a
square board, 4 on an oblong one: turns and mirrors) and, for an **open** tour, by walking it
backwards; a **closed** tour (its last square a knight move from its first) is a cycle, so
where it starts and which way it runs are forgotten too.

>>> from knightgui_core.board.squares import Board
>>> import numpy as np
>>> b = Board(1, 1)
>>> canonical_id(b, np.array([0]))[:5]
'O1x1-'
"""
from __future__ import annotations

import hashlib
from functools import lru_cache, reduce

import numpy as np

from .squares import Board

__all__ = ["symmetry_maps", "board_maps", "canonical_form", "canonical_id", "symmetry_order", "relation",
           "is_cycle", "SYMMETRY_NAMES", "row_less", "normal_forms", "canonical_rows"]

#: the names of :func:`symmetry_maps`' rows, in order (the last four on square boards only)
SYMMETRY_NAMES = ("identity", "mirrored left–right", "mirrored top–bottom", "rotated 180°",
                  "reflected in the a1 diagonal", "rotated 90° clockwise",
                  "rotated 90° anticlockwise", "reflected in the other diagonal")


@lru_cache(maxsize=16)
def symmetry_maps(rows: int, cols: int) -> np.ndarray:
    """``int64[k, N]``: row g maps each flat square (``row * cols + col``) to its image under
    the board's g-th symmetry (:data:`SYMMETRY_NAMES`); k = 8 on a square board, else 4.
    Read-only."""
    r, c = int(rows), int(cols)
    sq = np.arange(r * c, dtype=np.int64)
    x, y = sq % c, sq // c
    images = [(x, y), (c - 1 - x, y), (x, r - 1 - y), (c - 1 - x, r - 1 - y)]
    if r == c:
        n = r
        images += [(y, x), (y, n - 1 - x), (n - 1 - y, x), (n - 1 - y, n - 1 - x)]
    out = np.array([yy * c + xx for xx, yy in images], dtype=np.int64)
    out.setflags(write=False)
    return out


def board_maps(board: Board) -> np.ndarray:
    """The symmetries of ``board`` as :func:`symmetry_maps` rows: all of them on the plane and
    the torus; on a cylinder (only the columns wrap) the four of its rectangle, square or not
    (a diagonal would turn wrapped columns into rows that do not wrap). Every leaper's moves
    are symmetric under all eight."""
    maps = symmetry_maps(board.rows, board.cols)
    return maps[:4] if board.topology == "cylinder" else maps


def is_cycle(board: Board, path: np.ndarray) -> bool:
    """A tour of the whole board whose last square is a knight move from its first."""
    p = np.asarray(path)
    return (p.size == board.size and p.size > 2
            and board.is_knight_move(int(p[-1]), int(p[0])))


def _less(a: np.ndarray, b: np.ndarray) -> bool:
    """``a`` before ``b`` in lexicographic order (same length)."""
    d = np.flatnonzero(a != b)
    return bool(d.size) and bool(a[d[0]] < b[d[0]])


def _forms(q: np.ndarray, cycle: bool) -> tuple[np.ndarray, np.ndarray]:
    """The two readings of ``q``: both ways, a cycle from its smallest square."""
    if not cycle:
        return q, q[::-1]
    fwd = np.roll(q, -int(np.argmin(q)))
    return fwd, np.concatenate([fwd[:1], fwd[:0:-1]])


def _normal(q: np.ndarray, cycle: bool) -> np.ndarray:
    """The tour ``q`` as one sequence, whatever its start or direction: the smaller of its
    two readings."""
    a, b = _forms(q, cycle)
    return b if _less(b, a) else a


def _checked(board: Board, path: np.ndarray) -> np.ndarray:
    p = np.asarray(path)
    if (p.ndim != 1 or p.size == 0 or not np.issubdtype(p.dtype, np.integer)
            or int(p.min()) < 0 or int(p.max()) >= board.size):
        raise ValueError(f"a tour is a list of squares of the {board.rows}×{board.cols} board")
    return p.astype(np.int64, copy=False)


def canonical_form(board: Board, path: np.ndarray) -> np.ndarray:
    """The representative of the tour's class: the smallest, in lexicographic order, of its
    images under every symmetry of the board, read both ways (and, for a cycle, from its
    smallest square). int64[len(path)]."""
    p = _checked(board, path)
    cycle = is_cycle(board, p)
    return reduce(lambda best, q: q if _less(q, best) else best,
                  (_normal(g[p], cycle) for g in board_maps(board)))


def canonical_id(board: Board, path: np.ndarray) -> str:
    """A short stable name of the tour's class: ``C`` (cycle) or ``O`` (open path), the board,
    and 20 hex digits of the SHA-256 of :func:`canonical_form`."""
    p = _checked(board, path)
    form = canonical_form(board, p)
    kind = "C" if is_cycle(board, p) else "O"
    digest = hashlib.sha256(form.astype("<u4").tobytes()).hexdigest()[:20]
    return f"{kind}{board.rows}x{board.cols}-{digest}"


def symmetry_order(board: Board, path: np.ndarray) -> int:
    """How many of the board's symmetries map the tour onto itself (as a path up to
    reversal, or as a cycle): 1 for most tours; it divides 8 (or 4 on an oblong board)."""
    p = _checked(board, path)
    cycle = is_cycle(board, p)
    own = _normal(p, cycle)
    return sum(1 for g in board_maps(board)
               if np.array_equal(_normal(g[p], cycle), own))


def relation(board: Board, path: np.ndarray, other: np.ndarray) -> str | None:
    """How ``path`` is ``other``: ``"the same tour"``, ``"reversed"``, ``"rotated 90°
    clockwise"``, ``"mirrored left–right, reversed"``… (the first symmetry that works, in
    :data:`SYMMETRY_NAMES` order; for cycles, "the same cycle" whatever the start and
    direction), or None when they are different tours."""
    p, o = _checked(board, path), _checked(board, other)
    if p.size != o.size:
        return None
    cycle = is_cycle(board, p)
    if cycle != is_cycle(board, o):
        return None
    target = _normal(o, cycle)
    for name, g in zip(SYMMETRY_NAMES, board_maps(board)):
        q = g[p]
        if cycle:
            if np.array_equal(_normal(q, True), target):
                return "the same cycle" if name == "identity" else f"the same cycle {name}"
            continue
        if np.array_equal(q, o):
            return "the same tour" if name == "identity" else name
        if np.array_equal(q[::-1], o):
            return "reversed" if name == "identity" else f"{name}, reversed"
    return None


def row_less(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """bool[m]: row i of ``a`` before row i of ``b`` in lexicographic order."""
    diff = a != b
    first = np.argmax(diff, axis=1)
    rows = np.arange(a.shape[0])
    return diff[rows, first] & (a[rows, first] < b[rows, first])


def normal_forms(paths: np.ndarray, cycle: np.ndarray) -> np.ndarray:
    """Each row of ``paths`` (int[m, N]) in normal form: an open path the smaller of its two
    readings, a cycle (``cycle[i]`` true) read from square 0 the smaller way round."""
    m, n = paths.shape
    out = paths.copy()
    if m == 0:
        return out
    rev = paths[:, ::-1]
    take = row_less(rev, paths) & ~cycle
    out[take] = rev[take]
    if cycle.any():
        c = paths[cycle]
        at0 = np.argmax(c == 0, axis=1)
        ar = np.arange(n)
        rows = np.arange(c.shape[0])[:, None]
        fwd = c[rows, (at0[:, None] + ar) % n]
        back = c[rows, (at0[:, None] - ar) % n]
        out[cycle] = np.where(row_less(back, fwd)[:, None], back, fwd)
    return out


def canonical_rows(board: Board, paths: np.ndarray) -> np.ndarray:
    """:func:`canonical_form` of each row of ``paths`` (int[m, N], tours of the whole board
    or partial paths of the same length), computed for all rows at once by one kernel
    (:mod:`knightgui_core.board.canonical_kernel`): ``int64[m, N]``. A row is a cycle when it
    covers the board and its last square is a knight move from its first. Raises
    ``ValueError`` when a row holds a square off the board."""
    # here, not at the top: the window imports this module for its first frame, which comes
    # before numba is loaded (tests/gui/test_app.py::test_first_frame_comes_before_numba)
    from .canonical_kernel import canonical_rows_kernel
    p = np.asarray(paths)
    if p.ndim != 2 or not np.issubdtype(p.dtype, np.integer):
        raise ValueError("paths must be a two-dimensional array of squares")
    if p.size and (int(p.min()) < 0 or int(p.max()) >= board.size):
        raise ValueError(f"a tour is a list of squares of the {board.rows}×{board.cols} board")
    p = np.ascontiguousarray(p, dtype=np.int64)
    m, n = p.shape
    out = np.empty((m, n), dtype=np.int64)
    if m == 0 or n == 0:
        return out
    if n == board.size and n > 2:
        cycle = (board.neighbours[p[:, -1]] == p[:, :1]).any(axis=1).astype(np.uint8)
    else:
        cycle = np.zeros(m, dtype=np.uint8)
    maps = np.ascontiguousarray(board_maps(board))
    canonical_rows_kernel(p, maps, cycle, out)
    return out
