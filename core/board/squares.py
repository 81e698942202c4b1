"""Board geometry: squares, names, Phadke's move numbering, neighbour tables.

Conventions (docs/spec.md §1)
-----------------------------
* A square is ``(col, row)``, 0-based; col 0 is the left file ``a``, row 0 the bottom rank ``1``.
* Names: column letters as in spreadsheets (a…z, aa, ab, …) then the 1-based row, on every
  width (``a1``, ``h8``, ``cn1``); ``col,row`` (1-based, ``92,1``) is accepted everywhere.
* Flat index ``sq = row * cols + col``.
* Move types 1..8 are Phadke's numbering, clockwise from "two right, one down".
  ``MOVES[t - 1] == (dcol, drow)``.
* The neighbour table ``nbr`` has shape ``[rows * cols, 8]``, dtype int32: ``nbr[sq, t - 1]``
  is the square reached from ``sq`` by move type ``t``, or -1 when that move leaves the board.

Other boards and pieces (:class:`Board` ``topology`` and ``leaper``): on a *cylinder* the
columns wrap (a move off the right edge comes back on the left), on a *torus* the rows wrap
too. An (a, b)-leaper (0 < a < b) jumps a squares one way and b the other; the knight is
(1, 2), the camel (1, 3), the zebra (2, 3), the giraffe (1, 4). Its eight move types are the
knight's with 1 read as a and 2 as b, in the same order. Where wrapping makes a move land on
its own square, it is no move; where two move types land on the same square, the first one
counts (one edge), so the table never lists a square twice.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TypeAlias

import numpy as np

from ..system.errors import InputError
from .leaps import moves_from

#: (dcol, drow) of move types 1..8 (index 0..7).
MOVES: tuple[tuple[int, int], ...] = (
    (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2), (1, 2), (2, 1),
)
DCOL = np.array([m[0] for m in MOVES], dtype=np.int32)
DROW = np.array([m[1] for m in MOVES], dtype=np.int32)

#: the board's edges: none wrap, the columns wrap, or the columns and the rows wrap
TOPOLOGIES: tuple[str, ...] = ("plane", "cylinder", "torus")
#: the usual names of (a, b)-leapers
LEAPER_NAMES: dict[tuple[int, int], str] = {(1, 2): "knight", (1, 3): "camel", (2, 3): "zebra",
                                            (1, 4): "giraffe", (2, 4): "stag"}
KNIGHT: tuple[int, int] = (1, 2)


def leaper_moves(leaper: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """The (dcol, drow) of move types 1..8 of an (a, b)-leaper: the knight's with 1 → a and
    2 → b (sign kept)."""
    a, b = leaper
    scale = {1: a, 2: b}
    return tuple((scale[abs(dc)] * (1 if dc > 0 else -1), scale[abs(dr)] * (1 if dr > 0 else -1))
                 for dc, dr in MOVES)


def parse_leaper(value: object) -> tuple[int, int]:
    """An (a, b)-leaper from ``"2,3"``, ``"zebra"``, ``(2, 3)`` or ``[3, 2]`` (the smaller
    number first); :class:`BoardError` with one sentence otherwise (a = b, a = 0, negative,
    not two whole numbers)."""
    if isinstance(value, str):
        text = value.strip().lower()
        named = {v: k for k, v in LEAPER_NAMES.items()}
        if text in named:
            return named[text]
        parts = [p for p in re.split(r"[,; ]+", text.strip("()[] ")) if p]
        try:
            if len(parts) != 2:
                raise ValueError
            value = tuple(int(p) for p in parts)
        except ValueError:
            raise BoardError(f"leaper {text[:20]!r}: two whole numbers A,B (a knight is 1,2) or "
                             f"a name ({', '.join(LEAPER_NAMES.values())})") from None
    if (not isinstance(value, (tuple, list)) or len(value) != 2
            or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool)
                       for v in value)):
        raise BoardError(f"leaper {value!r:.30}: two whole numbers A,B (a knight is 1,2)")
    a, b = sorted(int(v) for v in value)
    if a <= 0:
        raise BoardError(f"leaper ({a},{b}): both leaps must be at least 1 (a knight is 1,2)")
    if a == b:
        raise BoardError(f"leaper ({a},{b}): the two leaps must differ (a knight is 1,2)")
    if b > 100:
        raise BoardError(f"leaper ({a},{b}): leaps of at most 100 squares")
    return a, b


def parse_topology(value: object) -> str:
    """``plane``, ``cylinder`` or ``torus``; :class:`BoardError` otherwise."""
    text = str(value).strip().lower() if isinstance(value, str) else value
    if text not in TOPOLOGIES:
        raise BoardError(f"topology {str(value)[:20]!r}: one of {', '.join(TOPOLOGIES)}")
    return str(text)


#: A square as the API takes it: a flat index, a name (``c7``, ``ab12``, ``3,7``, 1-based) or
#: a 0-based ``(col, row)`` pair.
SquareSpec: TypeAlias = int | np.integer | str | tuple[int, int] | Sequence[int]

_ALG = re.compile(r"^\s*([a-zA-Z]{1,7})\s*(\d+)\s*$")
_NUM = re.compile(r"^\s*\(?\s*(-?\d+)\s*[,; ]\s*(-?\d+)\s*\)?\s*$")


def column_letters(col: int) -> str:
    """Letters of 0-based column ``col``, like spreadsheet columns: a…z, aa…az, ba…zz, aaa…

    ``column_letters(0) == "a"``, ``column_letters(25) == "z"``, ``column_letters(26) == "aa"``.
    """
    if isinstance(col, bool) or not isinstance(col, (int, np.integer)) or col < 0:
        raise BoardError(f"column {col!r} must be a whole number ≥ 0")
    n = int(col) + 1
    out = []
    while n:
        n, r = divmod(n - 1, 26)
        out.append(chr(ord("a") + r))
    return "".join(reversed(out))


def column_index(letters: str) -> int:
    """0-based column of spreadsheet-style letters (``"a"`` → 0, ``"aa"`` → 26), any case."""
    if not letters or not letters.isascii() or not letters.isalpha():
        raise BoardError(f"'{letters}' is not a column name (letters a…z, aa, ab, …)")
    n = 0
    for ch in letters.lower():
        n = n * 26 + (ord(ch) - ord("a") + 1)
    return n - 1


def parse_coords(text: str) -> tuple[int, int] | None:
    """``(col, row)``, 0-based, of a square written ``c7``, ``ab12`` or ``3,7`` (1-based),
    whatever the board; ``None`` when the text is neither. Range checks are the board's job."""
    m = _ALG.match(text)
    if m:
        return column_index(m.group(1)), int(m.group(2)) - 1
    m = _NUM.match(text)
    if m:
        return int(m.group(1)) - 1, int(m.group(2)) - 1
    return None


def square_name(col: int, row: int) -> str:
    """Name of the square at 0-based ``(col, row)``: column letters then the 1-based row
    (``a1``, ``h8``, ``ab12``) — the same scheme on every board width (docs/spec.md §1)."""
    return f"{column_letters(col)}{int(row) + 1}"


class BoardError(InputError):
    """Bad board dimensions or a square that is not on the board."""


def move_type(dcol: int, drow: int) -> int:
    """Phadke's move type (1..8) of a knight step, or raise ``BoardError``."""
    try:
        return MOVES.index((dcol, drow)) + 1
    except ValueError:
        raise BoardError(f"({dcol:+d}, {drow:+d}) is not a knight move") from None


@dataclass(frozen=True)
class Board:
    """A ``rows`` × ``cols`` board, its ``topology`` (``plane``, ``cylinder``: the columns
    wrap, ``torus``: both wrap) and the piece that tours it (``leaper`` (a, b), the knight
    (1, 2) by default). Cheap to create; tables are built lazily and cached."""

    rows: int
    cols: int
    topology: str = "plane"
    leaper: tuple[int, int] = KNIGHT
    _cache: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    def __post_init__(self):
        for name in ("rows", "cols"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise BoardError(f"{name} must be a whole number, got {v!r}")
            if v < 1:
                raise BoardError(f"{name} must be at least 1, got {v}")
        object.__setattr__(self, "rows", int(self.rows))
        object.__setattr__(self, "cols", int(self.cols))
        object.__setattr__(self, "topology", parse_topology(self.topology))
        object.__setattr__(self, "leaper", parse_leaper(self.leaper))

    @property
    def is_classic(self) -> bool:
        """The knight on the plane: what every part of the engine takes."""
        return self.topology == "plane" and self.leaper == KNIGHT

    @property
    def moves(self) -> tuple[tuple[int, int], ...]:
        """(dcol, drow) of move types 1..8 of this board's leaper."""
        return leaper_moves(self.leaper)

    def describe(self) -> str:
        """``8×8``, or ``10×10 torus, zebra (2,3)`` for the other boards and pieces."""
        text = f"{self.cols}×{self.rows}"
        if self.topology != "plane":
            text += f" {self.topology}"
        if self.leaper != KNIGHT:
            a, b = self.leaper
            name = LEAPER_NAMES.get(self.leaper, "leaper")
            text += f", {name} ({a},{b})"
        return text

    # ----------------------------------------------------------------- geometry
    @property
    def size(self) -> int:
        """Number of squares, ``rows * cols``."""
        return self.rows * self.cols

    def index(self, col: int, row: int) -> int:
        """Flat index ``row * cols + col`` of a 0-based square; ``BoardError`` when off the board."""
        if not (0 <= col < self.cols and 0 <= row < self.rows):
            raise BoardError(
                f"square ({col + 1},{row + 1}) is off the {self.cols}×{self.rows} board "
                f"(columns 1..{self.cols}, rows 1..{self.rows})")
        return row * self.cols + col

    def coords(self, sq: int) -> tuple[int, int]:
        """``(col, row)`` of a flat index."""
        if not 0 <= sq < self.size:
            raise BoardError(f"square index {sq} is off the board")
        return int(sq % self.cols), int(sq // self.cols)

    def contains(self, col: int, row: int) -> bool:
        """Whether the 0-based square ``(col, row)`` lies on the board."""
        return 0 <= col < self.cols and 0 <= row < self.rows

    @cached_property
    def neighbours(self) -> np.ndarray:
        """``int32[size, 8]``: square reached by move type t+1, or -1 (see the module
        docstring for wrapping boards and other leapers)."""
        # here, not at the top: the window imports board/ before its first frame, and a
        # kernel loads numba (0.63 s: python -X importtime -c 'import numba')
        from .tables_kernel import neighbour_table, wrapped_neighbour_table
        out = np.empty((self.size, 8), dtype=np.int32)
        moves = self.moves
        dcol = np.array([m[0] for m in moves], dtype=np.int32)
        drow = np.array([m[1] for m in moves], dtype=np.int32)
        if self.topology == "plane":
            neighbour_table(self.rows, self.cols, dcol, drow, out)
        else:
            wrapped_neighbour_table(self.rows, self.cols, dcol, drow, True,
                                    self.topology == "torus", out)
        return out

    @cached_property
    def degree(self) -> np.ndarray:
        """``int32[size]``: number of knight moves from each square on the empty board."""
        return (self.neighbours >= 0).sum(axis=1).astype(np.int32)

    def is_knight_move(self, a: int, b: int) -> bool:
        """Whether flat squares ``a`` and ``b`` are one move of this board's leaper apart
        (a knight move on the plane; wrapping where the board wraps)."""
        ca, ra = self.coords(a)
        cb, rb = self.coords(b)
        if self.is_classic:
            return {abs(ca - cb), abs(ra - rb)} == {1, 2}
        return b in moves_from(self, a)     # one square's moves: no table, no numba

    @property
    def wraps(self) -> bool:
        """Whether a move may cross an edge (a cylinder or a torus)."""
        return self.topology != "plane"

    def move_steps(self, path: np.ndarray) -> np.ndarray:
        """``int32[len(path) - 1, 2]``: the leap ``(dcol, drow)`` of each move of ``path``
        (flat squares), as the piece makes it — across an edge of a wrapping board the leap,
        not the difference of the coordinates. ``BoardError`` when two consecutive squares
        are not a move apart. The window draws a wrapped move as two halves from this."""
        p = np.asarray(path, dtype=np.int64)
        if p.ndim != 1 or (len(p) and (p.min() < 0 or p.max() >= self.size)):
            raise BoardError("move_steps: a path of squares of the board")
        if len(p) < 2:
            return np.zeros((0, 2), dtype=np.int32)
        a, b = p[:-1], p[1:]
        if not self.wraps:
            out = np.stack([b % self.cols - a % self.cols, b // self.cols - a // self.cols],
                           axis=1).astype(np.int32)
            leap = np.sort(np.abs(out), axis=1)
            if not ((leap[:, 0] == self.leaper[0]) & (leap[:, 1] == self.leaper[1])).all():
                raise BoardError(f"move_steps: two consecutive squares are not a move of the "
                                 f"{self.describe()} apart")
            return out
        hit = self.neighbours[a] == b[:, None]                 # [moves, 8]
        if not hit.any(axis=1).all():
            i = int(np.flatnonzero(~hit.any(axis=1))[0])
            raise BoardError(f"move_steps: {self.name(int(a[i]))} to {self.name(int(b[i]))} "
                             f"is no move of the {self.describe()}")
        return np.asarray(self.moves, dtype=np.int32)[hit.argmax(axis=1)]

    @property
    def corners(self) -> tuple[int, int, int, int]:
        """Flat indices of a1, a<top>, <right><top>, <right>1 (bottom-left, clockwise)."""
        top, right = self.rows - 1, self.cols - 1
        return (self.index(0, 0), self.index(0, top), self.index(right, top),
                self.index(right, 0))

    # -------------------------------------------------------------------- names
    def name(self, sq: int) -> str:
        """Name of a flat index: column letters and row (``c7``; ``cn1`` is column 92, row 1).
        The same scheme on every board; ``col,row`` is :meth:`numeric_name`."""
        col, row = self.coords(sq)
        return square_name(col, row)

    def numeric_name(self, sq: int) -> str:
        """``col,row`` (1-based) of a flat index, e.g. ``92,1``."""
        col, row = self.coords(sq)
        return f"{col + 1},{row + 1}"

    def long_name(self, sq: int) -> str:
        """:meth:`name`, followed by ``(col,row)`` on boards wider than 26 columns, where a
        reader may not count letters at a glance (``cn1 (92,1)``)."""
        if self.cols <= 26:
            return self.name(sq)
        return f"{self.name(sq)} ({self.numeric_name(sq)})"

    def square(self, value: object) -> int:
        """The one conversion of a :data:`SquareSpec` to its flat index: an index (``int``
        or numpy integer) is checked to lie on the board; anything else goes through
        :meth:`parse`. ``BoardError`` otherwise."""
        if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            if not 0 <= int(value) < self.size:
                raise BoardError(f"square index {int(value)} is off the {self.cols}×{self.rows} "
                                 f"board (0..{self.size - 1})")
            return int(value)
        return self.parse(value)

    def parse(self, text: object) -> int:
        """Flat index of a square given as ``c7`` / ``ab12`` (letters as in :meth:`name`),
        ``3,7`` (1-based col,row), or a ``(col, row)`` pair (0-based). Raises ``BoardError``
        with a message that says what is wrong."""
        if isinstance(text, (tuple, list)) and len(text) == 2:
            col, row = text
            if not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool)
                       for v in (col, row)):
                raise BoardError(f"square {text!r} must be two whole numbers")
            return self.index(int(col), int(row))
        if not isinstance(text, str):
            raise BoardError(f"square {text!r} is not a square name")
        if len(text) > 40:
            raise BoardError("square name is too long")
        coords = parse_coords(text)
        if coords is not None:
            col, row = coords
            if not self.contains(col, row):
                last = square_name(self.cols - 1, self.rows - 1)
                raise BoardError(
                    f"'{text.strip()}' is off the {self.cols}×{self.rows} board "
                    f"(a1…{last}, or columns 1..{self.cols}, rows 1..{self.rows} as col,row)")
            return self.index(col, row)
        raise BoardError(f"'{text}' is not a square name (use e.g. c7, ab12 or 3,7)")
