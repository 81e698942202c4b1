"""The runner against a real cluster: a `dask scheduler` and two `dask worker` processes on
127.0.0.1 (the standard commands, as the README tells users to start them), and the faults
the runner must survive: a worker killed mid-run, the client killed with kill -9 mid-run,
Ctrl-C, a scheduler that cannot be reached."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

BIN = Path(sys.executable).parent
KNIGHTGUI = [sys.executable, "-m", "knightgui"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _env() -> dict:
    env = dict(os.environ)
    env.pop("KNIGHTGUI_SCHEDULER", None)
    env["PYTHONUNBUFFERED"] = "1"
    return env


class Cluster:
    """`dask scheduler` + `dask worker` processes on 127.0.0.1 (random free ports)."""

    def __init__(self, workers: int = 2):
        self.port = _free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.procs: list[subprocess.Popen] = []
        self.log = []
        self.procs.append(self._start([str(BIN / "dask"), "scheduler", "--host", "127.0.0.1",
                                       "--port", str(self.port), "--no-dashboard"]))
        self.workers = [self.add_worker(i) for i in range(workers)]

    def _start(self, cmd) -> subprocess.Popen:
        return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                env=_env(), start_new_session=True)

    def add_worker(self, i: int) -> subprocess.Popen:
        p = self._start([str(BIN / "dask"), "worker", self.address, "--nthreads", "1",
                         "--no-dashboard", "--name", f"w{i}-{time.monotonic_ns()}"])
        self.procs.append(p)
        return p

    def wait_for_workers(self, n: int, timeout: float = 40.0) -> None:
        from distributed import Client
        deadline = time.monotonic() + timeout
        while True:
            try:
                with Client(self.address, timeout=5, set_as_default=False) as c:
                    c.wait_for_workers(n, timeout=max(1.0, deadline - time.monotonic()))
                    return
            except (OSError, TimeoutError):
                if time.monotonic() > deadline:
                    raise

    def worker_pids(self) -> list[int]:
        """pids of the worker processes (the children of each `dask worker`'s nanny)."""
        out = []
        for p in self.workers:
            try:
                out += [c.pid for c in psutil.Process(p.pid).children(recursive=True)]
            except psutil.NoSuchProcess:
                pass
        return out

    def close(self) -> None:
        for p in reversed(self.procs):
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for p in self.procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait(5)


@pytest.fixture(scope="module")
def cluster():
    c = Cluster(2)
    try:
        c.wait_for_workers(2)
        yield c
    finally:
        c.close()


def _cli(args, timeout=120, env=None) -> subprocess.CompletedProcess:
    return subprocess.run(KNIGHTGUI + args, capture_output=True, text=True, timeout=timeout,
                          env=env or _env())


def _json(proc) -> dict:
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _strip(d: dict) -> dict:
    return {k: v for k, v in d.items() if k not in ("seconds", "tasks", "study")}


def _orders_ref(n: int) -> dict:
    """What the single-process engine (run_orders, threads in this process) answers."""
    from knightgui_core.studies.orders import run_orders
    return _strip(run_orders(n, "first").to_json_dict())


def test_studies_through_a_real_cluster_equal_the_local_run(cluster, tmp_path):
    """phadke strict and move-orders 6×6 through `dask scheduler` + 2 `dask worker`s give
    the answers of the in-process run (the workers import the tasks' functions)."""
    from knightgui_core.studies import phadke as P
    from knightgui_core.studies.phadke.tables import family_totals
    t0 = time.monotonic()
    remote = _json(_cli(["study", "move-orders", "--size", "6", "--json", "--scheduler",
                         cluster.address]))
    assert _strip(remote) == _orders_ref(6)
    assert remote["tasks"] == {"total": 8, "from_store": 0, "computed": 8}
    remote = _json(_cli(["study", "phadke", "--family", "strict", "--json", "--scheduler",
                         cluster.address]))
    local = family_totals(P.run(P.algorithms("strict")))[0]
    assert remote["strict"]["solutions"] == local["solutions"] == 989_931
    assert remote["strict"]["full_board"] == local["full_board"]
    assert remote["tasks"]["computed"] == 10
    env = _env()
    env["KNIGHTGUI_SCHEDULER"] = cluster.address     # the environment variable works too
    d = _json(_cli(["study", "phadke", "--family", "strict", "--json"], env=env))
    assert d["strict"]["solutions"] == 989_931
    assert time.monotonic() - t0 < 60


def _rows(path: Path) -> int:
    import sqlite3
    if not path.exists():
        return 0
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        try:
            return int(con.execute("SELECT count(*) FROM tasks").fetchone()[0])
        finally:
            con.close()
    except sqlite3.Error:
        return 0


def _wait_rows(path: Path, n: int, proc: subprocess.Popen, timeout: float = 60) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        k = _rows(path)
        if k >= n:
            return k
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    raise AssertionError(f"fewer than {n} rows in {path} after {timeout} s")


MO9 = ["study", "move-orders", "--size", "9", "--json"]     # 64 tasks of ~0.2 s


@pytest.fixture(scope="module")
def ref9():
    return _orders_ref(9)


def test_worker_killed_mid_run_same_totals(cluster, tmp_path, ref9):
    ref = ref9
    store = tmp_path / "s.sqlite"
    proc = subprocess.Popen(KNIGHTGUI + MO9 + ["--scheduler", cluster.address, "--store",
                                              str(store)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=_env())
    try:
        _wait_rows(store, 4, proc)
        victims = cluster.worker_pids()
        assert victims
        os.kill(victims[0], signal.SIGKILL)              # a worker dies mid-task
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    d = json.loads(out.strip().splitlines()[-1])
    assert _strip(d) == ref
    assert d["tasks"] == {"total": 64, "from_store": 0, "computed": 64}
    cluster.wait_for_workers(2)          # the nanny restarted it for the next tests


def test_client_killed_with_sigkill_resumes_from_the_store(cluster, tmp_path, ref9):
    ref = ref9
    store = tmp_path / "s.sqlite"
    args = MO9 + ["--scheduler", cluster.address, "--store", str(store)]
    proc = subprocess.Popen(KNIGHTGUI + args, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=_env())
    try:
        _wait_rows(store, 6, proc)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    kept = _rows(store)
    assert 6 <= kept < 64
    d = _json(_cli(args))
    assert d["tasks"]["from_store"] >= kept and d["tasks"]["total"] == 64
    assert d["tasks"]["from_store"] + d["tasks"]["computed"] == 64
    assert _strip(d) == ref


def _start_up_seconds() -> float:
    """What starting the CLI with Dask imported costs on this machine right now (0.5-3 s when
    it is quiet, 10 s and more when a dozen processes share its two cores): the bound below
    is on the wait for the scheduler, not on the interpreter's start."""
    t0 = time.monotonic()
    subprocess.run([sys.executable, "-c", "import knightgui.cli, distributed"], env=_env(),
                   capture_output=True, timeout=120, check=True)
    return time.monotonic() - t0


def test_unreachable_scheduler_exits_2_within_10_s(tmp_path):
    port = _free_port()                                   # nothing listens there
    silent = socket.socket()                              # accepts and never answers
    silent.bind(("127.0.0.1", 0))
    silent.listen(5)
    try:
        for addr in (f"tcp://127.0.0.1:{port}", f"tcp://127.0.0.1:{silent.getsockname()[1]}"):
            t0 = time.monotonic()
            p = _cli(["study", "move-orders", "--size", "5", "--scheduler", addr,
                      "--store", str(tmp_path / "s.sqlite")], timeout=30)
            waited = time.monotonic() - t0
            assert waited < 10 or waited - _start_up_seconds() < 10, waited
            assert p.returncode == 2
            lines = p.stderr.strip().splitlines()
            assert len(lines) == 1 and addr in lines[0] and "scheduler" in lines[0]
    finally:
        silent.close()
