"""Exhaustive enumeration benchmark. Medians after warm-up.

    .venv/bin/python bench/enumerate.py [--repeat N] [--no-study] [--workers W]

* a8→c7 strict, single thread: solutions/s and forward moves/s (target ≥ 2.5 M solutions/s;
  the DEC1077 of 1981 managed about 22 solutions a second);
* the first 1,981 solutions of a8→c7 through the Python API (the window's use; target well
  under 50 ms);
* all 53 strict combinations, single thread;
* the whole 22,432-run study on all cores (target ≤ 30 s on 2 cores).

Exit status 1 when a figure misses its target.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from _targets import check, verdict

from knightgui_core.studies import phadke as P
from knightgui_core.studies.phadke.tables import family_totals, format_families
from knightgui_core.tietree.enumeration.enumerator import Enumerator

PHADKE_1981 = 1200 / 55.0   # solutions per CPU second on the DEC1077 (52–58 s per 1,200)


BEST = {}


def median_time(fn, repeat):
    """Median wall time after a warm-up call; the best run is kept in BEST[fn]."""
    fn()
    ts, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        ts.append(time.perf_counter() - t)
    BEST[fn] = min(ts)
    return statistics.median(ts), out


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--no-study", action="store_true", help="skip the 22,432-run study")
    ap.add_argument("--workers", type=int, default=None)
    a = ap.parse_args(argv)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average (1 min) at start: {load:.2f} on {os.cpu_count()} CPUs")

    for label, bits in (("bitboard kernel", True), ("general kernel", False)):
        eng = Enumerator(8, 8, "a8", "c7", bits=bits).engine
        t, r = median_time(eng.count, a.repeat)
        sol, dead, fwd = int(r[0]), int(r[1]), int(r[2])
        print(f"a8→c7 strict, {label}: {sol:,} solutions, {dead:,} dead ends, {fwd:,} forward "
              f"moves in {t * 1e3:.2f} ms (best {BEST[eng.count] * 1e3:.2f}) = "
              f"{sol / t / 1e6:.2f} M solutions/s, {fwd / t / 1e6:.1f} M moves/s"
              + ("  (target ≥ 2.5 M/s: " + check("a8→c7 solutions/s", sol / t >= 2.5e6) + ", "
                 f"{sol / t / PHADKE_1981:,.0f}× the 1981 mainframe)" if bits else ""))

    def first1981():
        return Enumerator(8, 8, "a8", "c7").first(1981)
    t, sols = median_time(first1981, a.repeat)
    print(f"first 1,981 solutions of a8→c7 via Enumerator.first: {t * 1e3:.1f} ms "
          f"(target under 50 ms: {check('first 1,981 solutions', t < 0.05)})")

    def step1981():
        en = Enumerator(8, 8, "a8", "c7")
        return [en.next_solution() for _ in range(1981)]
    t, _ = median_time(step1981, max(3, a.repeat // 3))
    print(f"first 1,981 solutions one next_solution() call each: {t * 1e3:.1f} ms")

    strict = P.algorithms("strict")
    t, res = median_time(lambda: P.run(strict, workers=1, batch=64), max(3, a.repeat // 3))
    tot = family_totals(res)[0]
    fwd = tot["forward_moves"]
    print(f"53 strict combinations, 1 thread: {tot['solutions']:,} solutions in {t:.3f} s = "
          f"{tot['solutions'] / t / 1e6:.2f} M solutions/s, {fwd / t / 1e6:.1f} M moves/s")

    if not a.no_study:
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        cpu0 = time.process_time()
        res = P.run(workers=a.workers)
        cpu = time.process_time() - cpu0
        tot = [r for r in family_totals(res) if r["family"] == "total"][0]
        print(format_families(res))
        print(f"whole study: {len(res.counts):,} algorithms, {tot['solutions']:,} solutions in "
              f"{res.seconds:.1f} s on {a.workers or os.cpu_count()} threads "
              f"(target ≤ 30 s on 2 cores: {check('whole study', res.seconds <= 30)}; "
              f"load average before: {load:.2f})")
        n = a.workers or os.cpu_count() or 1
        print(f"  CPU time of the study: {cpu:.1f} s (busy {cpu / res.seconds:.2f} of {n} "
              f"cores); on {n} idle cores that is about {cpu / n:.1f} s of wall time")
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
