"""Warnsdorff's walk on the torus and the cylinder against the plane (a 100×100 walk
on a torus as fast as on the plane), measured side by side in one run.

    .venv/bin/python bench/topology.py [--sizes 100,1000] [--repeat 20]

For each size and tie rule: the median seconds of one walk from a1 (the kernel alone,
tables built and compiled beforehand) on the plane (the knight's padded kernel), on the plane
through the neighbour-table kernel, on the cylinder and on the torus; the ratios torus/plane
and cylinder/plane; and the whole ``solve()`` call (tables included) for the torus and the
plane. The walks are checked to be tours.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from functools import partial

import numpy as np

from knightgui_core.board.rules import DEFAULT_ORDER, parse_order
from knightgui_core.board.squares import Board
from knightgui_core.board.tie_rule import TieRule
from knightgui_core.walks.solve import solve
from knightgui_core.walks.table_walk_kernel import table_greedy_walk
from knightgui_core.walks.walk_kernel import greedy_walk


def _median(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="100,1000")
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--rules", default="phadke,random,lookahead")
    a = ap.parse_args()
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}; "
          f"median of {a.repeat} walks from a1")
    pos = parse_order(DEFAULT_ORDER).positions()
    none = np.zeros(0, dtype=np.int8)
    print(f"{'board':>10} {'rule':>10} {'plane':>10} {'plane/tbl':>10} {'cylinder':>10} "
          f"{'torus':>10} {'torus/plane':>12} {'cyl/plane':>10} {'solve torus':>12} "
          f"{'solve plane':>12}")
    for n in (int(x) for x in a.sizes.split(",")):
        size = n * n
        path, ties = np.empty(size, np.int32), np.empty(size, np.uint8)
        tables = {t: Board(n, n, t).neighbours for t in ("plane", "cylinder", "torus")}
        for rule in a.rules.split(","):
            code = int(TieRule.parse(rule))

            def plane(n=n, code=code, path=path, ties=ties):
                greedy_walk(n, n, 0, code, pos, 1, none, path, ties)

            def table(topology, n=n, code=code, path=path, ties=ties, tables=tables):
                def run():
                    table_greedy_walk(tables[topology], n, 0, code, pos, 1, none, path, ties)
                return run

            plane()
            for t in tables:
                table(t)()                                    # compiled before timing
            figs = {"plane": _median(plane, a.repeat)}
            for t in tables:
                figs[f"{t}/tbl"] = _median(table(t), a.repeat)
            few = max(a.repeat // 3, 1)
            s_torus = _median(partial(solve, n, n, method="greedy", tie=rule, seed=1,
                                      topology="torus"), few)
            s_plane = _median(partial(solve, n, n, method="greedy", tie=rule, seed=1), few)
            ok = solve(n, n, method="greedy", tie=rule, seed=1, topology="torus")
            ratio = figs["torus/tbl"] / figs["plane"]
            print(f"{n:>4}×{n:<5} {rule:>10} {figs['plane'] * 1e3:>8.2f}ms "
                  f"{figs['plane/tbl'] * 1e3:>8.2f}ms {figs['cylinder/tbl'] * 1e3:>8.2f}ms "
                  f"{figs['torus/tbl'] * 1e3:>8.2f}ms {ratio:>12.2f} "
                  f"{figs['cylinder/tbl'] / figs['plane']:>10.2f} {s_torus * 1e3:>10.1f}ms "
                  f"{s_plane * 1e3:>10.1f}ms  torus walk "
                  f"{'a tour' if ok.ok else 'stuck after ' + str(len(ok.path))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
