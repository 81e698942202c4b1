"""``knightgui study count --all-tours`` by the method that suits the board.

    knightgui study count --all-tours --rows 6 --cols 8                 # auto: the frontier
    knightgui study count --all-tours --rows 5 --cols 5 --method visited
    knightgui study count --all-tours --rows 6 --cols 20 --closed-only --json
    knightgui study count --all-tours --rows 5 --cols-from 4 --cols-to 16
    knightgui study count --all-tours --rows 5 --cols 12 --starts a1,c3 --method frontier
    knightgui study count --all-tours --size 6 --method frontier --spill /shared/spill \
        --slices 8 --scheduler tcp://HOST:8786       # the slices on a Dask cluster

``--method auto`` (default) takes the visited-set counter on small boards and on other
boards and pieces, the frontier count elsewhere, and says which (``method`` and
``method_reason`` in the JSON). ``--starts`` counts the directed paths from those starts
(the frontier forces each start to be an end of the path, so each start's ``closed`` is
twice the board's closed tours). The options' ``--help`` says the rest; a spilled count's
folder: :mod:`knightgui_core.frontier.run_folder`.
"""
from __future__ import annotations

import contextlib
import functools
import os
import sys
import time

from knightgui.commands._common import CliError, cli_errors, emit_json, positive_int
from knightgui.commands.study.options import scheduler_of, worker_timeout_of
from knightgui.terminate import Terminated

__all__ = ["add_method_options", "every_start", "run_all_tours_by_method", "run_sequence",
           "wants_sequence"]


def add_method_options(p) -> None:
    """``--method``, ``--cols-from`` and ``--cols-to`` on ``study count``."""
    p.add_argument("--method", default="auto", metavar="auto|frontier|visited",
                   help="with --all-tours: count by (square, visited squares) from each start "
                        "(visited, at most 64 squares, any board and piece), column by column "
                        "(frontier, the knight on the plane, any length), or the faster for "
                        "the board (auto, the default, says which)")
    p.add_argument("--cols-from", metavar="A", default=None,
                   help="with --all-tours and --rows R: every R×n board for n from A to "
                        "--cols-to B in one frontier pass (a table; boards in --json)")
    p.add_argument("--cols-to", metavar="B", default=None, help="see --cols-from")
    p.add_argument("--memory-mb", metavar="MIB", default=None,
                   help="with the frontier count: the most its state tables may take, in "
                        "MiB (default: the memory this machine has free); a run that would "
                        "pass it stops with one line, unless --spill is given")
    p.add_argument("--spill", metavar="DIR", default=None,
                   help="with the frontier count: when its estimate passes --memory-mb (or "
                        "the free memory), keep the states on disk in slices by a hash of "
                        "the state and read one slice at a time (each a runner task; a line "
                        "a cell on stderr, 'slices' in --json). The slices go to the "
                        "count's own folder DIR/knightgui-frontier-KEY (KEY: a hash of the "
                        "board and options), removed when the count ends. A count that "
                        "stops (Ctrl-C, SIGTERM, kill -9, a full disk) keeps its progress "
                        "there (the last finished cell's slices with their checksums, the "
                        "board, options and code version): the same command goes on from "
                        "that cell and says how many cells were done ('resumed_cells' in "
                        "--json); a folder with a damaged slice or from another version of "
                        "the code is refused in one line (remove it to count afresh). A run "
                        "also removes the folders of dead runs in DIR that saved no "
                        "progress. With --scheduler tcp://HOST:PORT the slices of a cell run "
                        "at once on the Dask workers: DIR must then be a folder every worker "
                        "sees at the same path (a shared file system); a stopped cluster run "
                        "removes its folder")
    p.add_argument("--slices", metavar="K", default=None,
                   help="with --spill: at least K slices (a power of two is taken), even "
                        "when the tables would fit in memory")


def _memory_limit(args) -> int | None:
    """``--memory-mb`` in bytes (checked), or None for what the machine has free."""
    if getattr(args, "memory_mb", None) is None:
        return None
    return positive_int("--memory-mb", args.memory_mb, 16, 1 << 24) << 20


def _spill_options(args) -> dict:
    """``--spill DIR``, ``--slices K``, ``--scheduler`` and ``--worker-timeout`` for
    :func:`run_frontier` (checked)."""
    spill = getattr(args, "spill", None)
    raw = getattr(args, "slices", None)
    scheduler = scheduler_of(args)
    if spill is None:
        if raw is not None:
            raise CliError("--slices goes with --spill DIR")
        if getattr(args, "scheduler", None) is not None and scheduler != "local":
            print("frontier: the count runs in this process; --scheduler sends it to the "
                  "cluster only through slices on disk (--spill DIR, a folder every worker "
                  "sees)", file=sys.stderr, flush=True)
        return {}
    least = 1 if raw is None else positive_int("--slices", raw, 1, 1 << 12)
    from knightgui_core.frontier.spill import SpillError, check_spill_parent
    with cli_errors(SpillError):    # before any line on the run: a bad folder is one line
        check_spill_parent(os.path.abspath(str(spill)))

    def report(line: str) -> None:
        print(line, file=sys.stderr, flush=True)
    return {"spill": os.path.abspath(str(spill)), "slices": least, "report": report,
            "scheduler": scheduler, "worker_timeout": worker_timeout_of(args)}


def wants_sequence(args) -> bool:
    """True when ``--cols-from`` or ``--cols-to`` was given."""
    return args.cols_from is not None or args.cols_to is not None


def _no_store(args) -> None:
    """The frontier count is not a set of runner tasks: ``--store`` has nothing to keep."""
    if getattr(args, "store", None) is not None:
        raise CliError("--store keeps the tasks of a study and the frontier count has none: "
                       "leave it out (--spill DIR keeps a stopped count's progress)")


@contextlib.contextmanager
def _any_digits():
    """Integers of any number of digits print as text and JSON while inside (Python
    refuses more than 4,300 by default; the counts of long boards have more)."""
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)


def every_start(args, what: str = "--all-tours counts every start") -> None:
    """:class:`CliError` when ``args`` ask for some starts, ``--distinct`` or ``--lengths``."""
    if args.starts.strip().lower() != "all" or args.distinct or args.lengths:
        raise CliError(f"{what}; it takes no --starts, --distinct or --lengths")


def _fmt(x) -> str:
    return "—" if x is None else f"{x:,}"


def _terminable(fn):
    """SIGTERM or SIGHUP stops the count as Ctrl-C does (the spill folder keeps its
    progress on the way out): one line and exit 128 + the signal's number."""
    @functools.wraps(fn)
    def run(*a, **kw) -> int:
        try:
            return fn(*a, **kw)
        except Terminated as e:
            print("terminated", file=sys.stderr)
            return e.exit_code
    return run


@_terminable
def run_all_tours_by_method(args, rows: int, cols: int, board, visited) -> int:
    """Choose the method, run it (``visited``: the visited-set command, called as it is),
    print what was chosen; the frontier's table and JSON here."""
    from knightgui_core.frontier.count import FrontierError
    from knightgui_core.studies.tour_methods import choose_method, run_frontier
    method_arg = str(args.method).strip().lower()
    if args.starts.strip().lower() != "all":
        return _run_starts(args, rows, cols, board, method_arg)
    with cli_errors(FrontierError):
        method, why = choose_method(rows, cols, method_arg, classic=board.is_classic,
                                    closed_only=args.closed_only)
    if method == "visited":
        if args.closed_only:
            raise CliError("--closed-only goes with the frontier count (or --symmetry): the "
                           "visited-set counter counts every path")
        print(f"method: visited-set counter ({why})")
        return int(visited(method, why))
    every_start(args)
    _no_store(args)
    k, n = min(rows, cols), max(rows, cols)
    t0 = time.perf_counter()
    with cli_errors(FrontierError):
        res = run_frontier(k, [n], closed_only=args.closed_only,
                           memory_limit=_memory_limit(args), **_spill_options(args))
    with _any_digits():
        return _print_board(args, board, res, k, why, t0)


def _print_board(args, board, res, k: int, why: str, t0: float) -> int:
    """The frontier count of one board: its line, and with ``--json`` the
    :class:`~knightgui_core.api_results.TourCount`'s ``to_dict()``."""
    from knightgui_core.api import tour_count_frontier
    count = tour_count_frontier(board, res, why, bool(args.closed_only),
                                time.perf_counter() - t0)
    print(f"method: frontier, {k} rows at a time ({why})")
    print(f"{board.describe()}: {_fmt(count.directed_paths)} directed paths "
          f"({_fmt(count.undirected_paths)} undirected), {count.closed_tours:,} closed tours; "
          f"{count.seconds:.1f} s, {res.peak_states:,} states at most")
    if args.json:
        emit_json(count.to_dict())
    return 0


def _run_starts(args, rows: int, cols: int, board, method_arg: str) -> int:
    """``--all-tours --starts S1,S2``: the directed paths from each start by either method
    (the frontier forces the start to be an end of the path); exit 1 when none has one.
    ``--json``: the :class:`~knightgui_core.api_results.StartPathCount`'s ``to_dict()``."""
    from knightgui_core.api import start_path_count
    from knightgui_core.frontier.count import FrontierError
    from knightgui_core.studies.all_tours import all_tours_task
    from knightgui_core.studies.count_study import parse_starts
    from knightgui_core.studies.tour_methods import choose_method, run_frontier_starts
    from knightgui_core.tietree.counting.subtrees import CountError
    if args.distinct or args.lengths or args.closed_only:
        raise CliError("--all-tours --starts counts the paths from those starts; it takes no "
                       "--distinct, --lengths or --closed-only")
    try:
        squares = parse_starts(rows, cols, args.starts)
        method, why = choose_method(rows, cols, method_arg, classic=board.is_classic,
                                    per_start=True)
    except (CountError, FrontierError) as e:
        raise CliError(f"--starts: {e}" if isinstance(e, CountError) else str(e)) from None
    if method == "frontier":
        _no_store(args)
    t0 = time.perf_counter()
    names = [board.name(sq) for sq in squares]
    with cli_errors(CountError, FrontierError):
        if method == "visited":
            recs = [all_tours_task(rows, cols, nm, board.topology, board.leaper)
                    for nm in names]
            per = {nm: {"tours": int(r["tours"]), "closed": int(r["closed"])}
                   for nm, r in zip(names, recs)}
        else:
            paths, cycles = run_frontier_starts(rows, cols, [board.coords(sq) for sq in squares],
                                                memory_limit=_memory_limit(args))
            per = {nm: {"tours": p, "closed": 2 * cycles} for nm, p in zip(names, paths)}
    seconds = time.perf_counter() - t0
    print(f"method: {'frontier' if method == 'frontier' else 'visited-set counter'} ({why})")
    print(f"{'start':>6} {'paths':>24} {'closed':>16}")
    for nm, rec in per.items():
        print(f"{nm:>6} {rec['tours']:>24,} {rec['closed']:>16,}")
    print(f"{board.describe()}: directed paths through every square from {len(per)} "
          f"start(s) in {seconds:.1f} s")
    if args.json:
        emit_json(start_path_count(board, per, method, why, seconds).to_dict())
    return 0 if any(r["tours"] for r in per.values()) else 1


@_terminable
def run_sequence(args, board_of) -> int:
    """``--cols-from A --cols-to B``: R×A … R×B by the frontier, one pass."""
    from knightgui_core.frontier.count import MAX_COLS, MAX_ROWS, FrontierError
    from knightgui_core.studies.tour_methods import choose_method, run_frontier
    if not args.all_tours:
        raise CliError("--cols-from and --cols-to count every tour: give --all-tours")
    if args.rows is None or args.size is not None or args.cols is not None:
        raise CliError("--cols-from/--cols-to go with --rows R (no --cols, no --size)")
    if args.cols_from is None or args.cols_to is None:
        raise CliError("give both --cols-from A and --cols-to B")
    if args.symmetry is not None or args.boards_up_to is not None:
        raise CliError("--cols-from/--cols-to take no --symmetry or --boards-up-to")
    rows = positive_int("--rows", args.rows, 1, MAX_ROWS)
    a = positive_int("--cols-from", args.cols_from, 1, MAX_COLS)
    b = positive_int("--cols-to", args.cols_to, 1, MAX_COLS)
    if b < a:
        raise CliError(f"--cols-to ({b}) is below --cols-from ({a})")
    board = board_of(args, rows, a)
    _no_store(args)
    limit = _memory_limit(args)
    method_arg = str(args.method).strip().lower()
    with cli_errors(FrontierError):
        if method_arg == "visited":
            raise FrontierError("a sequence is counted by the frontier: give --method "
                                "frontier or auto")
        choose_method(rows, b, "frontier", classic=board.is_classic)
    t0 = time.perf_counter()

    def progress(done: int, total: int) -> None:      # a line a column on stderr
        if done % rows == 0:
            print(f"column {done // rows} of {b}: {time.perf_counter() - t0:.1f} s, "
                  f"CPU {time.process_time():.1f} s", file=sys.stderr, flush=True)
    with cli_errors(FrontierError):
        res = run_frontier(rows, list(range(a, b + 1)), closed_only=args.closed_only,
                           memory_limit=limit, progress=progress, **_spill_options(args))
    with _any_digits():
        return _print_sequence(args, res, rows, a, b, time.perf_counter() - t0)


def _print_sequence(args, res, rows: int, a: int, b: int, seconds: float) -> int:
    """The frontier count of rows × a … rows × b: the table, and with ``--json`` the
    :class:`~knightgui_core.api_results.TourCountTable`'s ``to_dict()``."""
    from knightgui_core.api import tour_count_table
    from knightgui_core.studies.tour_methods import frontier_records
    recs = frontier_records(res)
    print(f"method: frontier, {rows} rows at a time (one pass for every length)")
    print(f"{'board':>9} {'closed tours':>28} {'undirected paths':>30} {'directed paths':>30}")
    for r in recs:
        print(f"{r['rows']:>4}×{r['cols']:<4} {r['undirected_closed_tours']:>28,} "
              f"{_fmt(r['undirected_paths']):>30} {_fmt(r['totals']['tours']):>30}")
    print(f"{len(recs)} boards {rows}×{a} … {rows}×{b} in {seconds:.1f} s; "
          f"{res.peak_states:,} states at most")
    if args.json:
        emit_json(tour_count_table(
            recs, seconds, rows=rows, cols_from=a, cols_to=b, method="frontier",
            closed_only=bool(args.closed_only), peak_states=res.peak_states,
            column_states=list(res.column_states), state_cells=res.state_cells,
            peak_table_bytes=res.peak_table_bytes, slices=list(res.slices),
            resumed_cells=res.resumed_cells).to_dict())
    return 0
