"""Single-tour solver benchmark (issue 3). Prints medians after warm-up, time per square, and
the ratio against a pure-Python Warnsdorff walk.

    .venv/bin/python bench/solve.py [--repeat N]
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _baseline_py import warnsdorff_py  # noqa: E402

from knightgui_core.solve import solve  # noqa: E402

CASES = [  # label, rows, cols, closed, kwargs, target seconds
    ("open 100×100", 100, 100, False, dict(tie="first"), 0.0003),
    ("open 1000×1000", 1000, 1000, False, dict(), 0.040),
    ("closed 100×100", 100, 100, True, dict(), 0.010),
    ("closed 300×300", 300, 300, True, dict(), 0.100),
]


def median_time(fn, repeat):
    fn()  # warm-up (compilation / cache load)
    ts = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts), out


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    a = ap.parse_args(argv)
    print(f"{'case':<18}{'median':>12}{'per square':>14}{'target':>10}  method")
    results = {}
    for label, rows, cols, closed, kw, target in CASES:
        rep = a.repeat if rows * cols <= 10_000 else max(3, a.repeat // 3)
        t, res = median_time(lambda r=rows, c=cols, cl=closed, k=kw: solve(r, c, closed=cl, **k), rep)
        assert res.ok and res.tour is not None
        results[label] = t
        flag = "ok" if t <= target else "MISSED"
        print(f"{label:<18}{t * 1e3:>10.3f}ms{t / (rows * cols) * 1e9:>11.1f}ns"
              f"{target * 1e3:>8.1f}ms  {res.method} [{flag}]")
    tpy, path = median_time(lambda: warnsdorff_py(100, 100), 3)
    print(f"\npure-Python Warnsdorff 100×100 (bench/_baseline_py.py): {tpy * 1e3:.1f} ms "
          f"({len(path)} squares)")
    print(f"ratio pure Python / knightgui, open 100×100: {tpy / results['open 100×100']:.0f}×")
    cmd = [sys.executable, "-m", "knightgui", "solve", "--rows", "8", "--cols", "8", "--json"]
    subprocess.run(cmd, capture_output=True, check=True)      # fills the numba cache
    walls = []
    for _ in range(5):
        t = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=True)
        walls.append(time.perf_counter() - t)
    w = statistics.median(walls)
    print(f"`knightgui solve --rows 8 --cols 8 --json` wall, warm cache: {w:.2f} s "
          f"(target 1 s) [{'ok' if w <= 1 else 'MISSED'}]")


if __name__ == "__main__":
    main()
