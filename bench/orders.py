"""Benchmark: the whole 8×8 move-order analysis (40,320 orders × 64 starts = 2,580,480 plain
Warnsdorff walks) against the 0.5 s target, orders sharing their walks (the default) side by
side with one walk per order, and the default tie-break study (n = 5..200).

    .venv/bin/python bench/orders.py [--runs 5]

Prints the median and best of several runs after a warm-up, walks per second, the ratio to the
target, and the load average (the machine is shared: figures move with it).
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
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--size", type=int, default=8)
    args = ap.parse_args()

    from knightgui_core.studies.orders import run_orders
    from knightgui_core.studies.tiebreaks import run_tiebreaks
    from knightgui_core.system.jit import MODE, num_threads

    t = time.perf_counter()
    run_orders(5)  # compile or load the cached kernels
    warm = time.perf_counter() - t
    print(f"threads: {num_threads()} (kernels: {MODE}), "
          f"warm-up {warm:.2f} s, load average {os.getloadavg()[0]:.2f}")

    for tie in ("first", "last"):
        times, cpu, res = [], [], None
        for _ in range(args.runs):
            c0 = time.process_time()
            res = run_orders(args.size, tie)
            cpu.append(time.process_time() - c0)
            times.append(res.seconds)
        med, best = statistics.median(times), min(times)
        own = statistics.median(run_orders(args.size, tie, shared=False).seconds
                                for _ in range(max(1, args.runs // 2)))
        print(f"move orders {args.size}×{args.size} tie={tie}: one walk per order "
              f"{own:.3f} s, shared walks {med:.3f} s: {own / med:.1f}× faster")
        print(f"move orders {args.size}×{args.size} tie={tie}: {res.walks:,} walks, "
              f"median {med:.3f} s, best {best:.3f} s over {args.runs} runs, "
              f"{res.walks / med / 1e6:.2f} M walks/s (median); "
              f"target {TARGET_S:.1f} s → ratio {med / TARGET_S:.2f}; "
              f"CPU {statistics.median(cpu):.3f} s (all threads)")
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
