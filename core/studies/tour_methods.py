"""Every tour of a board by the faster of two methods: the visited-set counter or the frontier.

``knightgui study count --all-tours`` counts every knight's path from each start by (square,
visited squares) states (:mod:`knightgui_core.studies.all_tours`: at most 64 squares, any
piece and topology) or column by column (:mod:`knightgui_core.frontier`: the knight on the
plane, any length, closed tours alone if asked). :func:`choose_method` says which one ``auto``
takes and why; :func:`frontier_records` gives the frontier's counts in the visited-set study's
JSON shape (``totals.closed``: each closed tour from every start both ways).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..frontier.count import (
    MAX_ROWS,
    PEAK_STATES,
    FrontierBoard,
    FrontierError,
    FrontierResult,
    SpillPlan,
    count_frontier,
    moduli_for,
    state_estimate,
    table_bytes,
)
from ..system.control import CancelLike, cancel_requested
from ..system.errors import Cancelled
from ..system.limits import available_memory
from .all_tours import MAX_SQUARES

__all__ = ["FRONTIER_FROM", "METHODS", "VISITED_FASTER_UP_TO", "board_record", "choose_method",
           "frontier_records", "run_frontier", "memory_estimate", "start_cell",
           "run_frontier_starts"]

METHODS = ("auto", "frontier", "visited")
#: with the open paths asked for, the length from which ``auto`` counts a board of each
#: height by the frontier (shorter boards of at most 64 squares go to the visited-set
#: counter, which is faster there): the lengths where the frontier's pruning at the board's
#: right edge starts to win, as ``bench/frontier.py`` compares both
FRONTIER_FROM = {1: 3, 2: 3, 3: 9, 4: 6, 5: 5, 6: 11}
#: the closed tours alone: the frontier's closed states are few (56,497 at most on 5 rows,
#: 1.4 M on 6), so it takes every board on the plane from this many squares
VISITED_FASTER_UP_TO = 25


def choose_method(rows: int, cols: int, method: str = "auto", *, classic: bool = True,
                  closed_only: bool = False, per_start: bool = False) -> tuple[str, str]:
    """The method that counts ``rows`` × ``cols`` and the reason, for ``method`` ``auto``,
    ``frontier`` or ``visited``; :class:`FrontierError` when the forced one cannot.
    ``per_start``: the paths from given start squares (the frontier forces each start to
    be an end of the path, on any height it takes)."""
    if method not in METHODS:
        raise FrontierError(f"--method is one of {', '.join(METHODS)}, not {method!r}")
    n = rows * cols
    short = min(rows, cols)
    if method == "visited":
        if n > MAX_SQUARES:
            raise FrontierError(f"the visited-set counter takes boards of at most "
                                f"{MAX_SQUARES} squares ({rows}×{cols} has {n})")
        return "visited", "asked for"
    if method == "frontier":
        if not classic:
            raise FrontierError("the frontier count takes the knight on the plane only "
                                "(other boards and pieces: --method visited)")
        if short > MAX_ROWS:
            raise FrontierError(f"the frontier count takes boards whose short side is at "
                                f"most {MAX_ROWS} ({rows}×{cols})")
        return "frontier", "asked for"
    if not classic:
        return "visited", "another board or piece: only the visited-set counter takes it"
    if short > MAX_ROWS and n <= MAX_SQUARES:
        return "visited", f"the short side is over {MAX_ROWS}"
    if n > MAX_SQUARES:
        return "frontier", f"{n} squares: over the visited-set counter's {MAX_SQUARES}"
    if closed_only:
        if n <= VISITED_FASTER_UP_TO:
            return "frontier", "closed tours only: the visited-set counter counts every path"
        return "frontier", f"closed tours only, {short} rows: few states"
    start = FRONTIER_FROM.get(short)
    if start is None:
        return "visited", (f"{short} rows: the frontier's open-path states outgrow this "
                           "machine's memory")
    if max(rows, cols) < start:
        return "visited", (f"{n} squares, {short} rows: the visited-set counter is faster "
                           f"on boards this short")
    return "frontier", f"{short} rows, {max(rows, cols)} long: the frontier count is faster"


def memory_estimate(rows: int, cols: int, closed_only: bool,
                    cancel: CancelLike = None, *, per_start: bool = False) -> int | None:
    """Bytes the frontier's two tables would take at their largest, from the measured
    states of boards this high (``None`` when nothing is measured for such heights);
    ``cancel`` stops the residues' bound (:func:`moduli_for`). ``per_start``: the paths
    from one cell (``end_at``), which the mirror fold never halves, so the unfolded states."""
    states = state_estimate(min(rows, cols), closed_only, fold=not per_start)
    if states is None:
        return None
    m = len(moduli_for(min(rows, cols), max(rows, cols), closed_only, cancel))
    return table_bytes(min(rows, cols), states, m)


def _slice_tasks(specs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A cell's slices as runner tasks on this machine, one at a time (each uses every core
    itself)."""
    from ..frontier.spill import spill_step
    from ..run.runner import Task, run_tasks
    tasks = [Task(f"frontier-slice/{s['folder']}/{s['cell']}/{s['slice']}", "frontier-slice",
                  s, spill_step, (s,)) for s in specs]
    report = run_tasks(tasks, workers=1, retries=0)
    return [report.results[t.key] for t in tasks]


def _is_local(scheduler: str | None) -> bool:
    return scheduler is None or scheduler == "local"


def _spilled(rows: int, cols: Sequence[int], *, closed_only: bool, budget: int,
             progress: Callable[[int, int], None] | None, cancel: CancelLike,
             end_at: int | None, spill: str, slices: int,
             report: Callable[[str], None] | None, scheduler: str | None,
             worker_timeout: float) -> FrontierResult:
    """The count through slices on disk: here, or on the Dask cluster ``scheduler`` (its
    slices' workers added to the figures); the runner's errors as one line."""
    from ..run.clusters import RunnerError, SchedulerError, TaskFailed
    from .slice_runner import ClusterSlices, slice_threads
    cluster = None
    try:
        if _is_local(scheduler):
            run_slices, threads = _slice_tasks, None
        else:
            assert scheduler is not None
            threads = slice_threads(scheduler, worker_timeout)
            run_slices = cluster = ClusterSlices(scheduler, cancel, worker_timeout)
        res = count_frontier(rows, cols, closed_only=closed_only, memory_limit=budget,
                             progress=progress, cancel=cancel, end_at=end_at,
                             spill=SpillPlan(spill, slices, run_slices, report),
                             threads=threads)
    except TaskFailed as e:                 # "task KEY failed: Error: what" -> what
        if cancel_requested(cancel):        # a slice stopped by the cancel: as one
            raise Cancelled("the frontier count was cancelled") from None
        raise FrontierError(str(e).split(": ", 2)[-1]) from None
    except SchedulerError as e:
        raise FrontierError(f"--scheduler: {e}") from None
    except RunnerError as e:
        raise FrontierError(str(e)) from None
    finally:
        if cluster is not None:
            cluster.close()
    if cluster is not None:
        cluster.place(res.slices)
    return res


def run_frontier(rows: int, cols: Sequence[int], *, closed_only: bool = False,
                 memory_limit: int | None = None,
                 progress: Callable[[int, int], None] | None = None,
                 cancel: CancelLike = None, end_at: int | None = None,
                 spill: str | None = None, slices: int = 1,
                 report: Callable[[str], None] | None = None,
                 scheduler: str | None = None,
                 worker_timeout: float = 60.0) -> FrontierResult:
    """The frontier count of ``rows`` × ``n`` for every ``n`` in ``cols`` (one pass), refused
    up front when the measured state counts say it will not fit (``end_at``: only the paths
    with that cell as an end, :func:`start_cell`). With a ``spill`` folder, a board whose
    estimate passes the memory (or ``slices`` above 1) goes through slices on disk, each
    cell's slices runner tasks, and ``report`` is told so (and of each cell). ``scheduler``:
    a Dask scheduler (``tcp://HOST:PORT``, ``threads``, ``processes``) that runs the slices
    side by side (:mod:`.slice_runner`: every worker must reach the folder; each slice's
    ``worker`` and ``threads`` in ``slices``); None or ``local``: one after another here."""
    budget = available_memory() if memory_limit is None else int(memory_limit)
    longest = max(cols) if cols else 0
    if spill is not None:
        est = memory_estimate(rows, longest, closed_only, cancel, per_start=end_at is not None)
        if slices > 1 or (est is not None and est > budget):
            if report is not None:
                why = (f"{slices} slices asked for" if est is None or est <= budget else
                       f"the state tables need about {est / 2**30:.1f} GiB and "
                       f"{budget / 2**30:.1f} GiB may be used")
                where = "" if _is_local(scheduler) else f", its slices run on {scheduler}"
                report(f"frontier: {why}; the states go to slices on disk in {spill}{where}")
            return _spilled(rows, cols, closed_only=closed_only, budget=budget,
                            progress=progress, cancel=cancel, end_at=end_at, spill=spill,
                            slices=slices, report=report, scheduler=scheduler,
                            worker_timeout=worker_timeout)
    tallest = max(k for k, c in PEAK_STATES if c == closed_only)
    # trusted on long boards (the states stop growing after a few columns) and far above
    # the measured heights; near them a short board is left to the count's own check
    need = (memory_estimate(rows, longest, closed_only, cancel, per_start=end_at is not None)
            if longest > 2 * rows + 2 or rows >= tallest + 2 else None)
    if need is not None and need > budget:
        raise FrontierError(f"the frontier count of {rows}×{longest} needs about "
                            f"{need / 2**30:.1f} GiB for its state tables (estimated from "
                            f"measured boards) and {budget / 2**30:.1f} GiB is available "
                            f"(--spill DIR keeps them on disk)")
    return count_frontier(rows, cols, closed_only=closed_only, memory_limit=budget,
                          progress=progress, cancel=cancel, end_at=end_at)


def start_cell(rows: int, cols: int, col: int, row: int) -> int:
    """The frontier's cell of the square (``col``, ``row``) of a ``rows`` × ``cols`` board:
    the board is read with its short side as the column, ``column · short + place``."""
    if not (0 <= col < cols and 0 <= row < rows):
        raise FrontierError(f"({col}, {row}) is not a square of {rows}×{cols}")
    return col * rows + row if rows <= cols else row * cols + col


def _orbit_key(k: int, n: int, cell: int) -> int:
    """The smallest cell that a symmetry of the ``k`` × ``n`` frontier board maps ``cell``
    onto (its starts count the same paths)."""
    c, r = divmod(cell, k)
    images = [(cc, rr) for cc in (c, n - 1 - c) for rr in (r, k - 1 - r)]
    if k == n:
        images += [(rr, cc) for cc, rr in images]
    return min(cc * k + rr for cc, rr in images)


def run_frontier_starts(rows: int, cols: int, squares: Sequence[tuple[int, int]], *,
                        memory_limit: int | None = None,
                        cancel: CancelLike = None) -> tuple[list[int], int]:
    """The directed paths through every square that start at each square (``col``,
    ``row``) of ``squares``, one frontier pass per start up to the board's symmetries, and
    the board's undirected closed tours (one closed-only pass; each passes every square, so
    a start has twice as many closed directed paths)."""
    k, n = min(rows, cols), max(rows, cols)
    choose_method(rows, cols, "frontier", per_start=True)
    cells = [start_cell(rows, cols, c, r) for c, r in squares]
    got: dict[int, int] = {}
    for cell in cells:
        key = _orbit_key(k, n, cell)
        if key not in got:
            res = run_frontier(k, [n], memory_limit=memory_limit, cancel=cancel, end_at=key)
            got[key] = int(res.boards[0].paths or 0)
    cycles = run_frontier(k, [n], closed_only=True, memory_limit=memory_limit,
                          cancel=cancel).boards[0].cycles
    return [got[_orbit_key(k, n, cell)] for cell in cells], int(cycles)


def board_record(b: FrontierBoard) -> dict[str, Any]:
    """One board's counts in the visited-set study's JSON shape."""
    n = b.rows * b.cols
    return {"rows": b.rows, "cols": b.cols,
            "totals": {"tours": None if b.paths is None else 2 * b.paths,
                       "closed": 2 * n * b.cycles},
            "undirected_paths": b.paths, "undirected_closed_tours": b.cycles}


def frontier_records(res: FrontierResult, transposed: bool = False) -> list[dict[str, Any]]:
    """The boards of a frontier run as JSON records (``transposed``: the board was asked for
    with its long side as rows)."""
    out = []
    for b in res.boards:
        rec = board_record(b)
        if transposed:
            rec["rows"], rec["cols"] = rec["cols"], rec["rows"]
        out.append(rec)
    return out
