"""Solutions files read back: what
:func:`knightgui_core.tietree.enumeration.solution_writer.write_solutions` writes (``.npy``,
``.csv``, ``.json``) opened as a :class:`SolutionFile`, through the safe reader
(:mod:`knightgui_core.system.files`: a regular file only). A ``.npy`` file is memory-mapped
after its header alone is read and checked: the board (at most :data:`MAX_SIDE` a side, one
solution's arrays within the memory available) and the bytes it declares against the file's
size. CSV and JSON files are read whole, within the reader's size limit and the memory
parsing takes; JSON within the nesting limit, every index and branch a whole number in range.
Every damaged, hostile or foreign file is one :class:`~knightgui_core.board.dash.EnumerationError`.
"""
from __future__ import annotations

import csv
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
from numpy.lib import format as npf

from ...board.dash import EnumerationError
from ...board.squares import Board, BoardError, parse_coords, parse_leaper, parse_topology
from ...board.tour import split_board_line
from ...system import files
from ...system.limits import check_memory
from ...system.text import INT64_MAX, short_number, shorten
from .solution_writer import format_of

__all__ = ["SolutionFile", "open_solutions", "MAX_SIDE", "BYTES_PER_SQUARE",
           "CSV_MEMORY_FACTOR"]

#: The largest board a solutions file may hold, a side: what ``knightgui enumerate --out``
#: writes (at most 1,000 a side, 1,000,000 squares).
MAX_SIDE = 1000
#: Memory one solution takes while it is read and checked (move numbers, path, the sort
#: that checks it is a permutation: int64 arrays of the board's size), bytes a square.
BYTES_PER_SQUARE = 48
#: Reading a solutions CSV takes this many bytes per byte of file (the bytes read, the text,
#: the paths as int32: at most 4 bytes for each "a1 " of 3); measured 2.3 (a 20 MB file of
#: 100,000 8×8 solutions: 46 MB more resident).
CSV_MEMORY_FACTOR = 4


class SolutionFile:
    """Solutions read back from a file written by :func:`write_solutions`: ``rows``,
    ``cols``, ``len()``, :meth:`path` (int32[N], tour order), :meth:`numbers`,
    :meth:`index` and :meth:`branch`."""

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


def _check_board(rows: int, cols: int, what: str) -> None:
    """A board a solutions file may hold: sides in 1..:data:`MAX_SIDE`, and one solution's
    working arrays (:data:`BYTES_PER_SQUARE` a square) within the memory available;
    checked before anything of the board's size is allocated."""
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise EnumerationError(f"{what} a {short_number(str(cols))}×{short_number(str(rows))} "
                               f"board; solutions files hold boards of 1 to {MAX_SIDE:,} "
                               "squares a side")
    check_memory(rows * cols * BYTES_PER_SQUARE, f"{what} a {cols}×{rows} board: reading one "
                 "solution", EnumerationError)


def _open_npy(p: Path) -> SolutionFile:
    """Only the header is read (``numpy.lib.format``); shape, dtype and the file's size are
    checked before the records are memory-mapped from the same descriptor."""
    try:   # a regular file only; memory-mapped, so of any size
        f = files.open_regular(p, sys.maxsize)
    except OSError as e:
        raise EnumerationError(str(e)) from None
    with f:
        try:
            version = npf.read_magic(f)
            if version not in ((1, 0), (2, 0)):
                raise ValueError(f"format version {version[0]}.{version[1]} is not read")
            read_header = npf.read_array_header_1_0 if version == (1, 0) else \
                npf.read_array_header_2_0
            shape, fortran, dtype = read_header(f)
        except (ValueError, OSError, EOFError, SyntaxError, TypeError) as e:
            raise EnumerationError(f"{p.name} is not a readable .npy file: "
                                   f"{shorten(str(e).splitlines()[0] if str(e) else '', 120)}") \
                from None
        if (len(shape) != 3 or dtype.kind not in "ui" or min(shape) < 0
                or 0 in shape[1:]):
            raise EnumerationError(f"{p.name}: expected an array of boards (count, rows, cols) "
                                   f"of whole numbers, found shape {shorten(str(shape[:4]), 60)} "
                                   f"of {dtype}")
        count, rows, cols = (int(v) for v in shape)
        _check_board(rows, cols, f"{p.name}: its header declares")
        if rows * cols > np.iinfo(dtype).max:
            raise EnumerationError(f"{p.name}: {dtype} cannot hold the move numbers of a "
                                   f"{cols}×{rows} board")
        offset, size = f.tell(), os.fstat(f.fileno()).st_size
        need = count * rows * cols * dtype.itemsize
        if need > size - offset:
            raise EnumerationError(f"{p.name}: its header declares {short_number(str(count))} "
                                   f"solutions ({need:,} bytes) but {size - offset:,} bytes "
                                   "follow it")
        if count == 0:
            arr = np.zeros(shape, dtype)
        else:
            arr = np.memmap(f, dtype=dtype, mode="r", offset=offset, shape=shape,
                            order="F" if fortran else "C")
    return SolutionFile(rows, cols, count, get_numbers=lambda i: arr[i], source=p.name)


def _whole(text: str, low: int, high: int, what: str) -> int:
    """``text`` as a whole number in ``low..high``, else ``ValueError`` with one sentence."""
    t = text.strip()
    try:
        v = int(t) if len(t) <= 20 else None
    except ValueError:
        v = None
    if v is None or not low <= v <= high:
        raise ValueError(f"{what} {shorten(t, 40)} is not a whole number in "
                         f"{low:,}..{high:,}")
    return v


def _lines(text: str) -> Iterator[str]:
    """The lines of ``text`` with their ends, one at a time (``io.StringIO`` would copy the
    text at 4 bytes a character)."""
    start, end = 0, len(text)
    while start < end:
        stop = text.find("\n", start)
        stop = end if stop < 0 else stop + 1
        yield text[start:stop]
        start = stop


def _open_csv(p: Path) -> SolutionFile:
    try:   # size and the memory reading takes checked before a byte is read
        text = files.read_text(p, memory_factor=CSV_MEMORY_FACTOR)
    except OSError as e:
        raise EnumerationError(str(e)) from None
    try:
        return _parse_csv(p, text)
    except csv.Error as e:     # e.g. a bare carriage return inside a field
        raise EnumerationError(f"{p.name}: not a solutions CSV ({shorten(str(e), 60)})") \
            from None


def _parse_csv(p: Path, text: str) -> SolutionFile:
    skipped = int(text.startswith("#"))    # "# topology=torus leaper=2,3": another board
    topology, leaper, text = split_board_line(text)
    r = csv.reader(_lines(text))
    if next(r, None) != ["solution", "branch", "path"]:
        raise EnumerationError(f"{p.name}: a solutions CSV starts with solution,branch,path")
    rec = next(r, None)
    if rec is None:
        raise EnumerationError(f"{p.name} holds no solutions")
    if len(rec) != 3:
        raise EnumerationError(f"{p.name}: every line needs 3 fields")
    names = rec[2].split()
    board = _board_from_names(set(names), len(names), topology, leaper)
    n, look = board.size, {board.name(s): s for s in range(board.size)}
    cap = text.count("\n") + 1              # at most one record a line: 4 bytes a square
    paths = np.empty((cap, n), dtype=np.int32)
    idx, br = np.empty(cap, dtype=np.int64), np.empty(cap, dtype=np.int64)
    k = 0
    while rec is not None:
        try:
            if len(rec) != 3:
                raise ValueError("every line needs 3 fields")
            idx[k] = _whole(rec[0], 1, INT64_MAX, "solution")
            br[k] = _whole(rec[1], 0, n, "branch")
            row = [look[s] for s in rec[2].split()]
            if len(row) != n:
                raise ValueError(f"{len(row)} squares, not {n}")
            paths[k] = row
        except KeyError as e:
            raise EnumerationError(f"{p.name}: line {r.line_num + skipped}: "
                                   f"{shorten(str(e), 30)} is not a square of the board") \
                from None
        except ValueError as e:
            raise EnumerationError(f"{p.name}: line {r.line_num + skipped}: {e}") from None
        k += 1
        rec = next(r, None)
    return SolutionFile(board.rows, board.cols, k, paths=paths[:k], indices=idx[:k],
                        branches=br[:k], source=p.name, board=board)


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
    _check_board(rows, cols, "the first solution names")
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
    try:   # size, memory, nesting, NaN/Infinity and numbers beyond int64 checked
        d = files.read_json(p)
    except OSError as e:
        raise EnumerationError(str(e)) from None
    except ValueError as e:
        raise EnumerationError(f"{p.name}: {e}") from None
    if not isinstance(d, dict) or d.get("format") != "knightgui-enumeration":
        raise EnumerationError(f"{p.name} is not a knightgui enumeration file")
    rows, cols, lst = d.get("rows"), d.get("cols"), d.get("solutions_listed")
    if not (type(rows) is int and type(cols) is int and isinstance(lst, list) and lst):
        raise EnumerationError(f"{p.name}: rows, cols and solutions_listed are missing")
    _check_board(rows, cols, f"{p.name} declares")
    try:
        pairs = np.array([rec["path"] for rec in lst], dtype=np.int64)
        idx = np.array([rec["index"] for rec in lst], dtype=np.int64)
        br = np.array([rec["branch"] for rec in lst], dtype=np.int64)
    except (KeyError, TypeError, ValueError, OverflowError):
        raise EnumerationError(f"{p.name}: a solution record is damaged") from None
    if pairs.shape != (len(lst), rows * cols, 2):
        raise EnumerationError(f"{p.name}: a path does not hold {rows * cols} [col, row] pairs")
    if idx.shape != (len(lst),) or (idx < 1).any() or br.shape != idx.shape \
            or (br < 0).any() or (br > rows * cols).any():
        raise EnumerationError(f"{p.name}: a solution's index or branch is out of range")
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

