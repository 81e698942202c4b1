"""Enumeration solutions streamed to a file as they are found, with flat memory.

Formats (by the file's extension):

``.npy`` (binary, the fast one)
    A NumPy ``.npy`` file (``numpy.lib.format`` 1.0) of shape ``(count, rows, cols)``:
    solution ``i`` is its board of move numbers 1..N (row 0 = rank 1, as
    :meth:`knightgui_core.board.tour.Tour.numbers`), in the smallest unsigned dtype that holds
    N (``uint8`` up to 255 squares). Documented, stable and read by ``numpy.load`` alone
    (Parquet would add pyarrow, about 100 MB); fixed-size records let the header go first and
    be rewritten with the count at the end, and ``mmap_mode="r"`` steps through millions of
    solutions. The header has a fixed size (:data:`NPY_HEADER_BYTES`); a killed writer leaves
    count 0 in a temporary file (the safe writer renames only a finished file).
``.csv``
    ``solution,branch,path`` with the path as space-separated square names.
``.json``
    ``{"format": "knightgui-enumeration", ..., "solutions_listed": [{"index", "branch",
    "path": [[col, row], ...]}, ...], "solutions": ..., ...}``; counters after the list.

Every format is written in blocks through :func:`knightgui_core.system.files.atomic_writer`
(temporary file, fsync, rename): memory does not grow with the number of solutions.
"""
from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ...board.dash import EnumerationError
from ...board.squares import Board
from ...system import files
from ...system.control import CancelLike, cancel_requested
from ...system.text import strict_dumps
from . import stream_kernel as _ks

if TYPE_CHECKING:
    from .enumerator import Enumerator

__all__ = ["FORMATS", "solution_blocks", "write_solutions", "write_paths", "format_of",
           "NPY_HEADER_BYTES"]

FORMATS = (".npy", ".csv", ".json")
NPY_HEADER_BYTES = 128
_MAGIC = b"\x93NUMPY\x01\x00"
#: Forward moves per kernel call: bounds the time between two looks at ``cancel``.
STEPS_PER_CALL = 2_000_000
#: Bytes of paths per block (the block of solutions copied out per kernel call).
BLOCK_BYTES = 4 << 20


def _block_size(n: int) -> int:
    return int(max(1, min(65536, BLOCK_BYTES // (4 * max(n, 1)))))


def solution_blocks(en: Enumerator, limit: int | None = None, cancel: CancelLike = None,
                    block: int | None = None, numbers: bool = False
                    ) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """The enumerator's next solutions in blocks: ``(first, paths, branches)`` with ``first``
    the 1-based index of ``paths[0]``, ``paths`` int32[g, N] whole tours (flat squares, tail
    included; with ``numbers`` each row is instead the move number of every square, 1..N,
    squares in row-major order) and ``branches`` int64[g]. The arrays are reused: use a
    block before asking for the next. Stops after ``limit`` solutions, at exhaustion, or
    when ``cancel()`` is true (checked every :data:`STEPS_PER_CALL` forward moves)."""
    e = en.engine
    n, L = en.board.size, e.L
    k = _block_size(n) if block is None else int(block)
    if k < 1:
        raise EnumerationError("block must be at least 1")
    if limit is not None and int(limit) < 0:
        raise EnumerationError("limit must not be negative")
    out = np.zeros((k, n), dtype=np.int32)
    chain = np.asarray(en.chain, dtype=np.int64)
    if numbers:
        out[:, chain] = np.arange(L + 1, n + 1, dtype=np.int32)
    else:
        out[:, L:] = chain
    branches = np.zeros(k, dtype=np.int64)
    fn = _ks.collect_paths_bits if e.bits_mode else _ks.collect_paths
    left = None if limit is None else int(limit)
    while left is None or left > 0:
        want = k if left is None else min(k, left)
        first = en.solutions + 1
        got, ev = fn(*e._args(), want, STEPS_PER_CALL, bool(numbers), out,  # noqa: SLF001
                     branches)
        got = int(got)
        if got:
            if left is not None:
                left -= got
            yield first, out[:got], branches[:got]
        if en.exhausted or cancel_requested(cancel):
            return


# ------------------------------------------------------------------------ writers
def _npy_dtype(n: int) -> np.dtype:
    return np.dtype(np.uint8 if n <= 255 else np.uint16 if n <= 65535 else np.uint32)


def _npy_header(dtype: np.dtype, shape: tuple) -> bytes:
    d = {"descr": np.lib.format.dtype_to_descr(dtype), "fortran_order": False,
         "shape": tuple(int(s) for s in shape)}
    text = repr(d).encode("latin1")
    room = NPY_HEADER_BYTES - len(_MAGIC) - 2
    if len(text) + 1 > room:
        raise EnumerationError("board too large for the .npy header")
    text = text + b" " * (room - len(text) - 1) + b"\n"
    return _MAGIC + len(text).to_bytes(2, "little") + text


def _digits(x: np.ndarray) -> np.ndarray:
    """uint8[g, w] decimal digits of the non-negative ``x`` (int64[g]), leading zeros as
    NUL bytes (removed later), ``w`` the width of the largest."""
    w = max(1, len(str(int(x.max())))) if len(x) else 1
    p = 10 ** np.arange(w - 1, -1, -1, dtype=np.int64)
    d = (x[:, None] // p) % 10
    out = (d + 48).astype(np.uint8)
    out[(x[:, None] < p) & (p > 1)] = 0
    return out


class _Rows:
    """Text rows built with numpy only (no Python step per solution): every row is laid out
    in a fixed-width byte array (constants, the decimal digits of the fields, the tokens of
    the path padded with NUL bytes), then the NUL bytes are squeezed out. ``layout`` is a
    list of ``bytes`` constants, field numbers (0: the solution's number from ``first``, 1:
    its branch) and one ``None`` for the path. Each token starts with its separator; the
    first token's is dropped."""

    def __init__(self, tokens: list[bytes], layout: list):
        w = max(len(t) for t in tokens)
        self.table = np.zeros((len(tokens), w), dtype=np.uint8)
        for i, t in enumerate(tokens):
            self.table[i, :len(t)] = np.frombuffer(t, dtype=np.uint8)
        self.layout = layout

    def rows(self, paths: np.ndarray, first: int, branches: np.ndarray) -> bytes:
        g = len(paths)
        fields = np.stack([np.arange(first, first + g), branches], axis=1)
        parts = []
        for item in self.layout:
            if item is None:
                body = np.take(self.table, paths, axis=0).reshape(g, -1)
                body[:, 0] = 0                      # the first token's separator
                parts.append(body)
            elif isinstance(item, int):
                parts.append(_digits(fields[:, item]))
            else:
                parts.append(np.broadcast_to(np.frombuffer(item, np.uint8), (g, len(item))))
        flat = np.concatenate(parts, axis=1).reshape(-1)
        return flat[flat != 0].tobytes()


def _board_fields(board: Board) -> dict[str, Any]:
    """The fields that name another board or piece (none for the knight on the plane, so
    the files of the plane read as before)."""
    if board.is_classic:
        return {}
    return {"topology": board.topology, "leaper": list(board.leaper)}


class _NpyWriter:
    def __init__(self, f, board: Board, meta: dict):
        if not board.is_classic:
            raise EnumerationError(f"a .npy solutions file holds move numbers only, not the "
                                   f"board: for the {board.describe()} use .json or .csv")
        self.f, self.n = f, board.size
        self.shape = (board.rows, board.cols)
        self.dtype = _npy_dtype(self.n)
        self.count = 0
        f.write(_npy_header(self.dtype, (0, *self.shape)))

    numbers = True      # takes the blocks as move numbers

    def write(self, first: int, numbers: np.ndarray, branches: np.ndarray) -> None:
        self.f.write(numbers.astype(self.dtype).tobytes())
        self.count += len(numbers)

    def close(self, counters: dict) -> None:
        end = self.f.tell()
        self.f.seek(0)
        self.f.write(_npy_header(self.dtype, (self.count, *self.shape)))
        self.f.seek(end)


class _CsvWriter:
    def __init__(self, f, board: Board, meta: dict):
        self.f = f
        extra = _board_fields(board)
        if extra:                           # the tour CSV's comment line names the board
            a, b = board.leaper
            f.write(f"# topology={board.topology} leaper={a},{b}\n".encode("ascii"))
        f.write(b"solution,branch,path\n")
        names = [board.name(s) for s in range(board.size)]
        # a name with a comma (numeric names, "10,3") needs quoting: quote the whole path
        q = b'"' if any("," in s for s in names) else b""
        self.rag = _Rows([b" " + s.encode("ascii") for s in names],
                         [0, b",", 1, b"," + q, None, q + b"\n"])

    def write(self, first: int, paths: np.ndarray, branches: np.ndarray) -> None:
        self.f.write(self.rag.rows(paths, first, branches))

    def close(self, counters: dict) -> None:
        pass


class _JsonWriter:
    def __init__(self, f, board: Board, meta: dict):
        self.f = f
        head = strict_dumps({"format": "knightgui-enumeration", "version": 1,
                             "rows": board.rows, "cols": board.cols,
                             **_board_fields(board), **meta})
        f.write(head[:-1].encode("utf-8") + b',"solutions_listed":[')
        cols = board.cols
        self.rag = _Rows([f",[{s % cols},{s // cols}]".encode("ascii")
                          for s in range(board.size)],
                         [b',{"index":', 0, b',"branch":', 1, b',"path":[', None, b"]}"])
        self.started = False

    def write(self, first: int, paths: np.ndarray, branches: np.ndarray) -> None:
        data = self.rag.rows(paths, first, branches)
        self.f.write(data if self.started else data[1:])     # no comma before the first
        self.started = True

    def close(self, counters: dict) -> None:
        self.f.write(b"]," + strict_dumps(counters).encode("utf-8")[1:])


_WRITERS = {".npy": _NpyWriter, ".csv": _CsvWriter, ".json": _JsonWriter}


def format_of(filename: str | os.PathLike[str]) -> str:
    """The format of ``filename`` by its extension; :class:`EnumerationError` if unknown."""
    ext = Path(filename).suffix.lower()
    if ext not in _WRITERS:
        raise EnumerationError(f"unknown solutions file type '{ext[:20]}' (use "
                               f"{', '.join(FORMATS)})")
    return ext


def write_solutions(en: Enumerator, filename: str | os.PathLike[str], limit: int | None = None,
                    progress: Callable[[dict], None] | None = None,
                    cancel: CancelLike = None) -> dict:
    """Enumerate on from where ``en`` stands and write every solution found (at most
    ``limit``) to ``filename`` as found (format by extension, see the module); flat memory.
    Returns the counters (``solutions``, ``dead_ends``, ``forward_moves``, ``exhausted``,
    ``seconds``, ``written``). ``progress(counters)`` is called after every block. The file
    appears only when complete (safe writer); ``OSError`` when it cannot be written."""
    return _write(filename, en.board, {"method": en.method},
                  lambda numbers: solution_blocks(en, limit, cancel, numbers=numbers),
                  lambda: dict(en.engine.counters), progress)


def write_paths(filename: str | os.PathLike[str], board: Board, method: str,
                blocks: Iterator[np.ndarray], counters: Callable[[], dict],
                progress: Callable[[dict], None] | None = None) -> dict:
    """Write blocks of whole paths (int[g, N], e.g. the all-tours listing) to ``filename`` as
    :func:`write_solutions` does, numbered from 1; ``counters()`` gives the figures written
    at the end (and passed to ``progress`` after every block)."""
    def numbered(numbers: bool) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
        first = 1
        for paths in blocks:
            g = len(paths)
            rows = paths
            if numbers:
                rows = np.empty_like(paths)
                rows[np.arange(g)[:, None], paths] = np.arange(1, paths.shape[1] + 1,
                                                               dtype=paths.dtype)
            yield first, rows, np.zeros(g, dtype=np.int64)
            first += g
    return _write(filename, board, {"method": method}, numbered, counters, progress)


def _write(filename: str | os.PathLike[str], board: Board, meta: dict,
           blocks: Callable[[bool], Iterator[tuple[int, np.ndarray, np.ndarray]]],
           counters: Callable[[], dict], progress: Callable[[dict], None] | None) -> dict:
    kind = format_of(filename)
    t0 = time.perf_counter()
    written = 0
    with files.atomic_writer(filename, "wb") as f:
        out = _Background(f)        # the disk works while the kernel finds the next block
        try:
            w: Any = _WRITERS[kind](out, board, meta)
            for first, paths, branches in blocks(getattr(w, "numbers", False)):
                w.write(first, paths, branches)
                written += len(paths)
                if progress is not None:
                    progress(counters())
            result = dict(counters(), seconds=round(time.perf_counter() - t0, 6),
                          written=written)
            w.close(result)
        finally:
            out.finish()
        result["seconds"] = round(time.perf_counter() - t0, 6)
    return result


class _Background:
    """A file's ``write`` done by one background thread, at most two blocks queued (memory
    stays flat); ``seek``/``tell`` wait for the queue to drain. An error in the thread is
    raised again in the caller at the next call."""

    def __init__(self, f: Any) -> None:
        self.f = f
        self.q: queue.Queue = queue.Queue(maxsize=2)
        self.error: BaseException | None = None
        self.t = threading.Thread(target=self._run, name="knightgui-writer", daemon=True)
        self.t.start()

    def _run(self) -> None:
        while True:
            data = self.q.get()
            try:
                if data is None:
                    return
                if self.error is None:
                    self.f.write(data)
            except BaseException as e:  # noqa: BLE001 - handed to the caller
                self.error = e
            finally:
                self.q.task_done()

    def _check(self) -> None:
        if self.error is not None:
            e, self.error = self.error, None
            raise e

    def write(self, data) -> None:
        self._check()
        self.q.put(bytes(data) if isinstance(data, memoryview) else data)

    def _drain(self) -> None:
        self.q.join()
        self._check()

    def tell(self) -> int:
        self._drain()
        return self.f.tell()

    def seek(self, pos: int) -> int:
        self._drain()
        return self.f.seek(pos)

    def finish(self) -> None:
        """Wait for every queued write, stop the thread, raise a write error."""
        if self.t.is_alive():
            self.q.put(None)
            self.t.join()
        self._check()
