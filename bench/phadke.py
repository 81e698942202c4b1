"""Phadke's whole study (22,432 algorithms) leaf by leaf against by the states of its tie trees,
side by side in one run.

    .venv/bin/python bench/phadke.py [--workers 2] [--family all] [--runner] [--window]

1. ``studies.phadke.run`` (the embedded thread pool, ``--workers`` threads) twice: with the
   kernel the study had before (``by_states=False``: ``count_batch_bits``, every leaf walked)
   and with the table (``by_states=True``: ``bits_memo_kernel.count_batch_memo`` through
   the pool of ``bits_table``, emptied first). Both make their inputs the same way (the
   faster dash plans serve both). Checks that every algorithm's solutions, dead ends and
   forward moves agree, prints the family totals beside the paper's, wall and CPU seconds
   and the ratio.
2. ``--runner``: the same two through the study runner (``knightgui study phadke``'s path:
   210 tasks on the in-process Dask cluster, ``--workers`` threads), the cluster started
   before the clock.
3. ``--window``: the table's lower window (tie nodes with fewer squares left are walked),
   one thread, one table for the whole study, per value: seconds, moves walked, lookups.

The machine is shared: the load average is printed before and after each figure; the peak
RSS of the process at the end. Target: the whole study by states in 5 s of wall time (on the
thread pool and on the runner); exit status 1 when it is missed or the counts differ.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import resource
import time

import numpy as np
from _targets import check, verdict

from knightgui_core.studies import phadke as P
from knightgui_core.studies.phadke import runner as PR
from knightgui_core.studies.phadke.tables import family_totals
from knightgui_core.tietree.counting import bits_memo_kernel as M
from knightgui_core.tietree.counting import bits_table as BT

#: wall seconds of the whole study by states
TARGET_S = 5.0


def load() -> str:
    return "load " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def timed(fn):
    BT.shared_pool().release()                  # every run starts with empty tables
    w0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return time.perf_counter() - w0, time.process_time() - c0, out


def leaf_by_leaf_task(ids):
    """The runner's task with the kernel before the table."""
    part = [PR._by_id()[i] for i in ids]                 # noqa: SLF001 - the same list
    out = P.AlgorithmBatch(part).run(np.arange(len(part)), by_states=False)
    return [[int(a.id), int(r[0]), int(r[1]), int(r[2])] for a, r in zip(part, out)]


def compare(label: str, old: dict, new: dict, t_old, t_new, target: float | None) -> None:
    same = old == new
    print(f"  {label}: leaf by leaf {t_old[0]:6.2f} s wall ({t_old[1]:6.2f} s CPU)  |  by "
          f"states {t_new[0]:5.2f} s wall ({t_new[1]:5.2f} s CPU)  |  {t_old[0] / t_new[0]:4.1f}x"
          f"  |  counts {'identical' if same else 'DIFFER'} ({len(new):,} algorithms)"
          + ("" if target is None else
             f"  |  target ≤ {target:g} s: {check(f'{label}, by states', t_new[0] <= target)}"))
    if not same:
        raise SystemExit("counts differ")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--family", default="all", choices=sorted(P.FAMILY_GROUPS))
    ap.add_argument("--runner", action="store_true", help="also through the study runner")
    ap.add_argument("--window", action="store_true", help="the table's lower window")
    a = ap.parse_args()
    algos = P.algorithms(a.family)
    target = TARGET_S if a.family == "all" else None
    print(f"Phadke {a.family}: {len(algos):,} algorithms, {a.workers} threads, "
          f"{os.cpu_count()} cores; {load()}")
    P.run(algos[:40], workers=a.workers)                      # kernels loaded or compiled
    P.run(algos[:40], workers=a.workers, by_states=False)
    print(f"[1] studies.phadke.run ({load()})")
    t_old = timed(lambda: P.run(algos, workers=a.workers, by_states=False))
    print(f"    ({load()})")
    t_new = timed(lambda: P.run(algos, workers=a.workers))
    compare("thread pool", t_old[2].counts, t_new[2].counts, t_old, t_new, target)
    print(f"    ({load()})")
    for r in family_totals(t_new[2]):
        print(f"    {r['family']:9s} {r['algorithms']:7,} algorithms  {r['solutions']:12,} "
              f"solutions (paper {r['paper_solutions']:,})")
    if a.runner:
        from knightgui_core.run.runner import run_tasks
        tasks = PR.phadke_tasks(algos)
        run_tasks(tasks[:2], workers=a.workers)               # the cluster, started
        old_tasks = [dataclasses.replace(t, fn=leaf_by_leaf_task) for t in tasks]
        print(f"[2] the study runner, {len(tasks)} tasks ({load()})")
        r_old = timed(lambda: run_tasks(old_tasks, workers=a.workers))
        print(f"    ({load()})")
        r_new = timed(lambda: run_tasks(tasks, workers=a.workers))
        wanted = {x.id for x in algos}
        compare("runner", {i: c for i, c in PR.counts_of(r_old[2]).items() if i in wanted},
                {i: c for i, c in PR.counts_of(r_new[2]).items() if i in wanted}, r_old, r_new,
                target)
        print(f"    ({load()})")
    if a.window:
        bat = P.AlgorithmBatch(algos)
        print(f"[3] window, one thread, one {BT.DEFAULT_BYTES >> 20} MiB table ({load()})")
        for lo in (8, 10, 12, 14, 16, 20, 24):
            table = BT.BitsTable(BT.DEFAULT_BYTES, memo_min=lo)
            t0 = time.perf_counter()
            out = BT.count_by_states(bat.att, bat.starts, bat.dash, bat.endm, bat.free0,
                                     bat.avail0, table)
            dt = time.perf_counter() - t0
            st = table.stats
            walked = int(out[:, 2].sum()) - int(st[M.SS_FROM_TABLE])
            print(f"    at least {lo:2d} squares left: {dt:5.2f} s, {walked / 1e6:6.1f} M of "
                  f"{out[:, 2].sum() / 1e6:,.0f} M moves walked, {st[M.SS_PROBES]:,} lookups, "
                  f"{st[M.SS_HITS]:,} hits, {st[M.SS_EVICTED]:,} evicted ({load()})")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS {rss:,.0f} MiB; tables of {BT.DEFAULT_BYTES >> 20} MiB, at most "
          f"{BT.shared_pool().keep} kept plus one per busy thread")
    return verdict()


if __name__ == "__main__":
    raise SystemExit(main())
