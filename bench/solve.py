"""Single-tour solver benchmark. Prints medians after warm-up, time per square, and
the ratio against a pure-Python Warnsdorff walk.

    .venv/bin/python bench/solve.py [--repeat N]

Method auto walks the chosen rule first at every size, so the rule's walk is timed too: the
centre rule (``center-far``) from a1 on 1000² and 2000², the kernel alone and the whole
``solve`` (walk + validation), against the prototype's 38 / 125 ms (within 1.2×). Exit
status 1 when a figure misses its target.
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
from _targets import check, verdict  # noqa: E402

from knightgui_core.walks.solve import solve  # noqa: E402

CASES = [  # label, rows, cols, closed, kwargs, target seconds
    ("open 100×100", 100, 100, False, dict(tie="first"), 0.0003),
    ("open 1000×1000 construct", 1000, 1000, False, dict(method="construct"), 0.040),
    # auto walks the rule first (phadke: stuck after 869,354 moves), then constructs
    ("open 1000×1000 auto", 1000, 1000, False, dict(), None),
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


#: The prototype's walk with the centre rule from a1, seconds.
PROTOTYPE_WALK = {1000: 0.038, 2000: 0.125}


def rule_walks(repeat: int) -> None:
    import numpy as np

    from knightgui_core.board.rules import DEFAULT_MOVE_ORDER
    from knightgui_core.board.tie_rule import TieRule
    from knightgui_core.walks.walk_kernel import greedy_walk
    pos = DEFAULT_MOVE_ORDER.positions()
    score = np.zeros(0, dtype=np.int8)
    print(f"\n{'centre rule from a1':<22}{'walk':>10}{'solve auto':>12}{'prototype':>11}  ratio")
    for n in sorted(PROTOTYPE_WALK):
        path = np.empty(n * n, dtype=np.int32)
        ties = np.empty(n * n, dtype=np.uint8)
        tw, m = median_time(lambda n=n, p=path, t=ties: greedy_walk(
            n, n, 0, int(TieRule.CENTER_FAR), pos, 0, score, p, t), repeat)
        assert m == n * n
        ts, res = median_time(lambda n=n: solve(n, n, tie="center-far"), max(3, repeat // 2))
        assert res.ok and res.method.startswith("warnsdorff greedy")
        ratio = tw / PROTOTYPE_WALK[n]
        print(f"{f'{n}×{n}':<22}{tw * 1e3:>8.1f}ms{ts * 1e3:>10.1f}ms"
              f"{PROTOTYPE_WALK[n] * 1e3:>9.0f}ms  {ratio:.2f}× "
              f"[{check(f'centre rule {n}×{n}', ratio <= 1.2)}]")


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    a = ap.parse_args(argv)
    print(f"{'case':<26}{'median':>12}{'per square':>14}{'target':>10}  method")
    results = {}
    for label, rows, cols, closed, kw, target in CASES:
        rep = a.repeat if rows * cols <= 10_000 else max(3, a.repeat // 3)
        t, res = median_time(lambda r=rows, c=cols, cl=closed, k=kw: solve(r, c, closed=cl, **k), rep)
        assert res.ok and res.tour is not None
        results[label] = t
        flag = "-" if target is None else check(label, t <= target)
        tgt = "" if target is None else f"{target * 1e3:.1f}ms"
        print(f"{label:<26}{t * 1e3:>10.3f}ms{t / (rows * cols) * 1e9:>11.1f}ns"
              f"{tgt:>8}  {res.method} [{flag}]")
    rule_walks(max(5, a.repeat // 3))
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
          f"(target 1 s) [{check('knightgui solve wall', w <= 1)}]")
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
