"""The one warm-up of the engine: load the kernels from numba's cache (or compile them, the
first time) before a real request needs them.

:data:`STAGES` holds one step per feature of the window, in the order a newcomer meets them,
each a small call of the public API; together they reach every kernel of ``kernel_exports``.
:func:`warm_up` runs them, best effort (the window in a thread after its first frame,
``knightgui warmup`` at install); :func:`exercise_all` runs them all and raises on a failure,
so that ``packaging/build_aot.py`` can read each kernel's one signature. In the bundle
(``KNIGHTGUI_KERNELS=aot``) :func:`warm_up` runs nothing.
"""
from __future__ import annotations

import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .system.errors import require
from .system.stage_helpers import StageHelpers

log = logging.getLogger("knightgui.warmup")

#: ``progress(done, total, name)``: ``done`` stages of ``total`` are ready, ``name`` starts
Progress = Callable[[int, int, str], None]


@dataclass(frozen=True)
class Stage:
    """One named step of the warm-up: ``run()`` calls the public API as the feature ``name``
    does; ``kernels`` are the exported kernels (``"walks.walk_kernel.greedy_walk"``, the
    module as in :data:`knightgui_core.kernel_exports.EXPORTS`) ready when it ends."""

    name: str
    run: Callable[[], object]
    kernels: tuple[str, ...]


def _single() -> None:
    from .board.squares import Board
    from .board.tour import check_path
    from .walks.solve import solve

    res = solve(8, 8, start="a8")                       # the window's first Solve
    require(res.ok, res.message)
    require(solve(8, 8, start="a1", method="greedy").ok)
    board = Board(5, 5)                                 # a tour file, a path that is not one
    require(check_path(board, np.arange(25, dtype=np.int64)) is not None)


def _tables() -> None:
    from .board.squares import Board

    for topology in ("plane", "torus"):      # the tables the controls read on the GUI thread
        require(Board(6, 6, topology, (2, 3)).neighbours.shape == (36, 8))  # (a start's ends)


def _closed() -> None:
    from .walks.solve import solve

    for n, start in ((8, "a8"), (12, "a1"), (100, "a8"), (100, "a1")):  # reversals, construction
        res = solve(n, n, start=start, closed=True)
        require(res.ok, (n, res.message))


def _enumeration() -> None:
    from .board.canonical import canonical_rows
    from .board.squares import Board
    from .board.tour import Tour
    from .tietree.enumeration.enumerator import Enumerator

    en = Enumerator(6, 6, "a1", "b3", dashes={"f6": "full"})
    en.block_compact(3)                          # what the window keeps (bitboard kernel)
    sol = en.first(1)[0]
    en.options_replay().matrix(sol.path)         # and the matrix of a solution it shows
    tours = Enumerator(6, 6, start="a1").first(2)
    canonical_rows(Board(6, 6), np.stack([t.path for t in tours]))    # new tours only
    Tour(Board(6, 6), tours[0].path, False)                           # a solution shown
    torus = Board(6, 6, "torus", (1, 2))                              # other boards
    Enumerator(6, 6, start="a1", board=torus).block_compact(2)
    Tour(torus, Enumerator(6, 6, start="a1", board=torus).first(1)[0].path, False)


def _enumeration_more() -> None:
    from .tietree.enumeration.engine import Engine
    from .tietree.enumeration.enumerator import Enumerator
    from .tietree.enumeration.solution_writer import solution_blocks

    en = Enumerator(6, 6, "a1", "b3", dashes={"f6": "full"})
    en.first(2)
    en.next_solution()
    en.count()
    en.engine.count()
    Engine(en.board, en.start, en.chain, en.plan.dashed, bits=False).count()
    g = Enumerator(6, 6, "a1", "b3", bits=False)
    g.options_replay().matrix(g.first(2)[0].path)
    g.count()
    Enumerator(9, 9, start="a1").first(1)        # the general kernel (above 64 squares)
    Enumerator(9, 9, start="a1").block_compact(2)
    for bits in (True, False):                   # solutions files (enumerate --out)
        for _ in solution_blocks(Enumerator(6, 6, "a1", "b3", bits=bits), 2, numbers=bits):
            pass


def _watch() -> None:
    from .board.squares import Board
    from .tietree.enumeration.enumerator import Enumerator
    from .tietree.enumeration.watch import SearchWatch
    from .walks.backtrack_watch import BacktrackWatch

    SearchWatch(Enumerator(6, 6, start="a1")).steps(5)
    for board, closed in ((Board(6, 6, "torus", (2, 3)), True), (Board(8, 8), False)):
        watch = BacktrackWatch(board, 0, closed=closed)
        watch.steps(5)
        watch.finish()


def _backtracking() -> None:
    from .walks.solve import solve

    for n, closed in ((5, False), (6, True), (8, False)):
        res = solve(n, n, start="a1", closed=closed, method="backtrack")
        require(res.ok, (n, closed, res.message))
    require(solve(9, 9, start="i9", tie="squirrel", method="greedy").ok)  # switching orders
    require(solve(8, 8, start="a1", tie="squirrel").ok)


def _other_boards() -> None:
    from .walks.solve import solve

    for n, closed, topology, leaper, method in (
            (10, True, "torus", (1, 2), "greedy"), (8, False, "torus", (2, 3), "backtrack"),
            (10, False, "torus", (2, 3), "auto"), (10, True, "cylinder", (1, 2), "auto")):
        solve(n, n, start="a1", closed=closed, method=method, topology=topology,
              leaper=leaper)                    # the table walks (a refusal is fine too)
    # Warnsdorff's walk gets stuck and the pruned search finds a tour in a few ms
    require(solve(10, 12, start="a1", leaper=(1, 4)).ok)


def _huge() -> None:
    from .board.squares import Board
    from .board.tour import check_path
    from .construct.huge import construct_closed, construct_open
    from .walks.solve import solve

    for rows, cols, closed in ((30, 30, False), (31, 33, False), (32, 30, True),
                               (3, 40, False), (4, 41, False), (5, 60, True), (6, 61, False)):
        res = solve(rows, cols, closed=closed, method="construct")
        require(res.ok, (rows, cols, closed, res.message))
        require(check_path(Board(rows, cols), res.path, closed) is None)
    construct_closed(10, 12, start=5)
    construct_closed(40, 3)
    construct_open(7, 9, start=3)
    # thin strips: mirrored, transposed, and entered in the middle
    for rows, cols, start in ((3, 40, 3 * 40 - 1), (3, 40, 40 + 20), (4, 41, 20),
                              (4, 41, 41 * 3 + 37), (41, 4, 4 * 20), (40, 3, 3 * 20 + 1)):
        construct_open(rows, cols, start=start)
    require(solve(300, 300, start="a1").ok)             # the rule's walk, then construction


def _orders() -> None:
    from .studies.orders import all_orders, replay, run_orders
    from .studies.orders.runner import walk_orders

    walk_orders(5, 5, 0, all_orders()[:2])      # the window's study task (shared walks)
    replay(5, all_orders()[0], "first", 0)      # a failed order shown on the board
    run_orders(5, "last", orders=all_orders()[:3].copy())
    run_orders(5, "first", orders=all_orders()[:3].copy(), shared=False)


def _tiebreaks() -> None:
    from .studies import tiebreaks
    from .studies.tiebreaks.tasks import run_task

    for task in tiebreaks.plan_study(12, n_min=5, starts="corners").tasks:
        run_task(task)                           # the study's kernels, without a cluster
    tiebreaks.walk("phadke", 8, "a1")            # a walk shown on the board
    tiebreaks.exact_corner_success([5])          # the random rule's exact figure beside it


def _counts() -> None:
    from .studies.count_study import count_task
    from .studies.phadke import Algorithm, AlgorithmBatch
    from .tietree.counting import count_kernel
    from .tietree.counting.subtrees import CountBoard, count_subtrees, split
    from .tietree.counting.table import TransTable

    count_task(5, 5, "a1", [()], 1 << 20, table_bytes=1 << 22)        # the study's task
    count_task(6, 6, "a1", [()], 1 << 20, table_bytes=1 << 22, topology="torus")
    count_subtrees(CountBoard(6, 6), 0, split(CountBoard(6, 6), 0, 2), 1000)
    table = TransTable(36, 1 << 28, lengths=True)
    count_subtrees(CountBoard(6, 6), 0, [()], table=table, lengths=True)
    table.filled = table.entries               # the table doubles (memo_rehash)
    require(table.grow_if_full())
    cb = CountBoard(6, 6)                       # the count kernel before the table (bench)
    cb._begin(0, ())
    count_kernel.count_run(cb.att, cb.att[0].copy(), cb.path, cb.free, cb.pend, cb.ntied,
                           cb.ties, cb.st, 1 << 62)
    batch = AlgorithmBatch([Algorithm(0, "strict", "c8", "b6", ())])  # Phadke's study
    batch.run(np.arange(1))                                           # by states
    batch.run(np.arange(1), by_states=False)                          # leaf by leaf


def _every_tour() -> None:
    from .board.squares import Board
    from .board.tour import Tour
    from .studies.all_tours import all_tours_task
    from .tietree.alltours.all_tours_list import AllToursLister
    from .tietree.alltours.symmetric_tours import count_plan, plan

    require(all_tours_task(5, 5, "a1")["tours"] == 304)
    require(count_plan(plan(Board(6, 6), "half-turn", True)) == 78)  # symmetric tours
    tours = AllToursLister(5, 5, "a1").first(400)
    require(len(tours) == 304)
    from .frontier.count import warm_up_frontier
    warm_up_frontier()                                              # every tour, by columns
    Tour(Board(5, 5), np.asarray(tours[0], dtype=np.int32), False)  # one shown


def _by_hand() -> None:
    from .board.squares import Board
    from .walks.hand.completions import completions
    from .walks.hand.finish import finish_by_rule
    from .walks.hand.verdict import quick_verdict

    quick_verdict(Board(6, 6), [0, 13])
    require(completions(Board(6, 6), [0, 13, 2]).counted)                # with the table
    require(completions(Board(9, 9), [0], 30.0, count=False).extendable)  # without
    require(finish_by_rule(Board(6, 6), [0, 13], "first").found)


def _structure() -> None:
    from .studies.magic.search import search_magic
    from .studies.uncrossed import longest_uncrossed
    require(longest_uncrossed(4, 4).length == 5)                     # OEIS A003192
    require(longest_uncrossed(4, 4, cycle=True).length == 4)         # A157416
    require(search_magic(8, 8, node_limit=100).status == "budget")


def _k(*specs: str) -> tuple[str, ...]:
    """Kernel names from ``"module name name…"`` specs: ``module.name`` each."""
    return tuple(f"{m}.{n}" for spec in specs for m, *names in [spec.split()] for n in names)


_WALK = _k("walks.walk_kernel greedy_walk")
_CONSTRUCT = _k("construct.construct_kernel grid_path rotate_to",
                "construct.hamsearch_kernel local_neighbours ham_search")
_TABLES = _k("board.tables_kernel neighbour_table compact_table wrapped_neighbour_table")
_VALID = _k("board.validate_kernel path_is_tour")
_NEIGHBOURS = _k("board.tables_kernel neighbour_table")


#: the warm-up, in the order a newcomer meets the features (see the module docstring); each
#: stage's kernels are all those it reaches, run alone in a fresh process
STAGES: tuple[Stage, ...] = (
    Stage("tours", _single, _WALK + _VALID),
    Stage("backtracking", _backtracking, _NEIGHBOURS + _VALID + _k(
        "walks.table_backtrack_kernel table_backtrack_walk", "walks.phased_kernel phased_walk")),
    Stage("neighbour tables", _tables,
          _k("board.tables_kernel neighbour_table wrapped_neighbour_table")),
    Stage("closed tours", _closed, _WALK + _CONSTRUCT + _VALID + _NEIGHBOURS
          + _k("walks.close_kernel repair_closed_kernel")),
    Stage("every tie followed", _enumeration, _TABLES + _k(
        "tietree.enumeration.bitboard_kernel fresh_bits_state collect_bits",
        "tietree.enumeration.keep_kernel collect_delta_bits",
        "tietree.enumeration.options_kernel options_rows_bits",
        "board.canonical_kernel canonical_rows_kernel",
        "board.validate_kernel path_is_tour path_is_tour_table")),
    Stage("watch", _watch, _TABLES + _k(
        "tietree.enumeration.bitboard_kernel fresh_bits_state advance_bits",
        "walks.table_backtrack_kernel backtrack_begin backtrack_run")),
    Stage("other boards and pieces", _other_boards, _k(
        "walks.table_walk_kernel table_greedy_walk",
        "walks.table_backtrack_kernel table_backtrack_walk",
        "board.validate_kernel path_is_tour_table",
        "board.tables_kernel neighbour_table wrapped_neighbour_table",
        "construct.hamsearch_kernel ham_search", "walks.close_kernel repair_closed_kernel")),
    Stage("huge boards", _huge, _WALK + _CONSTRUCT + _VALID
          + _k("construct.construct_kernel strip_path remap place place_blocks")),
    Stage("every tie followed, over 64 squares", _enumeration_more, _k(
        "tietree.enumeration.enumerate_kernel new_state advance_kernel count_kernel collect_kernel",
        "tietree.enumeration.bitboard_kernel fresh_bits_state advance_bits count_bits collect_bits",
        "tietree.enumeration.keep_kernel collect_delta",
        "tietree.enumeration.options_kernel options_rows",
        "tietree.enumeration.stream_kernel collect_paths collect_paths_bits",
        "board.tables_kernel neighbour_table compact_table")),
    Stage("move orders", _orders, _k("studies.orders.walk_kernel orders_chunk one_walk",
                                     "studies.orders.tree_kernel orders_tree order_codes")),
    Stage("tie-break studies", _tiebreaks, _WALK + _CONSTRUCT + _VALID + _NEIGHBOURS + _k(
        "walks.phased_kernel phased_walk", "tietree.counting.count_kernel count_begin next_tie",
        "tietree.counting.interleave_kernel many_begin many_run")),
    Stage("tour counts", _counts, _TABLES + _k(
        "tietree.counting.count_kernel count_begin next_tie count_run",
        "tietree.counting.memo_kernel memo_run memo_fold memo_rehash",
        "tietree.counting.interleave_kernel many_begin many_run",
        "tietree.counting.bits_memo_kernel count_batch_memo",
        "tietree.enumeration.bitboard_kernel count_batch_bits")),
    Stage("every tour", _every_tour, _NEIGHBOURS + _VALID + _k(
        "tietree.alltours.alltours_kernel count_all",
        "tietree.alltours.alltours_list_kernel list_all",
        "tietree.alltours.symtours_kernel count_orbit_paths",
        "frontier.pair_kernel pair_expand pair_absorb pair_regrow",
        "frontier.word_kernel word_expand word_absorb word_regrow",
        "frontier.spill_kernel spill_route",
        "frontier.bound_kernel relaxed_step relaxed_totals relaxed_regrow")),
    Stage("a tour by hand", _by_hand, _NEIGHBOURS + _k(
        "walks.hand.completions_kernel completions_begin completions_run",
        "walks.flood_kernel two_colouring free_groups",
        "walks.table_backtrack_kernel backtrack_begin_from backtrack_run")),
    Stage("tours with structure", _structure, _k("studies.uncrossed.search_kernel uncrossed_search",
                                                 "studies.magic.search_kernel magic_search")),
)


def compiled_ahead() -> bool:
    """Whether the kernels come compiled ahead of time (the bundle): nothing to warm up."""
    from .system import jit
    return jit.MODE == "aot"


def warm_up(progress: Progress | None = None, stages: Sequence[Stage] | None = None,
            first: Callable[[], Iterable[str]] | None = None, strict: bool = False,
            jobs: int = 1) -> float:
    """Run ``stages`` (default :data:`STAGES`) one at a time, those named by ``first()`` (read
    between stages) before the others; returns the seconds it took. ``progress(done, total,
    name)`` is called before each stage and at the end with ``(total, total, "")``; a failing
    callback is logged and ignored. A failing stage is logged and counted as done (its kernels
    compile on first real use), unless ``strict``: then it raises.

    ``jobs`` > 1: once this process compiles (:class:`_Helpers`), ``jobs - 1`` helper processes
    compile stages from the end of the list into the kernel cache
    (:mod:`knightgui_core.system.stage_helpers`); this process runs every stage too, loading
    what they compiled, so every stage is ready here when it returns."""
    t0 = time.perf_counter()
    todo = list(STAGES if stages is None else stages)
    total = len(todo)

    said: list[tuple[int, str]] = []

    def report(done: int, name: str) -> None:
        if progress is None or said[-1:] == [(done, name)]:
            return
        said.append((done, name))
        try:
            progress(done, total, name)
        except Exception:  # noqa: BLE001 - a display must never stop the warm-up
            log.debug("warm-up progress callback failed", exc_info=True)

    def wanted() -> list[str]:
        return list(first()) if first is not None else []

    if not todo:
        report(0, "")
        return 0.0
    report(0, next((s.name for s in todo if s.name in wanted()), todo[0].name))
    if stages is None and compiled_ahead():
        report(total, "")
        return time.perf_counter() - t0
    helpers = _Helpers(todo, jobs, wanted)
    try:
        for done in range(total):
            stage = _next_stage(todo, helpers.pool, wanted())
            todo.remove(stage)
            helpers.left([s.name for s in todo])
            # the stage that runs is the one named: a feature asked for since the first
            # report (numba's import sits between them) would otherwise be marked done late
            report(done, stage.name)
            try:
                stage.run()
            except Exception:
                if strict:
                    raise
                log.debug("warm-up of %s failed", stage.name, exc_info=True)
    finally:
        helpers.close()
    report(total, "")
    return time.perf_counter() - t0


class _Helpers:
    """The warm-up's helper processes, started once this process compiles: when numba is
    still compiling :data:`SLOW_STAGE` seconds after a compile began (a cache miss: a kernel
    cache holding every stage compiles nothing, however loaded the machine), helpers take
    the stages left from the back. Only for the engine's own stages (a helper finds a stage
    by its name) and ``jobs`` > 1."""

    def __init__(self, todo: Sequence[Stage], jobs: int, wanted: Callable[[], list[str]]):
        own = {s.name: s for s in STAGES}
        self.helpers = jobs - 1 if all(own.get(s.name) is s for s in todo) else 0
        self.pool: StageHelpers | None = None
        self._left = [s.name for s in todo]         # the stages not started here yet
        self._wanted = wanted
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._compiles = 0                          # numba compiles under way
        self._listener: Any = None
        if self.helpers > 0:
            from numba.core import event
            self._listener = _compile_listener(self._compile_starts, self._compile_ends)
            event.register("numba:compile", self._listener)

    def left(self, names: list[str]) -> None:
        """The stages not started here yet (the helpers, once they start, share these)."""
        with self._lock:
            self._left = names

    def _compile_starts(self) -> None:
        """numba starts a compile: unless one already waits, a timer of :data:`SLOW_STAGE`
        seconds starts the helpers."""
        with self._lock:
            self._compiles += 1
            if self._timer is None and self.pool is None and self._listener is not None:
                self._timer = threading.Timer(SLOW_STAGE, self._start)
                self._timer.daemon = True
                self._timer.start()

    def _compile_ends(self) -> None:
        with self._lock:
            self._compiles = max(0, self._compiles - 1)

    def _start(self) -> None:
        """The helpers start if numba still compiles (a short recompile of one kernel is
        over by now: the next compile waits its own :data:`SLOW_STAGE`)."""
        with self._lock:
            self._timer = None
            names = list(self._left)
            if (self.pool is None and self._listener is not None and self._compiles > 0
                    and len(names) >= 2):
                self.pool = StageHelpers(_HELPER_COMMAND, names,
                                         min(self.helpers, len(names) - 1), self._wanted())

    def close(self) -> None:
        with self._lock:
            listener, self._listener = self._listener, None
            timer = self._timer
        if listener is not None:
            from numba.core import event
            event.unregister("numba:compile", listener)
        if timer is not None:
            timer.cancel()
            timer.join()
        with self._lock:
            if self.pool is not None:
                self.pool.close()


def _compile_listener(on_start: Callable[[], None], on_end: Callable[[], None]) -> Any:
    """A numba listener of ``numba:compile`` calling ``on_start()`` and ``on_end()`` around
    each compile (a kernel loaded from the cache sends no such event). Made here so that
    this module imports numba only when it listens."""
    from numba.core import event

    class CompileListener(event.Listener):
        def on_start(self, _event: object) -> None:
            on_start()

        def on_end(self, _event: object) -> None:
            on_end()

    return CompileListener()


#: seconds of compiling before the warm-up starts its helpers (see :class:`_Helpers`)
SLOW_STAGE = 1.0


def _next_stage(todo: Sequence[Stage], pool: StageHelpers | None, wanted: list[str]) -> Stage:
    """The stage to run here next: a wanted one first; with helpers, none a helper runs now
    (this waits while every stage left runs in a helper)."""
    while pool is not None:
        name = pool.take(wanted)
        if name is None:                           # every stage the helpers know is done here
            break
        stage = next((s for s in todo if s.name == name), None)
        if stage is not None:
            return stage
    return next((s for s in todo if s.name in wanted), todo[0])


def default_jobs() -> int:
    """Processes for a warm-up: one per core, at most 4 (each holds numba and LLVM, a few
    hundred MB, and the stages' compile times leave little for a fifth)."""
    return max(1, min(4, os.cpu_count() or 1))


#: a helper process: ``python -m knightgui_core.warmup --serve`` (stage names on stdin)
_HELPER_COMMAND = [sys.executable, "-m", "knightgui_core.warmup", "--serve"]


def exercise_all() -> None:
    """Call every exported kernel at least once through the public API: every stage of
    :data:`STAGES` (small boards, a few seconds with warm caches). Raises if any call fails:
    the ahead-of-time build must not compile a kernel it has not seen called."""
    warm_up(stages=STAGES, strict=True)


def _serve(lines: Iterable[str]) -> None:
    """A helper process's loop: run the stage named on each line, answer ``done NAME`` or
    ``failed NAME`` (see :mod:`knightgui_core.system.stage_helpers`)."""
    own = {s.name: s for s in STAGES}
    for line in lines:
        name = line.strip()
        try:
            own[name].run()
            word = "done"
        except Exception:  # noqa: BLE001 - the caller runs a failed stage itself
            word = "failed"
        print(f"{word} {name}", flush=True)


if __name__ == "__main__":   # python -m knightgui_core.warmup [--serve]
    if sys.argv[1:] == ["--serve"]:
        _serve(sys.stdin)
    else:
        def _say(done: int, total: int, name: str) -> None:
            print(f"preparing the engine — {done} of {total}" + (f": {name}" if name else ""),
                  file=sys.stderr, flush=True)

        warm_up(_say, jobs=default_jobs())
