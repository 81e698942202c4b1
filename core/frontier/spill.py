"""The frontier count for boards whose states do not fit in memory: the states on disk, in slices.

Before each cell the states are held in ``K`` slices by a hash of the key
(:mod:`.spill_kernel`). One slice at a time is read from the spill folder, its rows merged
(equal keys: residues added, :mod:`.merge`) into tables of its own, read through the cell
as the in-memory count reads a cell (:func:`.word.word_cell`), and every successor
appended, in blocks, to its task's file of the next cell; the slices' finished boards'
residues are added up. A slice's work (:func:`spill_step`) is one task with JSON arguments
and a JSON result, so a runner can send it to any worker that sees the folder: each task
writes only files of its own (one per thread table), and the files read are removed only
once the whole cell is done and the progress saved (:mod:`.run_folder`). Memory is about
one slice's tables, not the whole frontier's; ``K`` is chosen again before each cell from
the states expected after it.

A slice file is raw ``uint64`` rows (key words, then residues), native byte order:
``c{cell}_f{from}o{table}.u64`` holds the states entering ``cell`` made by input slice
``from`` (its thread's table ``table``); the task's result says where each slice and
share's rows lie and their checksum (``files``), and the next cell's tasks are given those
to read (``inputs``), never a listing of the folder. A task's files are on disk
(``syncfs``) and of the size written before its result is returned. A slice that would
pass the memory on its own is read in parts (bits 48 and up of the hash).
"""
from __future__ import annotations

import ctypes
import os
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..system.control import CancelLike, cancel_requested, raise_if_cancelled
from ..system.limits import process_rss
from .merge import (
    Segment,
    SliceFile,
    SpillError,
    _layout,
    _Merge,
    _on_threads,
    _read_blocks,
    _route,
    merge_rows,
    os_errors,
)
from .plan import CountPlan
from .word import LOAD, SMALL, add_residues, first_table, new_word_table, word_cell
from .word_kernel import CellStep

__all__ = ["watch_folder", "unwatch_folder", "SpillError", "spill_step", "merge_rows",
           "slices_for", "check_spill_parent", "run_in_process", "SpillPlan",
           "spilled_cells", "spill_line", "wait_idle"]


@dataclass(frozen=True)
class SpillPlan:
    """Where and how a count keeps its states on disk between cells: ``folder``, where the
    count makes its own run folder (:mod:`.run_folder`); ``slices``, the fewest slices a
    cell's states are cut in (more when one would not fit the memory); ``run_slices(specs)``,
    what reads a cell's slices (their :func:`spill_step` results, in order; None: one after
    the other in this process, :func:`run_in_process`); ``report(line)``, told of a run
    resumed and of each cell (None: nobody)."""

    folder: str
    slices: int = 1
    run_slices: Callable[[list[dict[str, Any]]], list[dict[str, Any]]] | None = None
    report: Callable[[str], None] | None = None


class _TooBig(SpillError):
    """A slice's tables would pass the memory: it is read again in more parts."""


def check_spill_parent(parent: str) -> None:
    """:class:`SpillError` with one line unless ``parent`` is a folder this process can
    make files in and write a few KiB to (the check a run makes before it starts)."""
    if not os.path.exists(parent):
        raise SpillError(f"the spill folder {parent} does not exist")
    if not os.path.isdir(parent):
        raise SpillError(f"the spill folder {parent} is not a folder")
    with os_errors(f"the spill folder {parent} cannot be written"):
        fd, probe = tempfile.mkstemp(prefix=".knightgui-probe-", dir=parent)
        try:
            os.write(fd, b"\0" * 4096)
        finally:
            os.close(fd)
            os.remove(probe)


def slices_for(states: int, slot_bytes: int, budget: int, least: int = 1) -> int:
    """Slices (a power of two, at least ``least``) so that one slice's share of ``states``
    takes a fair part of ``budget``: its merged table, its successors' tables (up to three
    times as many states) and the rows read, each slot ``slot_bytes`` at the tables' load."""
    per_state = slot_bytes * (1.1 / LOAD * 4 + 1.0)
    k = 1
    while k < least or states * per_state / k > budget * 0.8:
        k *= 2
    return k


#: each spill folder's stop flag, for its slices read in this process (others run to the end)
_STOPS: dict[str, CancelLike] = {}


def watch_folder(folder: str, stop: CancelLike) -> None:
    """Slices of ``folder`` read in this process stop within a round once ``stop`` says so."""
    _STOPS[str(folder)] = stop


def unwatch_folder(folder: str) -> None:
    """Forget ``folder``'s stop flag (its run has ended)."""
    _STOPS.pop(str(folder), None)


#: the slices of each folder being read in this process now (a runner's thread may still be
#: in one when its run is stopped: the folder is removed only once it has left)
_BUSY: dict[str, int] = {}
_IDLE = threading.Condition()


def wait_idle(folder: str, timeout: float) -> bool:
    """Waits until no slice of ``folder`` is being read in this process (or ``timeout``
    seconds passed); True when none is."""
    with _IDLE:
        return _IDLE.wait_for(lambda: not _BUSY.get(str(folder)), timeout)


def spill_step(spec: dict[str, Any]) -> dict[str, Any]:
    """:func:`_spill_step`, counted in :data:`_BUSY` while it runs."""
    folder = str(spec["folder"])
    with _IDLE:
        _BUSY[folder] = _BUSY.get(folder, 0) + 1
    try:
        return _spill_step(spec)
    finally:
        with _IDLE:
            _BUSY[folder] -= 1
            if not _BUSY[folder]:
                del _BUSY[folder]
            _IDLE.notify_all()


def _spill_step(spec: dict[str, Any]) -> dict[str, Any]:
    """One slice through one cell (a runner task; ``spec`` and the result are JSON):
    reads slice ``spec['slice']`` of cell ``spec['cell']`` from ``spec['folder']``, merges
    it, reads the cell, writes the successors into ``spec['slices_out']`` slices of the next
    cell. Returns the states and rows in and out, the bytes written, the seconds (wall and
    CPU), the resident bytes (now and at most), the finished boards' residues and the rows
    written (``files``: a :data:`.merge.Segment` each, for the next cell's
    ``inputs``). ``spec['inputs']``: for each thread share, the segments to read; one that
    does not read back as written stops the count (:class:`SpillError`), and so does a
    write the file system does not take whole."""
    t0, c0 = time.perf_counter(), time.process_time()
    folder, cell, me = str(spec["folder"]), int(spec["cell"]), int(spec["slice"])
    words, threads, budget = int(spec["words"]), int(spec["threads"]), int(spec["budget"])
    cpu = max(1, int(spec.get("cpu_threads", threads)))   # threads it reads with ('threads': shares)
    mods = np.array([int(x) for x in spec["mods"]], np.uint64)
    width = mods.shape[0] + words
    held = [0, 0]
    stop = _STOPS.get(folder)
    leave = threading.Event()           # set when the caller or a thread gives up

    def halt() -> bool:
        return leave.is_set() or cancel_requested(stop)

    def reserve(nbytes: int) -> None:
        held[0] += nbytes
        held[1] = max(held[1], held[0])
        if held[0] > budget:
            raise _TooBig(f"slice {me} of cell {cell} needs more than "
                             f"{held[0] / 2**30:.1f} GiB and {budget / 2**30:.1f} GiB may "
                             "be used: give more slices or memory")

    # the segments to read (rows of slice files, with their writers' checksums) by share
    inputs: list[list[Segment]] = spec["inputs"]
    rows_in = sum(int(seg[4]) for share in inputs for seg in share)
    one_source = int(spec.get("sources", 2)) == 1
    growth, ratio = float(spec["growth"]), float(spec.get("ratio", 1.0))
    # a slice bigger than the memory allows is read in parts (other bits of the hash)
    states_est = rows_in * (1.0 if one_source else ratio)
    need = width * 8 * (states_est * 1.1 / LOAD * (1.0 + 1.5 * max(1.0, growth))
                        + (rows_in if one_source else 0))
    parts = max(1, int(spec.get("parts", 1)))
    while need / parts > 0.75 * budget and parts < 1 << 12:
        parts *= 2
    carry, slices = int(spec["carry"]), int(spec["slices_out"])
    step = CellStep(np.array(spec["nb"], np.int64), np.array(spec["rem"], np.uint8),
                    np.array(spec["endok"], np.uint8), int(spec["window"]),
                    int(spec["open_mode"]), int(spec["finish"]), carry)
    # the run's own process puts the whole cell on disk once (spilled_cells); a task in
    # another process (a Dask worker) puts its own files there before it answers
    own_sync = carry and spec.get("pid") != os.getpid()
    while True:
        # one file per output table (one thread writes each); made anew on every attempt,
        # so the files of an attempt given up are truncated
        written = [SliceFile(folder, f"c{cell + 1}_f{me}o{j}.u64") for j in range(cpu)]
        folder_fd = -1
        try:
            folder_fd = _open_folder(folder) if own_sync else -1
            states_in = states_out = rows_out = 0
            total = [[0] * mods.shape[0], [0] * mods.shape[0]]
            for q in range(parts):
                raise_if_cancelled(stop, "the frontier count")
                part = (q, parts)
                tabs: list[np.ndarray]
                if one_source:
                    # the rows of one input slice hold each key once: read as they are, no merge
                    tabs = [rows for share in inputs
                            for rows in _read_blocks(folder, share, width, words, part)]
                    got = sum(t.shape[0] for t in tabs)
                    reserve(got * width * 8)
                    tabs = tabs or [new_word_table(16, mods.shape[0], words)]
                else:
                    merge = _Merge(mods, words, threads, reserve, int(states_est / parts),
                                   halt)
                    _on_threads(merge.add_files, [(j, folder, inputs[j], part)
                                                  for j in range(threads)], leave,
                                min(cpu, threads), inline=rows_in < SMALL)
                    tabs = merge.tabs
                    got = sum(int(np.count_nonzero(t[:, 0])) for t in tabs)
                states_in += got
                outs, tot, made = word_cell(tabs, mods, step, int(got * growth) + 1, cpu,
                                            reserve, _layout(words), stop=stop)
                reserve(-sum(t.nbytes for t in tabs))
                del tabs
                states_out += made
                add_residues(total, tot.tolist(), mods.tolist())
                if carry:
                    with os_errors(f"the spill folder {folder} could not take the slices"):
                        rows_out += sum(_on_threads(_route, [
                            (t, words, slices, threads, w, halt)
                            for t, w in zip(outs, written)], leave,
                            inline=made < SMALL))
                reserve(-sum(t.nbytes for t in outs))
                del outs
            if own_sync:
                sync_files(folder, folder_fd, [w.name for w in written if w.opened])
            _check_sizes(folder, written, width)
            break
        except _TooBig:
            if parts >= 1 << 12:
                raise
            parts *= 2                 # the files it wrote are truncated as it starts again
            held[0] = 0
        finally:
            if folder_fd >= 0:
                os.close(folder_fd)
    files = [seg for w in written for seg in w.finished()]
    now, peak = process_rss()
    return {"cell": cell, "slice": me, "parts": parts, "states_in": states_in,
            "rows_in": rows_in, "states_out": int(states_out), "rows_out": rows_out,
            "bytes_out": rows_out * width * 8, "seconds": round(time.perf_counter() - t0, 3),
            "cpu": round(time.process_time() - c0, 3), "rss": now, "peak_rss": peak,
            "table_bytes": held[1], "total": total, "files": files}


def _open_folder(folder: str) -> int:
    """A descriptor of ``folder`` (for :func:`sync_files`); :class:`SpillError` if it is
    gone."""
    with os_errors(f"the spill folder {folder} cannot be opened"):
        fd = os.open(folder, os.O_RDONLY)
    return fd


def _syncfs() -> Callable[[int], int] | None:
    """libc's ``syncfs`` (Linux), or None where there is none."""
    try:
        fn = ctypes.CDLL(None, use_errno=True).syncfs
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_int]
    return fn


_SYNCFS = _syncfs()


def sync_files(folder: str, folder_fd: int, names: Sequence[str]) -> None:
    """Puts the files ``names`` of ``folder`` on disk before anyone is told they are there:
    one ``syncfs`` of the folder's file system (it reports a write error of that file system
    since ``folder_fd`` was opened, such as a full disk found only at write-back), or an
    ``fsync`` of each file where there is no ``syncfs``. :class:`SpillError` in one line."""
    with os_errors(f"the spill folder {folder} could not take the slices"):
        if _SYNCFS is not None:
            if _SYNCFS(folder_fd) != 0:
                e = ctypes.get_errno()
                raise OSError(e, os.strerror(e))
            return
        for name in names:
            fd = os.open(os.path.join(folder, name), os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)


def _check_sizes(folder: str, written: Sequence[SliceFile], width: int) -> None:
    """Each file a task wrote has the size of the rows it wrote: :class:`SpillError` if not
    (the file system lost or another writer changed it)."""
    for w in written:
        if not w.opened:
            continue
        with os_errors(f"the slice file {w.name} in {folder} is gone after its write"):
            size = os.path.getsize(os.path.join(folder, w.name))
        if size != w.rows * width * 8:
            raise SpillError(f"the slice file {w.name} in {folder} holds {size:,} bytes "
                             f"where {w.rows * width * 8:,} were written")


def run_in_process(specs: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The slices of a cell one after the other in this process (each on every thread)."""
    return [spill_step(s) for s in specs]


def write_first(folder: str, first: np.ndarray) -> list[Segment]:
    """The one state before the first cell, as slice 0 of cell 0 (share 0: one thread
    merges it); its rows as a task's result lists them (``files``)."""
    out = SliceFile(folder, "c0_f0o0.u64")
    rows = np.ascontiguousarray(first[first[:, 0] != 0])
    with os_errors(f"the spill folder {folder} could not take the slices"):
        out.append(rows, np.array([0, rows.shape[0]], np.int64), 1)
    return out.finished()


def drop_files(folder: str, files: Sequence[Segment]) -> None:
    """Removes the files that ``files`` has rows of (the files read by a cell, once all its
    slices are done)."""
    for name in sorted({str(f[2]) for f in files}):
        try:
            os.remove(os.path.join(folder, name))
        except FileNotFoundError:
            pass


def inputs_of(files: Sequence[Segment], slices: int, shares: int
              ) -> list[list[list[Segment]]]:
    """The segments of a cell's files as each slice's ``inputs``: by slice, then share."""
    got: list[list[list[Segment]]] = [[[] for _ in range(shares)] for _ in range(slices)]
    for seg in files:
        got[int(seg[0])][int(seg[1])].append(list(seg))
    return got


def spilled_cells(plan: CountPlan, folder: str, least: int,
                  run: Callable[[list[dict[str, Any]]], list[dict[str, Any]]],
                  record: Callable[[dict[str, Any]], None],
                  resume: dict[str, Any] | None = None,
                  save: Callable[[dict[str, Any]], None] | None = None
                  ) -> Iterator[tuple[int, int, list[list[int]] | None]]:
    """Each cell of ``plan``'s board through the slices in ``folder`` (at least ``least``
    of them), as ``count._word_cells`` yields them: its index, the states after it (merged)
    and the finished boards' residues (or None); a cell is yielded once the next one has
    merged its states. ``run(specs)``: the slices' :func:`spill_step` results, in order;
    ``record(cell)``: the cell's figures (every slice's too) as they come. ``save(state)``
    is called before each cell after the first, once the cells before it are yielded and
    its input files are on disk, before the files of the cell before are removed: ``state``
    (JSON) names the cell, its input segments with their checksums and what the loop needs
    to go on; given back as ``resume``, the loop starts at that cell (with the saved thread
    shares of its files, not the plan's ``threads``)."""
    k, mods, words, budget = plan.rows, plan.mods, plan.layout.words, plan.budget
    threads = plan.threads
    m = len(mods)
    width = m + words
    total_cells = plan.cells
    pending: tuple[int, list[list[int]] | None] | None
    if resume is None:
        files = write_first(folder, first_table(m, words))
        # slices read by this cell, and by the cell before (the sources of its files)
        kin, sources, states, rows_prev, ratio = 1, 1, 1, 1, 1.0
        growth = [3.0] * k
        start, pending = 0, None
    else:
        files = [list(f) for f in resume["files"]]
        kin, sources, states = int(resume["kin"]), int(resume["sources"]), int(resume["states"])
        rows_prev, ratio = int(resume["rows_prev"]), float(resume["ratio"])
        growth = [float(x) for x in resume["growth"]]
        threads = int(resume["threads"])
        start = int(resume["cell"])
        pending = (int(resume["pending"][0]), resume["pending"][1])
    before: list[Segment] = []                  # the files the cell before read
    for i in range(start, total_cells + 1):
        if i > start:
            if save is not None:
                save({"cell": i, "files": files, "kin": kin, "sources": sources,
                      "states": states, "rows_prev": rows_prev, "ratio": ratio,
                      "growth": growth, "threads": threads, "pending": list(pending or ())})
            drop_files(folder, before)
        if i == total_cells:          # nothing left to read: the last cell's states are 0
            drop_files(folder, files)
            yield pending[0], 0, pending[1]  # type: ignore[index]
            return
        c, r = divmod(i, k)
        step = plan.cell(i)
        carry, finish = step.carry, step.finish
        expect = int(rows_prev * ratio * growth[r]) + 1
        kout = slices_for(expect, width * 8, budget, least) if carry else 1
        inputs = inputs_of(files, kin, threads)
        specs = [{"folder": folder, "cell": i, "slice": j, "slices_out": kout, "words": words,
                  "threads": threads, "budget": budget, "mods": [int(q) for q in mods],
                  "nb": [int(x) for x in step.earlier], "rem": [int(x) for x in step.unread],
                  "endok": [int(x) for x in step.may_end], "window": step.window,
                  "open_mode": step.open_mode, "finish": finish, "carry": carry,
                  "growth": growth[r], "ratio": ratio, "sources": sources,
                  "inputs": inputs[j], "pid": os.getpid()} for j in range(kin)]
        t0 = time.perf_counter()
        folder_fd = _open_folder(folder) if carry else -1
        try:
            got = run(specs)
            if carry:                   # the cell's files on disk before anyone reads them
                sync_files(folder, folder_fd, sorted({str(f[2]) for g in got
                                                       for f in g["files"]}))
        finally:
            if folder_fd >= 0:
                os.close(folder_fd)
        before, files = files, [f for g in got for f in g["files"]]
        merged = sum(g["states_in"] for g in got)
        rows_in = sum(g["rows_in"] for g in got)
        if i > 0:
            ratio = merged / max(1, rows_in)
            growth[(i - 1) % k] = max(0.5, merged / max(1, states))
        total = [[0] * m, [0] * m]
        for g in got:
            add_residues(total, g["total"], mods)
        record({"cell": i, "column": c + 1, "slices": kin, "slices_out": kout,
                "states_in": merged, "rows_in": rows_in,
                "rows_out": sum(g["rows_out"] for g in got),
                "bytes_out": sum(g["bytes_out"] for g in got),
                "seconds": round(time.perf_counter() - t0, 3),
                "cpu": round(sum(g["cpu"] for g in got), 3),
                "peak_rss": max(g["peak_rss"] for g in got),
                "table_bytes": max(g["table_bytes"] for g in got),
                "per_slice": [{x: g[x] for x in ("parts", "states_in", "rows_in", "rows_out",
                                                 "bytes_out", "seconds", "cpu", "rss",
                                                 "table_bytes")} for g in got]})
        if pending is not None:
            yield pending[0], merged, pending[1]
        pending = (i, total if finish else None)
        states, sources, kin = merged, kin, kout
        rows_prev = sum(g["rows_out"] for g in got)


def spill_line(cell: dict[str, Any], cells: int) -> str:
    """One line on a cell read through slices."""
    return (f"cell {cell['cell'] + 1} of {cells} (column {cell['column']}): "
            f"{cell['slices']} slice(s), {cell['states_in']:,} states in "
            f"({cell['rows_in']:,} rows read), {cell['rows_out']:,} rows out in "
            f"{cell['slices_out']} slice(s), {cell['bytes_out'] / 2**20:,.0f} MiB written, "
            f"{cell['seconds']:.1f} s, CPU {cell['cpu']:.1f} s, largest slice's tables "
            f"{cell['table_bytes'] / 2**20:,.0f} MiB, peak RSS "
            f"{cell['peak_rss'] / 2**30:.2f} GiB")
