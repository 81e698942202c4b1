"""The study runner: a study is a list of deterministic :class:`Task` s with stable keys, run on
Dask (``distributed``) — on this machine with nothing to start by hand, or on a cluster
started with the standard ``dask scheduler`` / ``dask worker`` commands — and kept in a
:class:`~knightgui_core.store.ResultStore` when one is given.

Usage::

    from knightgui_core.runner import Task, run_tasks
    from knightgui_core.store import ResultStore

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
  * ``None`` or ``"local"``: this machine, every core, nothing to start — the default below.
  * ``"threads"``: an in-process Dask cluster, one worker with a thread per core (the kernels
    release the GIL, so the threads run in parallel).
  * ``"processes"``: a Dask ``LocalCluster`` of one single-threaded worker process per core.
  * ``"tcp://HOST:PORT"`` (or ``tls://``): an existing cluster's scheduler. It must answer
    within :data:`CONNECT_TIMEOUT` seconds, else :class:`SchedulerError`.
  * a ``distributed.Client``: used as it is (the caller closes it).

Default: ``"local"`` means ``"threads"``. Measured on this project's 2-core machine (shared,
under load; ``python bench/distributed.py``): the in-process cluster starts in about 0.3 s
against 2–4 s for two worker processes (each imports numpy/numba and loads the kernels), and
costs no more per task; with nogil kernels the threads use both cores fully.

Faults: a task that raises is retried (``retries``, Dask's own retry); a worker that dies
mid-task has its tasks re-run elsewhere by the scheduler (Dask's resilience); a client that
dies loses nothing already in the store, and the same call with the same store computes only
what is missing. ``cancel`` (a callable or ``threading.Event``) stops the run between task
completions: the report holds what finished (``cancelled=True``); Ctrl-C (KeyboardInterrupt)
releases the cluster's work and propagates — every finished task is already committed.
"""
from __future__ import annotations

import atexit
import base64
import json
import logging
import os
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .store import ResultStore, canonical_json

#: seconds a scheduler address gets to answer before :class:`SchedulerError`
CONNECT_TIMEOUT = 5.0
#: Dask retries of a task that raised an exception
DEFAULT_RETRIES = 2
#: environment variable naming a scheduler (what the CLI's --scheduler overrides)
SCHEDULER_ENV = "KNIGHTGUI_SCHEDULER"
LOCAL_MODES = ("local", "threads", "processes")

log = logging.getLogger("knightgui.runner")

ProgressFn = Callable[[int, int], None]
ResultFn = Callable[[str, Any], None]


class RunnerError(Exception):
    """The run cannot go on (one-line message)."""


class SchedulerError(RunnerError):
    """A scheduler address that is malformed or does not answer."""


class TaskFailed(RunnerError):
    """A task raised (after its retries) or its workers kept dying."""


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
        return len(self.results) == self.total

    def tasks_json(self) -> dict[str, int]:
        """``{"total", "from_store", "computed"}``: what every study's ``--json`` reports."""
        return {"total": self.total, "from_store": self.from_store, "computed": self.computed}


# ---------------------------------------------------------------------------- array packing
def pack_array(a: np.ndarray) -> dict[str, Any]:
    """A numpy array as a small JSON object (zlib-compressed bytes in base64)."""
    a = np.ascontiguousarray(a)
    return {"dtype": a.dtype.str, "shape": list(a.shape),
            "zlib": base64.b64encode(zlib.compress(a.tobytes(), 6)).decode("ascii")}


def unpack_array(d: Mapping[str, Any]) -> np.ndarray:
    """The array :func:`pack_array` packed (a new, writable array). ValueError if malformed."""
    try:
        dtype = np.dtype(str(d["dtype"]))
        shape = tuple(int(x) for x in d["shape"])
        raw = zlib.decompress(base64.b64decode(str(d["zlib"]), validate=True))
        return np.frombuffer(raw, dtype=dtype).reshape(shape).copy()
    except (KeyError, TypeError, ValueError, zlib.error) as e:
        raise ValueError(f"not a packed array: {e}") from None


# ---------------------------------------------------------------------------- schedulers
def resolve_scheduler(option: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The scheduler a command uses: ``option`` (``--scheduler``) if given, else
    ``$KNIGHTGUI_SCHEDULER``, else ``"local"``. :class:`SchedulerError` if malformed."""
    env = os.environ if environ is None else environ
    value = option if option is not None else env.get(SCHEDULER_ENV, "")
    value = str(value).strip()
    if not value:
        return "local"
    if value in LOCAL_MODES:
        return value
    if "://" not in value:
        raise SchedulerError(f"scheduler {value!r}: give tcp://HOST:PORT (or local, threads, "
                             "processes)")
    proto, _, rest = value.partition("://")
    if proto not in ("tcp", "tls", "inproc") or not rest:
        raise SchedulerError(f"scheduler {value!r}: give tcp://HOST:PORT")
    if proto != "inproc":
        host, sep, port = rest.rpartition(":")
        if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise SchedulerError(f"scheduler {value!r}: give tcp://HOST:PORT with a port "
                                 "between 1 and 65535")
    return value


_local_lock = threading.Lock()
_local_clients: dict[tuple[str, int], Any] = {}


def shutdown_local() -> None:
    """Close this process's local clusters (done at exit; call it to free the cores)."""
    with _local_lock:
        items = list(_local_clients.values())
        _local_clients.clear()
    for client in items:
        try:
            cluster = client.cluster
            client.close(timeout=2)
            if cluster is not None:
                cluster.close(timeout=2)
        except Exception:   # noqa: BLE001 - shutting down: nothing useful to report
            pass


atexit.register(shutdown_local)


def local_client(mode: str = "threads", workers: int | None = None):
    """The Dask client of this process's local cluster (made once per mode and size, reused,
    closed at exit). ``mode``: ``threads`` or ``processes``; ``workers``: cores to use
    (default all)."""
    from distributed import Client, LocalCluster
    n = max(1, int(workers or os.cpu_count() or 1))
    if mode == "local":
        mode = "threads"
    if mode not in ("threads", "processes"):
        raise ValueError(f"unknown local mode {mode!r}")
    with _local_lock:
        client = _local_clients.get((mode, n))
        if client is not None and client.status == "running":
            return client
        if mode == "threads":
            cluster = LocalCluster(n_workers=1, threads_per_worker=n, processes=False,
                                   dashboard_address=":0", silence_logs=logging.ERROR)
        else:
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                   dashboard_address=":0", silence_logs=logging.ERROR)
        logging.getLogger("distributed").setLevel(logging.ERROR)
        client = Client(cluster, set_as_default=False)
        _local_clients[(mode, n)] = client
        return client


def connect(address: str, timeout: float = CONNECT_TIMEOUT):
    """A Dask client connected to the scheduler at ``address``; :class:`SchedulerError` with
    one line if it does not answer within ``timeout`` seconds."""
    from distributed import Client
    try:
        return Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError) as e:
        raise SchedulerError(f"cannot reach the Dask scheduler at {address} within "
                             f"{timeout:g} s ({type(e).__name__})") from None
    except ValueError as e:
        raise SchedulerError(f"scheduler {address!r}: {e}") from None


# ---------------------------------------------------------------------------- running
def _execute(fn: Callable[..., Any], args: tuple[Any, ...]) -> tuple[str, float]:
    """Runs on a worker: the task's result as canonical JSON, and its seconds."""
    t0 = time.perf_counter()
    value = fn(*args)
    return canonical_json(value), time.perf_counter() - t0


def _is_cancelled(cancel: Any) -> bool:
    if cancel is None:
        return False
    if hasattr(cancel, "is_set"):
        return bool(cancel.is_set())
    return bool(cancel())


def _dask_key(task: Task) -> str:
    return f"knightgui-{task.key}"


def run_tasks(tasks: Iterable[Task], *, store: ResultStore | None = None,
              scheduler: Any = None, progress: ProgressFn | None = None,
              cancel: Any = None, on_result: ResultFn | None = None,
              workers: int | None = None, retries: int = DEFAULT_RETRIES) -> RunReport:
    """Run ``tasks`` and return a :class:`RunReport`.

    ``store``: finished tasks are read from it first (checked) and each newly finished task
    is written to it in its own transaction. ``scheduler``: see the module docstring.
    ``progress(done, total)`` after the store is read and after each finished task;
    ``on_result(key, result)`` for every result (stored ones first, then as tasks finish);
    ``cancel``: a callable or Event, polled about every 20 ms. ``workers``: cores of a local
    scheduler (default all). Raises :class:`SchedulerError`, :class:`TaskFailed`,
    :class:`~knightgui_core.store.StoreError`.
    """
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
    if not todo:
        report.seconds = time.perf_counter() - t0
        return report
    if _is_cancelled(cancel):
        report.cancelled = True
        report.seconds = time.perf_counter() - t0
        return report

    client, report.scheduler = _client_for(scheduler, workers)
    _submit_and_collect(client, todo, report, store, progress, cancel, on_result, retries)
    report.seconds = time.perf_counter() - t0
    return report


def _client_for(scheduler: Any, workers: int | None):
    if scheduler is None or isinstance(scheduler, str):
        name = resolve_scheduler(scheduler or "local", environ={})
        if name in LOCAL_MODES:
            return local_client(name, workers), name
        return _remote_client(name), name
    return scheduler, "client"


_remote_lock = threading.Lock()
_remote_clients: dict[str, Any] = {}


def _remote_client(address: str):
    with _remote_lock:
        client = _remote_clients.get(address)
        if client is not None and client.status == "running":
            return client
        client = connect(address)
        _remote_clients[address] = client
        return client


def _close_remote_clients() -> None:
    with _remote_lock:
        items = list(_remote_clients.values())
        _remote_clients.clear()
    for c in items:
        try:
            c.close(timeout=2)
        except Exception:  # noqa: BLE001
            pass


atexit.register(_close_remote_clients)


def _submit_and_collect(client, todo: Sequence[Task], report: RunReport,
                        store: ResultStore | None, progress: ProgressFn | None, cancel: Any,
                        on_result: ResultFn | None, retries: int) -> None:
    from distributed import as_completed
    futures: dict[Any, Task] = {}
    for t in todo:
        fut = client.submit(_execute, t.fn, t.args, key=_dask_key(t), retries=retries,
                            pure=False)
        futures[fut] = t
    ac = as_completed(list(futures), loop=client.loop)
    remaining = len(futures)
    try:
        while remaining:
            batch = ac.next_batch(block=False)
            if not batch:
                if _is_cancelled(cancel):
                    report.cancelled = True
                    break
                time.sleep(0.01)
                continue
            for fut in batch:
                t = futures[fut]
                remaining -= 1
                if fut.status == "error":
                    exc = fut.exception()
                    raise TaskFailed(f"task {t.key} failed: {type(exc).__name__}: {exc}")
                if fut.status != "finished":
                    raise RunnerError(f"task {t.key} was {fut.status} (lost the scheduler?)")
                text, seconds = fut.result()
                value = json.loads(text)
                if store is not None:
                    store.put(t.key, t.study, t.params, value, seconds=seconds)
                report.results[t.key] = value
                report.computed += 1
                fut.release()
                if on_result is not None:
                    on_result(t.key, value)
                if progress is not None:
                    progress(len(report.results), report.total)
            if remaining and _is_cancelled(cancel):
                report.cancelled = True
                break
    finally:
        left = [f for f in futures if f.status not in ("finished", "error")]
        if left:
            try:
                client.cancel(left)
            except Exception:  # noqa: BLE001 - the client may be gone already
                pass
        for f in futures:
            try:
                f.release()
            except Exception:  # noqa: BLE001
                pass
