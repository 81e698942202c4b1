"""``knightgui study count``: every Warnsdorff tour from each start square, counted.

    knightgui study count --size 8                        # 64 starts: 7,894,584 tours
    knightgui study count --size 10 --starts corners --store counts.sqlite
    knightgui study count --rows 5 --cols 6 --starts a1,c3 --csv counts.csv --json
    knightgui study count --size 9 --scheduler tcp://HOST:8786
    knightgui study count --size 8 --lengths --json       # dead ends by length, too

Strict rule, no dashes, open tours, every tie followed; starts a symmetry of the board maps
onto each other are counted once. Beside the counts: the exact probability that a walk
breaking every tie uniformly at random completes a tour (P(success)) and a closed one.

``--distinct`` lists every tour again after the count to compare them: a line on stderr says
first what that costs (on a pipe too when it is minutes or gigabytes), and on a terminal a
bar shows its three steps (listing, sorting, canonical forms) unless ``--json``.
"""
from __future__ import annotations

import csv
import io

from knightgui.commands._common import (
    Activity,
    CliError,
    add_board_options,
    board_of,
    cli_errors,
    emit_json,
    positive_int,
)
from knightgui.commands.study.frontier import (
    add_method_options,
    every_start,
    run_all_tours_by_method,
    run_sequence,
    wants_sequence,
)
from knightgui.commands.study.options import add_runner_options, open_study_store, run_study
from knightgui.commands.study.symmetric import add_symmetry_options, run_symmetric_count
from knightgui_core.system.text import duration_text, size_text


def add_parser(studies) -> None:
    """``knightgui study count``: every Warnsdorff tour from each start (``--all-tours``: every
    tour)."""
    p = studies.add_parser("count", help="count every Warnsdorff tour (strict rule, every tie "
                           "followed, open) from each start square: tours, closed, dead ends")
    p.add_argument("--size", metavar="N", help="an N×N board")
    p.add_argument("--rows", metavar="R", help="rows (with --cols; instead of --size)")
    p.add_argument("--cols", metavar="C", help="columns (with --rows)")
    p.add_argument("--starts", default="all", metavar="all|corners|SQUARES",
                   help="start squares: all (default), corners, or names such as a1,c3")
    p.add_argument("--csv", metavar="FILE", help="write one row per start square to FILE")
    p.add_argument("--split-depth", default="0", metavar="D",
                   help="cut each start D ties down before the first round (default 0; "
                        "tasks also split themselves when they outgrow their budget)")
    p.add_argument("--task-moves", default=None, metavar="M",
                   help="forward moves a task makes before it splits (default 2**27, "
                        "about 1–5 s on one core)")
    p.add_argument("--workers", help="cores of this machine to use (default: all)")
    p.add_argument("--lengths", action="store_true",
                   help="also count the dead ends by squares visited when stuck, with the "
                        "probability of each length for a random start and random ties")
    p.add_argument("--table-mb", metavar="MIB", default=None,
                   help="size of each worker thread's transposition table in MiB (default: "
                        "a quarter of this machine's memory shared by its cores); a full "
                        "table replaces its cheapest entries, counts stay exact")
    p.add_argument("--no-table", action="store_true",
                   help="walk every node of the tie tree (no transposition table)")
    p.add_argument("--no-fold", action="store_true",
                   help="count every subtree of a start that a symmetry keeps in place (by "
                        "default the subtrees such a symmetry maps onto each other are "
                        "counted once: the centre of an odd board 8× less work; same counts)")
    p.add_argument("--all-tours", action="store_true",
                   help="count every knight's path from each start, not only Warnsdorff's "
                        "(boards of at most 64 squares): directed paths and closed ones")
    p.add_argument("--boards-up-to", metavar="N", default=None,
                   help="with --all-tours and no board: every k×n board with 3 ≤ k ≤ n and "
                        "k·n ≤ N (N ≤ 64), one after the other in one process")
    p.add_argument("--distinct", action="store_true",
                   help="also say how many tours are really different: open paths up to "
                        "reversal and cycles up to start and direction, then up to the "
                        "board's symmetries (boards of at most 64 squares, --starts all; it "
                        "keeps every tour: 8×8 takes about a minute and 3 GB of memory)")
    add_symmetry_options(p)
    add_method_options(p)
    add_runner_options(p)
    add_board_options(p)
    p.add_argument("--json", action="store_true", help="last stdout line: one JSON object")
    p.set_defaults(func=run)


def _dims(args) -> tuple[int, int]:
    if args.size is not None:
        if args.rows is not None or args.cols is not None:
            raise CliError("give --size N or --rows R --cols C, not both")
        n = positive_int("--size", args.size, 1, 11)
        return n, n
    if args.rows is None or args.cols is None:
        raise CliError("give the board: --size N, or --rows R and --cols C")
    most = 128
    if getattr(args, "all_tours", False):
        # every tour of a long board is the frontier's, which reads up to MAX_COLS columns
        from knightgui_core.frontier.count import MAX_COLS
        most = MAX_COLS
    return (positive_int("--rows", args.rows, 1, most),
            positive_int("--cols", args.cols, 1, most))


def _csv_text(res) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["start", "class", "tours", "closed", "dead_ends", "p_success", "p_closed"])
    rep_of = {s: rep for rep, members in res.classes.items() for s in members}
    for name, rec in res.per_start.items():
        w.writerow([name, rep_of[name], rec["tours"], rec["closed"], rec["dead_ends"],
                    repr(rec["p_success"]), repr(rec["p_closed"])])
    if res.dead_end_lengths:
        w.writerow([])
        w.writerow(["squares_visited", "dead_ends", "probability"])
        for sq, cell in res.dead_end_lengths.items():
            w.writerow([sq, cell["paths"], repr(cell["probability"])])
    return buf.getvalue()


def format_table(res) -> str:
    """One line per symmetry class, then the totals."""
    lines = [f"{'start':>6} {'starts':>6} {'tours':>15} {'closed':>12} {'dead ends':>14} "
             f"{'P(success)':>11} {'P(closed)':>10}"]
    for rep, members in res.classes.items():
        rec = res.per_start[members[0]]
        lines.append(f"{rep:>6} {len(members):>6} {rec['tours']:>15,} {rec['closed']:>12,} "
                     f"{rec['dead_ends']:>14,} {rec['p_success']:>11.6f} "
                     f"{rec['p_closed']:>10.6f}")
    t = res.totals
    lines.append(f"{'all':>6} {len(res.per_start):>6} {t['tours']:>15,} {t['closed']:>12,} "
                 f"{t['dead_ends']:>14,} {t['p_success']:>11.6f} {t['p_closed']:>10.6f}")
    if res.dead_end_lengths:
        lines.append("dead ends by squares visited (summed over starts; probability for a "
                     "random start):")
        for sq, cell in res.dead_end_lengths.items():
            lines.append(f"{sq:>6} {cell['paths']:>15,} {cell['probability']:>14.10f}")
    return "\n".join(lines)


def _all_tours(args, rows: int, cols: int, workers: int | None, board, why: str) -> int:
    """``--all-tours``: every knight's path from each start (one task per start class);
    ``why``: the reason the visited-set counter was chosen. ``--json``: the
    :class:`~knightgui_core.api_results.TourCount`'s ``to_dict()``."""
    from knightgui_core.api import tour_count_visited
    from knightgui_core.studies.all_tours import run_all_tours
    from knightgui_core.tietree.counting.subtrees import CountError
    every_start(args)
    with open_study_store(args) as store:
        with cli_errors(CountError):
            res = run_all_tours(rows, cols, runner=lambda tasks: run_study(
                args, tasks, f"all tours {rows}x{cols}", store=store, workers=workers),
                board=None if board.is_classic else board)
    if res.cancelled:
        raise CliError("the count did not finish")
    count = tour_count_visited(board, res, why, res.seconds)
    d = count.to_dict()
    print(f"{'start':>6} {'starts':>6} {'paths':>15} {'closed':>12}")
    for rep, members in res.classes.items():
        rec = res.per_start[members[0]]
        print(f"{rep:>6} {len(members):>6} {rec['tours']:>15,} {rec['closed']:>12,}")
    t = d["totals"]
    print(f"{'all':>6} {len(res.per_start):>6} {t['tours']:>15,} {t['closed']:>12,}")
    print(f"{board.describe()}: {t['tours']:,} directed paths ({d['undirected_paths']:,} "
          f"undirected), {d['undirected_closed_tours']:,} closed tours; {res.seconds:.1f} s")
    if args.json:
        emit_json(d)
    return 0


def _all_boards(args) -> int:
    """``--all-tours --boards-up-to N``: every path of every k×n board (3 ≤ k ≤ n, k·n ≤ N)
    in one process, one store and one cluster (the start-up is paid once). ``--json``: the
    :class:`~knightgui_core.api_results.TourCountTable`'s ``to_dict()``."""
    import time

    from knightgui_core.api import tour_count_table
    from knightgui_core.studies.all_tours import MAX_SQUARES, run_all_tours
    from knightgui_core.tietree.counting.subtrees import CountError
    if not args.all_tours:
        raise CliError("--boards-up-to counts every path: give --all-tours")
    if args.size is not None or args.rows is not None or args.cols is not None:
        raise CliError("--boards-up-to chooses the boards: give no --size, --rows or --cols")
    every_start(args)
    limit = positive_int("--boards-up-to", args.boards_up_to, 9, MAX_SQUARES)
    workers = None if args.workers is None else positive_int("--workers", args.workers, 1, 256)
    sizes = [(k, n) for k in range(3, limit + 1) for n in range(k, limit // k + 1)]
    with open_study_store(args) as store:
        t0 = time.perf_counter()
        out = []
        with cli_errors(CountError):
            for k, n in sizes:
                board = board_of(args, k, n)
                res = run_all_tours(k, n, runner=lambda tasks, k=k, n=n: run_study(
                    args, tasks, f"all tours {k}x{n}", store=store, workers=workers),
                    board=None if board.is_classic else board)
                if res.cancelled:
                    raise CliError(f"the count of {k}×{n} did not finish")
                d = res.to_dict()
                out.append({"rows": k, "cols": n, "directed_paths": d["totals"]["tours"],
                            "undirected_paths": d["undirected_paths"],
                            "closed_tours": d["undirected_closed_tours"],
                            "seconds": round(res.seconds, 3)})
    seconds = time.perf_counter() - t0
    print(f"{'board':>7} {'directed paths':>16} {'undirected':>14} {'closed tours':>13} "
          f"{'seconds':>8}")
    for r in out:
        print(f"{r['rows']:>3}×{r['cols']:<3} {r['directed_paths']:>16,} "
              f"{r['undirected_paths']:>14,} {r['closed_tours']:>13,} {r['seconds']:>8.2f}")
    b = board_of(args, 3, 3)
    what = "" if b.is_classic else f" ({b.topology}, leaper {b.leaper[0]},{b.leaper[1]})"
    print(f"{len(out)} boards up to {limit} squares{what}: {seconds:.1f} s in all")
    if args.json:
        emit_json(tour_count_table(out, seconds, boards_up_to=limit).to_dict())
    return 0


#: what the distinct step costs, measured on 7×7 and 8×8 (one idle core; a busy machine is
#: slower, up to :data:`DISTINCT_BUSY` times): seconds a tour, bytes a square of a tour, and
#: the bytes it holds whatever the board
DISTINCT_SECONDS_A_TOUR = 6e-6
DISTINCT_BUSY = 4
DISTINCT_BYTES_A_SQUARE = 5
DISTINCT_BYTES = 200 << 20
#: a distinct step dearer than this (seconds on an idle core, or bytes) is said on a pipe too
DISTINCT_SAY_ALWAYS = (10.0, 1 << 30)


def distinct_cost(tours: int, squares: int) -> tuple[float, float]:
    """``(seconds on one idle core, peak bytes)`` the distinct step of ``tours`` tours of
    ``squares`` squares takes, roughly: it lists them again, one byte a square, sorts them
    and compares each with its images."""
    return (tours * DISTINCT_SECONDS_A_TOUR,
            DISTINCT_BYTES + tours * squares * DISTINCT_BYTES_A_SQUARE)


def _distinct(rows: int, cols: int, tours: int, act: Activity):
    """The distinct counts (:func:`knightgui_core.studies.distinct.distinct_counts`), said
    and shown on ``act``; :class:`CliError` for a board it cannot take."""
    from knightgui_core.studies.distinct import DistinctError, distinct_counts
    seconds, nbytes = distinct_cost(tours, rows * cols)
    images = 8 if rows == cols else 4
    act.say(f"counting distinct tours: {tours:,} tours to list again, sort and compare with "
            f"their images under the board's {images} symmetries; about {size_text(nbytes)} of "
            f"memory and {duration_text(seconds)} to {duration_text(DISTINCT_BUSY * seconds)} on one "
            f"core (Ctrl-C stops it)",
            always=seconds >= DISTINCT_SAY_ALWAYS[0] or nbytes >= DISTINCT_SAY_ALWAYS[1])
    act.start("distinct: listing", total=tours, unit="tour", scale=True)
    stage = ["tours"]

    def steps(name: str, done: int, total: int) -> None:
        if name != stage[0]:
            stage[0] = name
            if name == "sort":
                act.start(f"distinct: sorting {total:,} tours", unit="tour", tick=True)
            else:
                act.start("distinct: canonical forms", total=total, unit="tour", scale=True)
        act.show(done)
    try:
        with cli_errors(DistinctError, prefix="--distinct: "):
            return distinct_counts(rows, cols, steps=steps)
    finally:
        act.close()


def _table_bytes(args) -> int | None:
    """``--table-mb`` as bytes (checked), 0 for ``--no-table``, None for the default."""
    if args.no_table:
        if args.table_mb is not None:
            raise CliError("give --table-mb or --no-table, not both")
        return 0
    if args.table_mb is None:
        return None
    from knightgui_core.tietree.counting.table import TableError, table_bytes
    with cli_errors(TableError, prefix="--table-mb: "):
        return table_bytes(args.table_mb)


def run(args) -> int:
    """Run the count on this machine or a Dask cluster, with a store to resume from;
    ``--json``: the :class:`~knightgui_core.api_results.WarnsdorffCount`'s ``to_dict()``."""
    from knightgui_core.api import warnsdorff_count_result
    from knightgui_core.studies.count_study import (
        TASK_MOVES,
        CountOptions,
        parse_starts,
        run_count,
    )
    from knightgui_core.system.files import write_text
    from knightgui_core.tietree.counting.subtrees import CountError
    if wants_sequence(args):
        return run_sequence(args, board_of)
    if str(args.method).strip().lower() != "auto" and not args.all_tours:
        raise CliError("--method chooses how --all-tours counts: give --all-tours")
    if args.boards_up_to is not None:
        if args.symmetry is not None:
            raise CliError("--symmetry counts one board: give --rows and --cols, not "
                           "--boards-up-to")
        return _all_boards(args)
    rows, cols = _dims(args)
    depth = positive_int("--split-depth", args.split_depth, 0, 64)
    budget = (TASK_MOVES if args.task_moves is None
              else positive_int("--task-moves", args.task_moves, 1, 1 << 62))
    workers = None if args.workers is None else positive_int("--workers", args.workers, 1, 256)
    table_bytes = _table_bytes(args)
    board = board_of(args, rows, cols)
    if not board.is_classic and args.distinct:
        raise CliError("--distinct counts the knight on the plane only (other boards: "
                       "--all-tours, or knightgui enumerate --topology/--leaper)")
    if args.symmetry is not None or args.closed_only:
        if not args.all_tours:
            raise CliError("--symmetry and --closed-only go with --all-tours")
    if args.symmetry is not None:
        return run_symmetric_count(args, rows, cols, workers, board)
    if args.all_tours:
        return run_all_tours_by_method(
            args, rows, cols, board,
            lambda method, why: _all_tours(args, rows, cols, workers, board, why))
    with cli_errors(CountError, prefix="--starts: "):   # the edge: squares become indices
        squares = parse_starts(rows, cols, args.starts)
    if args.distinct and (rows * cols > 64 or len(squares) != rows * cols):
        raise CliError("--distinct takes boards of at most 64 squares and --starts all")
    act = Activity(quiet=args.json)
    if args.distinct:
        act.say(f"count {rows}×{cols} --distinct: every tour is counted first, then listed "
                "again and compared to find the distinct ones")
    with open_study_store(args) as store:
        def runner(tasks):
            return run_study(args, tasks, f"count {rows}x{cols}", store=store,
                             workers=workers)
        with cli_errors(CountError):
            options = CountOptions(split_depth=depth, budget=budget, lengths=args.lengths,
                                   table_bytes=table_bytes,
                                   board=None if board.is_classic else board,
                                   fold=not args.no_fold)
            res = run_count(rows, cols, squares, options=options, runner=runner)
    distinct = None
    if args.distinct:
        distinct = _distinct(rows, cols, res.totals["tours"], act)
    print(format_table(res))
    if distinct is not None:
        orbits = ", ".join(f"{v:,} of {k}" for k, v in distinct.orbit_sizes.items())
        print(f"distinct: {distinct.distinct:,} (open paths up to reversal, cycles up to "
              f"start and direction); up to symmetry: {distinct.distinct_up_to_symmetry:,} "
              f"(classes by size: {orbits or 'none'}); {distinct.seconds:.1f} s")
    print(f"{len(res.per_start):,} starts ({len(res.classes)} classes) in {res.seconds:.1f} s; "
          f"{res.tasks['total']:,} tasks in {res.rounds} rounds "
          f"({res.tasks['from_store']:,} from the store)")
    if args.csv:
        try:
            write_text(args.csv, _csv_text(res), make_parents=True)
        except OSError as e:
            raise CliError(f"--csv: cannot write {args.csv}: {e.strerror or e}") from None
        print(f"wrote {args.csv}")
    if args.json:
        emit_json(warnsdorff_count_result(board, res, res.seconds, distinct).to_dict())
    return 0
