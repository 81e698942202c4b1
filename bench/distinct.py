"""Benchmark: which tours are different, and every tour on small boards.

    .venv/bin/python bench/distinct.py [--quick]

* the distinct count of Warnsdorff's tours (`study count --distinct`) on 7×7 and 8×8: wall time
  and the peak RSS of this process (one core);
* Phadke's strict family, distinct cycles (`study phadke --distinct`);
* every knight's path (`study count --all-tours`) on 6×6 and 5×8, one task per start class on
  one core, beside the figures of P. Luschny's counter on 2 cores (OpenMP: 6×6 1.03 s,
  5×8 12.7 s; bench/all_tours_peer.py runs that counter).

``--quick`` skips 8×8 and 5×8. The machine is shared: the load average is printed.
"""
from __future__ import annotations

import argparse
import os
import resource
import time

from knightgui_core.board.squares import Board
from knightgui_core.studies import phadke as P
from knightgui_core.studies.all_tours import all_tours_task
from knightgui_core.studies.distinct import distinct_counts, distinct_of_algorithms
from knightgui_core.tietree.counting.subtrees import start_classes


def _rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _all_tours(rows: int, cols: int) -> tuple[int, int]:
    """Directed paths and closed ones, one start per class on this thread (the tasks of
    ``study count --all-tours``, without the runner)."""
    b = Board(rows, cols)
    paths = closed = 0
    for rep, members in start_classes(rows, cols, range(b.size)).items():
        r = all_tours_task(rows, cols, b.name(rep))
        paths += r["tours"] * len(members)
        closed += r["closed"] * len(members)
    return paths, closed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="skip 8×8 and 5×8")
    a = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}; one core")
    distinct_counts(5, 5)                                   # compile / load the kernels
    _all_tours(4, 5)
    for n in (7,) if a.quick else (7, 8):
        t = time.perf_counter()
        r = distinct_counts(n, n)
        print(f"distinct {n}×{n}: {r.tours:,} tours → {r.distinct:,} distinct → "
              f"{r.distinct_up_to_symmetry:,} up to symmetry in {time.perf_counter() - t:.1f} s; "
              f"peak RSS so far {_rss_mib():,.0f} MiB")
    t = time.perf_counter()
    r = distinct_of_algorithms(P.algorithms("strict"))
    print(f"Phadke strict: {r.tours:,} tours → {r.distinct:,} cycles → "
          f"{r.distinct_up_to_symmetry:,} up to symmetry, full board {r.distinct_full:,}, in "
          f"{time.perf_counter() - t:.1f} s; peak RSS so far {_rss_mib():,.0f} MiB")
    boards = [(6, 6, 1.03)] + ([] if a.quick else [(5, 8, 12.7)])
    for rows, cols, peer in boards:
        t = time.perf_counter()
        paths, closed = _all_tours(rows, cols)
        dt = time.perf_counter() - t
        print(f"all tours {rows}×{cols}: {paths // 2:,} undirected paths, "
              f"{closed // (2 * rows * cols):,} closed tours in {dt:.1f} s on one core "
              f"(Luschny's counter, 2 cores, as quoted: {peer} s)")


if __name__ == "__main__":
    main()
