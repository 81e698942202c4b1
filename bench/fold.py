"""Folding a start's tie tree by its own symmetries (docs/explanation/tie-tree.md): the count
of a start that a symmetry keeps in place (the centre, a diagonal or middle-line square),
folded and not, side by side in one run on one worker thread, with the same table size;
each count in a fresh process, so that neither starts from a table the other filled.

    .venv/bin/python bench/fold.py [--table-mb 64]

Target: the centre of 9×9 at least 2.5× faster folded (its eight first subtrees are counted
once). Both runs must give the same tours, closed tours and dead ends, and P(success) to
1e-12; exit 1 if not, or if the target is missed.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

from _targets import check, verdict

from knightgui_core.studies.count_study import CountOptions, run_count

CASES = ((9, "e5", "centre"), (9, "c3", "diagonal"), (9, "e2", "middle column"),
         (10, "a1", "corner (diagonal)"), (10, "e5", "diagonal"))
TARGET = 2.5


def _one(n: int, start: str, fold: bool, table_bytes: int) -> None:
    run_count(5, 5, "c3", scheduler="threads", workers=1,
              options=CountOptions(table_bytes=0))                        # kernels loaded
    t0 = time.perf_counter()
    res = run_count(n, n, start, scheduler="threads", workers=1,
                    options=CountOptions(fold=fold, table_bytes=table_bytes))
    print(json.dumps({"seconds": time.perf_counter() - t0, "per_start": res.per_start[start],
                      "forward_moves": res.forward_moves}))


def _time(n: int, start: str, fold: bool, table_mb: int) -> dict:
    out = subprocess.run([sys.executable, __file__, "--one", f"{n},{start},{int(fold)}",
                          "--table-mb", str(table_mb)], capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--table-mb", type=int, default=64, help="table of the worker thread")
    ap.add_argument("--one", help=argparse.SUPPRESS)     # N,START,FOLD: one count, as JSON
    a = ap.parse_args()
    if a.one:
        n, start, fold = a.one.split(",")
        _one(int(n), start, fold == "1", a.table_mb << 20)
        return 0
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}; one worker thread, "
          f"table {a.table_mb} MiB")
    print("| board | start | tours | folded | not folded | ratio | forward moves, folded / not |")
    print("|---|---|---:|---:|---:|---:|---:|")
    centre = 0.0
    for n, start, what in CASES:
        f = _time(n, start, True, a.table_mb)
        p = _time(n, start, False, a.table_mb)
        tf, tp = f["seconds"], p["seconds"]
        a_, b_ = f["per_start"], p["per_start"]
        same = all(a_[k] == b_[k] for k in ("tours", "closed", "dead_ends")) and all(
            abs(a_[k] - b_[k]) <= 1e-12 for k in ("p_success", "p_closed"))
        ratio = tp / tf
        if (n, start) == (9, "e5"):
            centre = ratio
        print(f"| {n}×{n} | {start} ({what}) | {a_['tours']:,} | {tf:.2f} s | {tp:.2f} s | "
              f"{ratio:.2f}× | {f['forward_moves'] / max(1, p['forward_moves']):.3f} |"
              + ("" if check(f"{n}×{n} {start} counts", same) == "met" else "  COUNTS DIFFER"))
    print(f"centre of 9×9: {centre:.2f}× (target ≥ {TARGET}×): "
          f"{check('centre of 9×9 folded', centre >= TARGET)}")
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
