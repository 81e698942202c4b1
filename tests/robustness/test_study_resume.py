"""A count study stopped at a random point resumes to the same figures: the installed command
run with --store and a budget that splits its tasks over many rounds, stopped once a random
number of tasks is in the store — SIGKILL, SIGTERM, or one of its Dask workers killed (a real
`dask scheduler` and `dask worker`s on 127.0.0.1) — then the same command again. The resumed
run reads back every row the stopped one kept, and its counts are the uninterrupted run's
exactly (its probabilities to rounding: the tasks may split elsewhere, the sums are the same
terms in another order)."""
from __future__ import annotations

import json
import math
import os
import random
import re
import signal
import subprocess
from pathlib import Path

import pytest
from test_distributed import KNIGHTGUI, Cluster, _env, _rows, _wait_rows

from knightgui_core.studies import count_study

pytestmark = pytest.mark.timeout(240)

#: 8×8 from a1 and d4, 5,000 forward moves a task: about 500 tasks over a dozen rounds
ROWS, COLS, STARTS, BUDGET, TABLE_MB = 8, 8, "a1,d4", 5000, 16
ARGS = ["study", "count", "--rows", str(ROWS), "--cols", str(COLS), "--starts", STARTS,
        "--task-moves", str(BUDGET), "--table-mb", str(TABLE_MB), "--json"]


@pytest.fixture(scope="module")
def reference() -> dict:
    """The figures of the count run whole, in this process, no store."""
    r = count_study.run_count(ROWS, COLS, STARTS,
                              options=count_study.CountOptions(table_bytes=TABLE_MB << 20))
    return {"totals": r.totals, "per_start": r.per_start}


def _same(got: dict, ref: dict) -> None:
    """Counts equal, probabilities equal to rounding."""
    for part in ("totals", *(f"per_start.{s}" for s in ref["per_start"])):
        a = got["totals"] if part == "totals" else got["per_start"][part.split(".")[1]]
        b = ref["totals"] if part == "totals" else ref["per_start"][part.split(".")[1]]
        assert a.keys() == b.keys(), part
        for k in ("tours", "closed", "dead_ends"):
            assert a[k] == b[k], (part, k)
        for k in ("p_success", "p_closed"):
            assert math.isclose(a[k], b[k], rel_tol=1e-12, abs_tol=1e-15), (part, k)


def _resume(args: list[str], kept: int, ref: dict) -> None:
    """The same command again: every kept row read back, the figures of the whole run."""
    p = subprocess.run(KNIGHTGUI + args, capture_output=True, text=True, timeout=180,
                       env=_env())
    assert p.returncode == 0, p.stderr[-2000:]
    d = json.loads(p.stdout.strip().splitlines()[-1])
    assert d["tasks"]["from_store"] == kept and d["tasks"]["computed"] > 0, d["tasks"]
    _same(d, ref)


def _stop_at(seed: int) -> int:
    """The random point: tasks in the store before the stop."""
    return random.Random(seed).randint(1, 150)


def _stopped(args: list[str], store: Path, after: int, stop) -> tuple[int, str]:
    """Run the command, call ``stop(proc)`` once ``after`` tasks are in the store; its exit
    code and stderr."""
    proc = subprocess.Popen(KNIGHTGUI + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=_env())
    try:
        _wait_rows(store, after, proc, timeout=120)
        stop(proc)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    return proc.returncode, err


@pytest.mark.parametrize("how,seed", [
    ("SIGKILL", 1), ("SIGTERM", 2),
    pytest.param("SIGKILL", 3, marks=pytest.mark.slow),
    pytest.param("SIGTERM", 4, marks=pytest.mark.slow),
])
def test_a_count_killed_mid_run_resumes_to_the_same_figures(tmp_path, reference, how, seed):
    store = tmp_path / "s.sqlite"
    args = ARGS + ["--store", str(store)]
    code, err = _stopped(args, store, _stop_at(seed),
                         lambda proc: proc.send_signal(getattr(signal, how)))
    kept = _rows(store)
    assert kept >= _stop_at(seed)
    if how == "SIGKILL":
        assert code == -signal.SIGKILL
    else:
        assert code == 143 and "Traceback" not in err, err[-2000:]
        assert err.strip().splitlines() == [f"terminated; {kept} tasks kept in the store"]
    _resume(args, kept, reference)


def test_a_count_whose_worker_is_killed_mid_run_gives_the_same_figures(tmp_path, reference):
    """Two `dask worker`s; one of them (its nanny and its process) killed at a random point:
    the scheduler hands its tasks to the other, and the figures are the whole run's."""
    cluster = Cluster(2)
    try:
        cluster.wait_for_workers(2)
        store = tmp_path / "s.sqlite"
        args = ARGS + ["--store", str(store), "--scheduler", cluster.address]
        victim = cluster.workers[0]
        proc = subprocess.Popen(KNIGHTGUI + args, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=_env())
        try:
            _wait_rows(store, _stop_at(5), proc, timeout=120)
            os.killpg(victim.pid, signal.SIGKILL)
            at_kill = _rows(store)
            out, err = proc.communicate(timeout=180)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
        assert proc.returncode == 0, err[-2000:]
        assert not re.search(r"Traceback|no worker", err), err[-2000:]
        d = json.loads(out.strip().splitlines()[-1])
        assert d["tasks"]["computed"] == d["tasks"]["total"] == _rows(store) > at_kill
        _same(d, reference)
    finally:
        cluster.close()
