"""The transposition table against the plain walk of the tie tree, side by side in one run.

    .venv/bin/python bench/table.py [--quick] [--table-mb 1024]

On one core (one thread, no Dask), each row counts the same thing twice, first walking every
node (no table), then with a table of ``--table-mb`` MiB, and checks that the counts and the
probabilities agree:

* 10×10 from d1 (the issue's target: at least 3× faster with the table);
* 9×9, every start (its 15 symmetry classes, one table shared by all of them);
* 8×8 with dead-end lengths (Knuth's statistics in full).

It prints wall seconds, forward moves, the ratio, table lookups and hits, and the peak RSS of
this process against the table's limit. ``--quick`` skips 10×10. The machine is shared: the
load average is printed with the figures.
"""
from __future__ import annotations

import argparse
import os
import resource
import time

from knightgui_core.tietree.subtrees import CountBoard, count_subtrees, start_classes
from knightgui_core.tietree.table import TransTable


def _rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(rows: int, cols: int, starts: list[int], table: TransTable | None, lengths: bool):
    cb = CountBoard(rows, cols)
    t0 = time.perf_counter()
    tot = [0, 0, 0, 0.0, 0.0, 0, 0, 0]
    for s in starts:
        r = count_subtrees(cb, s, [()], table=table, lengths=lengths)
        tot[0] += r.tours
        tot[1] += r.closed
        tot[2] += r.dead_ends
        tot[3] += r.p_success
        tot[4] += r.p_closed
        tot[5] += r.forward_moves
        tot[6] += r.probes
        tot[7] += r.hits
    return time.perf_counter() - t0, tot


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="skip 10×10")
    ap.add_argument("--table-mb", type=int, default=1024)
    a = ap.parse_args()
    limit = a.table_mb << 20
    print(f"load average {os.getloadavg()[0]:.1f} {os.getloadavg()[1]:.1f}; one core; "
          f"table limit {a.table_mb} MiB")
    # compile every kernel first, so no row pays for it
    warm = CountBoard(6, 6)
    count_subtrees(warm, 0, [()], table=TransTable(36, 1 << 22), lengths=False)
    count_subtrees(warm, 0, [()], table=TransTable(36, 1 << 22, lengths=True), lengths=True)
    t = TransTable(36, 1 << 28)
    t.filled = t.entries
    t.grow_if_full()
    cases = []
    if not a.quick:
        cases.append(("10×10 from d1", 10, 10, [3], False))
    cases.append(("9×9 all starts", 9, 9, sorted(start_classes(9, 9, range(81))), False))
    cases.append(("8×8 all starts, lengths", 8, 8, sorted(start_classes(8, 8, range(64))), True))
    print(f"{'case':<26} {'plain s':>8} {'table s':>8} {'ratio':>6} {'moves plain':>14} "
          f"{'moves table':>12} {'lookups':>11} {'hits':>10} {'used':>10} {'peak RSS':>9}")
    for name, rows, cols, starts, lengths in cases:
        dt0, plain = run(rows, cols, starts, None, lengths)
        table = TransTable(rows * cols, limit, lengths=lengths)
        dt1, memo = run(rows, cols, starts, table, lengths)
        assert plain[:3] == memo[:3], (name, plain, memo)
        assert abs(plain[3] - memo[3]) < 1e-9 and abs(plain[4] - memo[4]) < 1e-9, name
        print(f"{name:<26} {dt0:>8.2f} {dt1:>8.2f} {dt0 / dt1:>5.1f}× {plain[5]:>14,} "
              f"{memo[5]:>12,} {memo[6]:>11,} {memo[7]:>10,} {table.used():>10,} "
              f"{_rss_mib():>6,.0f} MiB")
        assert table.bytes <= limit
        del table
    print(f"peak RSS {_rss_mib():,.0f} MiB (limit of one table: {a.table_mb} MiB)")


if __name__ == "__main__":
    main()
