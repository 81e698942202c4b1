"""A tour by hand: how long the exact count of a path's finishes takes.

    .venv/bin/python bench/completions.py [--positions 10] [--repeat 3]

Positions are seeded Warnsdorff prefixes (random ties, random start) that leave F free
squares. For each board and F it prints the median over the positions of the best of
``--repeat`` runs of :func:`knightgui_core.walks.hand.completions.completions` (the whole call:
path check, quick verdict, search), the slowest position, the finishes counted and the moves
searched; then the first-finish mode and :func:`quick_verdict` alone. Target:
an 8×8 position with 20 free squares answered in under a second (exit 1 when missed). The
machine is shared: the cores and the load average are printed with the figures.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

from _targets import check, verdict

from knightgui_core.board.squares import Board
from knightgui_core.walks.hand.completions import completions
from knightgui_core.walks.hand.finish import finish_by_rule
from knightgui_core.walks.hand.verdict import quick_verdict

TARGET = 1.0       # seconds, 8×8 with 20 free squares


def prefix(board: Board, rng: random.Random, free: int) -> list[int] | None:
    """A Warnsdorff path (random ties) leaving ``free`` squares, or None when it got stuck."""
    nbr = [[int(u) for u in row if u >= 0] for row in board.neighbours]
    path = [rng.randrange(board.size)]
    seen = set(path)
    while len(path) < board.size - free:
        cands = [u for u in nbr[path[-1]] if u not in seen]
        if not cands:
            return None
        deg = {u: sum(w not in seen for w in nbr[u]) for u in cands}
        low = min(deg.values())
        u = rng.choice([c for c in cands if deg[c] == low])
        path.append(u)
        seen.add(u)
    return path


def best_of(repeat: int, fn) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}")
    completions(Board(6, 6), [0, 13, 2])            # kernels loaded from numba's cache
    completions(Board(9, 9), [0], 5.0, count=False)
    worst20 = 0.0
    print("| board | free | positions | median | slowest | finishes (median) | moves searched "
          "(median) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for board, free in ((Board(8, 8), 16), (Board(8, 8), 20), (Board(8, 8), 24),
                        (Board(8, 8), 28), (Board(8, 8, "torus"), 20),
                        (Board(10, 10, "torus", (2, 3)), 20)):
        rng = random.Random(free * 1000 + board.size)
        rows = []
        while len(rows) < a.positions:
            p = prefix(board, rng, free)
            if p is None:
                continue
            took, res = best_of(a.repeat, lambda b=board, p=p: completions(b, p, 60.0))
            assert res.counted, res.reason
            rows.append((took, res.open, res.nodes))
        times = [r[0] for r in rows]
        if board.size == 64 and board.topology == "plane" and free == 20:
            worst20 = max(times)
        print(f"| {board.describe()} | {free} | {len(rows)} | {statistics.median(times):.4f} s "
              f"| {max(times):.4f} s | {statistics.median(r[1] for r in rows):,.0f} "
              f"| {statistics.median(r[2] for r in rows):,.0f} |")
    b = Board(8, 8)
    took, res = best_of(a.repeat, lambda: completions(b, [0], 60.0, count=False))
    print(f"8×8 from a1 (63 free), first finish only: {took * 1000:.2f} ms, "
          f"{res.nodes:,} moves")
    took, _ = best_of(a.repeat, lambda: finish_by_rule(b, [0, 17], "phadke"))
    print(f"8×8 from a1 b3, finished by the rule (phadke): {took * 1000:.2f} ms")
    for n in (8, 100, 1000):
        bb = Board(n, n)
        quick_verdict(bb, [0])
        took, _ = best_of(a.repeat, lambda bb=bb, n=n: quick_verdict(bb, [0, 2 * n + 1]))
        print(f"quick verdict, {n}×{n}: {took * 1000:.2f} ms")
    print(f"8×8, 20 free: slowest {worst20:.4f} s (target {TARGET:.1f} s): "
          f"{check('8×8, 20 free', worst20 < TARGET)}")
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
