"""Semi-magic 8×8 knight's tours from scratch (issue 38, item 3): how far the search gets in
a bounded time, its rate, and what a census would cost, estimated on random slices.

    .venv/bin/python bench/semimagic.py [--seconds 60] [--start a1] [--samples 20 --depth 24]
    .venv/bin/python bench/semimagic.py --method half-turn [--limit 1] [--seconds 3600]
    .venv/bin/python bench/semimagic.py --method compare [--nodes 20000000] [--samples 5]

0. ``--method half-turn`` (or ``closed``, ``open``): the line-sum search of
   ``core/studies/magic_search.py`` from scratch, every start square of the board's orbits in
   turn: the time and nodes to the first ``--limit`` tours (each printed, numbered, with its
   kind from ``core/board/magic.py``), or to the proof that there are no more. With
   ``--method open`` or ``closed``, the census slices below use that search (each subtree
   exhausted) instead of the first one.

``--method compare``: the two prefix searches side by side in one run, the first
   (``find_semimagic``) and the line-sum search in open mode: from ``--start`` with ``--nodes``
   nodes each (twice, alternating), then ``--samples`` random openings of ``--depth`` squares
   each searched to the end by both; prints each one's answer, nodes, seconds and nodes a
   second.

1. From scratch: every tour from ``--start``, searched for a semi-magic one for at most
   ``--seconds`` (a short calibration picks the node budget). Prints found/none/budget,
   nodes, seconds and nodes a second.
2. Census slices (``--samples`` > 0): random openings of ``--depth`` squares from the start,
   each subtree searched to the end (capped at ``--cap`` nodes); Knuth's estimator (the
   product of the branching factors along the opening times the subtree's nodes, averaged)
   gives the nodes of exhausting every opening from that start, hence the census's cost.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics

from knightgui_core.board.squares import Board
from knightgui_core.studies.semimagic import find_semimagic, knight_table


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


def line_search(b: Board, method: str, limit: int, seconds: float) -> None:
    """The line-sum search from scratch: time to the first ``limit`` tours."""
    from knightgui_core.board.magic import line_sums
    from knightgui_core.board.tour import Tour
    from knightgui_core.studies.magic_search import search_magic
    search_magic(8, 8, method, node_limit=10)                          # compile or load
    r = search_magic(8, 8, method, limit=limit, seconds=seconds if seconds > 0 else None)
    print(f"{method}: {r.status}, {len(r.tours)} tour(s) after {r.nodes:,} nodes, "
          f"{r.seconds:.1f} s ({r.nodes / max(r.seconds, 1e-9):,.0f} nodes/s); start squares "
          f"exhausted: {r.starts_done} of {len(r.starts)}; load now {os.getloadavg()[0]:.1f}",
          flush=True)
    for t in r.tours[:5]:
        tour = Tour(b, t)
        print(f"{line_sums(tour.numbers()).kind}: {' '.join(b.name(s) for s in t)}")
        for row in tour.numbers()[::-1]:
            print("  " + " ".join(f"{int(v):2d}" for v in row))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--start", default="a1")
    ap.add_argument("--samples", type=int, default=0)
    ap.add_argument("--depth", type=int, default=24)
    ap.add_argument("--cap", type=int, default=200_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--method", default="plain", choices=("plain", "half-turn", "closed", "open", "compare"))
    ap.add_argument("--nodes", type=int, default=20_000_000)
    ap.add_argument("--limit", type=int, default=1)
    a = ap.parse_args()
    b = Board(8, 8)
    start = b.parse(a.start)
    print(f"# load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
    if a.method == "compare":
        compare(a, start)
        return
    if a.method != "plain":
        if a.seconds > 0:
            line_search(b, a.method, a.limit, a.seconds)
        if a.samples > 0:
            slices(a, b, start)
        return
    find_semimagic(8, 8, prefix=[start], node_limit=10)                  # compile or load
    cal = find_semimagic(8, 8, prefix=[start], node_limit=2_000_000)
    rate = cal.nodes / max(cal.seconds, 1e-9)
    if a.seconds > 0:
        r = find_semimagic(8, 8, prefix=[start], node_limit=int(rate * a.seconds))
        print(f"from {a.start}: {r.status} after {r.nodes:,} nodes, {r.seconds:.1f} s "
              f"({r.nodes / max(r.seconds, 1e-9):,.0f} nodes/s)", flush=True)
        if r.status == "found":
            print("tour:", " ".join(b.name(s) for s in r.path))
    if a.samples > 0:
        slices(a, b, start, rate)


def compare(a: argparse.Namespace, start: int) -> None:
    """The first search and the open line-sum search on the same openings, in one run."""
    from knightgui_core.studies.magic_search import search_magic

    def both(path: list[int], cap: int) -> None:
        old = find_semimagic(8, 8, prefix=path, node_limit=cap)
        new = search_magic(8, 8, "open", prefix=path, node_limit=cap)
        line = []
        for name, status, nodes, secs in (("first", old.status, old.nodes, old.seconds),
                                          ("open", new.status, new.nodes, new.seconds)):
            line.append(f"{name} {status} {nodes:,} nodes {secs:.2f} s "
                        f"({nodes / max(secs, 1e-9):,.0f}/s)")
        print(f"{len(path)} squares: " + " | ".join(line) + f"; load {os.getloadavg()[0]:.1f}", flush=True)
    find_semimagic(8, 8, prefix=[start], node_limit=10)                  # compile or load
    search_magic(8, 8, "open", prefix=[start], node_limit=10)
    for _ in range(2):
        both([start], a.nodes)
    rng = random.Random(a.seed)
    nbr = knight_table(8, 8)
    done = 0
    while done < a.samples:
        got = opening(nbr, start, a.depth, rng)
        if got is not None:
            both(got[0], a.cap)
            done += 1


def slices(a: argparse.Namespace, b: Board, start: int, rate: float = 0.0) -> None:
    """Knuth's estimate of the nodes that exhaust every tour from ``start`` (``--method``
    plain: the first search, stopping at a tour; open or closed: the line-sum search, each
    subtree exhausted)."""
    from knightgui_core.studies.magic_search import search_magic
    if a.method == "half-turn":
        raise SystemExit("census slices: plain, open or closed")

    def subtree(path: list[int], cap: int):
        if a.method == "plain":
            return find_semimagic(8, 8, prefix=path, node_limit=cap)
        return search_magic(8, 8, a.method, prefix=path, node_limit=cap, limit=1000)
    if rate <= 0:
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
        found += r.status == "found" or bool(getattr(r, "tours", []))
        estimates.append(weight * r.nodes)
        secs.append(r.seconds)
        print(f"  opening {len(estimates)}: {r.status}, {r.nodes:,} nodes, {r.seconds:.2f} s, "
              f"weight {weight:.3g}", flush=True)
    total = statistics.mean(estimates)
    print(f"census slices ({a.method}) from {a.start}, depth {a.depth}: {a.samples} openings, "
          f"{capped} capped at {a.cap:,} nodes, {found} found a tour; mean subtree "
          f"{statistics.mean(secs):.2f} s; estimated nodes to exhaust {a.start}: {total:.3g} "
          f"= {total / rate / 86400:.3g} core-days at {rate:,.0f} nodes/s", flush=True)


if __name__ == "__main__":
    main()
