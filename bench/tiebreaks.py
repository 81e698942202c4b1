"""Tie-break study speed: one rule from the corner, n = 5…2000 (about 2.7·10⁹ squares if every
walk completes). Target: ≤ 60 s on 2 cores for a rule.

    .venv/bin/python bench/tiebreaks.py [--max 2000] [--rules first,center-far,squirrel] \
                                        [--runner threads]

Prints, per rule: wall time, squares walked (moves), moves per second, and the rate per core
beside a single walk of the same kernel on the largest board (the study's overhead). Figures
are measured side by side in one run; on a shared machine they vary with the load.
"""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from knightgui_core.studies.tiebreaks import make_tasks, run_task, run_tiebreaks, walk
from knightgui_core.system.jit import num_threads


def moves_walked(res, r: int) -> int:
    """Squares visited by the walks of rule r (one corner walk per n)."""
    sizes = res.sizes.astype(np.int64)
    ok = res.completed[r] > 0
    return int((sizes[ok] ** 2).sum() + res.fail_len[r][~ok & (res.tried[r] > 0)].sum())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="tie-break study speed, one rule from a1")
    ap.add_argument("--max", type=int, default=2000)
    ap.add_argument("--rules", default="first,center-far,squirrel")
    ap.add_argument("--runner", default=None, metavar="SCHEDULER",
                    help="also run each rule through the Dask runner (threads, processes or "
                    "tcp://HOST:PORT) and print the ratio against the thread pool")
    args = ap.parse_args(argv)
    rules = [r.strip() for r in args.rules.split(",") if r.strip()]
    walk("first", 8, "a1")                      # compile / load the kernels first
    run_tiebreaks(12, rules=rules)
    threads = num_threads()
    print(f"tie-break study, n = 5..{args.max} from a1, {threads} threads")
    for rule in rules:
        t0 = time.perf_counter()
        res = run_tiebreaks(args.max, rules=[rule])
        wall = time.perf_counter() - t0
        moves = moves_walked(res, 0)
        n = args.max
        t1 = time.perf_counter()
        out = run_task(make_tasks([rule], n, n)[0])      # one walk, the same kernel
        one = time.perf_counter() - t1
        per_core_single = (n * n if out["completed"][0] else out["fail_len"][0]) / one
        per_core_study = moves / wall / threads
        verdict = "ok" if wall <= 60 else "OVER the 60 s target"
        print(f"  {rule:<12} {wall:7.1f} s  {moves / 1e9:5.2f}·10⁹ moves  "
              f"{moves / wall / 1e6:6.1f} M moves/s  ({per_core_study / 1e6:5.1f} M/s a core; "
              f"one {n}×{n} walk alone {per_core_single / 1e6:5.1f} M/s)  "
              f"failing n: {len(res.failing_n(rule))}  [{verdict}]")
        if args.runner:
            t2 = time.perf_counter()
            dres = run_tiebreaks(args.max, rules=[rule], scheduler=args.runner)
            dwall = time.perf_counter() - t2
            same = (dres.completed == res.completed).all() and (dres.fail_len == res.fail_len).all()
            print(f"  {'':<12} {dwall:7.1f} s through the Dask runner ({args.runner}, "
                  f"{dres.tasks['total']} tasks): {dwall / wall:.2f}× the thread pool; "
                  f"same counts: {bool(same)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
