"""Benchmark: a frontier count through slices on disk, on this machine and on a Dask cluster.

    .venv/bin/python bench/frontier_cluster.py [--rows 6 --cols 6] [--slices 8]
        [--workers 2] [--threads 1] [--closed-only] [--spill DIR]

Starts a `dask scheduler` and ``--workers`` `dask worker --nthreads T` processes on
127.0.0.1 (the commands a user runs on a cluster's machines), then runs the same command
twice, as a user would:

    knightgui study count --all-tours --rows R --cols C --method frontier \\
        --spill DIR --slices K --json                      (this machine: slice after slice)
    ... --scheduler tcp://127.0.0.1:PORT                   (the slices on the workers)

and prints, for each: wall seconds, the CPU seconds of the command (user + system) and of
the workers (their processes' CPU during the run), the count, and how many slices each
worker read. The cluster's start-up is not in the figures. The machine is shared: the load
average is printed beside every figure.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import psutil

BIN = Path(sys.executable).parent


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cpu(procs: list[psutil.Process]) -> float:
    """User + system CPU seconds of ``procs`` and their children."""
    total = 0.0
    for p in procs:
        try:
            for q in [p, *p.children(recursive=True)]:
                t = q.cpu_times()
                total += t.user + t.system
        except psutil.NoSuchProcess:
            pass
    return total


def _run(cmd: list[str], workers: list[psutil.Process]) -> tuple[dict, float, float]:
    """The command's JSON answer, its wall seconds and the workers' CPU during it."""
    w0 = _cpu(workers)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"the command failed ({p.returncode}): {p.stderr.strip().splitlines()[-1:]}")
    return json.loads(p.stdout.strip().splitlines()[-1]), wall, _cpu(workers) - w0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=6)
    ap.add_argument("--cols", type=int, default=6)
    ap.add_argument("--slices", type=int, default=8)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--closed-only", action="store_true")
    ap.add_argument("--spill", default=None, help="parent of the spill folder (default: a "
                    "temporary folder)")
    a = ap.parse_args()
    spill = a.spill or tempfile.mkdtemp(prefix="bench-frontier-cluster-")
    port = _port()
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("KNIGHTGUI_SCHEDULER", None)
    procs = [subprocess.Popen([str(BIN / "dask"), "scheduler", "--host", "127.0.0.1",
                               "--port", str(port), "--no-dashboard"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                              start_new_session=True)]
    procs += [subprocess.Popen([str(BIN / "dask"), "worker", address, "--nthreads",
                                str(a.threads), "--no-dashboard"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                               start_new_session=True) for _ in range(a.workers)]
    try:
        from distributed import Client
        deadline = time.monotonic() + 60
        while True:
            try:
                with Client(address, timeout=5, set_as_default=False) as c:
                    c.wait_for_workers(a.workers, timeout=60)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        workers = [psutil.Process(p.pid) for p in procs[1:]]
        base = [sys.executable, "-m", "knightgui", "study", "count", "--all-tours",
                "--rows", str(a.rows), "--cols", str(a.cols), "--method", "frontier",
                "--spill", spill, "--slices", str(a.slices), "--json"]
        if a.closed_only:
            base.append("--closed-only")
        print(f"{a.rows}x{a.cols} {'closed' if a.closed_only else 'open'} through at least "
              f"{a.slices} slices; cluster: {a.workers} worker(s) x {a.threads} thread(s); "
              f"{os.cpu_count()} cores here")
        for name, cmd in (("this machine", base), ("cluster", base + ["--scheduler", address])):
            load = os.getloadavg()[0]
            before = resource_children()
            got, wall, wcpu = _run(cmd, workers)
            cpu = resource_children() - before
            per = Counter(s["worker"] for c in got["slices"] for s in c["per_slice"]
                          if "worker" in s)
            print(f"{name:>13}: {wall:6.1f} s wall, command CPU {cpu:6.1f} s, workers' CPU "
                  f"{wcpu:6.1f} s, {got['undirected_paths']:,} undirected paths, "
                  f"{got['undirected_closed_tours']:,} closed, {len(got['slices'])} cells, "
                  f"slices per worker {dict(per) or '-'}  (load {load:.1f})")
    finally:
        for p in procs:
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for p in procs:
            p.wait(15)


def resource_children() -> float:
    """User + system CPU seconds of this process's finished children."""
    import resource
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


if __name__ == "__main__":
    main()
