"""The moves of one square, and whether some square has none, without numba.

The window asks these on its GUI thread while the controls change; the neighbour table
(:attr:`knightgui_core.board.squares.Board.neighbours`) is a kernel's, and the first kernel
loads numba (0.63 s: ``python -X importtime -c 'import numba'``). The answers follow the
table's rules (docs/spec.md §1): a move off a side that does not wrap is no move, nor one
that lands on its own square, and where two move types land on the same square the first
one counts.
"""
from __future__ import annotations

from typing import Protocol

import numpy as np

__all__ = ["moves_from", "first_square_without_move"]


class Board(Protocol):
    """What is read of a :class:`knightgui_core.board.squares.Board` here (squares imports
    this module, so it is named by its shape)."""

    @property
    def rows(self) -> int:
        """The number of rows."""

    @property
    def cols(self) -> int:
        """The number of columns."""

    @property
    def topology(self) -> str:
        """``plane``, ``cylinder`` (the columns wrap) or ``torus`` (both wrap)."""

    @property
    def moves(self) -> tuple[tuple[int, int], ...]:
        """The piece's moves as (row, column) steps."""

    def coords(self, sq: int) -> tuple[int, int]:
        """The (row, column) of flat square ``sq``."""


def _wraps(board: Board) -> tuple[bool, bool]:
    """Whether the columns and the rows wrap."""
    return board.topology != "plane", board.topology == "torus"


def moves_from(board: Board, sq: int) -> tuple[int, ...]:
    """The row ``sq`` of the board's neighbour table, computed alone: the square reached by
    move types 1..8 from the flat square ``sq``, or -1 (eight entries). ``BoardError`` when
    ``sq`` is off the board."""
    col, row = board.coords(sq)
    rows, cols = board.rows, board.cols
    wrap_cols, wrap_rows = _wraps(board)
    out: list[int] = []
    for dc, dr in board.moves:
        c, r = col + dc, row + dr
        if wrap_cols:
            c %= cols
        if wrap_rows:
            r %= rows
        u = r * cols + c if 0 <= c < cols and 0 <= r < rows else -1
        if u == sq or u in out:         # on its own square, or a square already reached
            u = -1
        out.append(u)
    return tuple(out)


def first_square_without_move(board: Board) -> int:
    """The lowest flat square from which the board's piece has no move, or -1: what
    ``np.flatnonzero(board.degree == 0)`` starts with, in time proportional to ``rows +
    cols``. A move type is legal on a square when its column step and its row step both are
    (and it does not land on its own square, the same on every square), so the squares with
    no move cross a column and a row whose legal steps share no move type."""
    rows, cols = board.rows, board.cols
    wrap_cols, wrap_rows = _wraps(board)
    dcol = np.array([m[0] for m in board.moves], dtype=np.int64)
    drow = np.array([m[1] for m in board.moves], dtype=np.int64)
    home = ((dcol % cols == 0) if wrap_cols else np.zeros(8, bool)) & \
           ((drow % rows == 0) if wrap_rows else np.zeros(8, bool))
    c = np.arange(cols, dtype=np.int64)[:, None] + dcol[None, :]
    r = np.arange(rows, dtype=np.int64)[:, None] + drow[None, :]
    col_ok = np.ones((cols, 8), bool) if wrap_cols else (c >= 0) & (c < cols)
    row_ok = np.ones((rows, 8), bool) if wrap_rows else (r >= 0) & (r < rows)
    col_ok &= ~home[None, :]
    col_kinds, col_of = np.unique(col_ok, axis=0, return_inverse=True)
    row_kinds, row_of = np.unique(row_ok, axis=0, return_inverse=True)
    # idle[i, j]: a square of row kind i and column kind j has no move
    idle = ~(row_kinds[:, None, :] & col_kinds[None, :, :]).any(axis=2)
    if not idle.any():
        return -1
    row_of, col_of = row_of.reshape(-1), col_of.reshape(-1)
    first_row = int(np.flatnonzero(idle[row_of].any(axis=1))[0])
    first_col = int(np.flatnonzero(idle[row_of[first_row]][col_of])[0])
    return first_row * cols + first_col
