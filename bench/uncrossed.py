"""The longest uncrossed knight's paths and cycles on every m×n board, 3 ≤ m ≤ n ≤ N, with
the proof's nodes and seconds (the table in docs/structure.md).

    .venv/bin/python bench/uncrossed.py [--up-to 7] [--cycle | --paths] [--json]

One line per board and kind: rows, columns, kind, length (moves), count up to symmetry,
count on the board, nodes, seconds of the search. The published lengths (OEIS A003192 and
A157416 on n×n) are printed beside the square boards' figures.
"""
from __future__ import annotations

import argparse
import json
import os

from knightgui_core.studies.uncrossed import longest_uncrossed

PUBLISHED = {False: {3: 2, 4: 5, 5: 10, 6: 17, 7: 24, 8: 35, 9: 47},
             True: {3: 0, 4: 4, 5: 8, 6: 12, 7: 24, 8: 32, 9: 42}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--up-to", type=int, default=7)
    ap.add_argument("--from", dest="low", type=int, default=3)
    kinds = ap.add_mutually_exclusive_group()
    kinds.add_argument("--cycle", action="store_true", help="cycles only")
    kinds.add_argument("--paths", action="store_true", help="paths only")
    ap.add_argument("--json", action="store_true", help="one JSON object a line")
    a = ap.parse_args()
    which = [True] if a.cycle else [False] if a.paths else [False, True]
    print(f"# load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
    for n in range(a.low, a.up_to + 1):
        for m in range(3, n + 1):
            for cycle in which:
                r = longest_uncrossed(m, n, cycle=cycle)
                if a.json:
                    print(json.dumps(r.to_dict()), flush=True)
                    continue
                pub = PUBLISHED[cycle].get(n) if m == n else None
                print(f"{m}×{n} {'cycle' if cycle else 'path '} length {r.length:3d} "
                      f"count {r.count:4d} on board {r.total:5d} nodes {r.nodes:>13,} "
                      f"{r.seconds:9.2f} s" + (f"  (published {pub})" if pub is not None
                                               else ""), flush=True)


if __name__ == "__main__":
    main()
