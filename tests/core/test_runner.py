"""The study runner: tasks on Dask (in-process threads and a LocalCluster of two worker
processes), the store, cancel, failures, scheduler addresses; phadke and move-orders on it
give the results of their single-process engines."""
from __future__ import annotations

import threading
from dataclasses import replace

import numpy as np
import pytest

from knightgui_core.run.runner import (
    SchedulerError,
    Task,
    TaskFailed,
    pack_array,
    resolve_scheduler,
    run_tasks,
    unpack_array,
)
from knightgui_core.run.store import ResultStore


def cube(n: int) -> dict:
    return {"n": n, "cube": n ** 3, "pair": (n, -n), "np": np.int64(n)}


def boom(n: int) -> int:
    raise RuntimeError(f"task {n} fails on purpose")


def _tasks(k: int, fn=cube, prefix="t/cube"):
    return [Task(f"{prefix}/{i}", "test", {"n": i}, fn, (i,)) for i in range(k)]


def test_results_counts_and_resume_from_the_store(tmp_path):
    seen = []
    with ResultStore(tmp_path / "s.sqlite") as st:
        r1 = run_tasks(_tasks(6), store=st, progress=lambda d, t: seen.append((d, t)))
        assert r1.tasks_json() == {"total": 6, "from_store": 0, "computed": 6} and r1.complete
        # JSON-normalised: a tuple comes back as a list, numpy ints as ints
        assert r1.results["t/cube/2"] == {"n": 2, "cube": 8, "pair": [2, -2], "np": 2}
        assert seen[0] == (0, 6) and seen[-1] == (6, 6)
        got = {}
        r2 = run_tasks(_tasks(10), store=st, on_result=got.__setitem__)
        assert r2.tasks_json() == {"total": 10, "from_store": 6, "computed": 4}
        assert r2.results == {k: got[k] for k in r2.results}
        assert r2.results["t/cube/2"] == r1.results["t/cube/2"]
        assert st.count("test") == 10


def test_duplicate_keys_and_bad_params_are_refused():
    with pytest.raises(ValueError, match="two tasks"):
        run_tasks(_tasks(2) + _tasks(1))
    with pytest.raises(TypeError):
        Task("k", "test", {"f": object()}, cube, (1,))


def test_a_failing_task_raises_after_its_retries(tmp_path):
    with ResultStore(tmp_path / "s.sqlite") as st:
        with pytest.raises(TaskFailed, match="fails on purpose"):
            run_tasks(_tasks(3) + _tasks(1, boom, "t/boom"), store=st, retries=1)
        assert st.count() <= 3


def slow(n: int) -> int:
    import time
    time.sleep(0.2)
    return n


def test_cancel_stops_and_keeps_what_finished(tmp_path):
    stop = threading.Event()

    def on_result(key, value):
        stop.set()

    with ResultStore(tmp_path / "s.sqlite") as st:
        r = run_tasks(_tasks(40, slow, "t/slow"), store=st, cancel=stop, on_result=on_result,
                      workers=2)
        assert r.cancelled and not r.complete and 1 <= r.computed < 40
        assert st.count() == r.computed
        # the tasks that finished (on two threads, not always the first ones) are kept
        done = [t for t in _tasks(40, slow, "t/slow") if t.key in r.results]
        r2 = run_tasks(done, store=st)
        assert r2.from_store == r.computed == len(done) and r2.computed == 0


def test_scheduler_addresses(monkeypatch):
    assert resolve_scheduler(None, environ={}) == "local"
    assert resolve_scheduler(None, environ={"KNIGHTGUI_SCHEDULER": "tcp://h:8786"}) == \
        "tcp://h:8786"
    assert resolve_scheduler("processes", environ={"KNIGHTGUI_SCHEDULER": "tcp://h:1"}) == \
        "processes"
    for bad in ("h:8786", "tcp://h", "tcp://h:0", "tcp://h:99999", "http://h:1", "x", "tcp://h:²"):
        with pytest.raises(SchedulerError):
            resolve_scheduler(bad, environ={})


def test_unreachable_scheduler_is_one_line():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(SchedulerError) as e:
        run_tasks(_tasks(1), scheduler=f"tcp://127.0.0.1:{port}")
    assert f"127.0.0.1:{port}" in str(e.value) and "\n" not in str(e.value)


def test_pack_array_round_trip():
    a = np.arange(-300, 300, dtype=np.int16).reshape(20, 30)
    b = unpack_array(pack_array(a))
    assert b.dtype == a.dtype and np.array_equal(a, b) and b.flags.writeable
    with pytest.raises(ValueError):
        unpack_array({"dtype": "<i2", "shape": [3], "zlib": "!!"})


def test_phadke_and_move_orders_on_two_worker_processes_equal_the_engines(tmp_path):
    """A LocalCluster of two worker processes (the tasks travel by pickle to other
    processes) gives the single-process engines' answers exactly."""
    from knightgui_core.studies import phadke as P
    from knightgui_core.studies.orders import run_orders
    from knightgui_core.studies.orders import runner as OR
    from knightgui_core.studies.phadke import runner as PR
    strict = P.algorithms("strict")
    res, rep = PR.run_study(strict, scheduler="processes", workers=2)
    assert rep.tasks_json() == {"total": 10, "from_store": 0, "computed": 10}
    assert res.counts == P.run(strict, workers=2).counts
    ref = run_orders(6, "last")
    with ResultStore(tmp_path / "s.sqlite") as st:
        got, rep = OR.run_study(6, "last", scheduler="processes", workers=2, store=st)
        assert rep.computed == 8
        again, rep = OR.run_study(6, "last", store=st)             # from the store
        assert rep.from_store == 8 and rep.computed == 0
    for r in (got, again):
        assert np.array_equal(r.lengths, ref.lengths) and np.array_equal(r.closed, ref.closed)
        assert replace(r.summary(), seconds=0) == replace(ref.summary(), seconds=0)


def test_move_order_subsets_get_their_own_keys():
    from knightgui_core.studies.orders import all_orders, run_orders
    from knightgui_core.studies.orders import runner as OR
    sub = all_orders()[::997]
    full_keys = {t.key for t in OR.orders_tasks(5, "first")}
    sub_tasks = OR.orders_tasks(5, "first", orders=sub)
    assert not full_keys & {t.key for t in sub_tasks}
    got, rep = OR.run_study(5, "first", orders=sub)
    ref = run_orders(5, "first", orders=sub)
    assert np.array_equal(got.lengths, ref.lengths) and got.orders == len(sub)


def test_a_worker_with_another_knightgui_version_is_refused(monkeypatch):
    import knightgui_core.run.runner as R

    def version() -> str:                     # the worker threads answer another version
        return "1.0" if threading.current_thread() is threading.main_thread() else "0.9"

    monkeypatch.setattr(R, "code_version", version)
    with pytest.raises(TaskFailed, match="knightgui 0.9, this is 1.0"):
        run_tasks(_tasks(2, prefix="t/version"))
