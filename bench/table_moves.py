"""What a forward move costs with the transposition table and without it: the work per move.

    .venv/bin/python bench/table_moves.py [--prefix MOVES] [--table-mb 1024]

bench/table.py times 10×10 from d1; this counts what the walk does there. The table skips
whole subtrees of 6 or more squares left, whose moves lie mostly near the bottom of the tree,
where a square has few unvisited neighbours; the moves it still walks lie higher, where the
rule's ``tied`` reads more candidate squares (one attack-table row and two popcounts each).

For the plain count (``count_kernel.count_loop``, the whole tree, or its first ``--prefix``
forward moves) and the table's count (``memo_kernel``'s loop with a table of ``--table-mb``
MiB, the whole start) it prints forward moves, ``tied`` evaluations, candidate squares read,
candidates per move and per evaluation, and the CPU seconds of each run. Each runs in a copy
of the loop whose forced moves (``count_kernel._forced``) also count the candidates into
row 0 of ``free``, which the loop never reads (``specialise``), so the CPU seconds are those
of the counting copies, not of the engine's kernels (bench/table.py times those); it checks
that both copies count what the engine counts.
"""
from __future__ import annotations

import argparse
import os
import time

import numpy as np

from knightgui_core.system.jit import njit, specialise
from knightgui_core.tietree.counting import count_kernel as K
from knightgui_core.tietree.counting import memo_kernel as M
from knightgui_core.tietree.counting.count_rule_kernel import popcount2
from knightgui_core.tietree.counting.subtrees import CountBoard, count_subtrees
from knightgui_core.tietree.counting.table import TransTable

SQUARE = 3                               # d1


@njit
def _forced_counted(att: np.ndarray, path: np.ndarray, free: np.ndarray, ntied: np.ndarray,
                    k: int, n: int) -> tuple:
    """``count_kernel._forced``, also adding to ``free[0, 0]`` the candidates each ``tied``
    reads and to ``free[0, 1]`` the evaluations."""
    got = np.uint64(0)
    evals = np.uint64(0)
    j = k
    f0 = free[k, 0]
    f1 = free[k, 1]
    while j < n:
        q = path[j]
        got += np.uint64(popcount2(att[q, 0] & f0, att[q, 1] & f1))
        evals += np.uint64(1)
        r = K._forced(att, path, free, ntied, j, j + 1)      # noqa: SLF001 - one step of it
        if r[3] != 1:
            free[0, 0] += got
            free[0, 1] += evals
            return r
        j = r[0]
        f0 = free[j, 0]
        f1 = free[j, 1]
    free[0, 0] += got
    free[0, 1] += evals
    return K._forced(att, path, free, ntied, j, n)          # noqa: SLF001 - the leaf


_plain = specialise(K.count_loop, "count_loop_moves", _forced=_forced_counted)
_memo = specialise(K.count_loop, "memo_loop_moves", refcounts=False, visit_setup=M.memo_setup,
                   visit_tour=M.memo_tour, visit_dead=M.memo_dead, visit_tie=M.memo_tie,
                   visit_close=M.memo_close, _forced=_forced_counted)


@njit
def _memo_run(att, close, path, free, pend, ntied, ties, st, cfg, tab, tabf, tlen, tlp, ai, af,
              al, alp, fw0, max_steps):
    return _memo(att, close, path, free, pend, ntied, ties, st,
                 (cfg, tab, tabf, tlen, tlp, ai, af, al, alp, fw0, pend, st, path, free),
                 max_steps)


def plain(prefix: int) -> dict:
    """The plain count's copy over the whole tree (or its first ``prefix`` forward moves)."""
    cb = CountBoard(10, 10)
    cb._begin(SQUARE, ())                # noqa: SLF001 - the engine's own set-up
    c0 = time.process_time()
    _plain(cb.att, cb.att[SQUARE].copy(), cb.path, cb.free, cb.pend, cb.ntied, cb.ties, cb.st,
           cb.st, prefix)
    cpu = time.process_time() - c0
    return {"moves": int(cb.st[K.ST_FORWARD]), "tours": int(cb.st[K.ST_TOURS]),
            "evals": int(cb.free[0, 1]), "cands": int(cb.free[0, 0]), "cpu": cpu}


def table(mib: int) -> dict:
    """The table's copy over the whole start, driven as ``count_subtrees`` drives it (chunks of
    2**20 forward moves, the table grown between them)."""
    cb = CountBoard(10, 10)
    t = TransTable(100, mib << 20)
    cb._begin(SQUARE, ())                # noqa: SLF001 - the engine's own set-up
    m = cb.mst
    m[:] = 0
    root = int(cb.st[K.ST_K])
    m[M.ST_K] = root
    m[M.ST_ROOT] = root
    m[M.ST_N] = cb.n
    m[M.ST_START] = SQUARE
    m[M.ST_PHASE] = M.PH_RUN
    al, alp = cb.lens_arrays(False)
    cb.ai[0] = 0
    cb.af[0] = 0.0
    close = cb.att[SQUARE].copy()
    c0 = time.process_time()
    while True:
        new0 = int(m[M.ST_NEW])
        ev = _memo_run(cb.att, close, cb.path, cb.free, cb.pend, cb.ntied, cb.ties, m, t.cfg,
                       t.tab, t.tabf, t.tlen, t.tlp, cb.ai, cb.af, al, alp, cb.fw0, 1 << 20)
        t.filled += int(m[M.ST_NEW]) - new0
        if ev == M.DONE:
            break
        t.grow_if_full()
    cpu = time.process_time() - c0
    return {"moves": int(m[M.ST_FORWARD]), "tours": int(cb.ai[0, 0]),
            "evals": int(cb.free[0, 1]), "cands": int(cb.free[0, 0]), "cpu": cpu,
            "lookups": int(m[M.ST_PROBES]), "hits": int(m[M.ST_HITS])}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--prefix", type=int, default=1 << 62,
                    help="forward moves of the plain count (default: the whole tree)")
    ap.add_argument("--table-mb", type=int, default=1024)
    a = ap.parse_args()
    if a.prefix < 1 or a.table_mb < 1:
        ap.error("--prefix and --table-mb must be positive")
    print(f"10×10 from d1, one core; load average {os.getloadavg()[0]:.1f}")
    plain(1000)                          # compile first
    table(4)
    rows = [("plain count", plain(a.prefix)), (f"table, {a.table_mb} MiB", table(a.table_mb))]
    engine = count_subtrees(CountBoard(10, 10), SQUARE, [()],
                            table=TransTable(100, a.table_mb << 20))
    assert rows[1][1]["moves"] == engine.forward_moves, (rows[1][1], engine.forward_moves)
    assert rows[1][1]["tours"] == engine.tours
    if a.prefix >= 1 << 62:
        assert rows[0][1]["tours"] == engine.tours
    print(f"{'':<18} {'forward moves':>15} {'tied evals':>15} {'candidates':>15} "
          f"{'cand/move':>10} {'cand/eval':>10} {'evals/move':>10} {'CPU s':>7}")
    for name, r in rows:
        print(f"{name:<18} {r['moves']:>15,} {r['evals']:>15,} {r['cands']:>15,} "
              f"{r['cands'] / r['moves']:>10.3f} {r['cands'] / r['evals']:>10.3f} "
              f"{r['evals'] / r['moves']:>10.3f} {r['cpu']:>7.2f}")
    t = rows[1][1]
    print(f"table: {t['lookups']:,} lookups, {t['hits']:,} hits; "
          f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
