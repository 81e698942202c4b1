"""The runner's default scheduler, ``"local"``: a study's tasks on a pool of this process's own
threads, one per core, with no Dask cluster to import or start (that costs seconds before the
first task, ``bench/dask_runner.py``; the kernels release the GIL, so threads use every core).

The pool is made once per size and reused; its threads are daemons, so a task still running
when a study is cancelled never holds up the process's exit (why it is not
:class:`concurrent.futures.ThreadPoolExecutor`, whose workers the interpreter joins at exit);
its futures are that module's own.
"""
from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

__all__ = ["LocalPool", "local_pool", "shutdown_pools"]


class LocalPool:
    """``threads`` daemon threads taking work from one queue; :meth:`submit` returns a
    :class:`concurrent.futures.Future`. Use :func:`local_pool` for the shared one."""

    def __init__(self, threads: int):
        self.threads = max(1, int(threads))
        self._work: queue.SimpleQueue[tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]
                                      | None] = queue.SimpleQueue()
        self._closed = False
        self._workers = [threading.Thread(target=self._loop, name=f"knightgui-task-{i}",
                                          daemon=True) for i in range(self.threads)]
        for th in self._workers:
            th.start()

    @property
    def alive(self) -> bool:
        """Not shut down."""
        return not self._closed

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        """Run ``fn(*args)`` on a thread of the pool; a future cancelled before a thread
        takes it never runs."""
        if self._closed:
            raise RuntimeError("the task pool is shut down")
        fut: Future[Any] = Future()
        self._work.put((fut, fn, args))
        return fut

    def _loop(self) -> None:
        while True:
            item = self._work.get()
            if item is None:
                return
            fut, fn, args = item
            if not fut.set_running_or_notify_cancel():
                continue
            try:
                value = fn(*args)
            except BaseException as e:  # noqa: BLE001 - handed to whoever waits on it
                fut.set_exception(e)
            else:
                fut.set_result(value)

    def shutdown(self) -> None:
        """Stop taking work (queued futures are cancelled; a running task ends on its own
        daemon thread)."""
        self._closed = True
        while True:
            try:
                item = self._work.get_nowait()
            except queue.Empty:
                break
            if item is not None:
                item[0].cancel()
        for _ in self._workers:
            self._work.put(None)


_lock = threading.Lock()
_pools: dict[int, LocalPool] = {}


def local_pool(workers: int | None = None) -> LocalPool:
    """This process's pool of ``workers`` threads (default one per core), made once."""
    n = max(1, int(workers or os.cpu_count() or 1))
    with _lock:
        pool = _pools.get(n)
        if pool is None or not pool.alive:
            pool = _pools[n] = LocalPool(n)
        return pool


def shutdown_pools() -> None:
    """Shut every pool of this process down (the next study makes a new one)."""
    with _lock:
        pools = list(_pools.values())
        _pools.clear()
    for pool in pools:
        pool.shutdown()


def retrying(fn: Callable[..., Any], args: tuple[Any, ...], retries: int) -> Any:
    """``fn(*args)``, run again up to ``retries`` times if it raises (as Dask's ``retries``
    does); the last attempt's exception propagates."""
    for _ in range(max(0, retries)):
        try:
            return fn(*args)
        except Exception:  # noqa: BLE001 - the task is tried again, as on Dask
            continue
    return fn(*args)
