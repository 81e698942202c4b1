"""What the benches that compare two copies of ``core/`` share (bench/tietree_loops.py,
bench/lister_walk.py): a child process that imports ``knightgui_core`` from a given tree,
runs one case and prints one JSON line, the list of trees to measure, and the rounds
alternating between them."""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent

#: the start of a child script: ``knightgui_core`` imported from the tree ``sys.argv[1]``
LOAD_CORE = r"""
import importlib.util, json, sys, time
root = sys.argv[1]
spec = importlib.util.spec_from_file_location(
    "knightgui_core", root + "/core/__init__.py", submodule_search_locations=[root + "/core"])
mod = importlib.util.module_from_spec(spec)
sys.modules["knightgui_core"] = mod
spec.loader.exec_module(mod)
"""


def run_child(child: str, root: str, case: str, *args: str) -> dict:
    """Run ``child`` (after :data:`LOAD_CORE`) on the tree ``root`` for ``case``; its last
    line of output, read as JSON."""
    r = subprocess.run([sys.executable, "-c", LOAD_CORE + child, root, case, *args],
                       capture_output=True, text=True, cwd="/")
    if r.returncode != 0:
        raise SystemExit(f"{case} in {root}: {r.stderr.strip().splitlines()[-1:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def before_after(a: argparse.Namespace) -> list[tuple[str, str]]:
    """``[("before", DIR)]`` when ``--before DIR`` was given, then ``("after", this checkout)``."""
    return ([("before", str(Path(a.before).resolve()))] if a.before else []) + [
        ("after", str(HERE))]


def best_of(trees: list[tuple[str, str]], repeat: int, case: str,
            one: Callable[[str], dict]) -> tuple[dict[str, float], Any]:
    """``repeat`` rounds of ``one(root)`` on each tree in turn: the best CPU seconds of each
    tree and the result they all gave (SystemExit when two disagree)."""
    best: dict[str, float] = {}
    results = set()
    for _ in range(repeat):
        for name, root in trees:
            r = one(root)
            best[name] = min(best.get(name, 1e9), r["cpu"])
            got = r["result"]
            results.add(tuple(got) if isinstance(got, list) else got)
    if len(results) != 1:
        raise SystemExit(f"{case}: the trees disagree: {sorted(results)}")
    return best, results.pop()


def timing_row(best: dict[str, float], trees: list[tuple[str, str]], ms: bool) -> str:
    """Each tree's best CPU time (in ms or s), then after/before when both were run."""
    row = " ".join(f"{best[t] * 1e3:8.1f}ms" if ms else f"{best[t]:9.3f}s" for t, _ in trees)
    return row + (f"  {best['after'] / best['before']:.3f}" if len(trees) > 1 else "")
