"""Benchmark: the Dask study runner (knightgui_core.run.runner), figures as ratios in one run.

    .venv/bin/python bench/dask_runner.py [--job 60] [--tasks 400] [--only 1246]

1. Local scheduler choice: start-up and the full-corner-dash Phadke family (106 tasks) on the
   in-process threaded cluster ("threads") and on a LocalCluster of worker processes
   ("processes"), side by side — the default ("local") is the better of the two.
2. Scheduling overhead per task: --tasks tasks that do nothing, one worker (target <= 5 ms).
3. Per-core rate: a move-order job (12×12 to 16×16, a slice of the orders sized to about
   --job seconds on one core) run directly by the kernel in this process against the runner with
   one worker (target: within 10 %).
4. Two workers against one on that job (target >= 1.8×; needs two idle cores).
5. (The whole Phadke study on the runner against the embedded thread pool: bench/phadke.py
   --runner.)
6. count 9×9 over all starts (target <= 30 s on 2 cores) and its per-core rate: the count
   kernel directly in this process against the runner with one worker (target: within 10 %).

The machine is shared: the load average is printed with every figure; on a loaded machine
the ratios (2 against 1 especially) fall short of what two idle cores give. Exit status 1
when a figure misses its target, each one named on the last line.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

from _targets import check, verdict


def load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def noop(i: int) -> int:
    return i


def local_choice(repeat: int = 2) -> None:
    from knightgui_core.run import runner
    from knightgui_core.studies import phadke as P
    from knightgui_core.studies.phadke.runner import run_study
    algos = P.algorithms("cd")
    for mode in ("threads", "processes"):
        t = time.perf_counter()
        runner.local_client(mode)
        run_study(algos[:1], scheduler=mode)          # workers load the kernels
        start = time.perf_counter() - t
        times = []
        for _ in range(repeat):
            t = time.perf_counter()
            _, rep = run_study(algos, scheduler=mode)
            times.append(time.perf_counter() - t)
        print(f"[1] {mode:9s}: start-up {start:5.2f} s, phadke cd ({rep.total} tasks) "
              f"best {min(times):5.2f} s of {repeat}   ({load()})")
        runner.shutdown_local()


def overhead(n: int) -> None:
    from knightgui_core.run import runner
    from knightgui_core.run.runner import Task, run_tasks
    for mode in ("threads", "processes"):
        runner.local_client(mode, 1)
        run_tasks([Task("bench/warm", "bench", {}, noop, (0,))], scheduler=mode, workers=1)
        tasks = [Task(f"bench/noop/{mode}/{i}", "bench", {"i": i}, noop, (i,))
                 for i in range(n)]
        t = time.perf_counter()
        run_tasks(tasks, scheduler=mode, workers=1)
        dt = time.perf_counter() - t
        ms = dt / n * 1e3
        print(f"[2] overhead per task ({mode}, 1 worker, {n} tasks): {ms:.2f} ms; target "
              f"5 ms: {check(f'[2] {mode}', ms <= 5)}   ({load()})")
        runner.shutdown_local()


def job_figures(job_s: float) -> None:
    import numpy as np

    from knightgui_core.run import runner
    from knightgui_core.studies.orders import all_orders
    from knightgui_core.studies.orders.runner import orders_tasks, run_study, walk_orders
    table = all_orders()
    for n in (12, 14, 16):                        # the first board whose orders fill the job
        walk_orders(n, n, 0, table[:8])           # kernels loaded
        t = time.perf_counter()
        walk_orders(n, n, 0, table[:252])
        per = (time.perf_counter() - t) / 252
        if per * len(table) >= job_s:
            break
    from knightgui_core.studies.orders.runner import slice_size
    size = slice_size(n * n)
    k = int(max(1, min(len(table) // size, round(job_s / per / size)))) * size
    sub = np.ascontiguousarray(table[:k])
    tasks = orders_tasks(n, "first", orders=sub)
    t, c = time.perf_counter(), time.process_time()
    for tk in tasks:
        walk_orders(*tk.args)
    direct, direct_cpu = time.perf_counter() - t, time.process_time() - c
    print(f"    job: move orders {n}×{n}, {k:,} orders × {n * n} starts = {k * n * n:,} walks, "
          f"{len(tasks)} tasks; direct kernel on one core {direct:.1f} s   ({load()})")
    runner.local_client("threads", 1)
    runner.local_client("threads", 2)
    run_study(5, "first", orders=table[:2], workers=1)
    run_study(5, "first", orders=table[:2], workers=2)
    t, c = time.perf_counter(), time.process_time()
    run_study(n, "first", orders=sub, workers=1)
    one, one_cpu = time.perf_counter() - t, time.process_time() - c
    print(f"[3] per-core rate, runner 1 worker {one:.1f} s against the kernel {direct:.1f} s: "
          f"{direct / one * 100:.1f} % of the kernel's rate (target >= 90 %: "
          f"{check('[3]', direct / one >= 0.9)}); CPU time "
          f"{one_cpu:.1f} s against {direct_cpu:.1f} s: {direct_cpu / one_cpu * 100:.1f} %   "
          f"({load()})")
    t = time.perf_counter()
    run_study(n, "first", orders=sub, workers=2)
    two = time.perf_counter() - t
    print(f"[4] 2 workers against 1: {one:.1f} s / {two:.1f} s = {one / two:.2f}× "
          f"(target >= 1.8×: {check('[4]', one / two >= 1.8)})   ({load()})")
    runner.shutdown_local()


def count_9x9() -> None:
    """count 9×9 over all starts on the runner's default (target <= 30 s), and its per-core
    rate against the count kernel run directly in this process on one core (both walking
    every node: the runner's count without a table and without folding)."""
    from knightgui_core.studies.count_study import CountOptions, run_count
    from knightgui_core.tietree.counting.subtrees import CountBoard, count_subtrees, start_classes
    reps = sorted(start_classes(9, 9, range(81)))
    run_count(5, 5, "all", scheduler="threads")            # cluster up, kernels loaded
    t, c = time.perf_counter(), time.process_time()
    cb, tours = CountBoard(9, 9), 0
    for s in reps:
        tours += count_subtrees(cb, s, [()]).tours
    direct, direct_cpu = time.perf_counter() - t, time.process_time() - c
    t, c = time.perf_counter(), time.process_time()
    one = run_count(9, 9, "all", scheduler="threads", workers=1,
                    options=CountOptions(table_bytes=0, fold=False))
    one_wall, one_cpu = time.perf_counter() - t, time.process_time() - c
    t = time.perf_counter()
    res = run_count(9, 9, "all")
    dt = time.perf_counter() - t
    counts = ("tours", "closed", "dead_ends")      # the probabilities differ in the last bits
    assert [one.totals[k] for k in counts] == [res.totals[k] for k in counts]
    assert tours == sum(one.per_start[cb.board.name(s)]["tours"] for s in reps)
    print(f"[6] count 9×9 kernel in this process, one core: {tours / direct / 1e6:.2f} M "
          f"tours/s ({direct:.1f} s wall, {direct_cpu:.1f} s CPU, 15 classes)   ({load()})")
    print(f"[6] count 9×9 runner, one worker, no table: {tours / one_wall / 1e6:.2f} M tours/s "
          f"({one_wall:.1f} s, {one.tasks['total']} tasks, {one_cpu:.1f} s CPU) → "
          f"{one_wall / direct:.2f}× the kernel's wall time (target <= 1.10: "
          f"{check('[6] one worker', one_wall / direct <= 1.1)}), {one_cpu / direct_cpu:.2f}× "
          f"its CPU time (under load the fairer one)   ({load()})")
    print(f"[6] count 9×9, all 81 starts, default scheduler: {dt:.1f} s, "
          f"{res.totals['tours']:,} tours; target 30 s: {check('[6] 9×9', dt <= 30)}   "
          f"({load()})")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--job", type=float, default=60.0, help="seconds of the job of [3] and "
                    "[4] on one core (default 60)")
    ap.add_argument("--tasks", type=int, default=400, help="no-op tasks for [2]")
    ap.add_argument("--only", default="12346", help="which figures, e.g. 26")
    a = ap.parse_args()
    print(f"{os.cpu_count()} cores, {load()}")
    if "1" in a.only:
        local_choice()
    if "2" in a.only:
        overhead(a.tasks)
    if "3" in a.only or "4" in a.only:
        job_figures(a.job)
    if "6" in a.only:
        count_9x9()
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
