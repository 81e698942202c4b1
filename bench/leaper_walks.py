"""How often Warnsdorff's single walk completes a tour on other boards and with other pieces
(docs/leapers.md): for each board and tie rule, the walks from every start square that visit
every square, and among them those whose last square is a move from the first.

    .venv/bin/python bench/leaper_walks.py [--boards plane:1,2:8,torus:2,3:10,...] [--seed 1]

Each walk runs the rule's own kernel (``solve(method="greedy")``), and every completed one is
checked by the tour validator; the random rules use ``--seed`` plus the start's index.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

from knightgui_core.board.squares import Board
from knightgui_core.walks.solve import solve

BOARDS = ("plane:1,2:8", "cylinder:1,2:8", "torus:1,2:8", "plane:2,3:10", "torus:2,3:10",
          "plane:1,4:10", "cylinder:1,4:10", "torus:1,2:100")
RULES = ("phadke", "first", "random", "center-far", "lookahead", "pohl")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", default=";".join(BOARDS),
                    help="topology:a,b:n items separated by ';'")
    ap.add_argument("--rules", default=",".join(RULES))
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}")
    rules = a.rules.split(",")
    print("| board | piece | " + " | ".join(rules) + " |")
    print("|---|---|" + "---|" * len(rules))
    for item in a.boards.split(";"):
        topology, leaper, n = item.split(":")
        lp = tuple(int(v) for v in leaper.split(","))
        board = Board(int(n), int(n), topology, lp)
        cells = []
        t0 = time.perf_counter()
        for rule in rules:
            tours = closed = 0
            for s in range(board.size):
                res = solve(board.rows, board.cols, start=board.name(s), tie=rule,
                            seed=a.seed + s, method="greedy", topology=topology, leaper=lp)
                if res.ok:
                    tours += 1
                    closed += bool(res.tour.is_closed_path)
            cells.append(f"{tours:,} / {closed:,}")
        name = board.describe().split(", ")
        print(f"| {name[0]} | {name[1] if len(name) > 1 else 'knight (1,2)'} | "
              + " | ".join(cells) + f" |   ({time.perf_counter() - t0:.1f} s, "
              f"{board.size:,} starts)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
