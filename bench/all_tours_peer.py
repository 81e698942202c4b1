"""Every knight's path against a peer's counter, side by side in one run.

    .venv/bin/python bench/all_tours_peer.py --peer /path/to/knightspaths
    .venv/bin/python bench/all_tours_peer.py        # no peer at hand: our side alone

The peer is P. Luschny's public C++ counter of undirected knight's paths (OEIS A390833:
depth-first search in Warnsdorff's order, a degree cut and a connectivity test at every node,
start squares up to symmetry, OpenMP over the starts). Its benchmark counts every k×n board
with 3 ≤ k, n ≤ 12 and k·n ≤ 40 — both orientations, 40 boards, 5×8 and 8×5 each — and prints
each board's time. The project carries none of its code: build it outside the repository
from the author's public repository of Hamiltonian paths on knight graphs, e.g.::

    g++ -O3 -march=native -fopenmp -std=c++20 knightspaths.cpp -o /tmp/knightspaths

This script runs the peer's binary (all cores), then counts the same boards in the same
order with :func:`knightgui_core.studies.all_tours.run_all_tours` on this machine's cores
(one task per start square up to symmetry; one local Dask cluster for all boards, started
and warmed before the clock starts, as the peer's process start is not in its figures
either), checks that every count agrees, and prints both times per board, the ratio, and
the totals; exit status 1 when a count differs or ours is not faster in total (the
target). Each orientation is counted from scratch (nothing is carried from 5×8 to 8×5).
The load average is printed with the figures: the machine may be shared.

Without ``--peer`` (``make bench`` runs every script with no arguments) it counts the same 40
boards on our side alone, checks the two boards whose counts OEIS gives (5×5: 864 undirected
paths, 6×6: 3,318,960; A390833) and says that the peer's side was not run.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time

from _targets import check, verdict

from knightgui_core.run.runner import run_tasks
from knightgui_core.studies.all_tours import run_all_tours

LINE = re.compile(r"A\((\d+),(\d+)\)\s*=\s*(\d+)\s+Time:\s*([0-9.eE+-]+)s")
TOTAL = re.compile(r"Total Time:\s*([0-9.eE+-]+)s")


def run_peer(path: str) -> tuple[list[tuple[int, int, int, float]], float, float]:
    """The peer's boards (k, n, undirected paths, seconds), its own total and our wall time
    of its process."""
    t0 = time.perf_counter()
    done = subprocess.run([path], capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    rows = [(int(k), int(n), int(c), float(s)) for k, n, c, s in LINE.findall(done.stdout)]
    m = TOTAL.search(done.stdout)
    if not rows or m is None:
        sys.exit(f"{path}: no board lines in its output")
    return rows, float(m.group(1)), wall


def ours(k: int, n: int, workers: int) -> tuple[int, int, float]:
    """Undirected paths, closed tours and seconds for a k×n board on the local cluster."""
    res = run_all_tours(k, n, runner=lambda tasks: run_tasks(tasks, workers=workers))
    d = res.to_dict()
    return int(d["undirected_paths"]), int(d["undirected_closed_tours"]), res.seconds


#: undirected paths OEIS gives (A390833), checked when no peer is at hand
OEIS = {(5, 5): 864, (6, 6): 3_318_960}


def ours_alone(workers: int) -> int:
    """The peer's 40 boards (3 ≤ k, n ≤ 12, k·n ≤ 40, both orientations) on our side only."""
    ours(3, 4, workers)                         # start the cluster, load the kernels
    boards = [(k, n) for k in range(3, 13) for n in range(3, 13) if k * n <= 40]
    total = 0.0
    print(f"{'board':>7} {'undirected paths':>17} {'ours s':>8}")
    for k, n in boards:
        got, _closed, secs = ours(k, n, workers)
        want = OEIS.get((k, n))
        if want is not None and got != want:
            sys.exit(f"{k}×{n}: we count {got:,} undirected paths, OEIS A390833 says {want:,}")
        total += secs
        print(f"{k:>3}×{n:<3} {got:>17,} {secs:>8.3f}")
    print(f"{len(boards)} boards in {total:.2f} s (5×5 and 6×6 as OEIS gives them); the peer's "
          f"side was not run (no --peer binary); load after {os.getloadavg()[0]:.2f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peer", default=None, help="the peer's compiled benchmark binary "
                    "(without it: our side alone)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    a = ap.parse_args(argv)
    print(f"load before: {os.getloadavg()[0]:.2f}; {a.workers} workers; "
          f"{os.cpu_count()} cores")
    if a.peer is None:
        return ours_alone(a.workers)
    peer, peer_total, peer_wall = run_peer(a.peer)
    print(f"peer: {len(peer)} boards, {peer_total:.2f} s by its own clock "
          f"({peer_wall:.2f} s with its process); load {os.getloadavg()[0]:.2f}")
    ours(3, 4, a.workers)                       # start the cluster, load the kernels
    print(f"{'board':>7} {'undirected paths':>17} {'peer s':>8} {'ours s':>8} {'ratio':>6}")
    t0 = time.perf_counter()
    mine_total = 0.0
    for k, n, count, secs in peer:
        got, _closed, mine = ours(k, n, a.workers)
        if got != count:
            sys.exit(f"{k}×{n}: we count {got:,} undirected paths, the peer {count:,}")
        mine_total += mine
        ratio = f"{secs / mine:6.2f}" if mine > 0 else "     -"
        print(f"{k:>3}×{n:<3} {count:>17,} {secs:>8.3f} {mine:>8.3f} {ratio}")
    wall = time.perf_counter() - t0
    print(f"all {len(peer)} boards agree. peer {peer_total:.2f} s, ours {mine_total:.2f} s "
          f"({wall:.2f} s with the loop): ours takes {mine_total / peer_total:.2f}× the peer's "
          f"time (target: faster than the peer, "
          f"{check('faster than the peer', mine_total < peer_total)}); load after "
          f"{os.getloadavg()[0]:.2f}")
    return verdict()


if __name__ == "__main__":
    raise SystemExit(main())
