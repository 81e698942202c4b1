"""Tour value type: validation, closedness, JSON and CSV in and out (docs/spec.md §9)."""
from __future__ import annotations

import csv
import io
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..system import files
from ..system.errors import InputError
from ..system.text import JsonRefused, shorten, strict_dumps, strict_loads
from .squares import Board, BoardError, column_letters, parse_coords, square_name

FORMAT = "knightgui-tour"
VERSION = 1
#: Tour files above this size are refused before they are read.
MAX_FILE_BYTES = 256 * 1024 * 1024
#: The longest side of a board a tour file may hold, as ``knightgui solve --rows/--cols``
#: takes it: a JSON file's ``rows`` and ``cols``, a CSV file's col and row (0-based, so
#: below this).
MAX_SIDE = 100_000


class TourError(InputError):
    """A path that is not a valid knight's tour, or a file that holds none."""


class NotATourError(TourError):
    """A list of squares that was read but is not a tour (``knightgui check``: exit 1);
    any other :class:`TourError` is a file that cannot be read as a tour file (exit 2)."""


def board_line(board: Board) -> str:
    """The comment line a CSV file opens with when its board is not the knight's plane:
    ``# topology=torus leaper=2,3`` and a newline (:func:`split_board_line` reads it)."""
    a, b = board.leaper
    return f"# topology={board.topology} leaper={a},{b}\n"


def split_board_line(text: str) -> tuple[str, str, str]:
    """The topology and leaper that the first line of a CSV text names when it is a comment
    (``# topology=torus leaper=2,3``: :func:`board_line`), as written, and the text after that
    line; ``"plane"``, ``"1,2"`` (the knight) and the whole text when it opens otherwise."""
    topology, leaper = "plane", "1,2"
    if not text.startswith("#"):
        return topology, leaper, text
    first, _, rest = text.partition("\n")
    for item in first[1:].split():
        key, _, value = item.partition("=")
        if key == "topology":
            topology = value
        elif key == "leaper":
            leaper = value
    return topology, leaper, rest


def _as_int32(path: np.ndarray, n: int) -> np.ndarray:
    """The path as contiguous int32 for the validation kernel (it has one signature, see
    :mod:`knightgui_core.kernel_exports`); values that int32 cannot hold become -1 (off the board)."""
    if path.dtype == np.int32:
        return np.ascontiguousarray(path)
    if path.size and (int(path.min()) < 0 or int(path.max()) >= n):
        return np.full(path.shape, -1, dtype=np.int32)
    return path.astype(np.int32)


def check_path(board: Board, path: np.ndarray, closed: bool = False) -> str | None:
    """Return ``None`` when ``path`` (flat indices) is a valid tour of ``board``, else a
    sentence that says what is wrong. Vectorised: fine for millions of squares."""
    # here, not at the top: the window imports board/ before its first frame, and a
    # kernel loads numba (0.63 s: python -X importtime -c 'import numba')
    from .validate_kernel import path_is_tour, path_is_tour_table
    path = np.asarray(path)
    n = board.size
    if path.ndim == 1 and path.dtype.kind in "iu" and len(path) == n and n > 0:
        if board.is_classic:
            if path_is_tour(_as_int32(path, n), board.rows, board.cols, bool(closed)):
                return None
        elif path_is_tour_table(_as_int32(path, n), board.neighbours, bool(closed)):
            return None
    if path.ndim != 1:
        return "the path must be a list of squares"
    if len(path) != n:
        return f"the path has {len(path)} squares, the {board.cols}×{board.rows} board has {n}"
    if n == 0:
        return "the board is empty"
    if path.dtype.kind not in "iu":
        return "the path must hold whole numbers"
    bad = np.flatnonzero((path < 0) | (path >= n))
    if bad.size:
        return f"move {bad[0] + 1} is off the board"
    seen = np.zeros(n, dtype=np.int64)
    np.add.at(seen, path, 1)
    dup = np.flatnonzero(seen > 1)
    if dup.size:
        first = int(np.flatnonzero(path == dup[0])[1])
        return f"square {board.name(int(dup[0]))} is visited twice (again at move {first + 1})"
    if board.is_classic:
        cols = board.cols
        c = path % cols
        r = path // cols
        dc = np.abs(np.diff(c))
        dr = np.abs(np.diff(r))
        ok = ((dc == 1) & (dr == 2)) | ((dc == 2) & (dr == 1))
    else:           # any leaper, wrapping edges: the board's own moves
        ok = (board.neighbours[path[:-1]] == path[1:, None]).any(axis=1)
    badstep = np.flatnonzero(~ok)
    if badstep.size:
        k = int(badstep[0])
        what = "a knight move" if board.is_classic else f"a move of the {board.describe()}"
        return (f"move {k + 1} → {k + 2} ({board.name(int(path[k]))} → "
                f"{board.name(int(path[k + 1]))}) is not {what}")
    if closed and n > 1 and not board.is_knight_move(int(path[-1]), int(path[0])):
        return (f"the tour is marked closed but its last square {board.name(int(path[-1]))} "
                f"is not a knight move from its first {board.name(int(path[0]))}")
    return None


def _board_of(rows: int, cols: int, topology: object, leaper: object) -> Board:
    """The board a tour file names (files without ``topology``/``leaper`` are the knight's
    plane); ``TourError`` for a topology or leaper the file gets wrong."""
    try:
        return Board(rows, cols, topology if isinstance(topology, str) else str(topology),
                     tuple(leaper) if isinstance(leaper, list) else leaper)  # type: ignore[arg-type]
    except BoardError as e:
        raise TourError(f"the file's board: {e}") from None


@dataclass
class Tour:
    """A validated knight's tour. ``path`` holds flat indices in visiting order."""

    board: Board
    path: np.ndarray
    closed: bool = False
    method: dict = field(default_factory=dict)

    def __post_init__(self):
        self.path = np.ascontiguousarray(self.path, dtype=np.int32)
        err = check_path(self.board, self.path, self.closed)
        if err:
            raise NotATourError(err)

    @property
    def rows(self) -> int:
        """Rows of the board."""
        return self.board.rows

    @property
    def cols(self) -> int:
        """Columns of the board."""
        return self.board.cols

    @property
    def is_closed_path(self) -> bool:
        """Whether the last square is a knight move from the first (whatever ``closed`` says)."""
        return self.board.size > 1 and self.board.is_knight_move(int(self.path[-1]),
                                                                 int(self.path[0]))

    def numbers(self) -> np.ndarray:
        """``int32[rows, cols]`` move numbers (1-based), row 0 = bottom rank."""
        out = np.empty(self.board.size, dtype=np.int32)
        out[self.path] = np.arange(1, self.board.size + 1, dtype=np.int32)
        return out.reshape(self.rows, self.cols)

    def pairs(self) -> list[list[int]]:
        """``[[col, row], ...]`` in path order (vectorised: fast at millions of squares)."""
        return path_pairs(self.path, self.cols)

    def render(self) -> str:
        """Text board with rank 1 at the bottom, files underneath."""
        nums = self.numbers()
        w = len(str(self.board.size))
        lines = []
        for r in range(self.rows - 1, -1, -1):
            lines.append(f"{r + 1:>3} " + " ".join(f"{v:>{w}}" for v in nums[r]))
        lines.append("    " + " ".join(f"{column_letters(c):>{w}}" for c in range(self.cols)))
        return "\n".join(lines)

    # --------------------------------------------------------------- JSON / CSV
    def to_dict(self) -> dict:
        """The tour file's JSON object (docs/spec.md §9): format, version, size, closed, path as
        ``[col, row]`` pairs, method."""
        d = {"format": FORMAT, "version": VERSION, "rows": self.rows, "cols": self.cols,
             "closed": bool(self.closed), "path": self.pairs(), "method": self.method}
        if not self.board.is_classic:      # other boards say so; the knight's plane is implied
            d["topology"] = self.board.topology
            d["leaper"] = list(self.board.leaper)
        return d

    def to_json(self) -> str:
        """The tour file as compact, strict JSON text."""
        return strict_dumps(self.to_dict())

    def to_csv(self) -> str:
        """The tour as CSV text: header ``move,col,row,square``, one row per move."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        if not self.board.is_classic:      # read back by from_csv; the knight's plane is implied
            buf.write(board_line(self.board))
        w.writerow(["move", "col", "row", "square"])
        for k, s in enumerate(self.path):
            col, row = int(s % self.cols), int(s // self.cols)
            w.writerow([k + 1, col, row, self.board.name(int(s))])
        return buf.getvalue()

    def save(self, filename: str | os.PathLike[str]) -> Path:
        """Write JSON or CSV (by extension) atomically: a crash never leaves half a file."""
        p = Path(filename)
        ext = p.suffix.lower()
        write = {".json": self.to_json, ".csv": self.to_csv}.get(ext)
        if write is None:
            raise TourError(f"unknown tour file type '{ext}' (use .json or .csv)")
        files.write_text(p, write(), make_parents=True)
        return p

    @classmethod
    def from_json_dict(cls, d: object) -> Tour:
        """The tour of a parsed JSON tour file, checked field by field; ``TourError`` says what
        is wrong."""
        if not isinstance(d, dict):
            raise TourError("a tour file must hold a JSON object")
        if d.get("format") != FORMAT:
            raise TourError(f"not a knightgui tour (format is {d.get('format')!r}, "
                            f"expected '{FORMAT}')")
        if d.get("version") != VERSION:
            raise TourError(f"unsupported tour file version {d.get('version')!r}")
        rows, cols = _side(d, "rows"), _side(d, "cols")
        closed = d.get("closed", False)
        if not isinstance(closed, bool):
            raise TourError(f"'closed' must be true or false, got {closed!r}")
        path = d.get("path")
        if not isinstance(path, list):
            raise TourError("'path' must be a list of [col, row] pairs")
        method = d.get("method", {})
        if not isinstance(method, dict):
            raise TourError("'method' must be an object")
        board = _board_of(rows, cols, d.get("topology", "plane"), d.get("leaper", [1, 2]))
        flat = _fast_pairs(path, rows, cols)
        if flat is None:   # something is off: find the first bad move for the message
            flat = np.empty(len(path), dtype=np.int64)
            for k, p in enumerate(path):
                if (not isinstance(p, list) or len(p) != 2
                        or not all(isinstance(v, int) and not isinstance(v, bool) for v in p)):
                    raise TourError(f"move {k + 1}: {p!r} is not a [col, row] pair of whole "
                                    "numbers")
                c, r = p
                if not board.contains(c, r):
                    raise NotATourError(f"move {k + 1}: [{c}, {r}] is off the {cols}×{rows} "
                                        "board")
                flat[k] = r * cols + c
        if len(path) != rows * cols:        # well-formed squares, but not a tour's number
            raise NotATourError(f"the path has {len(path)} squares, the {cols}×{rows} board "
                                f"has {rows * cols}")
        return cls(board, flat, closed, method)

    @classmethod
    def from_csv(cls, text: str, rows: int | None = None, cols: int | None = None) -> Tour:
        """The tour of CSV text (``move,col,row,square``); the board size is inferred from the
        squares unless ``rows`` and ``cols`` are given. ``closed`` is read off the path."""
        try:
            return cls._from_csv(text, rows, cols)
        except csv.Error as e:
            raise TourError(f"not a readable CSV file: {e}") from None

    @classmethod
    def _from_csv(cls, text: str, rows: int | None, cols: int | None) -> Tour:
        topology, leaper, text = split_board_line(text)
        reader = csv.reader(io.StringIO(text, newline=""))
        try:
            header = next(reader)
        except StopIteration:
            raise TourError("the CSV file is empty") from None
        if [h.strip().lower() for h in header] != ["move", "col", "row", "square"]:
            raise TourError("a tour CSV must start with the header move,col,row,square")
        pts: list[tuple[int, int]] = []
        letters: dict[int, str] = {}      # column letters met so far (the names' fast check)
        for line_no, rec in enumerate(reader, start=2):
            if not rec or all(not x.strip() for x in rec):
                continue
            if len(rec) != 4:
                raise TourError(f"line {line_no}: expected 4 fields, found {len(rec)}")
            numbers = rec[0] + rec[1] + rec[2]
            try:   # int() also takes 1_000 and other scripts' digits: ASCII without _ only
                if "_" in numbers or not numbers.isascii():
                    raise ValueError
                move, c, r = int(rec[0]), int(rec[1]), int(rec[2])
            except ValueError:
                raise TourError(f"line {line_no}: move, col and row must be whole numbers") from None
            if move != len(pts) + 1:
                raise TourError(shorten(f"line {line_no}: expected move {len(pts) + 1}, "
                                        f"found {move}"))
            if not (0 <= c < MAX_SIDE and 0 <= r < MAX_SIDE):
                raise TourError(shorten(f"line {line_no}: col,row {c},{r} is on no board "
                                        f"(col and row run from 0 to {MAX_SIDE - 1:,})"))
            name = rec[3].strip()
            if c not in letters:
                letters[c] = column_letters(c)
            if (name and name != f"{letters[c]}{r + 1}"       # as written: the fast check
                    and _name_coords(name) != (c, r)):        # the square column must agree
                raise TourError(f"line {line_no}: square {shorten(name, 40)!r} contradicts "
                                f"col,row {c},{r} ({square_name(c, r)})")
            pts.append((c, r))
        if not pts:
            raise TourError("the CSV file holds no moves")
        if cols is None or rows is None:
            cols = max(p[0] for p in pts) + 1
            rows = max(p[1] for p in pts) + 1
        if rows * cols != len(pts):
            raise NotATourError(f"{len(pts)} moves do not fill a {cols}×{rows} board")
        board = _board_of(rows, cols, topology, leaper)
        flat = np.array([r * cols + c for c, r in pts], dtype=np.int64)
        if any(c >= cols or r >= rows for c, r in pts):
            raise NotATourError("a square lies off the board")
        tour = cls(board, flat, False, {"source": "csv"})
        tour.closed = tour.is_closed_path
        return tour

    @classmethod
    def load(cls, filename: str | os.PathLike[str]) -> Tour:
        """Read a JSON or CSV tour file; any problem raises ``TourError`` with a clear message."""
        p = Path(filename)
        try:   # a regular file only (no FIFO, device, socket, folder), size and memory first
            text = files.read_text(p, MAX_FILE_BYTES, memory_factor=files.PARSE_MEMORY_FACTOR)
        except OSError as e:
            raise TourError(str(e)) from None
        stripped = text.lstrip("\ufeff \t\r\n")
        try:
            if stripped.startswith("{") or p.suffix.lower() == ".json":
                try:   # nesting, NaN/Infinity, numbers beyond float or int64: refused
                    d = strict_loads(stripped)
                except JsonRefused as e:
                    raise TourError(str(e)) from None
                return cls.from_json_dict(d)
            return cls.from_csv(stripped)
        except BoardError as e:
            raise TourError(str(e)) from None


def _name_coords(name: str) -> tuple[int, int] | None:
    """``(col, row)``, 0-based, of a CSV file's square name (``c7``, ``ab12``, ``3,7``),
    whatever the board; ``None`` when it names no square."""
    if len(name) > 40:
        return None
    try:
        return parse_coords(name)
    except (BoardError, ValueError):        # ValueError: a row of more digits than int takes
        return None


def _side(d: dict, k: str) -> int:
    """``d[k]`` as a board side: a whole number (no boolean) in 1..:data:`MAX_SIDE`."""
    v = d.get(k)
    if isinstance(v, bool) or not isinstance(v, int):
        raise TourError(f"'{k}' must be a whole number, got {v!r}")
    if not 1 <= v <= MAX_SIDE:
        raise TourError(f"'{k}' = {v} is out of range")
    return v


def _fast_pairs(path: list, rows: int, cols: int) -> np.ndarray | None:
    """Flat indices of a list of [col, row] pairs when every pair is two in-range whole
    numbers (no booleans), else ``None``. Vectorised for boards of millions of squares."""
    if not path:
        return None
    try:
        a = np.array(path)
    except (ValueError, TypeError, OverflowError):
        return None
    if a.dtype.kind != "i" or a.shape != (len(path), 2):
        return None
    c, r = a[:, 0], a[:, 1]
    if (c < 0).any() or (c >= cols).any() or (r < 0).any() or (r >= rows).any():
        return None
    for p in path:     # np.array turns True into 1: booleans are refused like any non-number
        if type(p[0]) is bool or type(p[1]) is bool:
            return None
    return r.astype(np.int64) * cols + c


def path_pairs(path: np.ndarray | Sequence[int], cols: int) -> list[list[int]]:
    """``[[col, row], ...]`` of flat squares on a board ``cols`` wide (vectorised)."""
    p = np.asarray(path, dtype=np.int64)
    return np.stack([p % cols, p // cols], axis=1).tolist()
