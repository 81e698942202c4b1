"""Semi-magic 8×8 knight's tours from scratch: the line-sum search's time to the first tours,
its rate, and what a census would cost, estimated on random slices.

    .venv/bin/python bench/semimagic.py --method half-turn [--limit 1] [--seconds 3600]
    .venv/bin/python bench/semimagic.py --method open --start a1 --seconds 60
    .venv/bin/python bench/semimagic.py --method open --seconds 0 --samples 400 --depth 18

1. From scratch (``--seconds`` > 0): ``core/studies/magic/search.py``'s search in the mode
   ``--method`` (``open``: every open path, ``closed``, ``half-turn``: the closed tours the
   half turn keeps), from every start square of the board's orbits in turn or from
   ``--start`` alone: the time and nodes to the first ``--limit`` tours (each printed,
   numbered, with its kind from ``core/board/magic.py``), to the proof that there are no
   more, or to the end of ``--seconds``. Prints nodes a second of wall time and of CPU.
2. Census slices (``--samples`` > 0; open or closed): random openings of ``--depth``
   squares from ``--start`` (default a1), each subtree searched to the end (capped at
   ``--cap`` nodes); Knuth's estimator (the product of the branching factors along the
   opening times the subtree's nodes, averaged) gives the nodes of exhausting every opening
   from that start, hence the census's cost.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from knightgui_core.board.squares import Board
from knightgui_core.studies.magic.search import knight_table, search_magic


def opening(nbr, start: int, depth: int, rng: random.Random) -> tuple[list[int], int] | None:
    """A random knight path of ``depth`` squares from ``start`` and the product of the
    number of choices along it (None if the walk got stuck)."""
    path, seen, weight = [start], {start}, 1
    while len(path) < depth:
        free = [int(u) for u in nbr[path[-1]] if u >= 0 and int(u) not in seen]
        if not free:
            return None
        weight *= len(free)
        u = rng.choice(free)
        path.append(u)
        seen.add(u)
    return path, weight


def line_search(b: Board, method: str, limit: int, seconds: float, start: int | None) -> None:
    """The search from scratch: time to the first ``limit`` tours."""
    from knightgui_core.board.magic import line_sums
    from knightgui_core.board.tour import Tour
    starts = None if start is None else [start]
    search_magic(8, 8, method, node_limit=10)                          # compile or load
    cpu = time.process_time()
    r = search_magic(8, 8, method, limit=limit, seconds=seconds, starts=starts)
    cpu = time.process_time() - cpu
    print(f"{method}: {r.status}, {len(r.tours)} tour(s) after {r.nodes:,} nodes, "
          f"{r.seconds:.1f} s ({r.nodes / max(r.seconds, 1e-9):,.0f} nodes/s; "
          f"{r.nodes / max(cpu, 1e-9):,.0f} a second of CPU); start squares "
          f"exhausted: {r.starts_done} of {len(r.starts)}; load now {os.getloadavg()[0]:.1f}",
          flush=True)
    for t in r.tours[:5]:
        tour = Tour(b, t)
        print(f"{line_sums(tour.numbers()).kind}: {' '.join(b.name(s) for s in t)}")
        for row in tour.numbers()[::-1]:
            print("  " + " ".join(f"{int(v):2d}" for v in row))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--method", default="open", choices=("open", "closed", "half-turn"))
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--start", default=None, help="one start square (default: every orbit's)")
    ap.add_argument("--limit", type=int, default=1)
    ap.add_argument("--samples", type=int, default=0)
    ap.add_argument("--depth", type=int, default=24)
    ap.add_argument("--cap", type=int, default=200_000_000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    b = Board(8, 8)
    start = None if a.start is None else b.parse(a.start)
    print(f"# load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
    if a.seconds > 0:
        line_search(b, a.method, a.limit, a.seconds, start)
    if a.samples > 0:
        slices(a, b, b.parse("a1") if start is None else start)


def slices(a: argparse.Namespace, b: Board, start: int) -> None:
    """Knuth's estimate of the nodes that exhaust every tour from ``start`` (each subtree
    exhausted, every tour in it found)."""
    if a.method == "half-turn":
        raise SystemExit("census slices: open or closed")

    def subtree(path: list[int], cap: int):
        return search_magic(8, 8, a.method, prefix=path, node_limit=cap, limit=1000)
    cal = subtree([start], 2_000_000)
    rate = cal.nodes / max(cal.seconds, 1e-9)
    rng = random.Random(a.seed)
    nbr = knight_table(8, 8)
    estimates: list[float] = []
    secs: list[float] = []
    capped, found = 0, 0
    while len(estimates) < a.samples:
        got = opening(nbr, start, a.depth, rng)
        if got is None:
            estimates.append(0)
            continue
        path, weight = got
        r = subtree(path, a.cap)
        capped += r.status == "budget"
        found += bool(r.tours)
        estimates.append(weight * r.nodes)
        secs.append(r.seconds)
        print(f"  opening {len(estimates)}: {r.status}, {r.nodes:,} nodes, {r.seconds:.2f} s, "
              f"weight {weight:.3g}", flush=True)
    total = statistics.mean(estimates)
    print(f"census slices ({a.method}) from {b.name(start)}, depth {a.depth}: {a.samples} "
          f"openings, {capped} capped at {a.cap:,} nodes, {found} found a tour; mean subtree "
          f"{statistics.mean(secs):.2f} s; estimated nodes to exhaust {b.name(start)}: "
          f"{total:.3g} = {total / rate / 86400:.3g} core-days at {rate:,.0f} nodes/s", flush=True)


if __name__ == "__main__":
    main()
