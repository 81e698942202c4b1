"""Where the runner's tasks run on Dask: clients for this machine's local clusters and for a
cluster's scheduler (:mod:`knightgui_core.run.runner` uses these; see its docstring for the
scheduler names; the default, ``local``, is :mod:`.local_pool`). Local clusters are made once
per process and closed at exit; a scheduler address is checked — its form first (host name
labels, IP literals, port), then a TCP probe, then Dask's identity call in a daemon thread —
before any ``Client`` exists, so an address that is malformed or does not answer fails in one
line within the timeout. While tasks run, a :class:`WorkerWatch` asks the scheduler how many
workers it has (``Client.scheduler_info``), so a cluster that has lost every worker, or whose
scheduler no longer answers, ends the run with :class:`ClusterLost` after
:data:`WORKER_TIMEOUT` seconds instead of waiting for ever.
"""
from __future__ import annotations

import atexit
import ipaddress
import logging
import multiprocessing
import os
import re
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from ..system.errors import ResourceError
from ..system.text import shorten
from .local_pool import shutdown_pools

#: seconds a scheduler address gets to answer before :class:`SchedulerError`
CONNECT_TIMEOUT = 6.0
#: seconds a run waits with no worker in its cluster, or no answer from its scheduler, before
#: :class:`ClusterLost` (the CLI's ``--worker-timeout``)
WORKER_TIMEOUT = 60.0
#: seconds between two questions of the :class:`WorkerWatch` to the scheduler
WATCH_INTERVAL = 1.0
#: seconds without an answer from the scheduler before the :class:`WorkerWatch` says so
SILENT_NOTICE = 5.0
#: environment variable naming a scheduler (what the CLI's --scheduler overrides)
SCHEDULER_ENV = "KNIGHTGUI_SCHEDULER"
LOCAL_MODES = ("local", "threads", "processes")


class RunnerError(ResourceError):
    """The run cannot go on (one-line message)."""


class SchedulerError(RunnerError):
    """A scheduler address that is malformed or does not answer."""


class TaskFailed(RunnerError):
    """A task raised (after its retries) or its workers kept dying."""


class ClusterLost(RunnerError):
    """The cluster lost its scheduler, or had no worker (or no answer) for the worker timeout.
    ``done`` of ``total`` tasks had finished (with a store, they are in it)."""

    def __init__(self, reason: str, done: int = 0, total: int = 0):
        super().__init__(f"{reason} ({done:,} of {total:,} tasks done)")
        self.reason, self.done, self.total = reason, done, total


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
    shown = shorten(repr(value), 80)
    if "://" not in value:
        raise SchedulerError(f"scheduler {shown}: give tcp://HOST:PORT (or local, threads, "
                             "processes)")
    proto, _, rest = value.partition("://")
    if proto not in ("tcp", "tls", "inproc") or not rest:
        raise SchedulerError(f"scheduler {shown}: give tcp://HOST:PORT")
    if proto != "inproc":
        host, sep, port = rest.rpartition(":")
        if (not sep or not host or not (port.isascii() and port.isdigit()) or len(port) > 5
                or not 0 < int(port) < 65536):
            raise SchedulerError(f"scheduler {shown}: give tcp://HOST:PORT with a port "
                                 "between 1 and 65535")
        why = host_problem(host)
        if why:
            raise SchedulerError(f"scheduler {shown}: {why}")
    return value


#: one label of a host name (RFC 1123): ASCII letters, digits and '-', not at either end
_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\Z")


def host_problem(host: str) -> str:
    """What is wrong with ``host`` as the host of a scheduler address ("" when nothing): a
    host name of labels of 1 to 63 ASCII letters, digits and '-' (253 characters at most, a
    final '.' allowed), an IPv4 address, or an IPv6 address in brackets."""
    if host.startswith("[") or host.endswith("]"):
        inside = host[1:-1] if host.startswith("[") and host.endswith("]") else ""
        try:
            ipaddress.IPv6Address(inside)
        except ValueError:
            return "between the brackets there must be an IPv6 address, as in tcp://[::1]:8786"
        return ""
    if ":" in host:
        return "an IPv6 address goes in brackets, as in tcp://[::1]:8786"
    if not host.isascii():
        return ("a host name is ASCII letters, digits, '-' and '.' (an international name in "
                "its xn-- form)")
    name = host[:-1] if host.endswith(".") else host
    if len(name) > 253:
        return f"a host name has at most 253 characters, this one {len(name):,}"
    labels = name.split(".")
    for label in labels:
        if not label:
            return "a host name has an empty label (two dots in a row, or a dot first)"
        if len(label) > 63:
            return f"a label of a host name has at most 63 characters, one here has {len(label):,}"
        if not _LABEL.match(label):
            return (f"the label {label!r} is not a host name's: ASCII letters, digits and '-' "
                    "(not first or last)")
    if all(label.isdigit() for label in labels):
        try:
            ipaddress.IPv4Address(name)
        except ValueError:
            return f"{name} is not an IPv4 address"
    return ""


def quiet_dask_logs() -> None:
    """Keep distributed's and tornado's log lines out of the user's terminal: failures reach
    the runner through its futures and the :class:`WorkerWatch` as one line, and a stopped
    study or a dead scheduler would otherwise end in tracebacks. Each ``distributed.*``
    logger is quieted: some have a level of their own."""
    names = [n for n in list(logging.root.manager.loggerDict) if n.startswith("distributed.")]
    for name in ["distributed", "tornado", "tornado.application", *names]:
        logging.getLogger(name).setLevel(logging.CRITICAL)


_local_lock = threading.Lock()
_local_clients: dict[tuple[str, int], Any] = {}
_remote_lock = threading.Lock()
_remote_clients: dict[str, Any] = {}


def shutdown_local(wait: float | None = None) -> None:
    """Close this process's task pools and local clusters (done at exit; call it to free the
    cores): gracefully (2 s at most for the client, 2 for the cluster), or given ``wait``, on
    a daemon thread for ``wait`` seconds at most, then every worker process still alive is
    killed (the window's quit: a cluster of processes took 1.4–1.5 s to close)."""
    shutdown_pools()
    with _local_lock:
        items = list(_local_clients.items())
        _local_clients.clear()
    # a cluster of processes: its workers are this process's multiprocessing children
    workers = (multiprocessing.active_children()
               if any(mode == "processes" for (mode, _n), _c in items) else [])

    def close() -> None:
        for _key, client in items:
            _close_client(client)
    if wait is None or not items:
        return close()
    th = threading.Thread(target=close, name="knightgui-close-local", daemon=True)
    th.start()
    th.join(max(0.0, wait))
    for proc in [p for p in workers if p.is_alive()]:
        proc.kill()
        proc.join(0.5)


def _close_client(client: Any) -> None:
    """Close a client and its cluster, if it has one of its own (2 s each at most)."""
    try:
        cluster = getattr(client, "cluster", None)
        client.close(timeout=2)
        if cluster is not None:
            cluster.close(timeout=2)
    except Exception:   # noqa: BLE001 - shutting down, or the cluster is gone already
        pass


atexit.register(shutdown_local)


def local_client(mode: str = "threads", workers: int | None = None) -> Any:
    """The Dask client of this process's local cluster (made once per mode and size, reused,
    closed at exit). ``mode``: ``threads`` or ``processes``; ``workers``: cores to use
    (default all)."""
    # distributed only when a cluster is made (0.77 s to import, python -X importtime)
    from distributed import Client, LocalCluster
    n = max(1, int(workers or os.cpu_count() or 1))
    if mode == "local":
        mode = "threads"
    if mode not in ("threads", "processes"):
        raise ValueError(f"unknown local mode {mode!r}")

    def make() -> Any:
        # less background work: no profiler sampling the worker threads every 10 ms, the
        # system monitor every 2 s (an idle cluster uses about 4× less CPU)
        import dask
        dask.config.set({"distributed.worker.profile.enabled": False,
                         "distributed.admin.system-monitor.interval": "2s",
                         "distributed.admin.tick.interval": "200ms"})
        # before the cluster starts: silence_logs quiets only distributed's own handlers
        quiet_dask_logs()
        procs = mode == "processes"
        cluster = LocalCluster(n_workers=n if procs else 1, threads_per_worker=1 if procs else n,
                               processes=procs, dashboard_address=":0",
                               silence_logs=logging.CRITICAL)
        return Client(cluster, set_as_default=False)
    return _cached(_local_lock, _local_clients, (mode, n), make)


def _cached(lock: threading.Lock, clients: dict[Any, Any], key: Any,
            make: Callable[[], Any]) -> Any:
    """The running client of ``clients`` at ``key``, else a new one from ``make()``, kept."""
    with lock:
        client = clients.get(key)
        if client is None or client.status != "running":
            client = clients[key] = make()
        return client


def _probe(address: str, timeout: float) -> None:
    """A plain TCP connection to a tcp:// address: refused or silent fails at once."""
    import socket
    proto, _, rest = address.partition("://")
    if proto != "tcp":
        return
    host, _, port = rest.rpartition(":")
    host = host.strip("[]")
    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            pass
    except (OSError, ValueError) as e:   # ValueError, UnicodeError: resolve_scheduler refuses
        why = getattr(e, "strerror", None) or type(e).__name__      # those names first
        raise SchedulerError(f"cannot reach the Dask scheduler at {address} ({why})") from None


def connect(address: str, timeout: float = CONNECT_TIMEOUT) -> Any:
    """A Dask client connected to the scheduler at ``address``; :class:`SchedulerError` with
    one line if it does not answer as a Dask scheduler within ``timeout`` seconds (the
    attempt runs in a daemon thread, so nothing here waits longer)."""
    _probe(address, timeout)
    box: dict[str, str] = {}

    def ask() -> None:                 # is it a Dask scheduler? (no Client made yet)
        import asyncio

        from distributed.core import rpc

        async def identity() -> Any:
            r = rpc(address, timeout=timeout)
            try:
                return await asyncio.wait_for(r.identity(), timeout)
            finally:
                await r.close_rpc()
        try:
            ident = asyncio.run(identity())
            box["type"] = str(ident.get("type", "")) if isinstance(ident, dict) else ""
        except BaseException as e:  # noqa: BLE001 - reported as one line below
            msg = str(e).splitlines()[0] if str(e) else ""
            box["error"] = f"{type(e).__name__}: {msg}"[:120]

    th = threading.Thread(target=ask, name="knightgui-connect", daemon=True)
    th.start()
    th.join(timeout + 1.0)
    if box.get("type") != "Scheduler":
        why = box.get("error") or ("not a Dask scheduler" if "type" in box else "no answer")
        raise SchedulerError(f"cannot reach the Dask scheduler at {address} within "
                             f"{timeout:g} s ({why})")
    from distributed import Client
    quiet_dask_logs()
    try:
        return Client(address, timeout=timeout, set_as_default=False)
    except Exception as e:  # noqa: BLE001 - one line
        raise SchedulerError(f"cannot connect to the Dask scheduler at {address} "
                             f"({type(e).__name__}: {e})") from None


def client_for(scheduler: Any, workers: int | None = None) -> tuple[Any, str]:
    """The Dask client for ``scheduler`` (a name, an address or a Client) and its name."""
    if scheduler is None or isinstance(scheduler, str):
        name = resolve_scheduler(scheduler or "local", environ={})
        if name in LOCAL_MODES:
            return local_client(name, workers), name
        return _cached(_remote_lock, _remote_clients, name, lambda: connect(name)), name
    return scheduler, "client"


def discard_client(client: Any) -> None:
    """Forget ``client`` if it is one of this module's (the next run makes a new one) and
    close it in a daemon thread, waiting a moment at most: after :class:`ClusterLost`. A
    client the caller made is left alone."""
    ours = False
    caches: tuple[tuple[threading.Lock, dict[Any, Any]], ...] = (
        (_remote_lock, _remote_clients), (_local_lock, _local_clients))
    for lock, clients in caches:
        with lock:
            for k in [k for k, c in clients.items() if c is client]:
                del clients[k]
                ours = True
    if not ours:
        return

    th = threading.Thread(target=_close_client, args=(client,), name="knightgui-close",
                          daemon=True)
    th.start()
    th.join(0.5)


def _close_remote_clients() -> None:
    with _remote_lock:
        items = list(_remote_clients.values())
        _remote_clients.clear()
    for c in items:
        _close_client(c)


atexit.register(_close_remote_clients)


class WorkerWatch:
    """Is the cluster still there? A daemon thread asks the scheduler how many workers it has
    every :data:`WATCH_INTERVAL` seconds (a scheduler that does not answer holds up only that
    thread); :meth:`check`, called by the runner while it waits, raises :class:`ClusterLost`
    when no answer naming a worker has come for ``timeout`` seconds, or the client has lost
    its scheduler for good, and says through ``notice(line)``, once each, that the cluster has
    no worker or its scheduler has not answered for :data:`SILENT_NOTICE` seconds (half the
    timeout when shorter), and how long the run waits; and that it is back. A worker that a
    nanny restarts within ``timeout`` costs the run nothing. A context manager: the thread
    stops at its end."""

    def __init__(self, client: Any, where: str, timeout: float = WORKER_TIMEOUT,
                 interval: float = WATCH_INTERVAL,
                 notice: Callable[[str], None] | None = None):
        self.client, self.where = client, where
        self.timeout, self.interval = float(timeout), float(interval)
        self.notice = notice
        self._answered = self._seen = time.monotonic()
        #: workers in the scheduler's last answer (None before the first one)
        self._workers: int | None = None
        #: what the last notice said is wrong: "" (nothing), "no worker", "no answer"
        self._said = ""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="knightgui-watch", daemon=True)

    def __enter__(self) -> WorkerWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()

    def _loop(self) -> None:
        while not self._stop.is_set():
            self._ask()
            self._stop.wait(self.interval)

    def _ask(self) -> None:
        try:
            try:
                info = self.client.scheduler_info(n_workers=0)   # totals only: a small answer
            except TypeError:                  # distributed before 2025 has no n_workers
                info = self.client.scheduler_info()
        except Exception:  # noqa: BLE001 - no answer is what check() measures
            return
        if self.client.status != "running":    # the client's last answer, not a fresh one
            return
        now = time.monotonic()
        n = info.get("n_workers", len(info.get("workers") or ()))
        self._workers = n if isinstance(n, int) else 0
        self._answered = now
        if self._workers > 0:
            self._seen = now

    def lost(self, done: int, total: int) -> ClusterLost:
        """The error of a client that lost its scheduler."""
        return ClusterLost(f"lost the connection to {self.where}", done, total)

    def check(self, done: int, total: int) -> None:
        """:class:`ClusterLost` when the scheduler is gone for good, or has named no worker
        (or not answered) for ``timeout`` seconds; ``done`` of ``total`` tasks finished.
        Gives the notices (see the class)."""
        if getattr(self.client, "status", "running") in ("closing", "closed"):
            raise self.lost(done, total)
        now = time.monotonic()
        silent = now - self._answered
        quiet = min(SILENT_NOTICE, self.timeout / 2)
        if silent >= quiet:
            self._say("no answer", f"{self.where} has not answered for {quiet:g} s: "
                      f"waiting up to {self.timeout:g} s for it (the worker timeout)")
        elif self._workers == 0:
            self._say("no worker", f"{self.where} has no worker: waiting up to "
                      f"{self.timeout:g} s for one (the worker timeout)")
        elif self._workers:
            self._say("", f"{self.where} has a worker again" if self._said == "no worker"
                      else f"{self.where} answers again")
        if now - self._seen < self.timeout:
            return
        what = "has not answered" if silent >= self.timeout else "has had no worker"
        raise ClusterLost(f"{self.where} {what} for {self.timeout:g} s", done, total)

    def _say(self, state: str, line: str) -> None:
        """``line`` through ``notice`` when the cluster's state is not the one last said."""
        if state == self._said:
            return
        self._said = state
        if self.notice is not None:
            self.notice(line)
