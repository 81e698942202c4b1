"""Guaranteed knight's tours in linear time, for every board that has one (docs/spec.md §8).

Method — block stitching in the style of Parberry's divide and conquer
----------------------------------------------------------------------
*Boards with both sides ≥ 5.* Each side is cut into parts of 6, 8 or 10 squares, plus one
odd part (5, 7, 9, or 11) when the side is odd. The blocks of that grid are small boards;
each gets a base tour from :mod:`knightgui_core.construct.blocks` — a closed tour when the block has an
even side, an open one for the (single) odd × odd block — that contains four fixed
*gadget* edges near its corners. Two neighbouring blocks are joined by swapping a gadget edge
of each for two knight moves that cross the border (a 2-opt exchange); joining a cycle to a
cycle gives a cycle, a cycle to a path a path. Joins follow a comb (every block row is a
chain; block column 0 links the rows), so k blocks need k − 1 joins and the result is one
closed tour (or one open tour when the board is odd × odd). Since a closed tour needs an even
side and the even sides are cut into even parts only, every block but the odd × odd one has
a closed tour.

*Strips of 3 or 4 rows.* A strip is a left cap, k period blocks 4 wide and a right cap. Each
period block carries two strands (out and back); the right cap turns the strands round, the
left cap either closes them (3 × n closed tours) or holds the open ends. On 4 × n an open tour
has exactly one step between the two middle rows, so these boards cannot be built from
blocks that each hold a whole path; strands avoid that. Tall boards (n × 3, n × 4) are built
as strips and transposed in place.

Starts. A closed tour is rotated in place to begin at the start, so every start is met on a
board with a closed tour (also for open tours). On an odd × odd board the odd part of each
side is placed so that its block holds the start, and that block's open base tour is searched
from it (a few ms): every start of the corners' colour is met in the tests (the other colour
cannot start an open tour). Strips try mirror images, a left cap searched from the start,
then a *middle piece* holding the start with chains on both sides (4 rows: three-strand
blocks on the left, two going out and back and one running to the end); every outer-row
start of 4 × n is met for n ≥ 5 (inner rows cannot start one); 3 × n misses a few squares.

The base pieces are searched for once and checked (:mod:`knightgui_core.construct.blocks`).
Assembly writes the tour straight into the output (:mod:`knightgui_core.construct.construct_kernel`):
O(rows · cols) time, 4 bytes per square (the int32 path) and nothing else of board size.

tests/core/test_construct.py checks every size up to 30 × 30, every n × n to 300, thin
boards to 400 both ways round, and 1000×1000 and 2000×2000.

Sources: I. Parberry, "An efficient algorithm for the Knight's tour problem", Discrete
Applied Mathematics 73 (1997) 251–260 (structured base tours joined at corners);
A. J. Schwenk, "Which rectangular chessboards have a knight's tour?", Mathematics Magazine 64
(1991) 325–332 (existence; extending 3 × n tours by 4 columns); S.-S. Lin and C.-L. Wei,
"Optimal algorithms for constructing knight's tours on arbitrary n × m chessboards",
Discrete Applied Mathematics 146 (2005) 219–232 (linear-time constructions for all boards).
The gadget positions, strand scheme and base pieces here are this project's own.
"""
from __future__ import annotations

import os

import numpy as np

from ..board.existence import closed_tour_exists, tour_exists, why_no_tour
from ..board.squares import Board, SquareSpec
from ..system.errors import InputError
from . import blocks as cb
from . import construct_kernel as kc
from . import strips as cs

__all__ = ["ConstructionError", "construct_closed", "construct_open",
           "max_squares_for_memory", "BYTES_PER_SQUARE"]

#: Memory planned per square: 4 bytes for the construction (the int32 path) and about 44
#: for the caller's vectorised validation (knightgui_core.board.tour.check_path) and a copy.
BYTES_PER_SQUARE = 48
#: Share of the available memory a construction may plan to use.
MEMORY_SHARE = 0.5
_INT32_LIMIT = 2**31 - 1


class ConstructionError(InputError):
    """No tour of the kind asked exists on the board, or the board does not fit in memory."""


# ----------------------------------------------------------------------- memory
def _available_bytes() -> int:
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return int(os.sysconf("SC_AVPHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):
        return 2 * 2**30   # no way to ask (e.g. Windows without /proc): assume 2 GiB


def max_squares_for_memory() -> int:
    """Largest number of squares a construction may take on this machine now: half the
    available memory at :data:`BYTES_PER_SQUARE` per square, and within int32 indices."""
    return int(min(_available_bytes() * MEMORY_SHARE // BYTES_PER_SQUARE, _INT32_LIMIT))


def _begin(rows: int, cols: int, start: SquareSpec | None,
           closed: bool) -> tuple[Board, int | None]:
    """The board and the start of a construction; ConstructionError when no tour of the kind
    exists or the board does not fit in memory."""
    board = Board(rows, cols)
    s = None if start is None else board.square(start)
    if not tour_exists(rows, cols, closed):
        raise ConstructionError(why_no_tour(rows, cols, closed))
    n, limit = rows * cols, max_squares_for_memory()
    if n > limit:
        raise ConstructionError(
            f"a {cols}×{rows} board has {n:,} squares; with the memory available now this "
            f"machine can build tours of at most {limit:,} squares "
            f"(about {BYTES_PER_SQUARE} bytes per square)")
    return board, s


# --------------------------------------------------------------------- grid plan
def _even_parts(d: int) -> list[int]:
    """Cut an even length (0 or ≥ 6) into parts of 6, 8 and 10."""
    parts = []
    while d > 10:
        take = 10 if d - 10 >= 6 else 6
        parts.append(take)
        d -= take
    if d:
        parts.append(d)
    return parts


def _parts(d: int) -> tuple[list[int], int]:
    """Parts of a side (≥ 5) and the index of its odd part (-1 when d is even)."""
    if d % 2 == 0:
        return _even_parts(d), -1
    odd = d if d <= 9 else 5
    return [odd] + _even_parts(d - odd), 0


def _odd_placements(d: int, pos: int) -> list[tuple[list[int], int]]:
    """Ways to cut an odd side so that its odd part covers coordinate ``pos``."""
    out = []
    for o in (5, 7, 9, 11):
        for e in range(0, d - o + 1, 2):
            rest = d - e - o
            if e <= pos < e + o and (e == 0 or e >= 6) and (rest == 0 or rest >= 6):
                parts = _even_parts(e) + [o] + _even_parts(rest)
                out.append((abs(2 * (pos - e) - (o - 1)), o, parts, len(_even_parts(e))))
    out.sort(key=lambda t: (t[1], -t[0]))
    return [(p, i) for _, _, p, i in out]


def _root_entry(piece, need) -> int:
    """Where to enter a closed root block: a square whose incoming edge is no gadget."""
    g = cb.gadgets(piece.h, piece.w)
    busy = {y * piece.w + x for k in need for (x, y) in g[k]}
    seq = piece.seq.tolist()
    for i, u in enumerate(seq):
        if u not in busy and seq[i - 1] not in busy:
            return u
    raise RuntimeError("no entry square in the root block")  # cannot happen: ≤ 8 busy


def _needed_gadgets(i: int, j: int, R: int, C: int) -> tuple[str, ...]:
    """Gadgets that block (i, j) of an R × C comb rooted at (i, j) joins through."""
    need = []
    if j < C - 1:
        need.append("h_right")
    if j > 0:
        need.append("h_left")
    if j == 0 and i < R - 1:
        need.append("v_top")
    if j == 0 and i > 0:
        need.append("v_bottom")
    return tuple(need)


def _grid(rows: int, cols: int, rparts: list[int], cparts: list[int],
          root: tuple[int, int] = (0, 0), root_piece: cb.Piece | None = None) -> np.ndarray:
    """Tour of the grid of blocks; an open root piece fixes where an open tour starts."""
    keys: dict[tuple[int | str, ...], int] = {}
    pieces: list[cb.Piece] = []
    btype = np.empty((len(rparts), len(cparts)), dtype=np.int32)
    for i, h in enumerate(rparts):
        for j, w in enumerate(cparts):
            is_root = (i, j) == root and root_piece is not None
            key: tuple[int | str, ...] = ("root",) if is_root else (h, w)
            if key not in keys:
                keys[key] = len(pieces)
                pieces.append(root_piece if is_root and root_piece is not None
                              else cb.grid_block(h, w))
            btype[i, j] = keys[key]
    rp = pieces[btype[root]]
    need = _needed_gadgets(root[0], root[1], len(rparts), len(cparts))
    entry = _root_entry(rp, need) if rp.closed else int(rp.seq[0])
    row_off = np.zeros(len(rparts) + 1, dtype=np.int64)
    np.cumsum(rparts, out=row_off[1:])
    col_off = np.zeros(len(cparts) + 1, dtype=np.int64)
    np.cumsum(cparts, out=col_off[1:])
    path = np.empty(rows * cols, dtype=np.int32)
    written = kc.grid_path(cols, row_off, col_off, btype, cs.table(pieces), root[0], root[1],
                           entry, path)
    if written != rows * cols:
        raise RuntimeError(f"construction of {cols}×{rows} wrote {written} squares")  # a bug
    return path


# --------------------------------------------------------------------- closed
def _closed_path(rows: int, cols: int, s: int | None) -> np.ndarray:
    if min(rows, cols) == 3:
        if rows == 3:
            path = cs.strip(3, cols, True)
        else:
            path = cs.strip(3, rows, True)          # built on the transposed board
            kc.remap(path, 3, rows, False, False, True)
    else:
        path = _grid(rows, cols, _parts(rows)[0], _parts(cols)[0])
    if s is not None and not kc.rotate_to(path, s):
        raise RuntimeError("start square missing from the tour")  # a bug
    return path


def construct_closed(rows: int, cols: int, start: SquareSpec | None = None) -> np.ndarray:
    """A closed knight's tour of the ``rows`` × ``cols`` board in O(rows · cols).

    ``start``: flat index ``row * cols + col``, a name (``c7``, ``3,7``) or a ``(col, row)``
    pair; the tour then begins there (``path[0] == start``). Returns int32[rows * cols], flat
    indices in visiting order; the last square is a knight move from the first.
    Raises :class:`ConstructionError` when no closed tour exists (docs/spec.md §8) or the board does
    not fit in memory, :class:`knightgui_core.board.squares.BoardError` for bad sizes or a bad start.
    """
    board, s = _begin(rows, cols, start, True)
    return _closed_path(board.rows, board.cols, s)


# ----------------------------------------------------------------------- open
def _open_odd(rows, cols, s):
    """Open tour of an odd × odd board (both sides ≥ 5), trying to start at ``s``."""
    if s is not None and (s % cols + s // cols) % 2 == 0:
        x, y = s % cols, s // cols
        for rp, ri in _odd_placements(rows, y)[:4]:
            for cp, ci in _odd_placements(cols, x)[:4]:
                y0, x0 = sum(rp[:ri]), sum(cp[:ci])
                need = _needed_gadgets(ri, ci, len(rp), len(cp))
                piece = cb.odd_block_from(rp[ri], cp[ci], (x - x0, y - y0), need)
                if piece is not None:
                    path = _grid(rows, cols, rp, cp, (ri, ci), piece)
                    if path[0] == s:
                        return path, True
    path = _grid(rows, cols, _parts(rows)[0], _parts(cols)[0])
    if s is None:
        return path, True
    return path, cs.match_end(path, rows, cols, s)


def construct_open(rows: int, cols: int,
                   start: SquareSpec | None = None) -> tuple[np.ndarray, bool]:
    """An open knight's tour of the ``rows`` × ``cols`` board in O(rows · cols).

    Returns ``(path, start_honoured)``: int32[rows * cols] flat indices, and whether
    ``path[0] == start``. Boards with a closed tour always honour the start (the closed tour
    is walked from it). Odd × odd boards honour any start of the corners' colour when a
    block placement with a base path from it is found (open tours cannot start on the other
    colour); 3- and 4-row strips honour starts near their ends. Otherwise the tour starts
    elsewhere and ``start_honoured`` is False. ``start`` as in :func:`construct_closed`.
    """
    board, s = _begin(rows, cols, start, False)
    if board.size == 1:
        return np.zeros(1, dtype=np.int32), True
    if closed_tour_exists(rows, cols):
        return _closed_path(rows, cols, s), True
    H = min(rows, cols)
    if H in (3, 4):
        if rows == H:
            return cs.open_strip(H, cols, s)
        st = None if s is None else (s % cols) * rows + s // cols
        path, ok = cs.open_strip(H, rows, st)
        kc.remap(path, H, rows, False, False, True)
        return path, ok
    return _open_odd(rows, cols, s)
