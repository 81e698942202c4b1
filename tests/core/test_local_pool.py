"""The runner's default scheduler, ``local`` (a pool of this process's threads, no Dask): it
retries, cancels what has not started, takes results without a poll's delay, needs no
``distributed``; and move-order stores written with the earlier 16 slices still resume."""
from __future__ import annotations

import subprocess
import sys
import threading
import time
import zlib

import numpy as np
import pytest

from knightgui_core.run import runner as R
from knightgui_core.run.local_pool import LocalPool, local_pool, shutdown_pools
from knightgui_core.run.packed_arrays import unpack_array
from knightgui_core.run.runner import Task, TaskFailed, run_tasks
from knightgui_core.run.store import ResultStore

_calls: dict[str, int] = {}
_lock = threading.Lock()


def flaky(key: str, fails: int) -> int:
    """Raises the first ``fails`` times it is called with ``key``."""
    with _lock:
        _calls[key] = _calls.get(key, 0) + 1
        n = _calls[key]
    if n <= fails:
        raise RuntimeError(f"{key} fails on call {n}")
    return n


def nap(n: int) -> int:
    with _lock:
        _calls["nap"] = _calls.get("nap", 0) + 1
    time.sleep(0.1)
    return n


def test_the_default_retries_a_task_and_names_the_scheduler():
    r = run_tasks([Task("t/flaky/a", "test", {}, flaky, ("a", 2))], retries=2)
    assert r.scheduler == "local" and r.results == {"t/flaky/a": 3}
    with pytest.raises(TaskFailed, match="t/flaky/b failed: RuntimeError: b fails on call 2"):
        run_tasks([Task("t/flaky/b", "test", {}, flaky, ("b", 5))], retries=1)


def test_cancel_leaves_the_queued_tasks_unrun():
    _calls["nap"] = 0
    stop = threading.Event()
    tasks = [Task(f"t/nap/{i}", "test", {"i": i}, nap, (i,)) for i in range(30)]
    r = run_tasks(tasks, workers=1, cancel=stop, on_result=lambda k, v: stop.set())
    time.sleep(0.3)                      # what had started is done by now
    assert r.cancelled and r.computed == 1
    assert _calls["nap"] <= 2            # the one that finished and at most one running


def test_pool_threads_are_daemons_and_shut_down():
    pool = local_pool(2)
    assert pool is local_pool(2) and pool.submit(sum, [1, 2]).result(5) == 3
    assert all(th.daemon for th in pool._workers)
    shutdown_pools()
    assert not pool.alive and local_pool(2) is not pool
    with pytest.raises(RuntimeError, match="shut down"):
        pool.submit(sum, [1])
    own = LocalPool(1)
    gate = threading.Event()
    own.submit(gate.wait, 5)
    queued = own.submit(sum, [1])
    own.shutdown()
    gate.set()
    assert queued.cancelled()


def test_a_dask_wait_returns_when_a_result_is_queued(monkeypatch):
    """The Dask path waits on as_completed's condition, not a sleep: with the poll made
    5 s long, a result queued after 50 ms ends the wait at once."""
    class Completed:                     # what _wait_ready reads of as_completed
        def __init__(self):
            self.thread_condition = threading.Condition()
            self.ready = False

        def has_ready(self):
            return self.ready

    ac = Completed()

    def finish():
        time.sleep(0.05)
        with ac.thread_condition:
            ac.ready = True
            ac.thread_condition.notify()

    monkeypatch.setattr(R, "POLL_SECONDS", 5.0)
    th = threading.Thread(target=finish)
    t0 = time.perf_counter()
    th.start()
    R._wait_ready(ac, ac.thread_condition)
    th.join()
    assert ac.ready and time.perf_counter() - t0 < 2.0


def test_the_default_scheduler_does_not_import_dask():
    code = ("import sys\n"
            "from knightgui_core.run.runner import Task, run_tasks\n"
            "r = run_tasks([Task('t/sum', 'test', {}, sum, ([1, 2],))])\n"
            "assert r.results == {'t/sum': 3}, r.results\n"
            "print('distributed' in sys.modules, 'dask' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-800:]
    assert out.stdout.split() == ["False", "False"]


def _old_rows(st: ResultStore, n: int, tie: str, slices: list[tuple[int, int]]) -> None:
    """Rows as the earlier code wrote them: slices of 2520 orders, zlib level 6."""
    import base64

    from knightgui_core.studies.orders import all_orders
    from knightgui_core.studies.orders import runner as OR
    from knightgui_core.studies.orders.walks import shared_walks

    def pack6(a):
        return {"dtype": a.dtype.str, "shape": list(a.shape),
                "zlib": base64.b64encode(zlib.compress(a.tobytes(), 6)).decode("ascii")}
    for lo, hi in slices:
        ln, cl = shared_walks(n, n, 0 if tie == "first" else 1, all_orders()[lo:hi])
        params = {"rows": n, "cols": n, "tie": tie, "orders": "all", "from": lo, "to": hi}
        st.put(f"{OR.STUDY}/v{OR.VERSION}/{n}x{n}/{tie}/{lo}-{hi}", OR.STUDY, params,
               {"lengths": pack6(ln), "closed": pack6(cl)})


def test_a_store_of_the_earlier_sixteen_slices_resumes(tmp_path):
    from knightgui_core.studies.orders import run_orders
    from knightgui_core.studies.orders import runner as OR
    assert len(OR.orders_tasks(5)) == 8 and OR.OLD_SLICE == 2520
    ref = run_orders(5, "first")
    old = [(lo, lo + 2520) for lo in range(0, 40320, 2520)]
    with ResultStore(tmp_path / "all.sqlite") as st:
        _old_rows(st, 5, "first", old)
        got, rep = OR.run_study(5, "first", store=st)
        assert rep.tasks_json() == {"total": 16, "from_store": 16, "computed": 0}
    with ResultStore(tmp_path / "some.sqlite") as st:
        # both halves of the first slice, one half of the second: 2 read, 7 computed
        _old_rows(st, 5, "first", old[:3])
        part, rep = OR.run_study(5, "first", store=st)
        assert rep.tasks_json() == {"total": 9, "from_store": 2, "computed": 7}
        assert [t.params["to"] - t.params["from"] for t in OR.orders_tasks(5, store=st)] \
            == [2520, 2520] + [5040] * 7     # the first slice stays in its old halves
    for r in (got, part):
        assert r.complete and np.array_equal(r.lengths, ref.lengths)
        assert np.array_equal(r.closed, ref.closed)


def test_level_six_packs_still_unpack():
    import base64
    a = np.arange(5040 * 25, dtype=np.int16).reshape(5040, 25) % 25 + 1
    d = {"dtype": "<i2", "shape": [5040, 25],
         "zlib": base64.b64encode(zlib.compress(a.tobytes(), 6)).decode("ascii")}
    assert np.array_equal(unpack_array(d), a) and np.array_equal(
        unpack_array(R.pack_array(a)), a)
