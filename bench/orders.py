"""Benchmark: the whole 8×8 move-order analysis (40,320 orders × 64 starts = 2,580,480 plain
Warnsdorff walks) against the 0.5 s target, and the default tie-break study (n = 5..200).

    .venv/bin/python bench/orders.py [--runs 7] [--chunk N]
    .venv/bin/python bench/orders.py --through-runner [--runs 7]

Prints, after a warm-up, the median and best wall time and CPU time (all threads) of several
runs, walks per second, the ratio to the target, and the load average before each series
(the machine is shared: the wall time moves with the load, the CPU time much less).
``--chunk`` runs the orders in chunks of N (default: the study's own choice, one chunk on
8×8).

``--through-runner``: the same analysis as the window's Analysis view and ``knightgui study
move-orders`` run it — ``orders_runner.run_study``, tasks on the runner's default scheduler —
against the direct call, alternating run by run in one process (wall and CPU medians, the
difference of the wall medians; before them, the first run_study of the process, which
starts its scheduler: the window's first study), then the walks alone in one, 8 and 16
slices of the orders (CPU: the sharing a slice loses).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from _targets import check, verdict

TARGET_S = 0.5


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--size", type=int, default=8)
    ap.add_argument("--chunk", type=int, default=None)
    ap.add_argument("--through-runner", action="store_true")
    args = ap.parse_args()
    if args.through_runner:
        return through_runner(args.size, max(1, args.runs))

    from knightgui_core.studies.orders import run_orders
    from knightgui_core.studies.tiebreaks import run_tiebreaks
    from knightgui_core.system.jit import MODE, num_threads

    t = time.perf_counter()
    run_orders(5)  # compile or load the cached kernels
    warm = time.perf_counter() - t
    print(f"threads: {num_threads()} (kernels: {MODE}), warm-up {warm:.2f} s")

    for tie in ("first", "last"):
        load = os.getloadavg()[0]
        times, cpu, res = [], [], None
        for _ in range(max(1, args.runs)):
            c0 = time.process_time()
            res = run_orders(args.size, tie, chunk=args.chunk)
            cpu.append(time.process_time() - c0)
            times.append(res.seconds)
        assert res is not None
        med, best = statistics.median(times), min(times)
        print(f"move orders {args.size}×{args.size} tie={tie}, chunk {args.chunk or 'default'}: "
              f"{res.walks:,} walks; load average {load:.2f} before the runs")
        print(f"    wall median {med:.3f} s, best {best:.3f} s over {len(times)} runs "
              f"({res.walks / med / 1e6:.2f} M walks/s, median); "
              f"target {TARGET_S:.1f} s → ratio {med / TARGET_S:.2f}: "
              f"{check(f'move orders tie={tie}', med <= TARGET_S)}")
        print(f"    CPU  median {statistics.median(cpu):.3f} s, best {min(cpu):.3f} s "
              f"(all threads) → ratio {statistics.median(cpu) / TARGET_S:.2f}")
        s = res.summary()
        print(f"    failed_walks {s.failed_walks:,}, orders_with_failure "
              f"{s.orders_with_failure:,}, max_failures_per_order "
              f"{s.max_failures_per_order}, closed_walks {s.closed_walks:,}")

    times = []
    for _ in range(3):
        tb = run_tiebreaks(200)
        times.append(tb.seconds)
    print(f"tie-breaks n=5..200 from a1, rules {', '.join(tb.rules)}: median "
          f"{statistics.median(times):.3f} s; first failing n: "
          + ", ".join(f"{r}={tb.first_failing_n(r)}" for r in tb.rules))
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return verdict()


def _timed(fn) -> tuple[float, float]:
    w, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - w, time.process_time() - c


def _medians(name: str, runs: list[tuple[float, float]]) -> float:
    wall = statistics.median(r[0] for r in runs)
    print(f"    {name:<22} wall median {wall:.3f} s, best {min(r[0] for r in runs):.3f} s, "
          f"CPU median {statistics.median(r[1] for r in runs):.3f} s ({len(runs)} runs)")
    return wall


def through_runner(size: int, runs: int) -> int:
    """The analysis through the runner (the window's and the CLI's path) against the direct
    call, alternating; see the module docstring."""
    import numpy as np

    from knightgui_core.studies.orders import all_orders, run_orders
    from knightgui_core.studies.orders.runner import run_study
    from knightgui_core.studies.orders.walks import shared_walks

    run_orders(size)                 # kernels loaded
    first = _timed(lambda: run_study(size))[0]
    print(f"first run_study in this process (its scheduler started): {first:.3f} s wall")
    for tie in ("first", "last"):
        load = os.getloadavg()[0]
        direct: list[tuple[float, float]] = []
        runner: list[tuple[float, float]] = []
        for _ in range(runs):
            direct.append(_timed(lambda t=tie: run_orders(size, t)))
            runner.append(_timed(lambda t=tie: run_study(size, t)))
        same = run_study(size, tie)[0]
        ref = run_orders(size, tie)
        assert np.array_equal(same.lengths, ref.lengths) and np.array_equal(same.closed,
                                                                            ref.closed)
        print(f"move orders {size}×{size} tie={tie}, load average {load:.2f} before, "
              f"{os.getloadavg()[0]:.2f} after")
        a = _medians("direct run_orders", direct)
        b = _medians("through run_study", runner)
        print(f"    runner - direct: {b - a:+.3f} s on the wall medians (identical arrays)")
    table = np.ascontiguousarray(all_orders())
    for k in (1, 8, 16):
        step = table.shape[0] // k
        cpu = []
        for _ in range(3):
            c = time.process_time()
            for lo in range(0, table.shape[0], step):
                shared_walks(size, size, 0, table[lo:lo + step])
            cpu.append(time.process_time() - c)
        print(f"walks alone in {k:>2} slice{'s' if k > 1 else ' '} of {step:,} orders: CPU "
              f"median {statistics.median(cpu):.3f} s (3 runs, one thread)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
