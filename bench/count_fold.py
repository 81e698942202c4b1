"""Could the count by states run on the enumeration's search loop? A fold measured.

    .venv/bin/python bench/count_fold.py [--reps 7] [--budget 20000000]

The count by states (``count_kernel.count_loop``: a 128-bit set of unvisited squares per
number, the tied squares kept as two-word sets) and the tie-tree search
(``enumerate_kernel.search``: a layout of five operations, the ties kept as Phadke's options
matrix) are the same walk of the tie tree. This script writes the count's 128-bit state as a
layout of ``search`` (below: ``held_w``, ``ends_here_w``, ``tie_mask_w``, ``back_to_w``,
``step_to_w``; the unvisited set in the loop's two registers, one copy per number to back
up to) with the plain count's visitor (closed tours counted at each tour), binds it with
``specialise`` and times it against ``count_loop`` with the plain visitor and against
``count_run`` (the hand-kept copy the table bench compares with). ``search`` has no hooks for
the table's visitor (``memo_kernel``), so ``bench/_count_fold_hooks.py`` is ``search`` with the
hooks ``count_loop`` gives it, run here with the plain visitor. (It ran with the table's
visitor too until the table's lookup went in flight, e3502fa: since then that visitor cuts the
search back through ``count_loop``'s own two-word tie sets, which ``search``'s options matrix
does not have — one more reason the fold is not made; the figures measured before are in
``count_loop``'s docstring.) Alternating, best of ``--reps`` CPU seconds each:

* 9×9 from square 20, the whole tree (the three must give the same tours, closed tours, dead
  ends and forward moves);
* 10×10 from d1 (square 3), the first ``--budget`` forward moves: the search follows the
  ties in another order (highest move type first, the count lowest square first), so this
  row compares nanoseconds per forward move over different parts of one tree.

The load average is printed with the figures: the machine may be shared. What the runs
found, and why ``count_loop`` stays, is in ``count_loop``'s docstring.
"""
from __future__ import annotations

import argparse
import os
import time

import numpy as np
from _count_fold_hooks import search_hooked

from knightgui_core.system.jit import njit, specialise, trailing_zeros
from knightgui_core.tietree.counting import count_kernel as K
from knightgui_core.tietree.counting.subtrees import CountBoard
from knightgui_core.tietree.enumeration import enumerate_kernel as E
from knightgui_core.tietree.enumeration.bitboard_kernel import slot_table
from knightgui_core.tietree.enumeration.search_rule_kernel import ones

# The 128-bit count state as a layout of E.search: x0..x4 = (ncount, att uint64[N, 2],
# free uint64[N + 1, 2], close uint64[2], unused); registers r0, r1 = the unvisited squares.


@njit(inline="always")
def held_w(x0, x1, x2, x3, x4, k):
    return x2[k, 0], x2[k, 1]


@njit(inline="always")
def ends_here_w(x0, x1, x2, x3, x4, q):
    return True                              # open tours: every full path is a tour


@njit(inline="always")
def tie_mask_w(nl, x0, x1, x2, x3, x4, q, r0, r1):
    one = np.uint64(1)
    best = 99
    mask = 0
    w = 0
    while w < 2:
        cand = (x1[q, 0] & r0) if w == 0 else (x1[q, 1] & r1)
        while cand:
            c = np.int64(trailing_zeros(cand)) + 64 * w
            cand &= cand - one
            sc = ones(x1[c, 0] & r0) + ones(x1[c, 1] & r1)
            i = x4[q, c]
            lt = 1 if sc < best else 0
            le = 1 if sc <= best else 0
            mask = (mask * (1 - lt)) | (le << i)
            best = min(best, sc)
        w += 1
    return mask


@njit(inline="always")
def back_to_w(x0, x1, x2, x3, x4, path, k, kb, r0, r1):
    return x2[kb, 0], x2[kb, 1]


@njit(inline="always")
def step_to_w(x0, x1, x2, x3, x4, c, k, r0, r1):
    if c < 64:
        r0 = r0 & ~(np.uint64(1) << np.uint64(c))
    else:
        r1 = r1 & ~(np.uint64(1) << np.uint64(c - 64))
    x2[k, 0] = r0
    x2[k, 1] = r1
    return r0, r1


@njit(inline="always")
def visit_closed(path, mo, st, got, carry, out):
    q = path[st[E.ST_L]]
    close, cnt = out
    if q < 64:
        cnt[0] += (close[0] >> np.uint64(q)) & np.uint64(1)
    else:
        cnt[0] += (close[1] >> np.uint64(q - 64)) & np.uint64(1)
    return carry


WIDE = {"held": held_w, "tie_mask": tie_mask_w, "back_to": back_to_w, "step_to": step_to_w}
fold = specialise(E.search, "count_fold_bench", visit=visit_closed, ends_here=ends_here_w,
                  **WIDE)
# the search with the count's hooks (bench/_count_fold_hooks.py), with each of its visitors
hooked = specialise(search_hooked, "count_fold_plain", visit_setup=K.visit_setup,
                    visit_tour=K.visit_tour, visit_dead=K.visit_dead, visit_tie=K.visit_tie,
                    visit_close=K.visit_close, **WIDE)


class Case:
    """One board and start, its root set up by count_begin for each kernel."""

    def __init__(self, rows: int, cols: int, start: int):
        self.cb = CountBoard(rows, cols)
        self.start = start
        nbr = np.ascontiguousarray(self.cb.board.neighbours, dtype=np.int32)
        self.nbr = nbr
        self.nl, self.ntype, self.ncount, _, _ = E.tables(nbr, [])
        self.tslot = slot_table(self.nl, self.ncount)

    def run(self, kind: str, budget: int) -> tuple[float, tuple]:
        """CPU seconds and (tours, closed, dead ends, forward moves) of one kernel."""
        cb = self.cb
        cb._begin(self.start, ())          # noqa: SLF001 - the engine's own set-up
        close = cb.att[self.start].copy()
        n = cb.n
        mo = np.zeros((n + 1, 8), np.int8)
        ties = np.zeros(n + 1, np.int32)
        if kind == "fold":
            st = np.zeros(E.ST_SIZE, np.int64)
            st[E.ST_K] = cb.st[K.ST_K]
            st[E.ST_L] = n
            cnt = np.zeros(1, np.uint64)
            c0 = time.process_time()
            fold(self.nbr, self.nl, self.ntype, self.ncount, cb.att, cb.free, close,
                 self.tslot, cb.path, mo, ties, st, budget, E.NO_LIMIT, (close, cnt),
                 np.int64(0))
            dt = time.process_time() - c0
            return dt, (int(st[E.ST_SOLUTIONS]), int(cnt[0]), int(st[E.ST_DEAD_ENDS]),
                        int(st[E.ST_FORWARD]))
        c0 = time.process_time()
        if kind == "loop":
            K.count_loop(cb.att, close, cb.path, cb.free, cb.pend, cb.ntied, cb.ties, cb.st,
                         cb.st, budget)
        elif kind == "hooked":
            hooked(self.nbr, self.nl, self.ntype, self.ncount, cb.att, cb.free, close,
                   self.tslot, cb.path, mo, ties, cb.ntied, cb.st, cb.st, budget)
        else:
            K.count_run(cb.att, close, cb.path, cb.free, cb.pend, cb.ntied, cb.ties, cb.st,
                        budget)
        dt = time.process_time() - c0
        s = cb.st
        return dt, (int(s[K.ST_TOURS]), int(s[K.ST_CLOSED]), int(s[K.ST_DEAD]),
                    int(s[K.ST_FORWARD]))


PLAIN = ("loop", "fold", "hooked", "run")
NAMES = {"loop": "count_loop, plain visitor", "fold": "search + 128-bit layout",
         "hooked": "search + hooks, plain visitor", "run": "count_run (hand-kept)"}


def measure(case: Case, kinds: tuple[str, ...], budget: int,
            reps: int) -> dict[str, tuple[float, tuple]]:
    """Best CPU seconds of each kernel over ``reps`` alternating rounds, with its counts."""
    best: dict[str, tuple[float, tuple]] = {}
    for _ in range(reps):
        for kind in kinds:
            dt, got = case.run(kind, budget)
            if kind not in best or dt < best[kind][0]:
                best[kind] = (dt, got)
    return best


def report(title: str, best: dict[str, tuple[float, tuple]], ref: str, whole: bool) -> None:
    """One block of lines: each kernel's time (whole tree) or time per forward move."""
    print(title)
    if whole:
        assert len({got[:3] for _, got in best.values()}) == 1, best   # the same counts
        print(f"  (tours, closed, dead ends) = {best[ref][1][:3]}; forward moves "
              + ", ".join(f"{v[1][3]:,}" for v in best.values()))
    per = {k: v[0] if whole else v[0] / v[1][3] * 1e9 for k, v in best.items()}
    unit = "s" if whole else "ns a move"
    for k, v in per.items():
        print(f"  {NAMES[k]:<32} {v:8.3f} {unit}  {v / per[ref]:.3f} of {NAMES[ref]}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--budget", type=int, default=20_000_000)
    a = ap.parse_args()
    warm = Case(6, 6, 0)
    for kind in PLAIN:                       # compile (or load) every kernel first
        warm.run(kind, 1 << 62)
    print(f"load average {os.getloadavg()[0]:.1f} {os.getloadavg()[1]:.1f}; one core; "
          f"best of {a.reps} CPU seconds, alternating")
    c9, c10 = Case(9, 9, 20), Case(10, 10, 3)
    report("9×9 from square 20, whole tree, plain count:",
           measure(c9, PLAIN, 1 << 62, a.reps), "loop", True)
    report(f"10×10 from d1, first {a.budget:,} forward moves, plain count:",
           measure(c10, PLAIN, a.budget, a.reps), "loop", False)
    print(f"load average after {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
