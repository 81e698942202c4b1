"""Streaming enumeration output: solutions/s and peak memory per format.

    .venv/bin/python bench/stream.py [--solutions N] [--dir FOLDER]

9×9 open tours from a1 (18.8 M in all), the first N (default 3,000,000) of them:

* ``count``: the engine alone, no output (the ceiling);
* ``.npy``, ``.csv``, ``.json``: ``solution_writer.write_solutions`` to a file in FOLDER
  (default: the system's temporary folder), fsync and rename included;
* ``old``: how ``enumerate --out`` worked before (every solution kept as a Python record
  until the end), on N / 30 solutions, for the ratio and its memory per solution.

Each run is a fresh process: its peak resident memory (``ru_maxrss``) is printed with the
rate. Targets: .npy ≥ 1 M solutions/s, .csv ≥ 200 k/s, peak memory flat in N.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

from _targets import check, verdict

#: solutions a second each format must reach
TARGETS = {".npy": 1_000_000, ".csv": 200_000}

CHILD = r"""
import json, os, resource, sys, time
from knightgui_core.tietree.enumeration.enumerator import Enumerator
kind, n, folder = sys.argv[1], int(sys.argv[2]), sys.argv[3]
Enumerator(6, 6, "a1").first(2)                       # kernels loaded before the clock
from knightgui_core.tietree.enumeration.solution_writer import write_solutions, solution_blocks
for _ in solution_blocks(Enumerator(6, 6, "a1", "b3"), 2, numbers=True):
    pass
rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
en = Enumerator(9, 9, "a1")
t = time.perf_counter()
if kind == "count":
    while en.solutions < n and not en.exhausted:
        en.engine.advance(1_000_000, False)
    done = en.solutions
elif kind == "old":
    cols = en.board.cols
    recs = [{"index": s.index, "branch": s.branch,
             "path": [[int(q % cols), int(q // cols)] for q in s.path]} for s in en.first(n)]
    done = len(recs)
else:
    path = os.path.join(folder, "bench-stream" + kind)
    done = write_solutions(en, path, limit=n)["written"]
    os.unlink(path)
dt = time.perf_counter() - t
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"kind": kind, "n": done, "seconds": dt, "rate": done / dt,
                  "rss_mb": rss / 1024, "rss_growth_mb": (rss - rss0) / 1024}))
"""


def run(kind: str, n: int, folder: str) -> dict:
    r = subprocess.run([sys.executable, "-c", CHILD, kind, str(n), folder],
                       capture_output=True, text=True, check=True)
    return json.loads(r.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--solutions", type=int, default=3_000_000)
    ap.add_argument("--dir", default=tempfile.gettempdir())
    a = ap.parse_args()
    print(f"9×9 from a1, first {a.solutions:,} solutions; files in {a.dir}; "
          f"{os.cpu_count()} cores")
    rows = [run("count", a.solutions, a.dir)]
    for kind in (".npy", ".csv", ".json"):
        rows.append(run(kind, a.solutions, a.dir))
    rows.append(run("old", max(a.solutions // 30, 1000), a.dir))
    base = rows[0]["rate"]
    print(f"{'':8} {'solutions':>11} {'sol/s':>12} {'of count':>9} {'peak RSS':>10} "
          f"{'growth':>9}")
    for r in rows:
        target = TARGETS.get(r["kind"])
        met = (f"  ≥ {target:,}/s: {check(r['kind'] + ' rate', r['rate'] >= target)}"
               if target else "")
        print(f"{r['kind']:8} {r['n']:>11,} {r['rate']:>12,.0f} {r['rate'] / base:>8.0%} "
              f"{r['rss_mb']:>8.0f} MB {r['rss_growth_mb']:>6.0f} MB{met}")
    old = rows[-1]
    print(f"old --out kept {old['rss_growth_mb'] * 1024 / old['n']:.2f} KB per solution; "
          "the streaming formats keep none")
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
