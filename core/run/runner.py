"""The study runner: a study is a list of deterministic :class:`Task` s with stable keys, run on
this machine's cores with nothing to start by hand, or on Dask (``distributed``) — a local
cluster, or one started with the standard ``dask scheduler`` / ``dask worker`` commands — and
kept in a :class:`~knightgui_core.run.store.ResultStore` when one is given.

Usage (``Task`` and ``run_tasks`` from this module, ``ResultStore`` from
:mod:`knightgui_core.run.store`)::

    def square(n: int) -> dict:                 # top level: importable by every worker
        return {"n": n, "square": n * n}

    tasks = [Task(f"demo/square/{n}", "demo", {"n": n}, square, (n,)) for n in range(100)]
    with ResultStore("results.sqlite") as store:
        report = run_tasks(tasks, store=store)                 # this machine, all cores
        # report = run_tasks(tasks, store=store, scheduler="tcp://HOST:8786")   # a cluster
    report.results["demo/square/7"]              # {'n': 7, 'square': 49}
    report.tasks_json()                          # {'total': 100, 'from_store': 0, 'computed': 100}

Rules for tasks
  * ``key`` is stable: the same work always has the same key, and the key names everything
    its result depends on (study, board, family, slice, code version). It is the row key in
    the store and the Dask key on the cluster.
  * ``params`` is a JSON object describing the task (stored beside the result and checked
    when the result is read back); ``fn(*args)`` computes it, on whichever worker, and
    returns something JSON can write (numpy scalars and arrays are converted; large arrays
    go through :func:`pack_array`). ``fn`` must be a module-level function of an installed
    package (workers import it) and must not depend on the machine or the time.
  * A result is the same whether it was just computed or read from the store: both come
    back from canonical JSON (lists, not tuples; string keys).

Schedulers (``scheduler=``)
  * ``None`` or ``"local"`` (the default): a pool of this process's own threads, one per
    core, without Dask (:mod:`.local_pool`).
  * ``"threads"``: an in-process Dask cluster, one worker with a thread per core (the kernels
    release the GIL, so the threads run in parallel).
  * ``"processes"``: a Dask ``LocalCluster`` of one single-threaded worker process per core.
  * ``"tcp://HOST:PORT"`` (or ``tls://``): an existing cluster's scheduler, checked before a
    client is made (:mod:`.clusters`: :class:`SchedulerError` within :data:`CONNECT_TIMEOUT`).
  * a ``distributed.Client``: used as it is (the caller closes it).

Faults: a task that raises is retried (``retries``); a worker that dies mid-task has its
tasks re-run elsewhere by the scheduler; a cluster left with no worker, or whose scheduler
stops answering, for ``worker_timeout`` seconds, or whose scheduler is lost, ends the run
with :class:`ClusterLost`. Nothing already in the store is lost, and the same call with the
same store computes only what is missing. ``cancel`` stops the run between task completions
(the report holds what finished, ``cancelled=True``); Ctrl-C releases the cluster's work and
propagates, every finished task already committed.
"""
from __future__ import annotations

import contextlib
import json
import queue
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..system.control import cancel_requested
from .clusters import (
    CONNECT_TIMEOUT,
    LOCAL_MODES,
    WORKER_TIMEOUT,
    ClusterLost,
    RunnerError,
    SchedulerError,
    TaskFailed,
    WorkerWatch,
    client_for,
    connect,
    discard_client,
    local_client,
    resolve_scheduler,
    shutdown_local,
)
from .local_pool import local_pool, retrying
from .packed_arrays import pack_array, unpack_array
from .store import ResultStore, canonical_json

__all__ = ["CONNECT_TIMEOUT", "DEFAULT_RETRIES", "LOCAL_MODES", "WORKER_TIMEOUT", "CancelArg",
           "ClusterLost", "ProgressFn", "ResultFn", "RunReport", "RunnerError",
           "SchedulerError", "Task", "TaskFailed", "client_for", "code_version", "connect",
           "local_client", "pack_array", "resolve_scheduler", "run_tasks", "shutdown_local",
           "unpack_array"]

#: Dask retries of a task that raised an exception
DEFAULT_RETRIES = 2
#: the longest wait for a result before the runner looks at ``cancel`` (and the cluster)
POLL_SECONDS = 0.02


ProgressFn = Callable[[int, int], None]
ResultFn = Callable[[str, Any], None]
#: ``cancel=``: a callable answering True to stop, or a ``threading.Event``
CancelArg = Any


@dataclass(frozen=True)
class Task:
    """One unit of work. ``key``: stable and unique; ``study``: the study's name;
    ``params``: a JSON object describing it; ``fn(*args)`` computes its JSON-able result."""

    key: str
    study: str
    params: Mapping[str, Any]
    fn: Callable[..., Any]
    args: tuple[Any, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.key, str) or not self.key:
            raise ValueError("a task key must be a non-empty string")
        if not isinstance(self.study, str) or not self.study:
            raise ValueError("a task's study must be a non-empty string")
        canonical_json(self.params)          # raises TypeError if not JSON-able


@dataclass
class RunReport:
    """What :func:`run_tasks` did. ``results`` maps each finished task's key to its result."""

    results: dict[str, Any] = field(default_factory=dict)
    total: int = 0
    from_store: int = 0
    computed: int = 0
    seconds: float = 0.0
    cancelled: bool = False
    scheduler: str = ""

    @property
    def complete(self) -> bool:
        """Every task has a result (none cancelled)."""
        return len(self.results) == self.total

    def tasks_json(self) -> dict[str, int]:
        """``{"total", "from_store", "computed"}``: what every study's ``--json`` reports."""
        return {"total": self.total, "from_store": self.from_store, "computed": self.computed}


# ---------------------------------------------------------------------------- running
@lru_cache(maxsize=1)
def code_version() -> str:
    """The installed knightgui version ("" when unknown): a worker must run the client's.
    Read once per process (reading package metadata costs about 2 ms, more than a small
    task; and the code a process runs is the code it imported at its start)."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("knightgui")
    except PackageNotFoundError:
        return ""


def _execute(fn: Callable[..., Any], args: tuple[Any, ...]) -> tuple[str, float, str]:
    """Runs on a worker: the task's result as canonical JSON, its seconds, and the worker's
    knightgui version."""
    t0 = time.perf_counter()
    value = fn(*args)
    return canonical_json(value), time.perf_counter() - t0, code_version()


def run_tasks(tasks: Iterable[Task], *, store: ResultStore | None = None,
              scheduler: Any = None, progress: ProgressFn | None = None,
              cancel: Any = None, on_result: ResultFn | None = None,
              workers: int | None = None, retries: int = DEFAULT_RETRIES,
              worker_timeout: float = WORKER_TIMEOUT,
              notice: Callable[[str], None] | None = None) -> RunReport:
    """Run ``tasks`` and return a :class:`RunReport`.

    ``store``: finished tasks are read from it first (checked), and each newly finished task
    is written to it in its own transaction. ``scheduler``: see the module docstring;
    ``workers``: cores of a local scheduler (default all). ``progress(done, total)`` after the
    store is read and after each finished task; ``on_result(key, result)`` for every result
    (stored ones first); ``cancel`` is looked at after each result and at least every
    :data:`POLL_SECONDS`; ``worker_timeout`` and ``notice(line)``: :class:`WorkerWatch`.
    Raises :class:`SchedulerError`, :class:`TaskFailed`, :class:`ClusterLost`,
    :class:`~knightgui_core.run.store.StoreError`; every task finished before is in the store.
    """
    if not 0 < worker_timeout < float("inf"):
        raise ValueError(f"worker_timeout must be a positive number of seconds, got "
                         f"{worker_timeout!r}")
    t0 = time.perf_counter()
    todo_all: list[Task] = list(tasks)
    by_key: dict[str, Task] = {}
    for t in todo_all:
        if t.key in by_key:
            raise ValueError(f"two tasks with the key {t.key!r}")
        by_key[t.key] = t
    report = RunReport(total=len(todo_all))
    if store is not None and todo_all:
        stored = store.get_many({t.key: (t.study, t.params) for t in todo_all})
        for t in todo_all:                     # in task order
            if t.key in stored:
                report.results[t.key] = stored[t.key]
                if on_result is not None:
                    on_result(t.key, stored[t.key])
        report.from_store = len(stored)
    if progress is not None:
        progress(len(report.results), report.total)
    todo = [t for t in todo_all if t.key not in report.results]
    if todo and cancel_requested(cancel):
        report.cancelled = True
    elif todo:
        _run(todo, _Intake(report, store, progress, on_result), scheduler, cancel, retries,
             workers, worker_timeout, notice)
    report.seconds = time.perf_counter() - t0
    return report


def _run(todo: Sequence[Task], intake: _Intake, scheduler: Any, cancel: Any, retries: int,
         workers: int | None, worker_timeout: float,
         notice: Callable[[str], None] | None) -> None:
    """The tasks not in the store, on ``scheduler``."""
    report = intake.report
    if scheduler is None or isinstance(scheduler, str):
        if resolve_scheduler(scheduler or "local", environ={}) == "local":
            report.scheduler = "local"
            _run_local(todo, intake, cancel, retries, workers)
            return
    client, report.scheduler = client_for(scheduler, workers)
    try:
        with WorkerWatch(client, _where(client, report.scheduler), worker_timeout,
                         notice=notice) as watch:
            _submit_and_collect(client, todo, intake, cancel, retries, watch)
    except ClusterLost:
        discard_client(client)              # the next run connects afresh
        raise


def _where(client: Any, name: str) -> str:
    """The cluster in a message: its scheduler's address, or this machine's cluster."""
    if name in LOCAL_MODES:
        return f"this machine's Dask cluster ({name})"
    address = getattr(getattr(client, "scheduler", None), "address", None) or name
    return f"the Dask scheduler at {address}"


class _Intake:
    """What becomes of each finished task, whichever scheduler ran it: the worker's version
    checked, the result parsed from its canonical JSON, stored, reported."""

    def __init__(self, report: RunReport, store: ResultStore | None,
                 progress: ProgressFn | None, on_result: ResultFn | None):
        self.report, self.store = report, store
        self.progress, self.on_result = progress, on_result
        self.mine = code_version()

    def failed(self, t: Task, exc: BaseException) -> TaskFailed:
        """The one-line error of a task that raised (after its retries)."""
        hint = " (is knightgui installed on every worker?)" if isinstance(exc, ImportError) else ""
        first = str(exc).splitlines()[0] if str(exc) else ""
        return TaskFailed(f"task {t.key} failed: {type(exc).__name__}: {first}{hint}")

    def take(self, t: Task, outcome: tuple[str, float, str]) -> None:
        """A task's :func:`_execute` answer: into the store and the report."""
        text, seconds, worker_version = outcome
        if worker_version != self.mine:
            raise TaskFailed(f"task {t.key} ran on a worker with knightgui "
                             f"{worker_version or '?'}, this is {self.mine or '?'}: install "
                             "the same version everywhere")
        value = json.loads(text)
        report = self.report
        if self.store is not None:
            self.store.put(t.key, t.study, t.params, value, seconds=seconds)
        report.results[t.key] = value
        report.computed += 1
        if self.on_result is not None:
            self.on_result(t.key, value)
        if self.progress is not None:
            self.progress(len(report.results), report.total)


def _run_local(todo: Sequence[Task], intake: _Intake, cancel: Any, retries: int,
               workers: int | None) -> None:
    """The ``"local"`` scheduler: the tasks on this process's thread pool
    (:mod:`.local_pool`); each result is taken as soon as its future is done."""
    pool = local_pool(workers)
    finished: queue.SimpleQueue[Future[Any]] = queue.SimpleQueue()
    futures: dict[Future[Any], Task] = {}
    try:
        for t in todo:
            fut = pool.submit(retrying, _execute, (t.fn, t.args), retries)
            futures[fut] = t
            fut.add_done_callback(finished.put)
        remaining = len(futures)
        while remaining:
            try:
                fut = finished.get(timeout=POLL_SECONDS)
            except queue.Empty:
                if cancel_requested(cancel):
                    intake.report.cancelled = True
                    break
                continue
            remaining -= 1
            t = futures[fut]
            exc = fut.exception()
            if exc is not None:
                raise intake.failed(t, exc)
            intake.take(t, fut.result())
            if remaining and cancel_requested(cancel):
                intake.report.cancelled = True
                break
    finally:
        for fut in futures:                  # the tasks no thread has taken yet never run
            fut.cancel()


def _submit_and_collect(client, todo: Sequence[Task], intake: _Intake, cancel: Any,
                        retries: int, watch: WorkerWatch) -> None:
    # distributed only when a study runs on Dask (0.77 s to import: python -X
    # importtime -c 'import distributed'); the default "local" pool does without it
    from distributed import as_completed
    report = intake.report
    try:
        # one message to the scheduler for the whole graph, not one per task
        submitted = client.map(_execute, [t.fn for t in todo], [t.args for t in todo],
                               key=[f"knightgui-{t.key}" for t in todo], retries=retries, pure=False)
    except Exception:
        if client.status == "running":
            raise
        raise watch.lost(len(report.results), report.total) from None
    futures: dict[Any, Task] = dict(zip(submitted, todo, strict=True))
    # results travel with the completion events (no round trip per future to fetch them)
    ac = as_completed(list(futures), loop=client.loop, with_results=True, raise_errors=False)
    # as_completed notifies this condition when it queues a finished future (what its own
    # blocking next() waits on): waiting on it takes a result at once instead of after a sleep
    ready = getattr(ac, "thread_condition", None)
    remaining = len(futures)
    try:
        while remaining:
            batch = ac.next_batch(block=False)
            if not batch:
                if cancel_requested(cancel):
                    report.cancelled = True
                    break
                watch.check(len(report.results), report.total)
                _wait_ready(ac, ready)
                continue
            for fut, outcome in batch:
                t = futures[fut]
                remaining -= 1
                if fut.status == "error":
                    raise intake.failed(t, outcome[1] if isinstance(outcome, tuple) else outcome)
                if fut.status != "finished":
                    if client.status != "running":      # Dask cancels them all when the
                        raise watch.lost(len(report.results), report.total)  # scheduler goes
                    if fut.status in ("lost", "pending"):
                        # its worker died holding the result before it reached us: the
                        # scheduler computes it again for the future we still hold
                        ac.add(fut)
                        remaining += 1
                        continue
                    raise RunnerError(f"task {t.key} was {fut.status} (lost the scheduler?)")
                intake.take(t, outcome)
                fut.release()
            if remaining and cancel_requested(cancel):
                report.cancelled = True
                break
    finally:
        left = [f for f in futures if f.status not in ("finished", "error")]
        futures.clear()
        if left:
            # without waiting more than a moment (Ctrl-C must stop at once): the cluster drops
            # the tasks nobody wants any more
            th = threading.Thread(target=_cancel_quietly, args=(client, left),
                                  name="knightgui-cancel", daemon=True)
            th.start()
            th.join(0.25)


def _wait_ready(ac: Any, ready: Any) -> None:
    """Until ``ac`` has a finished future, at most :data:`POLL_SECONDS` (then the caller looks
    at its cancel flag and the cluster's health)."""
    if ready is None:                      # another distributed: poll
        time.sleep(POLL_SECONDS)
        return
    with ready:
        if not ac.has_ready():             # checked under the lock the notifier takes
            ready.wait(POLL_SECONDS)


def _cancel_quietly(client: Any, futures: list[Any]) -> None:
    with contextlib.suppress(Exception):   # the client may be gone already
        client.cancel(futures)
    for f in futures:
        with contextlib.suppress(Exception):
            f.release()
