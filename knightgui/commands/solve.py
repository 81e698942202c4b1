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


def _other_board(args, board, start, tie, order, seed, budget, animate=None) -> int:
    """Another topology or leaper: a theorem that rules tours out answers at once; otherwise
    the rule's walk and the searches of :mod:`knightgui_core.walks.other_boards`, and when
    they find nothing on a small board, the exhaustive search says whether any tour exists."""
    from knightgui_core.board.existence import known_answer
    from knightgui_core.board.tour import path_pairs
    from knightgui_core.tietree.alltours.existence_search import SEARCH_BUDGET, existence_answer
    from knightgui_core.walks.solve import SolveError, solve
    closed = bool(args.closed)
    known, why = known_answer(board, closed)
    res, animation = None, None
    if known is not False:
        try:
            res = solve(board.rows, board.cols, start=start, closed=closed, tie=tie,
                        order=order, seed=seed, method=args.method, node_budget=budget,
                        topology=board.topology, leaper=board.leaper)
        except SolveError as e:
            raise CliError(f"knightgui solve: {e}") from None
    if res is not None and res.ok:
        answer = "yes"
        if known is None:            # no rule decides in advance: the tour itself is the proof
            why = f"this tour proves one exists ({res.message})"
        _save(args, res.tour)
        animation = write_animation(args, res.tour, animate) if animate else None
    elif known is None and args.method == "auto" and start is None:
        ans = existence_answer(board, closed, budget or SEARCH_BUDGET)
        answer, why = ans.answer, ans.why
    else:
        answer = "no" if known is False else "not known"
    if args.json:
        emit_json({"rows": board.rows, "cols": board.cols, "topology": board.topology,
                   "leaper": list(board.leaper), "closed": closed, "answer": answer,
                   "why": why, "valid": bool(res is not None and res.ok),
                   "method": res.method if res is not None else "",
                   "message": res.message if res is not None else why,
                   "nodes": res.nodes if res is not None else 0,
                   "path": path_pairs(res.path, board.cols) if res is not None and res.ok
                   else [], **({"animation": animation} if animation else {})})
    else:
        if res is not None and res.ok and not args.quiet and board.size <= 26 * 26:
            print(res.tour.render())
        if res is not None:
            print(res.message, file=sys.stdout if res.ok else sys.stderr)
        print(f"{board.describe()}: {answer} — {why}")
        if animation:
            say_animation(animation)
    return 0 if res is not None and res.ok else EXIT_NOT_FOUND


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


def _no_tour(args, board, start: int | None, why: str) -> int:
    """No tour of the kind asked exists on the board or from the start (a proof, no search):
    the "no tour" outcome, exit 1 — one line on stderr, or with ``--json`` the object a
    failed search gives, ``valid`` false and ``message`` the reason."""
    if not args.json:
        return say_not_found(f"knightgui solve: {why}")
    emit_json({"rows": board.rows, "cols": board.cols, "closed": bool(args.closed),
               "valid": False, "method": "", "seconds": 0.0, "path": [], "message": why,
               "nodes": 0, "stuck_at": -1, "moves": 0,
               "start": board.name(0 if start is None else start), "rule_walk": None})
    return EXIT_NOT_FOUND


def run(args) -> int:
    """Solve and print the tour; exit 0 with a tour, 1 without (none exists on the board or
    from the start — a proof, answered at once —, or the methods found none), 2 for bad
    input."""
    from knightgui_core.board.tour import path_pairs
    from knightgui_core.walks.solve import NoTourError, SolveError, solve
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
    if not board.is_classic:
        return _other_board(args, board, start, tie, order, seed, budget, animate)
    try:
        res, first, own = _timed(lambda: solve(
            rows, cols, start=start, closed=args.closed, tie=tie, order=order, seed=seed,
            method=args.method, node_budget=budget))
    except NoTourError as e:
        return _no_tour(args, board, start, str(e))
    except SolveError as e:
        raise CliError(f"knightgui solve: {e}") from None
    animation = None
    if res.ok:
        _save(args, res.tour)
        animation = write_animation(args, res.tour, animate) if animate else None
    if args.json:
        emit_json({"rows": rows, "cols": cols, "closed": bool(args.closed), "valid": res.ok,
                   "method": res.method, "seconds": round(first if own is None else own, 6),
                   "path": path_pairs(res.path, cols) if res.ok else [],
                   "message": res.message, "nodes": res.nodes,
                   "stuck_at": res.stuck_at, "moves": res.moves,
                   "start": board.name(0 if start is None else start),
                   "rule_walk": res.info.get("rule_walk"),
                   **({"animation": animation} if animation else {})})
    else:
        if res.ok and not args.quiet and rows * cols <= 26 * 26:
            print(res.tour.render())
        print(f"{res.message} {_took(first, own)}", file=sys.stdout if res.ok
              else sys.stderr)
        if animation:
            say_animation(animation)
    return 0 if res.ok else EXIT_NOT_FOUND
