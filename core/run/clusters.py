"""Where the runner's tasks run: Dask clients for this machine's local clusters and for a
cluster's scheduler (:mod:`knightgui_core.run.runner` uses these; see its docstring for the
scheduler names). Local clusters are made once per process and closed at exit; a scheduler
address is checked (a TCP probe, then Dask's identity call in a daemon thread) before any
``Client`` exists, so an address that does not answer fails in one line within the timeout.
"""
from __future__ import annotations

import atexit
import logging
import os
import threading
from collections.abc import Mapping
from typing import Any

from ..system.errors import ResourceError

#: seconds a scheduler address gets to answer before :class:`SchedulerError`
CONNECT_TIMEOUT = 6.0
#: environment variable naming a scheduler (what the CLI's --scheduler overrides)
SCHEDULER_ENV = "KNIGHTGUI_SCHEDULER"
LOCAL_MODES = ("local", "threads", "processes")


class RunnerError(ResourceError):
    """The run cannot go on (one-line message)."""


class SchedulerError(RunnerError):
    """A scheduler address that is malformed or does not answer."""


class TaskFailed(RunnerError):
    """A task raised (after its retries) or its workers kept dying."""


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
        if (not sep or not host or not (port.isascii() and port.isdigit())
                or not 0 < int(port) < 65536):
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
    with _local_lock:
        client = _local_clients.get((mode, n))
        if client is not None and client.status == "running":
            return client
        # less background work in this process: no statistical profiler sampling the
        # worker threads every 10 ms, the system monitor every 2 s instead of 0.5 s (the idle
        # cluster's CPU use drops about 4×: 0.39 s → 0.11 s of CPU a 10-s wait, loaded machine)
        import dask
        dask.config.set({"distributed.worker.profile.enabled": False,
                         "distributed.admin.system-monitor.interval": "2s",
                         "distributed.admin.tick.interval": "200ms"})
        # the embedded cluster's own log lines stay out of the user's terminal: a task's
        # failure reaches the runner through its future, and a study stopped by Ctrl-C or
        # SIGTERM would otherwise end with the workers' "failed to communicate with the
        # scheduler during heartbeat" tracebacks instead of its one line (seen in CI). Set
        # before the cluster starts: silence_logs quiets only distributed's own handlers, and
        # its start-up lines ("dashboard at: http://…") reached the window's root handler.
        logging.getLogger("distributed").setLevel(logging.CRITICAL)
        if mode == "threads":
            cluster = LocalCluster(n_workers=1, threads_per_worker=n, processes=False,
                                   dashboard_address=":0", silence_logs=logging.CRITICAL)
        else:
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                   dashboard_address=":0", silence_logs=logging.CRITICAL)
        client = Client(cluster, set_as_default=False)
        _local_clients[(mode, n)] = client
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
    except OSError as e:
        raise SchedulerError(f"cannot reach the Dask scheduler at {address} "
                             f"({e.strerror or type(e).__name__})") from None


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
