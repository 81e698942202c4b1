"""Plan a count study too big to run here: measured rate and an estimate of the work.

    .venv/bin/python bench/count_plan.py [--size 11] [--probes 4000] [--seconds 20] [--seed 1]

For each symmetry class of starts of an n×n board:

* the tree size is estimated with Knuth's random-probe estimator (1975): walk down from the
  start taking a random option at each tie; the product of the numbers of options met is an
  unbiased estimate of the leaves below (tours and dead ends), and of the tours when the walk
  ends in one. The mean of ``--probes`` walks and its standard error are printed; the same
  estimator on the 9×9 board, whose exact counts are known, shows how close it comes;
* the count kernel's rate is measured on one core for ``--seconds`` seconds of the corner
  start (forward moves and leaves per second);

and from these: core-hours, and tasks of :data:`knightgui_core.studies.count_study.TASK_MOVES`
forward moves. A start that a symmetry keeps in place is counted folded
(:mod:`knightgui_core.tietree.counting.fold`): its leaves to count are shown beside the whole start's
(the leaves divided by the orbit size of its first subtrees, exact when all orbits are alike,
as for the knight). The machine is shared: the load average is printed.
"""
from __future__ import annotations

import argparse
import os
import random
import time

import numpy as np

from knightgui_core.studies.count_study import TASK_MOVES
from knightgui_core.tietree.counting import count_kernel as K
from knightgui_core.tietree.counting.fold import fold_roots
from knightgui_core.tietree.counting.subtrees import CountBoard, count_subtrees, start_classes
from knightgui_core.tietree.counting.table import TransTable


def probe(cb: CountBoard, s: int, rng: random.Random) -> tuple[float, float, int]:
    """One random walk: (leaves estimate, tours estimate, ties met)."""
    prefix: tuple = ()
    weight = 1.0
    types = np.zeros(8, dtype=np.int8)
    ties = 0
    while True:
        cb._begin(s, prefix)        # noqa: SLF001 - the engine's own walk
        got = int(K.next_tie(cb.att, cb.mtype, cb.path, cb.free, cb.st, types))
        if got == 0:
            break
        ties += 1
        weight *= got
        prefix = prefix + (int(types[rng.randrange(got)]),)
    r = count_subtrees(cb, s, [prefix])
    return weight, weight * r.tours, ties


def estimate(n: int, probes: int, seed: int) -> list[tuple[str, int, float, float, float, float]]:
    """(class, members, tours estimate, its standard error, leaves estimate, leaves to count
    folded) per class."""
    cb = CountBoard(n, n)
    rng = random.Random(seed)
    out = []
    for rep, members in start_classes(n, n, range(n * n)).items():
        leaves, tours = [], []
        for _ in range(probes):
            lv, tv, _ = probe(cb, rep, rng)
            leaves.append(lv)
            tours.append(tv)
        t = np.asarray(tours)
        roots = fold_roots(cb, rep, 0)
        share = len(roots) / sum(w for _, w in roots)
        out.append((cb.board.name(rep), len(members), float(t.mean()),
                    float(t.std(ddof=1) / np.sqrt(len(t))), float(np.mean(leaves)),
                    float(np.mean(leaves)) * share))
    return out


def rate(n: int, seconds: float, table_mb: int = 0) -> tuple[float, float]:
    """(forward moves/s, leaves/s) of the kernel on one core, corner start, walking every
    node (``table_mb`` 0) or with a transposition table of that many MiB (leaves then
    include those added by the table's hits: the rate at which the count advances)."""
    cb = CountBoard(n, n)
    count_subtrees(cb, 0, [()], 1000)
    table = TransTable(cb.n, table_mb << 20) if table_mb else None
    budget, spent, fwd, leaves = 1 << 22, 0.0, 0, 0
    todo: list = [()]
    while spent < seconds and todo:
        t = time.perf_counter()
        r = count_subtrees(cb, 0, todo[:1], budget, table=table)
        spent += time.perf_counter() - t
        todo = r.rest + todo[1:]
        fwd += r.forward_moves
        leaves += r.tours + r.dead_ends
    return fwd / spent, leaves / spent


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=11)
    ap.add_argument("--probes", type=int, default=4000)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--table-mb", type=int, default=2048,
                    help="table of the second rate measurement (the first walks every node)")
    a = ap.parse_args()
    print(f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    for n in (9, a.size):
        t = time.perf_counter()
        est = estimate(n, a.probes, a.seed)
        tot = sum(m * e for _, m, e, _, _, _ in est)
        err = float(np.sqrt(sum((m * s) ** 2 for _, m, _, s, _, _ in est)))
        leaves = sum(m * lv for _, m, _, _, lv, _ in est)
        cls_leaves = sum(lv for *_, lv, _ in est)
        folded = sum(f for *_, f in est)
        print(f"{n}×{n}: estimated tours {tot:.3e} ± {err:.1e} (one standard error), leaves "
              f"{leaves:.3e}, leaves of one start per class {cls_leaves:.3e}, "
              f"{folded:.3e} to count folded "
              f"({a.probes} probes per class, {time.perf_counter() - t:.0f} s)")
        for name, m, e, s, lv, f in est:
            print(f"   {name:>4} ×{m}: tours {e:.3e} ± {s:.1e}, leaves {lv:.3e}"
                  + (f", {f:.3e} to count folded" if f < lv else ""))
        if n != a.size:
            continue
        fwd_s, leaf_s = rate(n, a.seconds)
        moves_per_leaf = fwd_s / leaf_s
        core_s = folded / leaf_s
        print(f"{n}×{n} kernel on one core: {fwd_s / 1e6:.1f} M forward moves/s, "
              f"{leaf_s / 1e6:.2f} M leaves/s ({moves_per_leaf:.1f} moves a leaf; "
              f"load {os.getloadavg()[0]:.1f})")
        print(f"{n}×{n} plan: {core_s / 3600:,.0f} core-hours for one start per class, "
              f"folded; about {folded * moves_per_leaf / TASK_MOVES:,.0f} tasks of "
              f"{TASK_MOVES:,} forward moves")
        tfwd_s, tleaf_s = rate(n, a.seconds, a.table_mb)
        print(f"{n}×{n} with a {a.table_mb} MiB table, same start and time: "
              f"{tfwd_s / 1e6:.1f} M forward moves/s, {tleaf_s / 1e6:.2f} M leaves/s counted "
              f"({tleaf_s / leaf_s:.1f}× the plain walk); plan with the table: "
              f"{folded / tleaf_s / 3600:,.0f} core-hours folded (the table's share grows with "
              f"the subtree, so a longer measurement gives a lower figure)")


if __name__ == "__main__":
    main()
