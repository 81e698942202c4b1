"""The cluster's side of a spilled frontier count (core/studies/slice_runner.py), in this
process: a slice stops within a round once its folder's stop file appears (what a worker on
another machine sees of the client's cancel), marks itself running while it reads, and
stop_slices waits for the running ones before it removes the folder. The count on a real
cluster: tests/robustness/test_frontier_cluster.py."""
from __future__ import annotations

import glob
import os
import threading
import time

import pytest

from knightgui_core.frontier.count import SpillPlan, count_frontier
from knightgui_core.frontier.spill import _STOPS
from knightgui_core.studies import slice_runner
from knightgui_core.studies.slice_runner import STOP_FILE, cluster_step, stop_slices
from knightgui_core.system.errors import Cancelled


def test_cluster_step_counts_as_the_local_slices(tmp_path):
    """Every slice through cluster_step (outside Dask: 'this process') gives the count in
    memory, names where it ran, and leaves no mark or stop flag behind."""
    seen = []

    def run(specs):
        got = [cluster_step(s) for s in specs]
        seen.extend((g.pop("worker"), g.pop("threads")) for g in got if g.pop("start") > 0)
        assert not list(tmp_path.glob("*/running-*"))
        return got
    res = count_frontier(5, [6], threads=2,
                         spill=SpillPlan(str(tmp_path), slices=4, run_slices=run))
    ref = count_frontier(5, [6], threads=2)
    assert (res.boards[0].paths, res.boards[0].cycles) == (ref.boards[0].paths,
                                                          ref.boards[0].cycles)
    assert set(seen) == {("this process", 2)} and len(seen) > 4 * 25
    assert list(tmp_path.iterdir()) == [] and not _STOPS


def test_a_stop_file_stops_a_running_slice_within_a_round(tmp_path):
    """6×6 open, one slice a cell: in cell 18 (about 0.4 M states) the stop file is written
    while the slice reads, and the slice raises Cancelled long before the cell's end."""
    outcome = {}

    def run(specs):
        if specs[0]["cell"] < 18:
            return [cluster_step(s) for s in specs]
        folder = specs[0]["folder"]
        th = threading.Thread(target=lambda: outcome.update(
            got=_catch(cluster_step, specs[0])))
        th.start()
        deadline = time.monotonic() + 30
        path = os.path.join(folder, "running-c18-s0")
        while not (os.path.exists(path) and open(path).read().endswith("\n")):
            assert time.monotonic() < deadline and th.is_alive(), outcome
            time.sleep(0.001)
        outcome["mark"] = open(path).read().split()
        t0 = time.perf_counter()
        open(os.path.join(folder, STOP_FILE), "w").close()
        th.join(60)
        outcome["after"] = time.perf_counter() - t0
        outcome["left"] = os.path.exists(os.path.join(folder, "running-c18-s0"))
        raise Cancelled("stopped by the test")
    with pytest.raises(Cancelled):
        count_frontier(6, [6], threads=1, spill=SpillPlan(str(tmp_path), slices=1, run_slices=run),
                       memory_limit=1 << 33)
    assert isinstance(outcome["got"], Cancelled), outcome
    assert outcome["mark"] == ["this", "process", str(os.getpid())]
    assert outcome["after"] < 1.0 and not outcome["left"]
    # the stopped count keeps only its progress (frontier_spill_run), no mark or stop file
    assert [p.name for r in tmp_path.iterdir() for p in r.iterdir()
            if p.name.startswith("running-") or p.name == STOP_FILE] == [] and not _STOPS


def _catch(fn, arg):
    try:
        return fn(arg)
    except BaseException as e:  # noqa: BLE001 - the test looks at it
        return e


def test_stop_slices_waits_for_the_running_and_removes_the_folder(tmp_path):
    folder = tmp_path / "run"
    folder.mkdir()
    mark = folder / "running-c3-s1"
    mark.write_text("tcp://w 1\n")
    (folder / "c3_s1_f0o0_t0.u64").write_bytes(b"\0" * 64)
    threading.Timer(0.3, mark.unlink).start()          # the slice sees STOP and ends
    t0 = time.perf_counter()
    stop_slices(str(folder), wait=10)
    assert 0.25 < time.perf_counter() - t0 < 5 and not folder.exists()
    # a killed worker's mark stays: the wait ends at its bound, the folder goes anyway
    folder.mkdir()
    (folder / "running-c4-s0").write_text("tcp://w 2\n")
    t0 = time.perf_counter()
    stop_slices(str(folder), wait=0.3)
    assert 0.25 < time.perf_counter() - t0 < 5 and not folder.exists()


def test_a_folder_the_worker_cannot_reach_is_one_line(tmp_path):
    spec = {"folder": str(tmp_path / "elsewhere"), "cell": 0, "slice": 0}
    with pytest.raises(slice_runner.SpillError, match="cannot reach the spill folder"):
        cluster_step(spec)


def test_a_workers_memory_limit_caps_its_slices(tmp_path, monkeypatch):
    """On a worker of one thread whose memory limit is 900,000 bytes a slice's tables take
    at most 60 % of it (540,000 bytes, against the run's 1 GiB): the bigger slices are read
    in parts, each on the worker's one thread (the files in the run's 2 shares), and the
    count is the same."""
    monkeypatch.setattr(slice_runner, "_worker", lambda: ("tcp://w:1", 900_000, 1))
    got = []

    written = set()

    def run(specs):
        written.update(glob.glob(os.path.join(specs[0]["folder"], "c*.u64")))
        out = [cluster_step(s) for s in specs]
        got.extend(out)
        return out
    res = count_frontier(5, [6], threads=2, spill=SpillPlan(str(tmp_path), slices=4, run_slices=run),
                         memory_limit=1 << 30)
    ref = count_frontier(5, [6], threads=2)
    assert res.boards[0].paths == ref.boards[0].paths
    assert max(g["parts"] for g in got) >= 2       # 1 GiB alone: every slice in one part
    assert {(g["worker"], g["threads"]) for g in got} == {("tcp://w:1", 1)}
    assert written and any(seg[1] == 1 for g in got for seg in g["files"])  # share 1 of 2
