"""Huge boards: the linear-time construction, open and closed.

For each case a fresh child process imports the engine, builds the tour once (warm-up:
numba cache load, base pieces), then times ``--repeat`` more builds and reports the median,
the time per square and its peak resident memory (``ru_maxrss``, whole process). One tour is
validated with knightgui_core.board.tour.check_path outside the timing. A second table times the
"Warnsdorff + rotations" route (knightgui_core.walks.close_kernel.repair_closed) on moderate boards.

    .venv/bin/python bench/huge.py [--repeat N] [--quick]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

CASES = [  # label, kind, rows, cols, target seconds (None: no target, for information)
    ("closed 100×100", "closed", 100, 100, 0.010),
    ("closed 300×300", "closed", 300, 300, 0.100),
    ("closed 1000×1000", "closed", 1000, 1000, 0.300),
    ("closed 2000×2000", "closed", 2000, 2000, 1.200),
    ("open 100×100", "open", 100, 100, None),
    ("open 300×300", "open", 300, 300, None),
    ("open 1000×1000", "open", 1000, 1000, None),
    ("open 2000×2000", "open", 2000, 2000, 0.150),
    ("open 1999×1999 (odd)", "open", 1999, 1999, None),
    ("closed 3×1,000,000", "closed", 3, 1_000_000, None),
    ("open 4×1,000,000", "open", 4, 1_000_000, None),
]
MEMORY_TARGET_MB = 200
#: the kernels compiled ahead of time, as the bundle ships them (``make bundle`` builds them)
AOT_DIR = Path(__file__).resolve().parents[1] / "build" / "aot"


def child(kind: str, rows: int, cols: int, repeat: int) -> None:
    import resource

    import numpy as np

    from knightgui_core.board.squares import Board
    from knightgui_core.board.tour import check_path
    from knightgui_core.construct.huge import construct_closed, construct_open

    base_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    def build():
        if kind == "closed":
            return construct_closed(rows, cols)
        return construct_open(rows, cols)[0]

    t = time.perf_counter()
    build()
    first = time.perf_counter() - t
    ts = []
    for _ in range(repeat):
        t = time.perf_counter()
        build()
        ts.append(time.perf_counter() - t)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    path = build()
    err = check_path(Board(rows, cols), np.asarray(path), kind == "closed")
    print(json.dumps({"median": statistics.median(ts), "first": first, "peak_mb": peak_mb,
                      "import_mb": base_mb, "valid": err is None}))


def repair_child(n: int, repeat: int) -> None:
    import numpy as np

    from knightgui_core.board.squares import Board
    from knightgui_core.board.tie_rule import TieRule
    from knightgui_core.board.tour import check_path
    from knightgui_core.walks.close_kernel import repair_closed
    from knightgui_core.walks.walk_kernel import greedy_walk

    board = Board(n, n)
    nb = board.neighbours
    path = np.empty(board.size, dtype=np.int32)
    ties = np.empty(board.size, dtype=np.uint8)
    m = greedy_walk(n, n, 0, int(TieRule.CENTER_FAR), np.arange(8, dtype=np.int64), 0,
                    np.empty(0, np.int8), path,
                    ties)
    if m != board.size:
        print(json.dumps({"error": f"greedy walk stopped at {m}"}))
        return
    repair_closed(nb, path, 20 * board.size, 0)
    ts, steps = [], []
    for seed in range(repeat):
        st = np.zeros(2, dtype=np.int64)
        t = time.perf_counter()
        ok, q = repair_closed(nb, path, 20 * board.size, seed, stats=st)
        ts.append(time.perf_counter() - t)
        steps.append(int(st[0]))
        if not ok or check_path(board, q, True):
            print(json.dumps({"error": f"seed {seed} did not close"}))
            return
    print(json.dumps({"median": statistics.median(ts), "steps": statistics.median(steps)}))


def run_child(args: list[str], aot: bool = False) -> dict:
    env = dict(os.environ)
    if aot:
        env["KNIGHTGUI_KERNELS"] = "aot"
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(AOT_DIR), env.get("PYTHONPATH")]))
    out = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True,
                         check=False, env=env)
    if out.returncode != 0:
        return {"error": out.stderr.strip().splitlines()[-1] if out.stderr else "failed"}
    return json.loads(out.stdout.strip().splitlines()[-1])


def memory_check(repeat: int) -> int:
    """The memory target (≤ MEMORY_TARGET_MB peak for 2000×2000) on the kernels the bundle
    ships, compiled ahead of time: with numba's JIT the process also holds numba and LLVM
    (about 186 MB here with numba 0.68 / llvmlite 0.50 once the cached kernels are loaded),
    which the double-clicked app never loads. 1 when the target is missed."""
    if not list(AOT_DIR.glob("knightgui_aot*")):
        print(f"(memory target ≤ {MEMORY_TARGET_MB} MB for 2000×2000: checked on the compiled "
              f"kernels the bundle ships; not built here — `make bundle` builds {AOT_DIR})")
        return 0
    worst = 0
    for kind in ("open", "closed"):
        r = run_child(["--child", kind, "2000", "2000", "--repeat", str(repeat)], aot=True)
        if "error" in r:
            print(f"{kind} 2000×2000, compiled kernels: ERROR {r['error']}")
            worst = 1
            continue
        ok = r["peak_mb"] <= MEMORY_TARGET_MB and r["valid"]
        worst |= not ok
        print(f"{kind} 2000×2000 with the bundle's compiled kernels: peak {r['peak_mb']:.0f} MB "
              f"(target ≤ {MEMORY_TARGET_MB} MB, ratio {MEMORY_TARGET_MB / r['peak_mb']:.1f}x), "
              f"{r['median'] * 1000:.2f} ms{'' if ok else '  <-- misses target'}")
    return worst


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--quick", action="store_true", help="skip the 3- and 4-row strips")
    ap.add_argument("--child", nargs=3, metavar=("KIND", "ROWS", "COLS"), help=argparse.SUPPRESS)
    ap.add_argument("--repair-child", type=int, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child:
        child(a.child[0], int(a.child[1]), int(a.child[2]), a.repeat)
        return 0
    if a.repair_child:
        repair_child(a.repair_child, a.repeat)
        return 0

    print("Construction (knightgui_core.construct.huge), one child process per case; median of "
          f"{a.repeat} after warm-up")
    print(f"{'case':<24}{'median':>11}{'per square':>13}{'target':>9}{'ratio':>8}"
          f"{'peak RSS':>11}{'(imports)':>11}{'first':>9}  valid")
    worst = 0
    for label, kind, rows, cols, target in CASES:
        if a.quick and min(rows, cols) < 5:
            continue
        r = run_child(["--child", kind, str(rows), str(cols), "--repeat", str(a.repeat)])
        if "error" in r:
            print(f"{label:<24} ERROR {r['error']}")
            worst = 1
            continue
        med = r["median"]
        ratio = f"{target / med:7.1f}x" if target else "      -"
        tgt = f"{target * 1000:7.0f}ms" if target else "        -"
        ok = (target is None or med <= target) and r["valid"]
        worst |= not ok
        print(f"{label:<24}{med * 1000:9.2f}ms{med / (rows * cols) * 1e9:10.1f} ns{tgt}{ratio}"
              f"{r['peak_mb']:8.0f} MB{r['import_mb']:8.0f} MB{r['first'] * 1000:7.0f}ms  "
              f"{'yes' if r['valid'] else 'NO'}{'' if ok else '  <-- misses target'}")
    worst |= memory_check(a.repeat)

    print("\nWarnsdorff (center-far) + rotations (knightgui_core.walks.close_kernel), median over seeds")
    for n in (100, 300, 1000):
        r = run_child(["--repair-child", str(n), "--repeat", str(a.repeat)])
        if "error" in r:
            print(f"  {n}×{n}: {r['error']}")
            continue
        print(f"  repair {n}×{n}: {r['median'] * 1000:8.2f} ms, {r['steps']:.0f} rotations")
    return worst


if __name__ == "__main__":
    sys.exit(main())
