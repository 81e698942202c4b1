"""The frontier count for boards whose states do not fit in memory: the states on disk, in slices.

Before each cell the states are held in ``K`` slices by a hash of the key
(:func:`.frontier_word.key_hash`, its low bits; the threads' shares inside a slice take
other bits of it, and the tables' own hash another function altogether). One slice at a
time is read from the spill folder, its rows merged (equal keys: residues added modulo each
modulus, :func:`.frontier_word_kernel.word_absorb`) into tables of its own, read through
the cell as the in-memory count reads a cell (:func:`.frontier_word.word_cell`), and every
successor appended, in blocks, to the file of its slice of the next cell; the finished
boards' residues of the slices are added up. A slice's work (:func:`spill_step`) is one
task with JSON arguments and a JSON result, so a runner can send it to any worker that
sees the folder: each task writes only files of its own (one per output slice), and the
files read are removed only once the whole cell is done. Memory is about one slice's
tables, not the whole frontier's; ``K`` is chosen again before each cell from the states
expected after it.

A slice file is raw ``uint64`` rows (key words, then residues), native byte order:
``c{cell}_s{slice}_f{from}o{table}_t{share}.u64`` holds the states entering ``cell`` of that
slice and thread share made by input slice ``from`` (from its thread's table ``table``). A
slice that would pass the memory on its own is read in parts (bits 48 and up of the hash).
"""
from __future__ import annotations

import glob
import os
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from ..system.control import CancelLike, cancel_requested, raise_if_cancelled
from ..system.limits import process_rss
from .frontier_spill_merge import (
    BLOCK,
    SpillError,
    _layout,
    _Merge,
    _on_threads,
    _read_blocks,
    _route,
    merge_rows,
)
from .frontier_word import LOAD, carry_code, new_word_table, word_cell

__all__ = ["watch_folder", "unwatch_folder", "SpillError", "BLOCK", "spill_step", "merge_rows",
           "slices_for", "spill_folder", "run_in_process", "spilled_cells", "spill_line",
           "wait_idle"]


class _TooBig(SpillError):
    """A slice's tables would pass the memory: it is read again in more parts."""


def spill_folder(parent: str) -> str:
    """A fresh folder for one run's slices inside ``parent`` (which must exist and be
    writable); :class:`SpillError` with one line if not."""
    if not os.path.isdir(parent):
        raise SpillError(f"the spill folder {parent} does not exist")
    try:
        made = tempfile.mkdtemp(prefix="knightgui-frontier-", dir=parent)
        probe = os.path.join(made, "probe")
        with open(probe, "wb") as f:
            f.write(b"\0" * 4096)
        os.remove(probe)
    except OSError as e:
        raise SpillError(f"the spill folder {parent} cannot be written: "
                         f"{e.strerror or e}") from None
    return made


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
    CPU), the resident bytes (now and at most) and the finished boards' residues."""
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

    share_paths = [sorted(glob.glob(os.path.join(folder, f"c{cell}_s{me}_f*_t{t}.u64")))
                   for t in range(threads)]
    rows_in = sum(os.path.getsize(p) for ps in share_paths for p in ps) // (width * 8)
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
    while True:
        try:
            if carry:
                for old in glob.glob(os.path.join(folder, f"c{cell + 1}_s*_f{me}o*_t*.u64")):
                    os.remove(old)                              # a task run again starts afresh
            names = [os.path.join(folder, f"c{cell + 1}_s{{}}_f{me}o{j}_t{{}}.u64") for j in range(cpu)]
            states_in = states_out = rows_out = 0
            total = [[0] * mods.shape[0], [0] * mods.shape[0]]
            for q in range(parts):
                raise_if_cancelled(stop, "the frontier count")
                part = (q, parts)
                tabs: list[np.ndarray]
                if one_source:
                    # the rows of one input slice hold each key once: read as they are, no merge
                    tabs = [rows for ps in share_paths for p in ps
                            for rows in _read_blocks(p, width, words, part)]
                    got = sum(t.shape[0] for t in tabs)
                    reserve(got * width * 8)
                    tabs = tabs or [new_word_table(16, mods.shape[0], words)]
                else:
                    merge = _Merge(mods, words, threads, reserve, int(states_est / parts),
                                   halt)
                    _on_threads(merge.add_files, [(j, share_paths[j], part)
                                                  for j in range(threads)], leave,
                                min(cpu, threads))
                    tabs = merge.tabs
                    got = sum(int(np.count_nonzero(t[:, 0])) for t in tabs)
                states_in += got
                outs, tot, made = word_cell(
                    tabs, mods, np.array(spec["nb"], np.int64), np.array(spec["rem"], np.uint8),
                    np.array(spec["endok"], np.uint8), int(spec["window"]), int(spec["open_mode"]),
                    int(spec["finish"]), carry, int(got * growth) + 1, cpu, reserve,
                    _layout(words), stop=stop)
                reserve(-sum(t.nbytes for t in tabs))
                del tabs
                states_out += made
                _add(total, tot.tolist(), [int(x) for x in mods])
                if carry:
                    try:
                        rows_out += sum(_on_threads(_route, [
                            (t, words, slices, threads, n, halt) for t, n in zip(outs, names)],
                            leave))
                    except OSError as e:
                        raise SpillError(f"the spill folder {folder} could not take the slices: "
                                         f"{e.strerror or e}") from None
                reserve(-sum(t.nbytes for t in outs))
                del outs
            break
        except _TooBig:
            if parts >= 1 << 12:
                raise
            parts *= 2                 # the files it wrote are removed as it starts again
            held[0] = 0
    now, peak = process_rss()
    return {"cell": cell, "slice": me, "parts": parts, "states_in": states_in,
            "rows_in": rows_in, "states_out": int(states_out), "rows_out": rows_out,
            "bytes_out": rows_out * width * 8, "seconds": round(time.perf_counter() - t0, 3),
            "cpu": round(time.process_time() - c0, 3), "rss": now, "peak_rss": peak,
            "table_bytes": held[1], "total": total}


def run_in_process(specs: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The slices of a cell one after the other in this process (each on every thread)."""
    return [spill_step(s) for s in specs]


def write_first(folder: str, first: np.ndarray) -> None:
    """The one state before the first cell, as slice 0 of cell 0 (share 0: one thread
    merges it)."""
    first[first[:, 0] != 0].tofile(os.path.join(folder, "c0_s0_f0o0_t0.u64"))


def drop_cell(folder: str, cell: int) -> None:
    """Removes the files read by ``cell`` (once all its slices are done)."""
    for path in glob.glob(os.path.join(folder, f"c{cell}_s*_f*_t*.u64")):
        os.remove(path)


def _add(total: list[list[int]], got: list[list[int]], mods: Sequence[int]) -> None:
    for row in range(2):
        for j, q in enumerate(mods):
            total[row][j] = (total[row][j] + int(got[row][j])) % (q or 1 << 64)


def spilled_cells(k: int, ncols: int, words: int, mods: Sequence[int], nb: np.ndarray,
                  rem: np.ndarray, endok: np.ndarray, open_mode: int, wanted: set[int],
                  threads: int, budget: int, folder: str, least: int,
                  run: Callable[[list[dict[str, Any]]], list[dict[str, Any]]],
                  record: Callable[[dict[str, Any]], None], fold: bool = False
                  ) -> Iterator[tuple[int, int, list[list[int]] | None]]:
    """Each cell of the board through the slices in ``folder``, as
    ``frontier_count._word_cells`` yields them: its index, the states after it (merged)
    and the finished boards' residues (or None); a cell is yielded once the next one has
    merged its states. ``run(specs)``: the slices' :func:`spill_step` results, in order;
    ``record(cell)``: the cell's figures (every slice's too) as they come; ``fold``: as
    :func:`.frontier_word.carry_code` says."""
    m = len(mods)
    width = m + words
    first = new_word_table(16, m, words)
    first[0, 0] = np.uint64(1) << np.uint64(63)
    first[0, words:] = 1
    write_first(folder, first)
    # slices read by this cell, and by the cell before (the sources of its files)
    kin, sources, states, rows_prev, ratio = 1, 1, 1, 1, 1.0
    growth = [3.0] * k
    total_cells = k * ncols
    pending: tuple[int, list[list[int]] | None] | None = None
    for i in range(total_cells + 1):
        c, r = divmod(i, k)
        carry, finish = carry_code(i, k, total_cells, fold), int(r == k - 1 and c + 1 in wanted)
        expect = int(rows_prev * ratio * growth[r]) + 1 if i < total_cells else 0
        kout = slices_for(expect, width * 8, budget, least) if carry else 1
        if i == total_cells:          # nothing left to read: the last cell's states are 0
            yield pending[0], 0, pending[1]  # type: ignore[index]
            return
        specs = [{"folder": folder, "cell": i, "slice": j, "slices_out": kout, "words": words,
                  "threads": threads, "budget": budget, "mods": [int(q) for q in mods],
                  "nb": [int(x) for x in nb[i]], "rem": [int(x) for x in rem[i]],
                  "endok": [int(x) for x in endok[i]], "window": 2 * k + 1,
                  "open_mode": open_mode, "finish": finish, "carry": carry,
                  "growth": growth[r], "ratio": ratio, "sources": sources} for j in range(kin)]
        t0 = time.perf_counter()
        got = run(specs)
        drop_cell(folder, i)
        merged = sum(g["states_in"] for g in got)
        rows_in = sum(g["rows_in"] for g in got)
        if i > 0:
            ratio = merged / max(1, rows_in)
            growth[(i - 1) % k] = max(0.5, merged / max(1, states))
        total = [[0] * m, [0] * m]
        for g in got:
            _add(total, g["total"], mods)
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
