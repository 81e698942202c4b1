"""A spilled frontier count's slices as runner tasks on a Dask cluster.

``study count --all-tours --method frontier --spill DIR --scheduler tcp://HOST:PORT`` keeps
each cell's states on disk in slices (:mod:`knightgui_core.frontier.spill`) and runs every
slice of a cell as one task (:func:`cluster_step`), all at once. So:

* every worker must see the spill folder at the same path; one that cannot fails its slice
  in one line naming itself and the folder, and the run stops and removes the folder;
* a worker process reads one slice at a time on its threads (at most :data:`MOST_THREADS`;
  the files have as many shares as the most threads of any worker, :func:`slice_threads`),
  its tables within :data:`WORKER_SHARE` of the worker's memory limit and the run's budget;
* a dead worker's slice runs again elsewhere, removing what it wrote; the files it reads are
  removed only once the whole cell is done;
* a slice elsewhere cannot see this process's cancel flag, so it looks for :data:`STOP_FILE`
  after every round. When the run stops (cancel, Ctrl-C, SIGTERM, a failed slice, a lost
  cluster), :func:`stop_slices` writes it, waits up to :data:`STOP_WAIT` s until no
  ``running-c{cell}-s{slice}`` mark is left, and removes the folder.
"""
from __future__ import annotations

import glob
import os
import shutil
import threading
import time
from functools import partial
from typing import Any

from ..frontier.spill import SpillError, spill_step, unwatch_folder, watch_folder
from ..run.runner import RunnerError, Task, client_for, run_tasks
from ..system.control import CancelLike
from ..system.errors import Cancelled

__all__ = ["MOST_THREADS", "STOP_FILE", "STOP_WAIT", "WORKER_SHARE", "ClusterSlices", "cluster_step",
           "slice_threads", "stop_slices"]

#: the most threads a slice reads a cell with (each pair of threads has its own buffer, so
#: their memory grows as the square of the threads; frontier_count takes at most 8 too)
MOST_THREADS = 8
#: the part of a Dask worker's memory limit a slice's tables may take (less when the run's
#: own budget, --memory-mb or the client's free memory, is lower)
WORKER_SHARE = 0.6
#: the file whose presence stops every slice of its folder within a round
STOP_FILE = "STOP"
#: seconds the client waits for running slices to stop before it removes the folder
STOP_WAIT = 12.0

#: one slice at a time in a worker process: it takes the worker's threads
_ONE_AT_A_TIME = threading.Lock()
#: spill folders whose count runs in this process (an in-process cluster's slices then
#: heed the count's own stop flag, which frontier_count registered)
_CLIENT_FOLDERS: set[str] = set()


def _worker() -> tuple[str, int | None, int | None]:
    """The address of the Dask worker running this task ("this process" outside one), its
    memory limit in bytes and its threads (None when it has none, or outside a worker)."""
    try:
        from distributed import get_worker
        w = get_worker()
    except (ImportError, ValueError):
        return "this process", None, None
    limit = getattr(getattr(w, "memory_manager", None), "memory_limit", None)
    threads = getattr(getattr(w, "state", None), "nthreads", None)
    return str(w.address), int(limit) if limit else None, int(threads) if threads else None


def cluster_step(spec: dict[str, Any]) -> dict[str, Any]:
    """One slice through one cell on a worker (:func:`spill_step`'s task and result, with
    ``worker``, ``threads`` and ``start``, the Unix time it began, added);
    :class:`SpillError` in one line when this worker cannot reach the folder,
    :class:`Cancelled` once the folder's stop file is there."""
    folder, cell, me = str(spec["folder"]), int(spec["cell"]), int(spec["slice"])
    name, limit, nthreads = _worker()
    if limit is not None:
        # the worker's nanny pauses it at 80 % of its memory limit and kills it at 95 %;
        # the budget counts the tables only, not the buffers and the rows being read
        spec = {**spec, "budget": min(int(spec["budget"]), int(limit * WORKER_SHARE))}
    if nthreads is not None:          # the files keep the run's shares; the reading, ours
        spec = {**spec, "cpu_threads": min(nthreads, MOST_THREADS)}
    if not os.path.isdir(folder) or not os.access(folder, os.R_OK | os.W_OK | os.X_OK):
        raise SpillError(f"the worker {name} cannot reach the spill folder {folder}: --spill "
                         "must be a folder every worker sees at the same path (a shared "
                         "file system)")
    stop_file = os.path.join(folder, STOP_FILE)
    mark = os.path.join(folder, f"running-c{cell}-s{me}")
    with _ONE_AT_A_TIME:
        start = time.time()
        if os.path.exists(stop_file):
            raise Cancelled("the frontier count was stopped")
        try:
            with open(mark, "w") as f:          # who runs it: a killed worker's is left
                f.write(f"{name} {os.getpid()}\n")
        except OSError as e:
            raise SpillError(f"the worker {name} cannot write in the spill folder {folder}: "
                             f"{e.strerror or e}") from None
        own_flag = folder not in _CLIENT_FOLDERS
        if own_flag:
            watch_folder(folder, partial(os.path.exists, stop_file))
        try:
            got = spill_step(spec)
        finally:
            if own_flag:
                unwatch_folder(folder)
            try:
                os.remove(mark)
            except OSError:
                pass
    threads = int(spec.get("cpu_threads", spec["threads"]))
    return {**got, "worker": name, "threads": threads, "start": round(start, 3)}


def stop_slices(folder: str, wait: float = STOP_WAIT) -> None:
    """Stops the slices still running in ``folder`` (its stop file), waits until none is
    marked running (``wait`` seconds at most: a killed worker's mark stays) and removes it."""
    try:
        with open(os.path.join(folder, STOP_FILE), "wb"):
            pass
    except OSError:
        pass
    deadline = time.monotonic() + wait
    while glob.glob(os.path.join(folder, "running-*")) and time.monotonic() < deadline:
        time.sleep(0.05)
    for _ in range(5):             # a slice that made a file while the folder was removed
        shutil.rmtree(folder, ignore_errors=True)
        if not os.path.exists(folder):
            return
        time.sleep(0.1)


def slice_threads(scheduler: str, timeout: float) -> int:
    """The thread shares of a run on the cluster at ``scheduler``: the most threads of any of
    its workers, at most :data:`MOST_THREADS` (each worker reads with its own threads);
    waits ``timeout`` seconds at most for a first worker (:class:`RunnerError` if none)."""
    client, _ = client_for(scheduler)
    counts = [int(n) for n in client.nthreads().values()]
    if not counts:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except Exception:  # noqa: BLE001 - distributed's TimeoutError and its like
            raise RunnerError(f"the Dask scheduler at {scheduler} has had no worker for "
                              f"{timeout:g} s") from None
        counts = [int(n) for n in client.nthreads().values()] or [1]
    return max(1, min(max(counts), MOST_THREADS))


class ClusterSlices:
    """``run_slices`` of a spilled count (:func:`.count.count_frontier`) on the
    Dask scheduler ``scheduler``: each cell's slices as tasks run at once, their results in
    order. ``cells`` keeps, for every cell run, each slice's ``worker``, ``threads`` and
    ``start``."""

    def __init__(self, scheduler: str, cancel: CancelLike = None,
                 worker_timeout: float = 60.0) -> None:
        self.scheduler, self.cancel, self.worker_timeout = scheduler, cancel, worker_timeout
        self.cells: list[list[dict[str, Any]]] = []
        self.folders: set[str] = set()

    def __call__(self, specs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        folder = str(specs[0]["folder"])
        if folder not in self.folders:
            self.folders.add(folder)
            _CLIENT_FOLDERS.add(folder)
        tasks = [Task(f"frontier-slice/{folder}/{s['cell']}/{s['slice']}", "frontier-slice",
                      s, cluster_step, (s,)) for s in specs]
        try:
            report = run_tasks(tasks, scheduler=self.scheduler, cancel=self.cancel,
                               retries=0, worker_timeout=self.worker_timeout)
        except BaseException:
            stop_slices(folder)
            raise
        if not report.complete:
            stop_slices(folder)
            raise Cancelled("the frontier count was cancelled")
        got = [report.results[t.key] for t in tasks]
        self.cells.append([{x: g.pop(x) for x in ("worker", "threads", "start")}
                           for g in got])
        return got

    def place(self, cells: list[dict[str, Any]]) -> None:
        """Adds each slice's worker, threads and start to the count's per-cell figures
        (``FrontierResult.slices``, one entry per cell run, in order)."""
        for cell, placed in zip(cells, self.cells):
            for per, where in zip(cell.get("per_slice", []), placed):
                per.update(where)

    def close(self) -> None:
        """Forget this run's folders (the count has removed them)."""
        for folder in self.folders:
            _CLIENT_FOLDERS.discard(folder)
        self.folders.clear()
