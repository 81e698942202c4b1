"""Benchmark: the whole 8×8 move-order analysis (40,320 orders × 64 starts = 2,580,480 plain
Warnsdorff walks) against the 0.5 s target, orders sharing their walks (the default) side by
side with one walk per order, and the default tie-break study (n = 5..200).

    .venv/bin/python bench/orders.py [--runs 7] [--chunk N] [--no-compare]

Prints, after a warm-up, the median and best wall time and CPU time (all threads) of several
runs, walks per second, the ratio to the target, and the load average before each series
(the machine is shared: the wall time moves with the load, the CPU time much less).
``--chunk`` runs the orders in chunks of N (default: the study's own choice, one chunk on
8×8); ``--no-compare`` skips the one-walk-per-order runs (about 4 s each).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TARGET_S = 0.5


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--size", type=int, default=8)
    ap.add_argument("--chunk", type=int, default=None)
    ap.add_argument("--no-compare", action="store_true")
    args = ap.parse_args()

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
              f"target {TARGET_S:.1f} s → ratio {med / TARGET_S:.2f}")
        print(f"    CPU  median {statistics.median(cpu):.3f} s, best {min(cpu):.3f} s "
              f"(all threads) → ratio {statistics.median(cpu) / TARGET_S:.2f}")
        if not args.no_compare:
            own = statistics.median(run_orders(args.size, tie, shared=False).seconds
                                    for _ in range(max(1, args.runs // 3)))
            print(f"    one walk per order {own:.3f} s wall: shared walks {own / med:.1f}× faster")
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
