"""The frontier count (column by column) against the visited-set counter, board by board.

    .venv/bin/python bench/frontier.py                 # the quick set (a few minutes)
    .venv/bin/python bench/frontier.py --long          # also 6×6 open, 6×20, 7×7 open, 8×8 states
    .venv/bin/python bench/frontier.py --only 7x7      # one board (--closed-only, --cap-gb,
                                                       # --threads)

Each measurement runs in a fresh process with warm kernels (a first run compiles them and is
not timed), which reports its wall and CPU seconds and its own peak RSS (``ru_maxrss``); the
largest state table and the states after each column come from the count itself. For boards
both methods reach it times both and the ``auto`` choice, and says whether ``auto`` took the
faster (by CPU seconds: on a shared machine the wall time measures the other sessions too);
the same for the paths from one start (a1). Every count is checked against the OEIS term it
reproduces. Exit status 1 when a count differs or ``auto`` is much slower (by half) than the
faster method. The load average is printed with the figures: the machine may be shared.

The 8×8 closed count is the moonshot: ``--long`` measures the closed states of 8×n column by
column under a memory cap (``--cap-gb``, default 8) and prints the growth, from which the plan
in docs/counts.md is made.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

from _targets import check, verdict

CHILD = r"""
import json, resource, sys, time
from knightgui_core.frontier.count import FrontierError, count_frontier
from knightgui_core.run.runner import run_tasks
from knightgui_core.studies.all_tours import run_all_tours
job = json.loads(sys.argv[1])
t0, c0 = time.perf_counter(), time.process_time()
out = {}
try:
    if job.get("start") is not None:          # the paths from one start square (col, row)
        from knightgui_core.board.squares import Board
        from knightgui_core.studies.all_tours import all_tours_task
        from knightgui_core.studies.tour_methods import run_frontier_starts
        rows, cols, (c, r) = job["rows"], job["cols"][0], job["start"]
        if job["method"] == "frontier":
            paths = run_frontier_starts(rows, cols, [(c, r)])[0][0]
        else:
            b = Board(rows, cols)
            paths = all_tours_task(rows, cols, b.name(b.index(c, r)))["tours"]
        out = {"start_paths": paths}
    elif job["method"] == "frontier":
        res = count_frontier(job["rows"], job["cols"], closed_only=job["closed_only"],
                             memory_limit=job.get("cap"), threads=job.get("threads"))
        out = {"boards": [[b.cols, b.cycles, b.paths] for b in res.boards],
               "peak_states": res.peak_states, "peak_table_bytes": res.peak_table_bytes,
               "state_cells": res.state_cells,
               "column_states": res.column_states}
    else:
        rows, cols = job["rows"], job["cols"][0]
        d = run_all_tours(rows, cols, runner=lambda t: run_tasks(
            t, scheduler="threads", workers=1)).to_dict()
        out = {"boards": [[cols, d["undirected_closed_tours"], d["undirected_paths"]]]}
except FrontierError as e:
    out = {"refused": str(e), "column_states": e.result.column_states if e.result else []}
out["wall"] = time.perf_counter() - t0
out["cpu"] = time.process_time() - c0
out["rss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps(out))
"""

# closed, undirected paths per board, from the OEIS (A175881, A175855 via A383661, A083386
# via A389755, A079137, A165134 halved, A001230)
KNOWN = {(6, 6): (9862, 3318960), (4, 10): (0, 1213112), (3, 12): (176, 57248),
         (5, 6): (8, 18784), (5, 8): (44202, 18061054),
         (5, 5): (0, 864), (4, 6): (0, 744), (6, 7): (1067638, None), (7, 7): (None, 82787609160),
         (6, 20): (276453522147273309254029785276, None), (8, 8): (13267364410532, None),
         (5, 14): (1495135512514, None)}


def run_job(job: dict, timeout: float) -> dict:
    """One measurement in a fresh process; ``{"timeout": True}`` when it ran out of time."""
    try:
        cp = subprocess.run([sys.executable, "-c", CHILD, json.dumps(job)], capture_output=True,
                            text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"timeout": True}
    if cp.returncode != 0:
        return {"error": cp.stderr.strip().splitlines()[-1:]}
    return json.loads(cp.stdout.strip().splitlines()[-1])


def oeis(rows: int, got: list) -> str:
    """Whether the counts are the OEIS terms (a difference is a missed target)."""
    notes = []
    for cols, cycles, paths in got:
        want = KNOWN.get((rows, cols)) or KNOWN.get((cols, rows))
        if want is None:
            continue
        if want[0] is not None and cycles != want[0]:
            notes.append(f"{rows}×{cols} closed {cycles} ≠ {want[0]}")
        if want[1] is not None and paths is not None and paths != want[1]:
            notes.append(f"{rows}×{cols} paths {paths} ≠ {want[1]}")
    check("; ".join(notes), not notes)
    return "; ".join(notes) or "OEIS ok"


def line(what: str, r: dict) -> str:
    if r.get("timeout"):
        return f"{what:<34} out of time"
    if "error" in r:
        return f"{what:<34} failed: {r['error']}"
    extra = ""
    if "peak_states" in r:
        extra = (f" states {r['peak_states']:>12,} table {r['peak_table_bytes'] / 2**20:>8.0f} MiB"
                 f" state-cells {r['state_cells']:,}")
    if "refused" in r:
        extra = " refused: " + r["refused"]
    return (f"{what:<34} wall {r['wall']:>8.1f} s cpu {r['cpu']:>8.1f} s "
            f"rss {r['rss'] / 2**20:>7.0f} MiB{extra}")


def _judge(f: dict, v: dict, auto: str, why: str, what: str) -> None:
    """Which method took less CPU (the machine may be shared: wall time says more about the
    other sessions), and whether ``auto`` took it; much slower (by half) is a miss."""
    if "cpu" in f and "cpu" in v:
        best = "frontier" if f["cpu"] < v["cpu"] else "visited"
        slow = auto != best and abs(f["cpu"] - v["cpu"]) > 0.5 * min(f["cpu"], v["cpu"])
        print(f"  auto takes {auto} ({why}); the faster here (CPU): {best}"
              f"{'' if auto == best else '  <- auto missed'} [{check(f'auto on {what}', not slow)}]",
              flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--long", action="store_true")
    ap.add_argument("--only", default=None, help="one board RxC (frontier, both kinds)")
    ap.add_argument("--cap-gb", type=float, default=8.0)
    ap.add_argument("--closed-only", action="store_true", help="with --only: closed tours")
    ap.add_argument("--timeout", type=float, default=1800.0)
    ap.add_argument("--threads", type=int, default=None,
                    help="threads of the frontier count (default: one a core)")
    args = ap.parse_args()
    from knightgui_core.studies.tour_methods import choose_method
    print(f"load average {os.getloadavg()}, {os.cpu_count()} cores", flush=True)
    run_job({"method": "frontier", "rows": 3, "cols": [4], "closed_only": False}, 900)  # compile
    run_job({"method": "visited", "rows": 3, "cols": [4], "closed_only": False}, 900)
    if args.only:
        r, c = (int(x) for x in args.only.lower().split("x"))
        res = run_job({"method": "frontier", "rows": min(r, c), "cols": [max(r, c)],
                       "closed_only": args.closed_only, "cap": int(args.cap_gb * 2**30),
                       "threads": args.threads},
                      args.timeout)
        print(line(f"frontier {r}×{c}", res), oeis(min(r, c), res.get("boards", [])))
        print(f"  states after each column: {res.get('column_states')}")
        print(f"load average {os.getloadavg()} at {time.strftime('%H:%M:%S')}")
        return verdict()
    pairs = [(5, 5), (4, 6), (5, 6), (5, 8), (4, 10), (3, 12)]
    if args.long:
        pairs.insert(3, (6, 6))          # the frontier's 22 M open states: 4 GiB, minutes
    for rows, cols in pairs:
        f = run_job({"method": "frontier", "rows": rows, "cols": [cols], "closed_only": False},
                    args.timeout)
        v = run_job({"method": "visited", "rows": rows, "cols": [cols], "closed_only": False},
                    args.timeout)
        auto, why = choose_method(rows, cols)
        print(line(f"frontier {rows}×{cols}", f), oeis(rows, f.get("boards", [])))
        print(line(f"visited  {rows}×{cols}", v), oeis(rows, v.get("boards", [])))
        _judge(f, v, auto, why, f"{rows}×{cols}")
    for rows, cols in [(5, 6), (5, 8), (4, 10), (3, 16)]:
        jobs = [{"method": m, "rows": rows, "cols": [cols], "closed_only": False,
                 "start": [0, 0]} for m in ("frontier", "visited")]
        f, v = (run_job(j, args.timeout) for j in jobs)
        auto, why = choose_method(rows, cols, per_start=True)
        agree = "agree" if f.get("start_paths") == v.get("start_paths") else "DIFFER"
        print(line(f"frontier {rows}×{cols} from a1", f), f"paths {f.get('start_paths')}")
        print(line(f"visited  {rows}×{cols} from a1", v), f"paths {v.get('start_paths')} {agree}")
        _judge(f, v, auto, why, f"{rows}×{cols} from a1")
        check(f"{rows}×{cols} from a1 (counts differ)", agree == "agree")
    seq = [({"rows": 6, "cols": list(range(1, 13)), "closed_only": True}, "6×1…12 closed"),
           ({"rows": 5, "cols": [6, 8, 10, 12, 14], "closed_only": True}, "5×6…14 closed")]
    if args.long:
        seq += [({"rows": 6, "cols": list(range(1, 21)), "closed_only": True}, "6×1…20 closed"),
                ({"rows": 7, "cols": [7], "closed_only": False}, "7×7 open"),
                ({"rows": 8, "cols": [8], "closed_only": True,
                  "cap": int(args.cap_gb * 2**30)}, "8×8 closed (capped)")]
    for job, what in seq:
        r = run_job({"method": "frontier", **job}, args.timeout)
        print(line(what, r), oeis(job["rows"], r.get("boards", [])))
        if r.get("column_states"):
            print(f"  states after each column: {r['column_states']}", flush=True)
    print(f"load average {os.getloadavg()} at {time.strftime('%H:%M:%S')}")
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
