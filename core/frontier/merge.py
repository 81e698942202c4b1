"""The slices' rows on disk read back and merged, and a table's rows sent to the slices' files.

A slice file (:mod:`.spill` names them) is raw ``uint64`` rows: key words, then residues,
grouped by slice and thread share: a task writes one file per table of its threads
(:class:`SliceFile`) and says where each slice and share's rows lie in it (:data:`Segment`),
so a cell makes a few files per slice, not one per pair of slices. Every file is written
whole or the count stops (:func:`_write_all`), and its reader is given each segment's rows
and :func:`checksums`: a file of another size or a segment of another checksum is refused
(:class:`SpillError`), so a slice that did not reach the disk whole is never read as a
smaller or an empty one.
"""
from __future__ import annotations

import errno
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from contextlib import contextmanager
from typing import Any

import numpy as np

from ..system.control import CancelLike, raise_if_cancelled
from ..system.errors import Cancelled, InputError
from .pair import PAIR
from .spill_kernel import spill_route
from .word import LOAD, WORD, grow_word_table, key_hash, new_word_table

__all__ = ["BLOCK", "CHUNK", "SpillError", "os_errors", "merge_rows", "checksums", "Segment",
           "SliceFile"]

#: rows read or routed at a time
BLOCK = 1 << 21
#: rows merged between two looks at the stop flag
CHUNK = 1 << 17


class SpillError(InputError):
    """The spill folder is missing, unwritable or full, a slice file was not read back as
    it was written, or a slice outgrew the memory."""


@contextmanager
def os_errors(what: str) -> Iterator[None]:
    """An :class:`OSError` inside raised as a :class:`SpillError` in one line: ``what``, then
    the system's reason."""
    try:
        yield
    except OSError as e:
        raise SpillError(f"{what}: {e.strerror or e}") from None


#: a slice's rows in a file: ``[slice, share, name, offset, rows, checksum, file_rows]``
#: (offset and rows in rows of the file, ``file_rows`` the rows the whole file holds)
Segment = list[Any]

#: the weight of each column in :func:`checksums` (odd: a change of any one word shows)
_WEIGHTS = np.array([(0x9E3779B97F4A7C15 * (2 * c + 1)) % (1 << 64) | 1 for c in range(64)],
                    np.uint64)


def checksums(rows: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """The checksum of each run ``rows[bounds[i]:bounds[i + 1]]`` (``bounds`` rising, from
    0 to at most ``len(rows)``) in one pass: its column sums, weighted, modulo 2^64 (a
    change of any one word changes it); 0 for an empty run."""
    n = bounds.shape[0] - 1
    got = np.zeros(n, np.uint64)
    lo = bounds[:-1]
    full = np.flatnonzero(bounds[1:] > lo)
    if full.shape[0]:
        cols = np.add.reduceat(rows[:int(bounds[-1])], lo[full], axis=0, dtype=np.uint64)
        got[full] = (cols * _WEIGHTS[:rows.shape[1]]).sum(axis=1, dtype=np.uint64)
    return got


#: the system call that writes a slice's bytes (``os.write``; a test stands a full disk in)
_write = os.write


def _write_all(fd: int, data: memoryview) -> None:
    """Writes every byte of ``data`` to ``fd``: a short write is followed by another for the
    rest; an error (a full disk: ENOSPC) raises :class:`OSError`, and so does a write that
    takes nothing."""
    while len(data):
        n = _write(fd, data)
        if n <= 0:
            raise OSError(errno.ENOSPC, "No space left on device (a write took nothing)")
        data = data[n:]


class SliceFile:
    """One file a task writes, ``name`` in ``folder``: blocks of rows grouped by slice and
    share, appended one after the other; ``segments`` lists where each slice and share's
    rows are and their :func:`checksums` (:data:`Segment`). The first write truncates the file
    (a task run again starts it afresh); ``OSError`` when the file system does not take
    every byte (the file's close included)."""

    def __init__(self, folder: str, name: str) -> None:
        self.folder, self.name = folder, name
        self.rows = 0
        self.opened = False
        self.segments: list[Segment] = []

    def append(self, block: np.ndarray, starts: np.ndarray, shares: int) -> None:
        """Appends ``block`` (C-contiguous, bucket ``b = slice · shares + share`` in rows
        ``starts[b]:starts[b + 1]``) in one write and records its buckets' segments."""
        n = int(starts[-1])
        if n == 0:
            return
        flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if self.opened else os.O_TRUNC)
        fd = os.open(os.path.join(self.folder, self.name), flags, 0o644)
        try:
            _write_all(fd, np.ascontiguousarray(block[:n]).data.cast("B"))
        finally:
            os.close(fd)
        self.opened = True
        sums = checksums(block, starts).tolist()
        for b in range(starts.shape[0] - 1):
            lo, hi = int(starts[b]), int(starts[b + 1])
            if hi > lo:
                self.segments.append([b // shares, b % shares, self.name, self.rows + lo,
                                      hi - lo, int(sums[b])])
        self.rows += n

    def finished(self) -> list[Segment]:
        """The segments, each with the rows the whole file holds."""
        return [[*seg, self.rows] for seg in self.segments]


def _layout(words: int) -> Any:
    return WORD if words == 1 else PAIR


def _partition(rows: np.ndarray, words: int, slices: int, shares: int
               ) -> tuple[np.ndarray, np.ndarray]:
    """The used rows of ``rows`` grouped by slice and share
    (:func:`.spill_kernel.spill_route`) and where each bucket starts."""
    rows = np.ascontiguousarray(rows)
    out = np.empty_like(rows)
    starts = np.zeros(slices * shares + 1, np.int64)
    if spill_route(rows, words, slices, shares, out, starts) < 0:
        raise RuntimeError("the slice split refused its arrays")
    return out, starts


class _Merge:
    """``parts`` tables, one a thread share, into which rows are added (equal keys: their
    residues summed modulo each modulus), growing as needed; ``reserve(bytes)`` is told of
    every table made or grown (it raises to refuse)."""

    def __init__(self, mods: np.ndarray, words: int, parts: int,
                 reserve: Callable[[int], None], expect: int, stop: CancelLike = None) -> None:
        self.mods, self.words, self.reserve, self.stop = mods, words, reserve, stop
        self.layout = _layout(words)
        self.width = mods.shape[0] + words
        cap = int(max(expect, 16) / parts / LOAD * 1.1) + 64
        reserve(parts * cap * self.width * 8)
        self.tabs = [new_word_table(cap, mods.shape[0], words) for _ in range(parts)]
        self.filled = [0] * parts

    def add(self, j: int, rows: np.ndarray) -> None:
        """Adds ``rows`` (all of share ``j``) into table ``j``, :data:`CHUNK` rows at a time,
        :class:`Cancelled` between them once ``stop`` says so."""
        tab = self.tabs[j]
        rows = np.ascontiguousarray(rows)
        io = np.array([0, self.filled[j]], np.int64)
        while io[0] < rows.shape[0]:
            raise_if_cancelled(self.stop, "the frontier count")
            got = self.layout.absorb(rows, min(rows.shape[0], int(io[0]) + CHUNK), tab,
                                     self.mods, io)
            if got >= 0:
                continue
            if got != -1:
                raise RuntimeError("the slice merge refused its arrays")
            tab = grow_word_table(tab, self.mods, self.layout, self.reserve)
        self.tabs[j], self.filled[j] = tab, int(io[1])

    def add_files(self, j: int, folder: str, segments: Sequence[Segment],
                  part: tuple[int, int] = (0, 1)) -> None:
        """Adds the rows of ``segments`` (all of share ``j``, files in ``folder``; only part
        ``part``, :func:`_read_blocks`)."""
        for rows in _read_blocks(folder, segments, self.width, self.words, part):
            self.add(j, rows)


def merge_rows(sources: Sequence[np.ndarray], mods: np.ndarray, words: int, parts: int,
               reserve: Callable[[int], None], expect: int = 0) -> list[np.ndarray]:
    """The rows of ``sources`` (``uint64[n, words + m]`` each, keys never 0) merged into
    ``parts`` tables by thread share: one slot a key, its residues the sums of the rows'
    modulo each modulus."""
    merge = _Merge(mods, words, parts, reserve, expect)
    for src in sources:
        for a in range(0, src.shape[0], BLOCK):
            out, starts = _partition(src[a:a + BLOCK], words, 1, parts)
            for j in range(parts):
                merge.add(j, out[starts[j]:starts[j + 1]])
    return merge.tabs


def _read_into(fd: int, buf: memoryview, pos: int, path: str) -> None:
    """Fills ``buf`` from ``fd`` at byte ``pos``; :class:`SpillError` if the file ends first."""
    while len(buf):
        n = os.preadv(fd, [buf], pos)
        if n <= 0:
            raise SpillError(f"the slice file {path} was cut short while it was read")
        buf, pos = buf[n:], pos + n


def _read_blocks(folder: str, segments: Sequence[Segment], width: int, words: int = 1,
                 part: tuple[int, int] = (0, 1)) -> Iterator[np.ndarray]:
    """The rows of ``segments`` (:data:`Segment` each) of the slice files in ``folder``, up
    to :data:`BLOCK` rows at a time (small segments read together, a big one in pieces);
    with ``part`` ``(q, parts)`` only those whose key hash has ``q`` in bits 48 and up,
    modulo ``parts``. :class:`SpillError` when a file is missing or of another size than
    its writer made it, or (once a segment's last rows are read) a segment's rows have
    another checksum than the writer's."""
    pieces: list[tuple[int, int, int]] = []          # (segment, first row, rows)
    for i, seg in enumerate(segments):
        for a in range(0, int(seg[4]), BLOCK):
            pieces.append((i, a, min(BLOCK, int(seg[4]) - a)))
    sums = [0] * len(segments)
    sizes: dict[str, int] = {}
    start = 0
    while start < len(pieces):
        stop, n = start, 0
        while stop < len(pieces) and (stop == start or n + pieces[stop][2] <= BLOCK):
            n += pieces[stop][2]
            stop += 1
        batch = pieces[start:stop]
        buf = np.empty((n, width), np.uint64)
        bounds = np.zeros(len(batch) + 1, np.int64)
        fds: dict[str, int] = {}
        try:
            at = 0
            for b, (i, a, rows) in enumerate(batch):
                seg = segments[i]
                path = os.path.join(folder, str(seg[2]))
                fd = fds.get(path)
                if fd is None:
                    fd = fds[path] = _open_slice(path, int(seg[6]) * width * 8, sizes)
                _read_into(fd, buf[at:at + rows].data.cast("B"),
                           (int(seg[3]) + a) * width * 8, path)
                at += rows
                bounds[b + 1] = at
        finally:
            for fd in fds.values():
                os.close(fd)
        got = checksums(buf, bounds).tolist()
        for b, (i, a, rows) in enumerate(batch):
            sums[i] = (sums[i] + int(got[b])) % (1 << 64)
            seg = segments[i]
            if a + rows == int(seg[4]) and sums[i] != int(seg[5]):
                raise SpillError(f"the slice file {os.path.join(folder, str(seg[2]))} does "
                                 "not hold the rows written into it (checksum): the spill "
                                 "folder lost data")
        if part[1] > 1:
            h = key_hash(buf[:, 0], buf[:, 1] if words == 2 else None)
            buf = buf[(h >> np.uint64(48)) % np.uint64(part[1]) == np.uint64(part[0])]
        start = stop
        yield buf


def _open_slice(path: str, size: int, sizes: dict[str, int]) -> int:
    """A descriptor of the slice file ``path``, once its size is checked to be ``size``
    (``sizes``: the files already checked); :class:`SpillError` if it is not."""
    with os_errors(f"the slice file {path} cannot be read back"):
        fd = os.open(path, os.O_RDONLY)
    if path not in sizes:
        sizes[path] = os.fstat(fd).st_size
    if sizes[path] != size:
        os.close(fd)
        raise SpillError(f"the slice file {path} holds {sizes[path]:,} bytes where "
                         f"{size:,} were written: the spill folder lost data")
    return fd


def _on_threads(fn: Callable[..., Any], args: Sequence[tuple[Any, ...]],
                leave: threading.Event, workers: int = 0, inline: bool = False) -> list[Any]:
    """``fn(*a)`` for each ``a`` of ``args`` on ``workers`` threads (0: one each); the
    caller waits in steps of a quarter second (a signal's handler runs then), and an
    exception there or in a thread sets ``leave`` for the others to read. Returns the
    results; raises the first error (one not :class:`Cancelled` if there is one).
    ``inline``: one after the other on the calling thread instead, for work too small to
    pay for threads (their start and the hand-overs of the interpreter's lock cost
    milliseconds)."""
    if inline or len(args) == 1:
        try:
            return [fn(*a) for a in args]
        except BaseException:
            leave.set()
            raise
    pool = ThreadPoolExecutor(max(1, workers or len(args)))
    try:
        futures = [pool.submit(fn, *a) for a in args]
        pending = set(futures)
        while pending:
            done, pending = wait(pending, 0.25, FIRST_EXCEPTION)
            if any(f.exception() is not None for f in done):
                leave.set()
        errors = [e for e in (f.exception() for f in futures) if e is not None]
        if errors:
            raise ([e for e in errors if not isinstance(e, Cancelled)] or errors)[0]
        return [f.result() for f in futures]
    except BaseException:
        leave.set()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _route(tab: np.ndarray, words: int, slices: int, shares: int, out_file: SliceFile,
           stop: CancelLike = None) -> int:
    """Appends the used slots of ``tab`` to ``out_file``, a block at a time grouped by slice
    and share (:func:`.spill_kernel.spill_route`, one write a block); the rows
    written. In each bucket they keep slot order, which the merge tables' slots follow
    (``PROBE_MOST`` grows one too small): read in that order a merge is faster."""
    rows_out = 0
    for a in range(0, tab.shape[0], BLOCK):
        raise_if_cancelled(stop, "the frontier count")
        out, starts = _partition(tab[a:a + BLOCK], words, slices, shares)
        out_file.append(out, starts, shares)
        rows_out += int(starts[-1])
    return rows_out
