"""Which reading of Roth's rule fails first at n = 428? (docs/tie-breaks.md, "Roth")

Roth's rule, as Ganzfried reports it: among the Warnsdorff-tied candidates, the one farthest
(Euclidean) from the centre of the board; reported to fail first on 428×428 and less than
1 % of the time below 2000. What the report does not say: the residual tie order, whether
residual ties are random, the start square, where the centre of an even board is, the
distance. This script walks every combination below from n = 5 upwards and prints the first
failing n of each (``--max`` caps the sweep), then, for the random-residual readings, the
failure rate over ``--trials`` seeds per n on a grid of n.

    .venv/bin/python bench/roth_readings.py --max 2000 [--json out.json]

Readings: centre ∈ {exact ((n−1)/2), one-based (n/2 counted from 1: half a square towards
a1 on every board), far (half a square towards the far corner)} × distance ∈ {euclid,
manhattan, chebyshev} × start ∈ 4 corners × residual order ∈ 16 orders (the 8 rotations of
12345678 and of 87654321) or random. Deterministic: the same command prints the same table.
"""
from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from knightgui_core.board.rules import parse_order
from knightgui_core.system.jit import num_threads
from knightgui_core.walks.walk_kernel import CENTRES, METRICS, greedy_walk, roth_code

NO_SCORE = np.zeros(0, dtype=np.int8)
CORNERS = ("a1", "h1", "a8", "h8")   # names for n = 8; flat squares computed per n


def corner_square(n: int, which: str) -> int:
    c = 0 if which[0] == "a" else n - 1
    r = 0 if which[1] == "1" else n - 1
    return r * n + c


def orders16() -> list[str]:
    base = ["12345678", "87654321"]
    out = []
    for b in base:
        for k in range(8):
            out.append(b[k:] + b[:k])
    return out


def walk_ok(n, start, code, pos, seed) -> bool:
    path = np.empty(n * n, dtype=np.int32)
    ties = np.empty(n * n, dtype=np.uint8)
    return int(greedy_walk(n, n, start, code, pos, seed, NO_SCORE, path, ties)) == n * n


def first_failure(code, order, corner, n_max, seed=0) -> int | None:
    pos = parse_order(order).positions()
    for n in range(5, n_max + 1):
        if not walk_ok(n, corner_square(n, corner), code, pos, seed):
            return n
    return None


def failure_rate(code, corner, sizes, trials, seed0=0) -> dict:
    pos = parse_order("12345678").positions()
    fails = {}
    for n in sizes:
        fails[n] = sum(not walk_ok(n, corner_square(n, corner), code, pos, seed0 + t)
                       for t in range(trials))
    return fails


def orders_failing_first_at(n_at: int) -> int:
    """Every residual order under which the exact-centre Euclidean rule from a1 fails on
    n_at×n_at but on no smaller board: one walk on n_at for each of the 8! orders, then the
    smaller sizes for the orders that fail there (most of those fail early, cheaply)."""
    t0 = time.perf_counter()
    code = roth_code(False, 0, 0)
    perms = ["".join(p) for p in itertools.permutations("12345678")]

    def fails_at(o):
        return not walk_ok(n_at, 0, code, parse_order(o).positions(), 0)

    def first(o):
        return first_failure(code, o, "a1", n_at)
    with ThreadPoolExecutor(num_threads()) as pool:
        at = [o for o, f in zip(perms, pool.map(fails_at, perms)) if f]
        hits = [o for o, f in zip(at, pool.map(first, at)) if f == n_at]
    print(f"  exact centre, Euclidean, from a1: {len(at):,} of {len(perms):,} orders fail on "
          f"{n_at}×{n_at}; {len(hits)} of them fail there first: {hits}")
    print(f"  {time.perf_counter() - t0:.1f} s on {num_threads()} threads")
    return 0


def all_orders(args) -> int:
    t0 = time.perf_counter()
    perms = ["".join(p) for p in itertools.permutations("12345678")]
    if args.orders < len(perms):
        pick = np.random.default_rng(0).choice(len(perms), args.orders, replace=False)
        perms = [perms[i] for i in np.sort(pick)]
    cases = [("exact", "a1"), ("one-based", "a1"), ("far", "a1")]
    report = {}
    for centre, corner in cases:
        code = roth_code(False, CENTRES.index(centre), 0)
        with ThreadPoolExecutor(num_threads()) as pool:
            firsts = list(pool.map(lambda o, c=code, k=corner: first_failure(c, o, k, args.max),
                                   perms))
        vals = np.array([f if f is not None else args.max + 1 for f in firsts])
        top = np.argsort(-vals, kind="stable")[:5]
        hits = [perms[i] for i in np.flatnonzero(vals == 428)]
        report[f"{centre}/{corner}"] = {
            "latest": [(perms[i], int(vals[i])) for i in top], "at_428": hits,
            "never_to_max": int((vals > args.max).sum()),
            "first_failure": {o: int(v) for o, v in zip(perms, vals)},
            "quantiles": [int(q) for q in np.percentile(vals, [10, 50, 90, 99])]}
        print(f"  centre {centre:<9} from {corner}: first failing n over {len(perms):,} orders: "
              f"10/50/90/99 % = {report[f'{centre}/{corner}']['quantiles']}; latest "
              f"{report[f'{centre}/{corner}']['latest']}; orders failing first at 428: "
              f"{hits[:8]}{' ...' if len(hits) > 8 else ''} ({len(hits)}); none to "
              f"{args.max}: {report[f'{centre}/{corner}']['never_to_max']}", flush=True)
    print(f"  {time.perf_counter() - t0:.1f} s on {num_threads()} threads")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"max": args.max, "all_orders": report}, fh)
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max", type=int, default=2000)
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--rate-step", type=int, default=50,
                    help="n grid step for the failure rate of the random readings")
    ap.add_argument("--json", default=None)
    ap.add_argument("--all-orders", action="store_true",
                    help="instead: the 8! residual orders (or --orders of them, drawn with "
                    "numpy seed 0), Euclidean distance, centres exact / one-based / far from "
                    "a1; prints the distribution of the first failing n")
    ap.add_argument("--at", type=int, default=None, metavar="N",
                    help="instead: every order of the 8! whose first failing n (exact centre, "
                    "Euclidean, from a1) is exactly N (N = 428: Roth's figure)")
    ap.add_argument("--orders", type=int, default=40320,
                    help="how many of the 8! orders --all-orders walks (default all)")
    args = ap.parse_args(argv)
    if args.all_orders:
        return all_orders(args)
    if args.at is not None:
        return orders_failing_first_at(args.at)
    t0 = time.perf_counter()
    jobs = [(ci, mi, corner, order)
            for ci, mi in itertools.product(range(len(CENTRES)), range(len(METRICS)))
            for corner in CORNERS for order in orders16()]
    with ThreadPoolExecutor(num_threads()) as pool:
        firsts = list(pool.map(lambda j: first_failure(roth_code(False, j[0], j[1]), j[3],
                                                       j[2], args.max), jobs))
    rows = [{"centre": CENTRES[ci], "metric": METRICS[mi], "start": corner, "residual": order,
             "first_failure": f} for (ci, mi, corner, order), f in zip(jobs, firsts)]
    # random residual ties: first failure over seeds 0..trials-1, and failure rates
    rjobs = [(ci, mi, corner, seed) for ci, mi in itertools.product(range(len(CENTRES)),
                                                                     range(len(METRICS)))
             for corner in ("a1",) for seed in range(args.trials)]
    with ThreadPoolExecutor(num_threads()) as pool:
        rfirst = list(pool.map(lambda j: first_failure(roth_code(True, j[0], j[1]),
                                                       "12345678", j[2], args.max, j[3]),
                               rjobs))
    for (ci, mi, corner, seed), f in zip(rjobs, rfirst):
        rows.append({"centre": CENTRES[ci], "metric": METRICS[mi], "start": corner,
                     "residual": f"random seed {seed}", "first_failure": f})
    grid = list(range(args.rate_step, args.max + 1, args.rate_step))
    with ThreadPoolExecutor(num_threads()) as pool:
        rates = list(pool.map(lambda cm: failure_rate(roth_code(True, cm[0], cm[1]), "a1",
                                                      grid, args.trials),
                              list(itertools.product(range(len(CENTRES)),
                                                     range(len(METRICS))))))
    rate_rows = [{"centre": CENTRES[ci], "metric": METRICS[mi], "sizes": grid,
                  "trials": args.trials, "failures": [r[n] for n in grid]}
                 for (ci, mi), r in zip(itertools.product(range(len(CENTRES)),
                                                          range(len(METRICS))), rates)]
    seconds = time.perf_counter() - t0
    out = sys.stdout
    out.write(f"Roth readings, first failing n (sweep 5..{args.max}; None = no failure)\n")
    for ci, mi in itertools.product(range(len(CENTRES)), range(len(METRICS))):
        sel = [r for r in rows if r["centre"] == CENTRES[ci] and r["metric"] == METRICS[mi]]
        det = [r["first_failure"] for r in sel if not r["residual"].startswith("random")]
        rnd = [r["first_failure"] for r in sel if r["residual"].startswith("random")]
        best = max(det, key=lambda v: v if v is not None else 10**9)
        near = min(sel, key=lambda r: abs((r["first_failure"] or 10**9) - 428))
        out.write(f"  centre {CENTRES[ci]:<9} {METRICS[mi]:<9} fixed orders: latest "
                  f"{best}, median {int(np.median([v or args.max for v in det]))}; random "
                  f"ties (a1, {args.trials} seeds): {sorted(v or 0 for v in rnd)}; nearest "
                  f"428: {near['first_failure']} ({near['start']}, {near['residual']})\n")
    for rr in rate_rows:
        f = np.array(rr["failures"])
        out.write(f"  failure rate, random ties, {rr['centre']}/{rr['metric']}: "
                  f"{f.sum()}/{f.size * rr['trials']} walks on n = {grid[0]}, "
                  f"{grid[0] + args.rate_step}, ..., {grid[-1]}\n")
    out.write(f"  {seconds:.1f} s on {num_threads()} threads\n")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"max": args.max, "trials": args.trials, "first_failure": rows,
                       "failure_rate": rate_rows, "seconds": round(seconds, 1)}, fh)
    return 0


if __name__ == "__main__":
    sys.exit(main())
