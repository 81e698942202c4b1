"""A Dask cluster that dies under a study (issue 34, round 3): real `dask scheduler` and
`dask worker` processes on 127.0.0.1 (the helpers of test_distributed.py), the study run by
the installed command, and the cluster killed mid-run — its only worker, its scheduler — or
its scheduler frozen (SIGSTOP). Each time the study ends within `--worker-timeout` with one
line on stderr and exit 2, the store keeps every finished task, and the same command, once the
cluster is back, finishes the study with the uninterrupted run's answer. Malformed scheduler
addresses are refused in one line before any connection. (Before: the study waited for ever
for a worker, a killed scheduler ended in a 32-line CancelledError traceback, and a host of 64
characters, an empty label or a non-ASCII name in a socket traceback.)

`make stress` (KNIGHTGUI_STRESS=1) kills the worker at more moments of the run."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
from test_distributed import BIN, KNIGHTGUI, MO9, Cluster, _env, _orders_ref, _rows, _strip, _wait_rows

#: --worker-timeout of these tests (the default is 60 s)
TIMEOUT = 5
#: what a loaded 2-core machine may add to it: the watch's last question (1 s before), closing
#: the client, the interpreter's exit
SLACK = 4.0
#: rows in the store before the cluster is hurt; `make stress` tries more moments
KILL_AFTER = [1, 4, 30] if os.environ.get("KNIGHTGUI_STRESS") == "1" else [4]


@pytest.fixture(scope="module")
def ref9():
    """move-orders 9×9 run uninterrupted, in this process."""
    return _orders_ref(9)


@pytest.fixture(scope="module")
def cluster():
    """One scheduler and one worker; each test leaves it whole for the next (a new worker, a
    new scheduler at the same address), which saves starting a cluster per test."""
    c = Cluster(1)
    c.scheduler = c.procs[0]
    try:
        c.wait_for_workers(1)
        yield c
    finally:
        for p in c.procs:                       # a frozen scheduler must hear SIGTERM
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGCONT)
                except ProcessLookupError:
                    pass
        c.close()


def _new_worker(cluster: Cluster) -> None:
    """A worker of two threads (the resume takes half as long), running before this returns."""
    cluster.workers.append(cluster._start([str(BIN / "dask"), "worker", cluster.address,
                                           "--nthreads", "2", "--no-dashboard"]))
    cluster.procs.append(cluster.workers[-1])
    cluster.wait_for_workers(1)


def _study(cluster: Cluster, store: Path) -> list[str]:
    return MO9 + ["--scheduler", cluster.address, "--store", str(store),
                  "--worker-timeout", str(TIMEOUT)]


def _hurt_mid_run(args: list[str], store: Path, after: int, hurt,
                  waits: tuple[str, ...] = ()) -> tuple[str, float]:
    """Run the study, call ``hurt()`` once ``after`` tasks are in the store; the study's last
    stderr line and the seconds from the hurt to its end (exit 2 asserted). Before that last
    line there may be one line saying the study waits, one of ``waits`` (required when the
    tuple has no empty string ``""``)."""
    proc = subprocess.Popen(KNIGHTGUI + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=_env())
    try:
        _wait_rows(store, after, proc)
        hurt()
        t0 = time.monotonic()
        out, err = proc.communicate(timeout=TIMEOUT + 60)
        seconds = time.monotonic() - t0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert proc.returncode == 2, (proc.returncode, err)
    assert "Traceback" not in err and out == "", err
    lines = err.strip().splitlines()
    notices = lines[:-1]
    assert len(notices) <= 1 and (notices or "" in waits or not waits), err
    for line in notices:
        assert line.startswith("move orders 9×9 (first): the Dask scheduler at "), err
        assert any(w and w in line for w in waits), err
    return lines[-1], seconds


def _kept_in(line: str) -> int:
    m = re.search(r"; (\d+) of 64 tasks are kept in the store: run the same command again", line)
    assert m, line
    return int(m.group(1))


def _resume(args: list[str], kept: int, ref: dict) -> None:
    """The same command again: it computes only what is missing, and answers as the
    uninterrupted run."""
    p = subprocess.run(KNIGHTGUI + args, capture_output=True, text=True, timeout=120,
                       env=_env())
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout.strip().splitlines()[-1])
    assert d["tasks"] == {"total": 64, "from_store": kept, "computed": 64 - kept}
    assert _strip(d) == ref


@pytest.mark.parametrize("after", KILL_AFTER)
def test_only_worker_killed_ends_after_the_timeout_and_resumes(cluster, tmp_path, ref9, after):
    store = tmp_path / "s.sqlite"
    args = _study(cluster, store)
    worker = cluster.workers[-1]                # `dask worker`: its nanny and the worker
    line, seconds = _hurt_mid_run(args, store, after,
                                  lambda: os.killpg(worker.pid, signal.SIGKILL),
                                  (f"has no worker: waiting up to {TIMEOUT} s for one",))
    assert line.startswith("move orders 9×9 (first): the Dask scheduler at "
                           f"{cluster.address} has had no worker for {TIMEOUT} s; "), line
    # the timeout did it (counted from the last answer that named a worker, at most a second
    # before the kill), not something else, and on time
    assert TIMEOUT - 1.5 <= seconds <= TIMEOUT + SLACK, seconds
    kept = _kept_in(line)
    assert kept == _rows(store) and after <= kept < 64
    _new_worker(cluster)
    _resume(args, kept, ref9)


def test_a_run_without_a_worker_says_it_waits_and_goes_on_when_one_comes(cluster, tmp_path):
    """The runner in this process on the real cluster: its only worker killed after the
    first result, the run says (notice) that it waits for a worker and for how long; a new
    worker started on that notice takes the rest, the run says so and finishes with every
    task, from the store on a re-run."""
    import threading

    from knightgui_core.run.runner import Task, connect, run_tasks
    from knightgui_core.run.store import ResultStore
    tasks = [Task(f"demo/sleep/{i}", "demo", {"i": i}, time.sleep, (0.5,)) for i in range(8)]
    first, notices = threading.Event(), []
    worker = cluster.workers[-1]

    def kill_after_first() -> None:
        first.wait(60)
        os.killpg(worker.pid, signal.SIGKILL)

    def notice(line: str) -> None:
        notices.append(line)
        if "has no worker" in line:         # bring one back (it announces itself later)
            threading.Thread(target=_new_worker, args=(cluster,), daemon=True).start()

    killer = threading.Thread(target=kill_after_first, daemon=True)
    killer.start()
    client = connect(cluster.address)
    try:
        with ResultStore(tmp_path / "s.sqlite") as st:
            report = run_tasks(tasks, store=st, scheduler=client, worker_timeout=60,
                               notice=notice, on_result=lambda k, v: first.set())
            assert report.complete and report.computed == 8
            again = run_tasks(tasks, store=st, scheduler=client)
            assert again.from_store == 8 and again.results == report.results
    finally:
        client.close()
    where = f"the Dask scheduler at {cluster.address}"
    assert notices == [f"{where} has no worker: waiting up to 60 s for one (the worker "
                       "timeout)", f"{where} has a worker again"], notices


def test_scheduler_killed_ends_at_once_and_resumes(cluster, tmp_path, ref9):
    store = tmp_path / "s.sqlite"
    args = _study(cluster, store)
    scheduler = cluster.scheduler
    line, seconds = _hurt_mid_run(args, store, 4,
                                  lambda: os.killpg(scheduler.pid, signal.SIGKILL),
                                  ("", f"waiting up to {TIMEOUT} s for it"))
    assert line.startswith("move orders 9×9 (first): lost the connection to the Dask "
                           f"scheduler at {cluster.address}; "), line
    assert seconds <= TIMEOUT + SLACK, seconds
    kept = _kept_in(line)
    assert kept == _rows(store) and 4 <= kept < 64
    for w in cluster.workers:                   # a new cluster at the same address
        if w.poll() is None:
            os.killpg(w.pid, signal.SIGKILL)
            w.wait(10)
    cluster.scheduler = cluster._start([str(BIN / "dask"), "scheduler", "--host", "127.0.0.1",
                                        "--port", str(cluster.port), "--no-dashboard"])
    cluster.procs.append(cluster.scheduler)
    _new_worker(cluster)
    _resume(args, kept, ref9)


def test_frozen_scheduler_ends_after_the_timeout(cluster, tmp_path):
    """(The module's last use of the cluster: the fixture wakes the scheduler to close it.)"""
    store = tmp_path / "s.sqlite"
    scheduler = cluster.scheduler
    line, seconds = _hurt_mid_run(_study(cluster, store), store, 4,
                                  lambda: os.killpg(scheduler.pid, signal.SIGSTOP),
                                  (f"has not answered for {TIMEOUT / 2:g} s: waiting up to "
                                   f"{TIMEOUT} s for it",))
    assert line.startswith("move orders 9×9 (first): the Dask scheduler at "
                           f"{cluster.address} has not answered for {TIMEOUT} s; "), line
    assert TIMEOUT - 1.5 <= seconds <= TIMEOUT + SLACK, seconds
    kept = _kept_in(line)
    assert kept == _rows(store) and 4 <= kept < 64


LONG = "a" * 64
MALFORMED = {                       # address: what the one line says
    f"tcp://{LONG}.example:8786": "at most 63 characters, one here has 64",
    "tcp://a..b:8786": "an empty label",
    "tcp://.b:8786": "an empty label",
    "tcp://bücher.example:8786": "ASCII",
    "tcp://" + "a" * 100_000 + ":8786": "at most 253 characters, this one 100,000",
    "tcp://" + ".".join(["a" * 60] * 5) + ":8786": "at most 253 characters, this one 304",
    "tcp://-a.example:8786": "'-a'",
    "tcp://a_b:8786": "'a_b'",
    "tcp://host name:8786": "'host name'",
    "tcp://1.2.3.400:8786": "not an IPv4 address",
    "tcp://::1:8786": "in brackets",
    "tcp://[::g]:8786": "IPv6",
    "tcp://[::1:8786": "IPv6",
    "tcp://h:" + "9" * 5000: "a port between 1 and 65535",
}


@pytest.mark.parametrize("address", list(MALFORMED), ids=lambda a: a[:40])
def test_malformed_address_is_refused_in_one_line(address):
    from knightgui_core.run.clusters import SchedulerError, resolve_scheduler
    with pytest.raises(SchedulerError) as e:
        resolve_scheduler(address, environ={})
    assert MALFORMED[address] in str(e.value) and "\n" not in str(e.value)


def test_malformed_addresses_through_the_command_and_the_environment(tmp_path):
    """The four shapes that ended in a socket traceback, given to the command (and one in
    $KNIGHTGUI_SCHEDULER), and a bad --worker-timeout: one line, exit 2, at once; valid forms
    of an address pass the check."""
    from knightgui_core.run.clusters import resolve_scheduler
    cases = [(["--scheduler", a], None) for a in (
        "tcp://a..b:8786", f"tcp://{LONG}:8786", "tcp://bücher.example:8786",
        "tcp://" + "a" * 3000 + ":1")]
    cases += [([], f"tcp://{LONG}:8786"), (["--worker-timeout", "0"], None)]
    for extra, env_value in cases:
        env = _env()
        if env_value is not None:
            env["KNIGHTGUI_SCHEDULER"] = env_value
        t0 = time.monotonic()
        p = subprocess.run(KNIGHTGUI + ["study", "move-orders", "--size", "5", "--store",
                                        str(tmp_path / "s.sqlite")] + extra,
                           capture_output=True, text=True, timeout=60, env=env)
        # the one line below names what is malformed: no connection was tried; the bound
        # only catches a hang (a loaded machine takes seconds to start the command)
        assert time.monotonic() - t0 < 60
        assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and len(lines[0]) <= 300, p.stderr
        word = "--worker-timeout must be" if "--worker-timeout" in extra else "--scheduler: "
        assert lines[0].startswith(word) and "cannot reach" not in lines[0], lines[0]
    assert not (tmp_path / "s.sqlite").exists()    # refused before anything was opened
    for good in ("tcp://127.0.0.1:8786", "tcp://[::1]:8786", "tls://dask-1.example.org:8786",
                 "tcp://scheduler.example.org.:1", "tcp://localhost:65535",
                 "tcp://[fe80::1%eth0]:8786", "inproc://10.0.0.1/1/2"):
        assert resolve_scheduler(good, environ={}) == good


def test_a_scheduler_that_never_had_a_worker_is_said_at_once_and_ends_in_time(tmp_path):
    """A `dask scheduler` with no worker at all: the study says at once that it waits, and
    for how long, then ends after the timeout with one line, exit 2, nothing computed."""
    empty = Cluster(0)
    try:
        from distributed import Client
        with Client(empty.address, timeout=40, set_as_default=False):
            pass                                       # the scheduler answers
        store = tmp_path / "s.sqlite"
        proc = subprocess.Popen(KNIGHTGUI + _study(empty, store), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=_env())
        try:
            first = proc.stderr.readline()             # said while the study waits
            assert proc.poll() is None, first
            out, rest = proc.communicate(timeout=TIMEOUT + 60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
    finally:
        empty.close()
    where = f"move orders 9×9 (first): the Dask scheduler at {empty.address}"
    assert first == (f"{where} has no worker: waiting up to {TIMEOUT} s for one (the worker "
                     "timeout)\n"), first
    assert proc.returncode == 2 and out == "" and "Traceback" not in rest, rest
    assert rest.strip().splitlines() == [
        f"{where} has had no worker for {TIMEOUT} s; 0 of 64 tasks are kept in the store: run "
        "the same command again to finish"], rest
