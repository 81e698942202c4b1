"""``knightgui solve``: one tour, printed, saved or rendered (docs/spec.md §10).

The time it reports is the solve's own, as the window shows it: a fresh process loads the
engine's kernels on its first solve (most of a second), so a solve that took under
:data:`RETIME_UNDER` seconds is run once more, with the kernels loaded, and that run is the
one timed (also the ``seconds`` of ``--json``); the loading is said beside it. A longer
solve is timed once and said to include the loading.
"""
from __future__ import annotations

import sys
from pathlib import Path

from knightgui.commands._common import (
    EXIT_NOT_FOUND,
    CliError,
    add_board_options,
    board_of,
    cli_errors,
    emit_json,
    parse_move_order,
    parse_square,
    parse_tie_rule,
    positive_int,
    say_not_found,
)
from knightgui.commands.animate import add_options as add_animate_options
from knightgui.commands.animate import check as check_animate
from knightgui.commands.animate import say as say_animation
from knightgui.commands.animate import write as write_animation

#: a first solve quicker than this (seconds, loading included) is run again to time it alone
RETIME_UNDER = 1.0


def _timed(call):
    """``(result, seconds of the first run, seconds with the kernels loaded or None)``:
    ``call`` run once, and once more when the first run took under :data:`RETIME_UNDER` s
    (the same arguments and seed give the same tour)."""
    res = call()
    first = res.seconds
    if first >= RETIME_UNDER:
        return res, first, None
    again = call()
    return again, first, min(again.seconds, first)


def _took(first: float, own: float | None) -> str:
    """The end of the result line: the solve's own time, and the loading beside it."""
    if own is None:
        return f"in {first:.2f} s (incl. loading the engine)"
    load = first - own
    more = f" (+{load * 1000:.0f} ms loading the engine)" if load >= 0.05 else ""
    return f"in {own * 1000:.2f} ms{more}"


def add_parser(sub) -> None:
    """``knightgui solve``: one tour by a tie rule, backtracking or construction."""
    from knightgui_core.board.rules import DEFAULT_ORDER, METHODS, TIE_HELP, TIE_RULES
    p = sub.add_parser("solve", help="find one tour by Warnsdorff's rule",
                       description="Find one knight's tour. Without --closed the tour is open. "
                                   "Exit status 0: a tour; 1: no tour (none exists on the "
                                   "board or from the start, or none was found); 2: bad "
                                   "input.")
    p.add_argument("--rows", required=True, help="board rows (ranks)")
    p.add_argument("--cols", required=True, help="board columns (files)")
    p.add_argument("--start", default=None, help="start square, e.g. a1 or 1,1 (default a1)")
    p.add_argument("--closed", action="store_true", help="the last square must be a knight "
                   "move from the first")
    p.add_argument("--tie", default="phadke", metavar="RULE",
                   help="tie rule (default phadke; sources and figures: docs/tie-breaks.md): "
                   + "; ".join(f"{t}: {TIE_HELP[t]}" for t in TIE_RULES).replace("%", "%%"))
    p.add_argument("--order", default=DEFAULT_ORDER, help="move order, 8 digits (default "
                   f"{DEFAULT_ORDER}) or ⟨dx,dy⟩ pairs")
    p.add_argument("--seed", default="0", help="seed for the random tie rules")
    p.add_argument("--method", default="auto", choices=METHODS,
                   help="auto (default), greedy, backtrack or construct")
    p.add_argument("--budget", default=None, help="node budget for backtracking")
    p.add_argument("--out", default=None, help="save the tour: FILE.json or FILE.csv")
    p.add_argument("--png", default=None, help="render the board to FILE.png")
    p.add_argument("--json", action="store_true", help="print one JSON object as the last line")
    p.add_argument("--quiet", "-q", action="store_true", help="print no board")
    add_animate_options(p)
    add_board_options(p)
    p.set_defaults(func=run)


def _save(args, tour) -> None:
    """``--out`` and ``--png``: one clear line, naming the option and the file, when a file
    cannot be written (the writer's own sentence when it has one)."""
    from knightgui_core.system.files import FileRefused
    for flag, name in (("--out", args.out), ("--png", args.png)):
        if not name:
            continue
        try:
            if flag == "--out":
                tour.save(name)
            else:
                from knightgui.export import save_png
                save_png(tour, name)
        except (OSError, ValueError) as e:
            why = str(e) if isinstance(e, FileRefused) else \
                f"cannot write {name!r}: {getattr(e, 'strerror', None) or e}"
            raise CliError(f"{flag}: {why}") from None


def run(args) -> int:
    """Solve and print the tour; exit 0 with a tour, 1 without (none exists on the board or
    from the start — a proof, answered at once —, or the methods found none), 2 for bad
    input. ``--json`` prints the :class:`~knightgui_core.api_results.TourResult`'s
    ``to_dict()``."""
    import dataclasses

    from knightgui_core.api import solve
    from knightgui_core.system.errors import InputError
    rows = positive_int("--rows", args.rows, 1, 100_000)
    cols = positive_int("--cols", args.cols, 1, 100_000)
    seed = positive_int("--seed", args.seed, 0, 2**48)
    budget = None if args.budget is None else positive_int("--budget", args.budget, 1, 10**12)
    for opt, ext in (("--out", (".json", ".csv")), ("--png", (".png",))):
        val = getattr(args, opt[2:])
        if val is not None and Path(val).suffix.lower() not in ext:
            raise CliError(f"{opt} must name a {' or '.join(ext)} file, got '{val}'")
    board = board_of(args, rows, cols)
    animate = check_animate(args, rows, cols)
    # the edge: every text option becomes its typed value here, once
    start = None if args.start is None else parse_square(board, args.start, "--start")
    tie, order = parse_tie_rule(args.tie), parse_move_order(args.order)
    with cli_errors(InputError, prefix="knightgui solve: "):
        res, first, own = _timed(lambda: solve(
            board, start, closed=args.closed, tie=tie, order=order, seed=seed,
            method=args.method, node_budget=budget))
    res = dataclasses.replace(res, seconds=first if own is None else own)
    if res.tour is not None:
        _save(args, res.tour)
        if animate:
            res = dataclasses.replace(res, animation=write_animation(args, res.tour, animate))
    if args.json:
        emit_json(res.to_dict())
        return 0 if res.found else EXIT_NOT_FOUND
    if board.is_classic and not res.method:    # a proof, no search: one line on stderr
        return say_not_found(f"knightgui solve: {res.message}")
    if res.found and not args.quiet and board.size <= 26 * 26:
        print(res.tour.render())
    if board.is_classic:
        print(f"{res.message} {_took(first, own)}", file=sys.stdout if res.found
              else sys.stderr)
    else:                                      # another board: what is known, and why
        if res.method:
            print(res.message, file=sys.stdout if res.found else sys.stderr)
        print(f"{board.describe()}: {res.answer} — {res.why}")
    if res.animation:
        say_animation(res.animation)
    return 0 if res.found else EXIT_NOT_FOUND
