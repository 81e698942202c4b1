"""Every knight's path listed (the lister's search, ``alltours_list_kernel.list_all``): this
checkout against another copy of ``core/`` (an earlier revision), in one run, alternating,
best of N CPU seconds, with the load printed.

    git archive REV core | tar -x -C DIR
    .venv/bin/python bench/lister_walk.py --before DIR [--repeat N]

The lister walks the unvisited neighbours of a square at every move, taken and undone, and
at every node it expands (``alltours_kernel``'s ``_visit`` and ``_dead``); this bench is how
a change to that walk is judged. Each case runs in a fresh process per tree and per round,
its kernels compiled and run once before the clock:

* ``6x6``: every path from a1 of 6×6 (one word of unvisited squares in use);
* ``7x7``: the first ``NODES`` node expansions from a1 of 7×7;
* ``9x9``: the same on 9×9 (81 squares: both words).

Both trees must list the same number of paths with the same nodes. Without ``--before`` only
this checkout is measured.
"""
from __future__ import annotations

import argparse
import os

from _trees import before_after, best_of, run_child, timing_row

NODES = 10_000_000

CHILD = r"""
case = sys.argv[2]
from knightgui_core.tietree.alltours.all_tours_list import AllToursLister

rows, cols, budget = {"6x6": (6, 6, 1 << 62), "7x7": (7, 7, int(sys.argv[3])),
                      "9x9": (9, 9, int(sys.argv[3]))}[case]

def run():
    lister = AllToursLister(rows, cols, 0)
    while not lister.done and lister.nodes < budget:
        lister.block(1 << 14, budget=min(1 << 22, budget - lister.nodes))
    return lister.found, lister.nodes

AllToursLister(5, 5, 0).first(10)
t, c = time.perf_counter(), time.process_time()
got = run()
print(json.dumps({"seconds": time.perf_counter() - t, "cpu": time.process_time() - c,
                  "result": list(got)}))
"""

CASES = ("6x6", "7x7", "9x9")


def run(root: str, case: str) -> dict:
    return run_child(CHILD, root, case, str(NODES))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", help="a folder holding another revision's core/")
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    trees = before_after(a)
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}; best of {a.repeat} "
          "CPU seconds")
    print(f"{'case':6} {'paths, nodes':>24} " + " ".join(f"{t:>10}" for t, _ in trees)
          + ("  ratio" if a.before else ""))
    for case in CASES:
        best, (found, nodes) = best_of(trees, a.repeat, case,
                                       lambda root, case=case: run(root, case))
        print(f"{case:6} {found:>11,} {nodes:>12,} {timing_row(best, trees, False)}",
              flush=True)
    print(f"load average at the end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
