"""The transposition table against the plain walk of the tie tree, side by side in one run.

    .venv/bin/python bench/table.py [--quick] [--table-mb 1024] [--reps 1]

First the plain count's hand-kept loop against the shared loop it was folded into
(count_kernel.count_run's docstring gives the figure). Then, on one core, each row counts the
same thing three times: with the count kernel from before the table (``count_run``: counts
only), with the memo kernel walking every node (no table; probabilities too) and with a table
of ``--table-mb`` MiB, and checks that the counts and the probabilities agree:

* 10×10 from d1 (the target: at least 6× faster with the table than the count kernel);
* 9×9, every start (its 15 symmetry classes, one table shared by all of them);
* 8×8 with dead-end lengths (Knuth's statistics in full).

Printed: wall seconds, forward moves, the ratio to the old kernel (of wall and of CPU seconds,
the steadier on a shared machine), table lookups and hits, and the peak RSS above the RSS
before the first table, against the table's limit (which covers a doubling, old and new side
by side). ``--quick`` skips 10×10. ``--reps N`` runs 10×10's old kernel and table N times
each, alternating (each table made afresh): the best CPU seconds of each, their ratio (the
target's figure), the medians, then every run's CPU seconds, the table's with their system
part (mostly the kernel zeroing the table's fresh pages). Each 10×10 round also counts with
the table and one search (``memo_run`` alone: tietree/counting/interleave.py), its CPU seconds
beside the table's. The load average is printed with the figures.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import time

from _targets import check, verdict

from knightgui_core.tietree.counting import count_kernel as K
from knightgui_core.tietree.counting import subtrees as _sub
from knightgui_core.tietree.counting.subtrees import CountBoard, count_subtrees, start_classes
from knightgui_core.tietree.counting.table import TransTable


def run_old(rows: int, cols: int, starts: list[int]):
    """The count kernel before the table: (seconds, tours, closed, dead ends)."""
    cb = CountBoard(rows, cols)
    t0 = time.perf_counter()
    c0 = time.process_time()
    tot = [0, 0, 0]
    for s in starts:
        cb._begin(s, ())                   # noqa: SLF001 - the engine's own set-up
        close = cb.att[s].copy()
        K.count_run(cb.att, close, cb.path, cb.free, cb.pend, cb.ntied, cb.ties, cb.st,
                    1 << 62)
        tot[0] += int(cb.st[K.ST_TOURS])
        tot[1] += int(cb.st[K.ST_CLOSED])
        tot[2] += int(cb.st[K.ST_DEAD])
    return time.perf_counter() - t0, tot, time.process_time() - c0


def loop_against_copy(reps: int = 5) -> tuple[float, float]:
    """Median CPU seconds of the hand-kept ``count_run`` and of ``count_loop`` with the plain
    visitor (the loop the table's kernel is a copy of) on 9×9 from square 20 (checks that
    they count the same)."""
    times: dict[str, list[float]] = {"copy": [], "loop": []}
    got = {}
    for _ in range(reps):
        for kind in times:
            cb = CountBoard(9, 9)
            cb._begin(20, ())                  # noqa: SLF001 - the engine's own set-up
            close = cb.att[20].copy()
            c0 = time.process_time()
            if kind == "copy":
                K.count_run(cb.att, close, cb.path, cb.free, cb.pend, cb.ntied, cb.ties,
                            cb.st, 1 << 62)
            else:
                K.count_loop(cb.att, close, cb.path, cb.free, cb.pend, cb.ntied, cb.ties,
                             cb.st, cb.st, 1 << 62)
            times[kind].append(time.process_time() - c0)
            got[kind] = (int(cb.st[K.ST_TOURS]), int(cb.st[K.ST_FORWARD]))
    assert got["copy"] == got["loop"], got
    return statistics.median(times["copy"]), statistics.median(times["loop"])


def _rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _sys_s() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_stime


def run(rows: int, cols: int, starts: list[int], table: TransTable | None, lengths: bool):
    """Count with the memo kernel: (wall seconds, totals, CPU seconds); the system part of the
    CPU seconds (the kernel zeroing the table's fresh pages, most of it) goes to ``SYS``."""
    cb = CountBoard(rows, cols)
    s0 = _sys_s()
    t0 = time.perf_counter()
    c0 = time.process_time()
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
    SYS.append(_sys_s() - s0)
    return time.perf_counter() - t0, tot, time.process_time() - c0


#: system CPU seconds of each :func:`run`, in order
SYS: list[float] = []


def run_one_search(rows: int, cols: int, starts: list[int], limit: int):
    """:func:`run` with a fresh table of ``limit`` bytes and one search (the subtrees not
    walked in turn): (CPU seconds, totals)."""
    keep = _sub.MANY_BUDGET
    _sub.MANY_BUDGET = 1 << 63
    try:
        _, tot, cpu = run(rows, cols, starts, TransTable(rows * cols, limit), False)
    finally:
        _sub.MANY_BUDGET = keep
    return cpu, tot


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="skip 10×10")
    ap.add_argument("--table-mb", type=int, default=1024)
    ap.add_argument("--reps", type=int, default=1, help="alternating runs of old and table")
    a = ap.parse_args()
    if a.reps < 1:
        ap.error("--reps must be at least 1")
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
    run_old(6, 6, [0])
    del t
    copy_s, loop_s = loop_against_copy()
    print(f"plain count, 9×9 from square 20, median CPU of 5: count_run (hand-kept) "
          f"{copy_s:.3f} s, count_loop (the shared loop) {loop_s:.3f} s")
    base = _rss_mib()
    cases = []
    if not a.quick:
        cases.append(("10×10 from d1", 10, 10, [3], False))
    cases.append(("9×9 all starts", 9, 9, sorted(start_classes(9, 9, range(81))), False))
    cases.append(("8×8 all starts, lengths", 8, 8, sorted(start_classes(8, 8, range(64))), True))
    print(f"{'case':<26} {'old s':>7} {'no table s':>10} {'table s':>8} {'ratio':>6} {'CPU':>6} "
          f"{'moves plain':>14} {'moves table':>12} {'lookups':>11} {'hits':>10} "
          f"{'entries':>10} {'RSS above base':>15}")
    best = []
    for name, rows, cols, starts, lengths in cases:
        dt0, plain, _ = run(rows, cols, starts, None, lengths)
        olds, tabs, sys_s, ones = [], [], [], []
        for _ in range(a.reps if rows == 10 else 1):
            dto, old, cto = run_old(rows, cols, starts)
            if rows == 10:
                one_s, one = run_one_search(rows, cols, starts, limit)
                assert one[:3] == old, (one, old)
                ones.append(one_s)
            table = TransTable(rows * cols, limit, lengths=lengths)
            dt1, memo, ct1 = run(rows, cols, starts, table, lengths)
            used, tbytes = table.used(), table.bytes
            del table                   # one table at a time: the RSS column is one table's
            olds.append(cto)
            tabs.append(ct1)
            sys_s.append(SYS[-1])
        assert old == plain[:3] == memo[:3], (name, old, plain, memo)
        assert abs(plain[3] - memo[3]) < 1e-9 and abs(plain[4] - memo[4]) < 1e-9, name
        best.append((name, min(olds), min(tabs), statistics.median(tabs), olds, tabs, sys_s, ones))
        print(f"{name:<26} {dto:>7.2f} {dt0:>10.2f} {dt1:>8.2f} {dto / dt1:>5.1f}× {cto / ct1:>5.1f}× "
              f"{plain[5]:>14,} {memo[5]:>12,} {memo[6]:>11,} {memo[7]:>10,} "
              f"{used:>10,} {_rss_mib() - base:>11,.0f} MiB"
              + (f"  ≥ 6×: {check('10×10 table against the count kernel', cto / ct1 >= 6)}"
                 if rows == 10 else ""))
        assert tbytes <= limit
    print(f"RSS before the first table {base:,.0f} MiB; peak {_rss_mib():,.0f} MiB, "
          f"{_rss_mib() - base:,.0f} MiB above it (limit of one table: {a.table_mb} MiB); "
          f"ratio = old kernel / table (the last of --reps runs)")
    if a.reps > 1:
        for name, o, t, med, olds, tabs, sys_s, ones in best[:1] if not a.quick else []:
            print(f"{name}: best CPU of {a.reps}, old {o:.2f} s, table {t:.2f} s: {o / t:.2f}×; "
                  f"table median {med:.2f} s ({o / med:.2f}×); old median "
                  f"{statistics.median(olds):.2f} s (median against median "
                  f"{statistics.median(olds) / med:.2f}×)")
            print(f"  the table with one search: median {statistics.median(ones):.2f} s, best "
                  f"{min(ones):.2f} s; each run {' '.join(f'{x:.2f}' for x in ones)} s")
            print(f"  each run, old: {' '.join(f'{x:.2f}' for x in olds)} s; table: "
                  + " ".join(f"{x:.2f} ({y:.2f} system)" for x, y in zip(tabs, sys_s)) + " s")
    print(f"load average {os.getloadavg()[0]:.1f} {os.getloadavg()[1]:.1f} at the end")
    return verdict()


if __name__ == "__main__":
    raise SystemExit(main())
