"""Solutions files read back: the files :func:`knightgui_core.tietree.solution_writer.write_solutions` writes
(``.npy``, ``.csv``, ``.json``; formats described there) opened as a :class:`SolutionFile`.
A ``.npy`` file is memory-mapped (any size, read on demand); CSV and JSON files are read whole
through the safe reader (:mod:`knightgui_core.system.files`), up to its size limit. Every damaged or
foreign file is one :class:`~knightgui_core.board.dash.EnumerationError`.
"""
from __future__ import annotations

import csv
import io
import json
import os
import stat
from pathlib import Path

import numpy as np

from ..board.dash import EnumerationError
from ..board.squares import Board, BoardError, parse_coords, parse_leaper, parse_topology
from ..system import files
from ..system.text import finite_float, reject_constant
from .solution_writer import format_of

__all__ = ["SolutionFile", "open_solutions"]


class SolutionFile:
    """Solutions read back from a file written by :func:`write_solutions`: ``rows``,
    ``cols``, ``len()``, :meth:`path` (int32[N], tour order), :meth:`numbers`,
    :meth:`index` and :meth:`branch`. A ``.npy`` file is memory-mapped (any size, read
    on demand); CSV and JSON files are read whole (up to the safe reader's limit)."""

    def __init__(self, rows: int, cols: int, count: int, get_numbers=None, paths=None,
                 indices=None, branches=None, source: str = "", board: Board | None = None):
        self.board = Board(rows, cols) if board is None else board
        self.rows, self.cols, self.count = rows, cols, int(count)
        self._get_numbers, self._paths = get_numbers, paths
        self._indices, self._branches = indices, branches
        self.source = source

    def __len__(self) -> int:
        return self.count

    def _check(self, i: int) -> int:
        i = int(i)
        if not 0 <= i < self.count:
            raise IndexError(f"solution {i + 1} is not in the file ({self.count:,} held)")
        return i

    def path(self, i: int) -> np.ndarray:
        """Flat squares of solution ``i`` (0-based) in tour order; :class:`EnumerationError`
        when the stored record is not a permutation of the squares."""
        i = self._check(i)
        n = self.board.size
        if self._paths is not None:
            p = np.asarray(self._paths[i], dtype=np.int64)
        else:
            nums = np.asarray(self._get_numbers(i), dtype=np.int64).reshape(-1)
            if nums.min() < 1 or nums.max() > n:
                raise EnumerationError(f"solution {i + 1} in {self.source}: a move number "
                                       f"is outside 1..{n}")
            p = np.full(n, -1, dtype=np.int64)
            p[nums - 1] = np.arange(n)
        if p.min() < 0 or p.max() >= n or len(np.unique(p)) != n:
            raise EnumerationError(f"solution {i + 1} in {self.source} is not a list of "
                                   "distinct squares")
        return p.astype(np.int32)

    def numbers(self, i: int) -> np.ndarray:
        """int32[rows, cols] move numbers of solution ``i`` (0-based), row 0 = rank 1."""
        out = np.empty(self.board.size, dtype=np.int32)
        out[self.path(i)] = np.arange(1, self.board.size + 1, dtype=np.int32)
        return out.reshape(self.rows, self.cols)

    def index(self, i: int) -> int:
        """The 1-based number of solution ``i`` in its enumeration."""
        i = self._check(i)
        return int(self._indices[i]) if self._indices is not None else i + 1

    def branch(self, i: int) -> int:
        """The number solution ``i`` branched at (0 when the file does not say)."""
        i = self._check(i)
        return int(self._branches[i]) if self._branches is not None else 0


def _open_npy(p: Path) -> SolutionFile:
    _regular(p)
    try:
        arr = np.load(p, mmap_mode="r", allow_pickle=False)
    except (ValueError, OSError, EOFError, SyntaxError) as e:
        raise EnumerationError(f"{p.name} is not a readable .npy file: "
                               f"{str(e)[:120]}") from None
    if arr.ndim != 3 or arr.dtype.kind not in "ui" or 0 in arr.shape[1:]:
        raise EnumerationError(f"{p.name}: expected an array of boards (count, rows, cols) "
                               f"of whole numbers, found shape {arr.shape[:4]} of {arr.dtype}")
    return SolutionFile(int(arr.shape[1]), int(arr.shape[2]), int(arr.shape[0]),
                        get_numbers=lambda i: arr[i], source=p.name)


def _regular(p: Path) -> None:
    try:
        st = os.stat(p)
    except OSError as e:
        raise EnumerationError(f"cannot open {p}: {e.strerror or e}") from None
    except ValueError:
        raise EnumerationError(f"{str(p)!r} is not a usable file name") from None
    if not stat.S_ISREG(st.st_mode):
        raise EnumerationError(f"{p} is not a regular file; refused")


def _open_csv(p: Path) -> SolutionFile:
    try:
        text = files.read_text(p)
    except OSError as e:
        raise EnumerationError(str(e)) from None
    topology, leaper = "plane", "1,2"
    if text.startswith("#"):                # "# topology=torus leaper=2,3": another board
        first, _, text = text.partition("\n")
        for part in first[1:].split():
            key, _, value = part.partition("=")
            if key == "topology":
                topology = value
            elif key == "leaper":
                leaper = value
    r = csv.reader(io.StringIO(text, newline=""))
    if next(r, None) != ["solution", "branch", "path"]:
        raise EnumerationError(f"{p.name}: a solutions CSV starts with solution,branch,path")
    rows_ = list(r)
    if not rows_:
        raise EnumerationError(f"{p.name} holds no solutions")
    names = [rec[2].split() for rec in rows_ if len(rec) == 3]
    if len(names) != len(rows_):
        raise EnumerationError(f"{p.name}: every line needs 3 fields")
    squares = {n for rec in names[:1] for n in rec}
    board = _board_from_names(squares, len(names[0]), topology, leaper)
    look = {board.name(s): s for s in range(board.size)}
    try:
        paths = np.array([[look[n] for n in rec] for rec in names], dtype=np.int32)
        idx = np.array([int(rec[0]) for rec in rows_], dtype=np.int64)
        br = np.array([int(rec[1]) for rec in rows_], dtype=np.int64)
    except (KeyError, ValueError) as e:
        raise EnumerationError(f"{p.name}: not a solutions file ({str(e)[:60]})") from None
    return SolutionFile(board.rows, board.cols, len(paths), paths=paths, indices=idx,
                        branches=br, source=p.name, board=board)


def _board_from_names(names: set, n: int, topology: object = "plane",
                      leaper: object = "1,2") -> Board:
    cols = rows = 0
    for s in names:
        cr = parse_coords(s)
        if cr is None or cr[0] < 0 or cr[1] < 0:
            raise EnumerationError(f"'{s[:20]}' is not a square name")
        cols, rows = max(cols, cr[0] + 1), max(rows, cr[1] + 1)
    if n == 0:
        raise EnumerationError("a solution with no squares")
    if rows * cols != n:     # a tour visits every square: the board is the names' extent
        raise EnumerationError(f"{n} squares do not fill a {cols}×{rows} board")
    return _board(rows, cols, topology, leaper)


def _board(rows: int, cols: int, topology: object, leaper: object) -> Board:
    """The board a file names; :class:`EnumerationError` with one sentence when it names
    none that exists."""
    try:
        return Board(rows, cols, parse_topology(topology), parse_leaper(leaper))
    except BoardError as e:
        raise EnumerationError(f"the file's board: {e}") from None


def _open_json(p: Path) -> SolutionFile:
    try:
        d = json.loads(files.read_text(p), parse_constant=reject_constant,
                       parse_float=finite_float)
    except OSError as e:
        raise EnumerationError(str(e)) from None
    except (ValueError, RecursionError) as e:
        raise EnumerationError(f"{p.name} is not valid JSON: {str(e)[:120]}") from None
    if not isinstance(d, dict) or d.get("format") != "knightgui-enumeration":
        raise EnumerationError(f"{p.name} is not a knightgui enumeration file")
    rows, cols, lst = d.get("rows"), d.get("cols"), d.get("solutions_listed")
    if not (isinstance(rows, int) and isinstance(cols, int) and 1 <= rows <= 1000
            and 1 <= cols <= 1000 and isinstance(lst, list) and lst):
        raise EnumerationError(f"{p.name}: rows, cols and solutions_listed are missing")
    try:
        pairs = np.array([rec["path"] for rec in lst], dtype=np.int64)
        idx = np.array([rec["index"] for rec in lst], dtype=np.int64)
        br = np.array([rec["branch"] for rec in lst], dtype=np.int64)
    except (KeyError, TypeError, ValueError, OverflowError):
        raise EnumerationError(f"{p.name}: a solution record is damaged") from None
    if pairs.shape != (len(lst), rows * cols, 2):
        raise EnumerationError(f"{p.name}: a path does not hold {rows * cols} [col, row] pairs")
    c, r = pairs[..., 0], pairs[..., 1]
    if (c < 0).any() or (c >= cols).any() or (r < 0).any() or (r >= rows).any():
        raise EnumerationError(f"{p.name}: a square lies off the board")
    board = _board(rows, cols, d.get("topology", "plane"), d.get("leaper", "1,2"))
    return SolutionFile(rows, cols, len(lst), paths=(r * cols + c).astype(np.int32),
                        indices=idx, branches=br, source=p.name, board=board)


def open_solutions(filename: str | os.PathLike[str]) -> SolutionFile:
    """Open a solutions file (``.npy``, ``.csv`` or ``.json``, by extension);
    :class:`EnumerationError` with one sentence for anything unreadable."""
    p = Path(filename)
    kind = format_of(p)
    return {".npy": _open_npy, ".csv": _open_csv, ".json": _open_json}[kind](p)

