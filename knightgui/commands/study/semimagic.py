"""``knightgui study semimagic``: a semi-magic knight's tour, found from scratch.

    knightgui study semimagic --symmetry half-turn            # 8×8: one in minutes
    knightgui study semimagic --symmetry half-turn --limit 100000 --json   # all of them
    knightgui study semimagic --closed-only --seconds 600      # no symmetry asked for
    knightgui study semimagic --symmetry half-turn --census --store census.sqlite --json

Numbered along the tour, every row and every column adds up to the same total (260 on 8×8).
Each search starts from one square of each orbit of the board's symmetries, so every tour it
can find is found up to symmetry; ``--census`` runs each start as a runner task (``--store``
resumes, ``--scheduler`` for a cluster) and counts the tours up to symmetry. Exit 0 with a
tour, 1 when none exists (proved) or none was found within ``--seconds`` / ``--max-nodes``
(said which), 2 for bad input; Ctrl+C stops it and prints how far it got. On a terminal
without ``--json`` a line on stderr says what is searched and a bar shows the nodes and the
tours found. docs/structure.md has the measured times.
"""
from __future__ import annotations

import signal
import threading

from knightgui.commands._common import (
    EXIT_NOT_FOUND,
    Activity,
    CliError,
    cli_errors,
    emit_json,
    positive_int,
    say_not_found,
)
from knightgui.commands.study.options import add_runner_options, run_study


def add_parser(studies) -> None:
    """``knightgui study semimagic``."""
    p = studies.add_parser("semimagic", help="a semi-magic knight's tour (rows and columns "
                           "with one total), found from scratch or proved not to exist")
    p.add_argument("--size", default="8", metavar="N", help="the board's side (2–16, default 8)")
    p.add_argument("--symmetry", default="none", choices=("none", "half-turn"),
                   help="half-turn: only the closed tours the half turn maps onto themselves")
    p.add_argument("--closed-only", action="store_true", help="closed tours only")
    p.add_argument("--nested", action="store_true",
                   help="each quarter of the board semi-magic too (half rows and columns)")
    p.add_argument("--start", default=None, metavar="SQ",
                   help="number 1 on this square only (default: one of each symmetry orbit)")
    p.add_argument("--limit", default="1", metavar="K", help="stop after K tours (default 1)")
    p.add_argument("--seconds", default=None, metavar="S", help="stop after S seconds")
    p.add_argument("--max-nodes", default="0", metavar="K",
                   help="stop after K search nodes; 0 (default): no limit")
    p.add_argument("--census", action="store_true",
                   help="every tour of the family, one runner task per start square")
    p.add_argument("--json", action="store_true", help="print one JSON object as the last line")
    add_runner_options(p)
    p.set_defaults(func=run)


def _seconds(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        v = float(text)
    except ValueError:
        raise CliError(f"--seconds must be a number, got {text!r}") from None
    if not 0 < v < 1e9:
        raise CliError(f"--seconds must be more than 0, got {text}")
    return v


def run(args) -> int:
    """Search; exit 0 with a tour, 1 with none (proved, or not within the budget: said
    which), 2 for bad input, 130 when interrupted before a tour was found. ``--json``: the
    :class:`~knightgui_core.api_results.SemimagicStudy`'s ``to_dict()``."""
    size = positive_int("--size", args.size, 2, 16)
    limit = positive_int("--limit", args.limit, 1, 1 << 20)
    nodes = positive_int("--max-nodes", args.max_nodes, 0, 10 ** 15)
    seconds = _seconds(args.seconds)
    from knightgui_core.board.magic import line_sums
    from knightgui_core.board.squares import Board
    from knightgui_core.board.tour import Tour
    from knightgui_core.studies.magic.search import MagicSearchError, search_magic
    board = Board(size, size)
    starts = None
    if args.start is not None:
        from knightgui.commands._common import parse_square
        starts = [parse_square(board, args.start, "--start")]
    mode = "half-turn" if args.symmetry == "half-turn" else (
        "closed" if args.closed_only else "open")
    if args.census:
        return _census(args, size, mode, board)
    what = {"half-turn": "closed tours the half turn keeps", "closed": "closed tours",
            "open": "tours"}[mode] + (" with semi-magic quarters" if args.nested else "")
    from_ = f" numbered from {args.start}" if starts else ""
    act = Activity(quiet=args.json)
    if act.tty and not act.quiet and not (size % 2 and mode == "half-turn"):
        act.say(_headline(size, what, from_, starts, limit, nodes, seconds))
    act.start("semimagic", unit="node", scale=True)

    def progress(done: int, found: int, exhausted: int, of: int) -> None:
        act.show(done, f"found {found}, {exhausted} of {of} starts exhausted")
    stop = threading.Event()
    old = None
    if threading.current_thread() is threading.main_thread():
        old = signal.signal(signal.SIGINT, lambda *_: stop.set())
    try:
        r = search_magic(size, size, mode, limit=limit, seconds=seconds, node_limit=nodes,
                         cancel=stop, starts=starts, nested=args.nested, progress=progress)
    except MagicSearchError as e:
        raise CliError(f"knightgui study semimagic: {e}") from None
    finally:
        act.close()
        if old is not None:
            signal.signal(signal.SIGINT, old)
    tours = [Tour(board, t) for t in r.tours]
    sums = [line_sums(t.numbers()) for t in tours]
    if args.json:
        from knightgui_core.api import semimagic_result
        emit_json(semimagic_result(size, args.symmetry, mode, args.nested, r).to_dict())
    else:
        for i, (t, s) in enumerate(zip(tours, sums)):
            print(f"{size}×{size} {what}: tour {i + 1} is {s.kind} (rows and columns "
                  f"{s.rows[0]}; diagonals {' '.join(map(str, s.diagonals))})")
            grid = t.numbers()[::-1]
            width = len(str(size * size))
            for row in grid:
                print("  " + " ".join(f"{int(v):>{width}}" for v in row))
            print("  " + " ".join(board.name(q) for q in r.tours[i]))
        stopped = " (interrupted)" if r.status == "cancelled" else ""
        print(f"{r.nodes:,} nodes, {r.seconds:.1f} s; {r.starts_done} of {len(r.starts)} "
              f"start squares exhausted{stopped}")
    if r.tours:
        return 0
    if r.status == "cancelled":
        say_not_found(f"knightgui study semimagic: interrupted after {r.nodes:,} nodes, "
                      f"{r.seconds:.1f} s; no semi-magic tour found yet")
        return 130
    if r.status == "none":
        return say_not_found(f"knightgui study semimagic: proved: none of the {size}×{size} "
                             f"{what}{from_} is semi-magic ({r.nodes:,} nodes)")
    say_not_found(f"knightgui study semimagic: none found within the budget (not proved): "
                  f"{r.nodes:,} nodes, {r.seconds:.1f} s")
    return EXIT_NOT_FOUND


def _headline(size: int, what: str, from_: str, starts, limit: int, nodes: int,
              seconds: float | None) -> str:
    """The first line on a terminal: what the search looks for, and where it stops."""
    from knightgui_core.board.magic import magic_constants
    from knightgui_core.studies.magic.search import start_squares
    total = magic_constants(size, size)[0]       # every side of 2 … 16 has a whole one
    origins = ("" if starts else
               f" from {len(start_squares(size, size))} start squares (one a symmetry class)")
    stops = [f"{limit:,} tour{'' if limit == 1 else 's'}"]
    if nodes:
        stops.append(f"{nodes:,} nodes")
    if seconds is not None:
        stops.append(f"{seconds:g} s")
    return (f"semimagic: searching the {size}×{size} {what}{from_}{origins} for rows and "
            f"columns adding up to {total}; stops after {' or '.join(stops)}; Ctrl-C stops "
            "it and prints what it found")


def _census(args, size: int, mode: str, board) -> int:
    """``--census``: every start square's task on the runner; exit 0 with tours, 1 with none
    (proved), 2 for bad input or a lost cluster."""
    from knightgui_core.board.magic import line_sums
    from knightgui_core.board.tour import Tour
    from knightgui_core.studies.magic.census import run_census
    from knightgui_core.studies.magic.search import MagicSearchError
    if args.start is not None or args.seconds is not None or args.max_nodes != "0":
        raise CliError("--census runs every start square to the end: no --start, --seconds "
                       "or --max-nodes")
    if args.nested and (size % 2 or (size * (size * size + 1) // 2) % 2):
        raise CliError("knightgui study semimagic: nested needs even sides and even line totals")
    with cli_errors(MagicSearchError, prefix="knightgui study semimagic: "):
        r = run_census(size, mode, args.nested,
                       runner=lambda tasks: run_study(args, tasks, "semimagic census"))
    if args.json:
        from knightgui_core.api import census_result
        emit_json(census_result(r).to_dict())
    elif r.complete:
        for t in r.tours:
            s = line_sums(Tour(board, t).numbers())
            print(f"{s.kind} (diagonals {' '.join(map(str, s.diagonals))}): "
                  + " ".join(board.name(q) for q in t))
        closed = "" if r.closed_tours is None else f", {r.closed_tours} closed tours"
        print(f"{size}×{size} {mode}{' nested' if args.nested else ''}: {r.numbered} numbered "
              f"tours from the start squares, {r.classes} up to symmetry and reversal{closed}; "
              f"{r.nodes:,} nodes; tasks {r.tasks['computed']} computed, "
              f"{r.tasks['from_store']} from the store")
    if not r.complete:
        say_not_found("knightgui study semimagic: the census stopped before every task ended")
        return 130
    return 0 if r.numbered else EXIT_NOT_FOUND
