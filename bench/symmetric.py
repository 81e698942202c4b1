"""Symmetric tours on the quotient: the table of docs/structure.md, with the time of each count.

    nice .venv/bin/python bench/symmetric.py               # every board up to 8×8 (minutes)
    nice .venv/bin/python bench/symmetric.py --quick       # boards up to 36 squares
    nice .venv/bin/python bench/symmetric.py --boards 8x8 --symmetries half-turn --closed-only

For each board (rows × cols, 3 ≤ rows ≤ cols) and each symmetry that maps it onto itself, it
counts the open paths and the closed tours the symmetry keeps (one thread, one table of 256
MiB a part: :func:`knightgui_core.tietree.alltours.symmetric_tours.count_plan`), prints them with the
seconds each took, and checks the figures published for them:

* Knuth (TAOCP Pre-Fascicle 8A): 2,432,932 closed 8×8 tours a half turn keeps;
* OEIS A169768: closed 3×n tours with twofold symmetry up to the board's symmetries — a
  tour kept by a half turn or a mirror (never both) is met twice among the tours, so the
  entry is (half-turn + mirror-cols) / 2;
* OEIS A328340: open 4×(2n−1) tours kept by the half turn up to the board's symmetries (each
  twice among the paths), so the entry is half the half-turn paths.

The load average is printed first: the machine may be shared.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

from knightgui_core.board.squares import Board
from knightgui_core.tietree.alltours.symmetric_tours import SYMMETRIES, count_plan, plan

#: (rows, cols) → published figures, checked when the board is counted
A169768 = {10: 4, 12: 0, 14: 24, 16: 24, 18: 276}
A328340 = {3: 2, 5: 3, 7: 17, 9: 112, 11: 620, 13: 2821, 15: 13805}
KNUTH_8X8_HALF_TURN = 2_432_932


def _boards(limit: int) -> list[tuple[int, int]]:
    return [(r, c) for r in range(3, 9) for c in range(r, 22) if r * c <= limit]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="boards of at most 36 squares")
    ap.add_argument("--boards", help="e.g. 8x8,3x18 (default: every board up to 64 squares)")
    ap.add_argument("--symmetries", help="comma-separated names (default: all)")
    ap.add_argument("--closed-only", action="store_true")
    a = ap.parse_args(argv)
    boards = ([tuple(int(x) for x in b.split("x")) for b in a.boards.split(",")] if a.boards
              else _boards(36 if a.quick else 64))
    names = a.symmetries.split(",") if a.symmetries else list(SYMMETRIES)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"{'board':>7} {'symmetry':>13} {'open paths':>12} {'closed tours':>13} "
          f"{'seconds':>8}  reason when none")
    bad = 0
    got: dict[tuple[int, int, str], tuple[int | None, int]] = {}
    for rows, cols in boards:
        board = Board(rows, cols)
        for name in names:
            if name in ("quarter-turn", "diagonal") and rows != cols:
                continue
            t0 = time.perf_counter()
            po = None if a.closed_only else plan(board, name, False)
            pc = plan(board, name, True)
            paths = None if po is None else count_plan(po, 256 << 20)
            closed = count_plan(pc, 256 << 20)
            dt = time.perf_counter() - t0
            got[(rows, cols, name)] = (paths, closed)
            why = "; ".join(r for r in ((po.reason if po else ""), pc.reason) if r)
            print(f"{rows:>3}×{cols:<3} {name:>13} {'-' if paths is None else f'{paths:,}':>12} "
                  f"{closed:>13,} {dt:>8.2f}  {why[:90]}", flush=True)
    checks = []
    if (8, 8, "half-turn") in got:
        checks.append(("Knuth 8×8 half-turn closed", got[(8, 8, "half-turn")][1],
                       KNUTH_8X8_HALF_TURN))
    for n, want in A169768.items():
        if (3, n, "half-turn") in got and (3, n, "mirror-cols") in got:
            s = got[(3, n, "half-turn")][1] + got[(3, n, "mirror-cols")][1]
            checks.append((f"A169768 3×{n}", s // 2, want))
    for n, want in A328340.items():
        key = (3, 4, "half-turn") if n == 3 else (4, n, "half-turn")
        if key in got and got[key][0] is not None:
            checks.append((f"A328340 4×{n}", got[key][0] // 2, want))   # type: ignore[operator]
    for what, mine, want in checks:
        ok = mine == want
        bad += not ok
        print(f"{what}: {mine:,} (published {want:,}) {'agrees' if ok else 'DIFFERS'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
