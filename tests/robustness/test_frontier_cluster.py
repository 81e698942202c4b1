"""A frontier count through slices on disk, its slices on a real Dask cluster: a `dask
scheduler` and two `dask worker --nthreads 1` processes on 127.0.0.1 (test_distributed's
helpers), the count run by the installed command with ``--spill DIR --scheduler ADDR``.

The counts equal the in-memory count, the slices of a cell are spread over both workers
(each slice's ``worker`` in ``--json``), a worker killed in the middle of a slice has that
slice read again by the other worker with the same count, SIGTERM stops the run with no
slice left on disk, and a worker that cannot reach the folder (its own file system mounted
over it, as on a machine without the shared disk) ends the run in one line, exit 2, the
folder removed.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
import test_distributed
from test_distributed import BIN, KNIGHTGUI, Cluster, _env

from knightgui_core.frontier.count import count_frontier

#: test_distributed's fixture: a `dask scheduler` and two one-thread `dask worker`s, this
#: module's own
cluster = test_distributed.cluster


def _count(rows: int, cols: int, spill: Path, *extra: str) -> list[str]:
    return KNIGHTGUI + ["study", "count", "--all-tours", "--rows", str(rows), "--cols",
                        str(cols), "--method", "frontier", "--spill", str(spill), "--json",
                        *extra]


def _answer(proc: subprocess.CompletedProcess) -> dict:
    assert proc.returncode == 0, proc.stderr[-600:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _workers(cluster: Cluster) -> set[str]:
    from distributed import Client
    with Client(cluster.address, timeout=10, set_as_default=False) as c:
        return set(c.nthreads())


def _slices(d: dict) -> list[dict]:
    return [s for cell in d["slices"] for s in cell["per_slice"]]


@pytest.mark.parametrize("rows,cols,closed", [(6, 5, False), (6, 6, True)])
def test_slices_on_the_cluster_equal_the_count_in_memory(cluster, tmp_path, rows, cols,
                                                         closed):
    ref = count_frontier(min(rows, cols), [max(rows, cols)], closed_only=closed).boards[-1]
    extra = ["--slices", "4", "--scheduler", cluster.address] + (["--closed-only"] * closed)
    d = _answer(subprocess.run(_count(rows, cols, tmp_path, *extra), capture_output=True,
                               text=True, timeout=180, env=_env()))
    assert d["undirected_closed_tours"] == ref.cycles
    assert d["undirected_paths"] == (None if closed else ref.paths)
    assert min(cell["slices"] for cell in d["slices"][1:]) >= 4     # the first cell: one state
    per = _slices(d)
    used = {s["worker"] for s in per}
    assert used == _workers(cluster)                 # both workers read slices, and only they
    assert {s["threads"] for s in per} == {1}        # each worker has one thread
    assert list(tmp_path.iterdir()) == []


def test_each_worker_reads_its_slices_on_its_own_threads_one_at_a_time(tmp_path):
    """Workers of 2 and 3 threads: each reads every slice on its own threads (the files in 3
    thread shares), and never two slices at once (its slices' spans do not overlap)."""
    from distributed import Client
    c = Cluster(0)
    try:
        for n in (2, 3):
            w = c._start([str(BIN / "dask"), "worker", c.address, "--nthreads", str(n),
                          "--no-dashboard"])
            c.workers.append(w)
            c.procs.append(w)
        c.wait_for_workers(2)
        with Client(c.address, timeout=10, set_as_default=False) as client:
            threads = client.nthreads()
        d = _answer(subprocess.run(_count(5, 6, tmp_path, "--slices", "4", "--scheduler",
                                          c.address), capture_output=True, text=True,
                                   timeout=180, env=_env()))
    finally:
        c.close()
    ref = count_frontier(5, [6]).boards[-1]
    assert (d["undirected_paths"], d["undirected_closed_tours"]) == (ref.paths, ref.cycles)
    per = _slices(d)
    assert sorted(threads.values()) == [2, 3] and {s["worker"] for s in per} == set(threads)
    assert all(s["threads"] == threads[s["worker"]] for s in per)
    for w in threads:
        spans = sorted((s["start"], s["start"] + s["seconds"]) for s in per if s["worker"] == w)
        assert all(b[0] >= a[1] - 0.002 for a, b in zip(spans, spans[1:])), w
    assert list(tmp_path.iterdir()) == []


def _marker(spill: Path, proc: subprocess.Popen, least_cell: int, timeout: float = 120):
    """The first slice marked running in a cell from ``least_cell`` on: (cell, slice,
    worker address, pid)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        for m in spill.glob("*/running-c*-s*"):
            cell, me = (int(x[1:]) for x in m.name.split("-")[1:])
            try:
                text = m.read_text().split()
            except OSError:
                continue
            if cell >= least_cell and len(text) == 2:
                return cell, me, text[0], int(text[1])
        time.sleep(0.005)
    err = proc.stderr.read()[-800:] if proc.poll() is not None and proc.stderr else ""
    raise AssertionError(f"no slice ran from cell {least_cell} on: exit {proc.poll()}: {err}")


@pytest.mark.slow
def test_a_worker_killed_in_a_slice_leaves_the_count_exact(cluster, tmp_path):
    """6×6 open through 8 slices: the worker reading a slice of cell 14 (column 3) is
    killed; the scheduler runs that slice again on the other worker, and the count is
    6×6's (A165134: 6,637,920 directed open paths). ``slow``: 20-33 s on 2 shared cores."""
    proc = subprocess.Popen(_count(6, 6, tmp_path, "--slices", "8", "--scheduler",
                                   cluster.address),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=_env())
    try:
        cell, me, worker, pid = _marker(tmp_path, proc, 14)
        os.kill(pid, signal.SIGKILL)
        out, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err[-600:]
    d = json.loads(out.strip().splitlines()[-1])
    assert d["totals"]["tours"] == 6_637_920
    assert d["undirected_closed_tours"] == 9_862
    again = d["slices"][cell]["per_slice"][me]
    assert again["worker"] != worker                 # read again by the other worker
    assert list(tmp_path.iterdir()) == []
    cluster.wait_for_workers(2)                      # the nanny restarted it


@pytest.mark.parametrize("sig,code,word", [(signal.SIGTERM, 143, "terminated"),
                                           (signal.SIGINT, 130, "interrupted")])
def test_a_signal_on_a_cluster_run_leaves_no_slice_on_disk(cluster, tmp_path, sig, code,
                                                           word):
    """SIGTERM or Ctrl-C while the workers read slices: one line, exit 143 or 130, the
    running slices stopped by the folder's stop file before the folder is removed."""
    proc = subprocess.Popen(_count(6, 6, tmp_path, "--slices", "8", "--scheduler",
                                   cluster.address),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=_env(),
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        _marker(tmp_path, proc, 12)
        proc.send_signal(sig)
        t0 = time.monotonic()
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == code and err.strip().splitlines()[-1] == word, err[-600:]
    assert time.monotonic() - t0 < 20
    assert list(tmp_path.iterdir()) == []
    time.sleep(1.0)                                  # no worker writes into it afterwards
    assert list(tmp_path.iterdir()) == []


def _unshare_works() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs none /mnt"],
                           capture_output=True, timeout=30)
    return probe.returncode == 0


@pytest.mark.skipif(not _unshare_works(), reason="needs unprivileged user and mount "
                    "namespaces (unshare -rm) to give a worker a file system of its own")
def test_a_worker_that_cannot_reach_the_folder_ends_the_run_in_one_line(tmp_path):
    spill = tmp_path / "spill"
    spill.mkdir()
    c = Cluster(0)
    try:
        # the worker sees an empty file system of its own over the spill folder's parent
        blind = c._start(["unshare", "-rm", "sh", "-c",
                          'mount -t tmpfs none "$0" && exec "$1" worker "$2" --nthreads 1 '
                          "--no-dashboard", str(spill), str(BIN / "dask"), c.address])
        c.workers.append(blind)
        c.procs.append(blind)
        c.wait_for_workers(1)
        p = subprocess.run(_count(6, 5, spill, "--slices", "4", "--scheduler", c.address),
                           capture_output=True, text=True, timeout=120, env=_env())
    finally:
        c.close()
    assert p.returncode == 2, p.stderr[-600:]
    last = p.stderr.strip().splitlines()[-1]
    assert "cannot reach the spill folder" in last and "tcp://127.0.0.1:" in last
    assert str(spill) in last and "Traceback" not in p.stderr
    assert list(spill.iterdir()) == []
