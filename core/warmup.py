"""The one warm-up of the engine: load the kernels from numba's cache (or compile them, the
first time) before the first real request needs them.

Two depths, one module (it sits at the top of ``core`` and imports the API below it; nothing
imports it back):

* :func:`warm_up` — what the window uses first (a greedy tour, the bitboard and the general
  enumeration kernels, the Phadke batch kernel, the move-order kernels). The app calls it
  from a background thread once its first frame is painted; it never raises.
* :func:`exercise_all` — every kernel listed in :mod:`knightgui_core.kernel_exports`, each
  through the public API, so ``packaging/build_aot.py`` can read the one signature each has
  and compile it ahead of time.
"""
from __future__ import annotations

import logging
import time

import numpy as np

log = logging.getLogger("knightgui.warmup")


def _enumeration() -> None:
    from .studies.phadke import Algorithm, AlgorithmBatch
    from .tietree.engine import Engine
    from .tietree.enumerator import Enumerator

    en = Enumerator(6, 6, "a1", "b3", dashes={"f6": "full"})
    en.first(2)
    en.block_compact(3)                          # what the window keeps (bitboard kernel)
    sol = en.first(1)[0]
    en.options_replay().matrix(sol.path)         # and the matrix of a solution it shows
    en.next_solution()
    en.count()
    en.engine.count()
    Engine(en.board, en.start, en.chain, en.plan.dashed, bits=False).count()
    g = Enumerator(6, 6, "a1", "b3", bits=False)
    g.options_replay().matrix(g.first(2)[0].path)
    g.count()
    Enumerator(9, 9, start="a1").first(1)      # the general kernel (above 64 squares)
    from .tietree.solution_writer import solution_blocks
    for bits in (True, False):
        for _ in solution_blocks(Enumerator(6, 6, "a1", "b3", bits=bits), 2, numbers=bits):
            pass
    AlgorithmBatch([Algorithm(0, "strict", "c8", "b6", ())]).run(np.arange(1))   # by states


def _orders() -> None:
    from .studies.orders import all_orders, replay
    from .studies.orders_runner import walk_orders

    walk_orders(5, 5, 0, all_orders()[:2])      # the window's study task (shared walks)
    replay(5, all_orders()[0], "first", 0)


def warm_up() -> float:
    """Load (or compile) the kernels the window reaches first; returns the seconds it took.
    Best effort: a failure is logged and the kernel compiles on first real use instead."""
    t0 = time.perf_counter()
    from .walks.solve import solve

    for name, step in (("solve", lambda: solve(8, 8, start="a1")),
                       ("enumeration", _enumeration), ("move orders", _orders)):
        try:
            step()
        except Exception:  # noqa: BLE001 - warm-up is best effort; the real call reports
            log.debug("warm-up of %s failed", name, exc_info=True)
    return time.perf_counter() - t0


def exercise_all() -> None:
    """Call every exported kernel at least once through the public API (small boards, a
    second or two with warm caches). Raises if any call fails: the ahead-of-time build must
    not compile a kernel it has not seen called."""
    from .board.squares import Board
    from .board.tour import check_path
    from .construct.huge import construct_closed, construct_open
    from .studies import tiebreaks
    from .walks.solve import solve

    for rows, cols, closed, method in (
            (8, 8, False, "greedy"), (8, 8, True, "auto"), (12, 12, True, "auto"),
            (5, 5, False, "backtrack"), (6, 6, True, "backtrack"),
            (30, 30, False, "construct"), (31, 33, False, "construct"),
            (32, 30, True, "construct"), (3, 40, False, "construct"),
            (4, 41, False, "construct"), (5, 60, True, "construct"),
            (6, 61, False, "construct")):
        res = solve(rows, cols, closed=closed, method=method)
        assert res.ok, (rows, cols, closed, method, res.message)
        assert check_path(Board(rows, cols), res.path, closed) is None
    construct_closed(10, 12, start=5)
    construct_closed(40, 3)
    construct_open(7, 9, start=3)
    # thin strips: mirrored, transposed, and entered in the middle
    for rows, cols, start in ((3, 40, 3 * 40 - 1), (3, 40, 40 + 20), (4, 41, 20),
                              (4, 41, 41 * 3 + 37), (41, 4, 4 * 20), (40, 3, 3 * 20 + 1)):
        construct_open(rows, cols, start=start)
    # a path that is not a tour, and one held in a wider integer type
    board = Board(5, 5)
    assert check_path(board, np.arange(25, dtype=np.int64)) is not None
    _enumeration()
    from .studies.phadke import Algorithm, AlgorithmBatch
    # the Phadke kernel before the table (bench/phadke.py, tests)
    AlgorithmBatch([Algorithm(0, "strict", "c8", "b6", ())]).run(np.arange(1), by_states=False)
    from .tietree.enumerator import Enumerator
    Enumerator(9, 9, start="a1").block_compact(2)   # the general keep kernel
    _orders()
    from .studies.orders import all_orders, run_orders
    run_orders(5, "last", orders=all_orders()[:3].copy())
    run_orders(5, "first", orders=all_orders()[:3].copy(), shared=False)
    from .studies.tiebreaks_tasks import run_task
    for task in tiebreaks.plan_study(12, n_min=5, starts="corners").tasks:
        run_task(task)                             # the study's kernels, without a cluster
    from .tietree.subtrees import CountBoard, count_subtrees, split
    from .tietree.table import TransTable
    count_subtrees(CountBoard(6, 6), 0, split(CountBoard(6, 6), 0, 2), 1000)
    table = TransTable(36, 1 << 28, lengths=True)
    count_subtrees(CountBoard(6, 6), 0, [()], table=table, lengths=True)
    table.filled = table.entries               # the table doubles (memo_rehash)
    assert table.grow_if_full()
    from .studies.all_tours import all_tours_task
    assert all_tours_task(5, 5, "a1")["tours"] == 304
    from .tietree.all_tours_list import AllToursLister
    assert len(AllToursLister(5, 5, "a1").first(400)) == 304
    from .tietree import count_kernel
    cb = CountBoard(6, 6)                       # the count kernel before the table (bench)
    cb._begin(0, ())
    count_kernel.count_run(cb.att, cb.att[0].copy(), cb.path, cb.free, cb.pend, cb.ntied,
                           cb.ties, cb.st, 1 << 62)
    assert solve(9, 9, start="i9", tie="squirrel", method="greedy").ok
    for n, closed, topology, leaper, method in ((10, True, "torus", (1, 2), "greedy"),
                                                (8, False, "torus", (2, 3), "backtrack")):
        res = solve(n, n, closed=closed, method=method, topology=topology, leaper=leaper)
        assert res.ok, (topology, leaper, method, res.message)       # the table walks
    from .walks.backtrack_watch import BacktrackWatch
    watch = BacktrackWatch(Board(6, 6, "torus", (2, 3)), 0, closed=True)    # the window's Watch
    watch.steps(5)
    watch.finish()
    from .board.canonical import canonical_rows
    tours = Enumerator(6, 6, start="a1").first(2)
    canonical_rows(Board(6, 6), np.stack([t.path for t in tours]))    # the window's stepping
    # a tour by hand (issue 36)
    from .walks.completions import completions
    from .walks.rule_finish import finish_by_rule
    from .walks.verdict import quick_verdict
    quick_verdict(Board(6, 6), [0, 13])
    assert completions(Board(6, 6), [0, 13, 2]).counted                  # with the table
    assert completions(Board(9, 9), [0], 30.0, count=False).extendable   # without
    assert finish_by_rule(Board(6, 6), [0, 13], "first").found
