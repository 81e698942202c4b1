"""The engine's warm-up, today against an earlier revision, side by side in one run.

    .venv/bin/python bench/warmup.py [--before REV] [--rounds N]

For each tree (the earlier revision unpacked with ``git archive``, as ``bench/compare.py``
does, and today's), alternating, ``--rounds`` times:

* **full warm-up**: ``python -m knightgui_core.warmup`` with an empty kernel cache (a new
  ``KNIGHTGUI_CACHE_DIR``): every stage compiled, wall and CPU seconds (helper processes
  included);
* **warm restart**: the same command again on the cache it filled: every stage loaded;
* **fixed workload**: a pure-Python Warnsdorff walk on 100×100, 120 times (a few seconds), timed just
  before; the warm-up's wall divided by it is a figure that moves less with the machine's
  load than the wall itself.

It also counts each tree's jitted functions (``@njit``) and specialised copies
(``specialise(``) in its source. Targets (today's tree): full warm-up 60 s, warm restart 2 s
(wall, best of the rounds). Exit status 1 when one is missed.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _targets import check, verdict
from compare import HERE, shim, unpack

#: the revision before the warm-up was made parallel and the cache defect fixed
BEFORE = "edd621f"
TARGET_FULL, TARGET_RESTART = 60.0, 2.0

_WORKLOAD = ("import sys; sys.path.insert(0, {bench!r}); from _baseline_py import warnsdorff_py\n"
             "for _ in range(120): warnsdorff_py(100, 100)")


def _timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) seconds of ``cmd``, its children waited for included."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {os.waitstatus_to_exitcode(status)}")
    return wall, usage.ru_utime + usage.ru_stime


def kernels(tree: Path) -> tuple[int, int]:
    """(jitted functions, specialised copies) in ``tree``'s core/."""
    text = "".join(p.read_text(encoding="utf-8") for p in (tree / "core").rglob("*.py"))
    jitted = len(re.findall(r"^\s*@njit\b", text, re.M))
    copies = len(re.findall(r"\bspecialise\(", text)) - len(re.findall(r"def specialise\(", text))
    return jitted, copies


def one_round(tree: Path, path: Path) -> dict[str, tuple[float, float]]:
    """The three figures of one tree, each (wall, CPU)."""
    env = dict(os.environ, PYTHONPATH=str(path), PYTHONDONTWRITEBYTECODE="1")
    env.pop("KNIGHTGUI_KERNELS", None)
    cache = Path(tempfile.mkdtemp(prefix="knightgui-warmup-bench-"))
    env["KNIGHTGUI_CACHE_DIR"] = str(cache)
    warm = [sys.executable, "-m", "knightgui_core.warmup"]
    try:
        out = {"workload": _timed([sys.executable, "-c",
                                   _WORKLOAD.format(bench=str(HERE / "bench"))], env)}
        out["full"] = _timed(warm, env)
        out["restart"] = _timed(warm, env)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", default=BEFORE, help="the earlier revision (git)")
    ap.add_argument("--rounds", type=int, default=1)
    a = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="knightgui-warmup-"))
    try:
        trees = {"before": unpack(a.before, work / "before"), "today": HERE}
        paths = {k: shim(t, work / f"path-{k}") for k, t in trees.items()}
        best: dict[str, dict[str, tuple[float, float]]] = {k: {} for k in trees}
        for r in range(a.rounds):
            for k in trees:
                print(f"round {r + 1}, {k}: load {os.getloadavg()[0]:.1f}", flush=True)
                for name, fig in one_round(trees[k], paths[k]).items():
                    if name not in best[k] or fig[0] < best[k][name][0]:
                        best[k][name] = fig
        print(f"\n{'':34}{'before ' + a.before:>22}{'today':>22}")
        for name, label in (("full", "full warm-up, empty cache"),
                            ("restart", "warm restart, every stage loaded"),
                            ("workload", "fixed workload (Python 100×100 ×120)")):
            cells = [f"{best[k][name][0]:8.1f} s ({best[k][name][1]:5.1f} s CPU)" for k in trees]
            print(f"{label:34}{cells[0]:>22}{cells[1]:>22}")
        ratios = [best[k]["full"][0] / best[k]["workload"][0] for k in trees]
        print(f"{'full warm-up / fixed workload':34}{ratios[0]:>22.2f}{ratios[1]:>22.2f}")
        counts = [", ".join(map(str, kernels(t))) for t in trees.values()]
        print(f"{'jitted functions, copies':34}{counts[0]:>22}{counts[1]:>22}")
        print(f"load average at the end: {os.getloadavg()[0]:.1f}")
        full, restart = best["today"]["full"][0], best["today"]["restart"][0]
        print(f"full warm-up {full:.1f} s, target {TARGET_FULL:.0f} s: "
              f"{check('full warm-up', full <= TARGET_FULL)}")
        print(f"warm restart {restart:.1f} s, target {TARGET_RESTART:.0f} s: "
              f"{check('warm restart', restart <= TARGET_RESTART)}")
        return verdict()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
