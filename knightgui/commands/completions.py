"""``knightgui check --rows R --cols C --path "a1 b3 c5 …" [--completions]``: a tour by hand.
The path's squares are read here, at the command line's edge (``parse_square``);
the engine checks that they form a path of the board's piece and answers:

* always, the quick verdict (:func:`knightgui_core.walks.hand.verdict.quick_verdict`): the reasons
  no finish, or no closed tour, is possible any more, each one sentence with its squares;
* with ``--completions``, the exact count (:func:`knightgui_core.walks.hand.completions.completions`)
  within ``--budget`` seconds: whether the path can still be finished, the number of finishes
  and of closed ones, and one finish as an example.

Exit status: 0 when the path can be finished (or that is not known within the budget), 1
when it cannot (proved), 2 for bad input (one line on stderr).
"""
from __future__ import annotations

import math

from knightgui.commands._common import (
    EXIT_NOT_FOUND,
    CliError,
    add_board_options,
    board_of,
    cli_errors,
    emit_json,
    parse_square,
    positive_int,
)

__all__ = ["add_path_arguments", "path_requested", "run_path"]

#: the longest --path text read (a 100×100 board's every square named takes about 50,000)
MAX_PATH_TEXT = 200_000


def add_path_arguments(p) -> None:
    """The options of a path played by hand, added to ``knightgui check``'s parser."""
    p.description = (p.description or "") + (
        " With --path instead of FILE: say whether a path played by hand can still become a "
        "tour (exit 0: yes or not known within the budget; 1: no; 2: bad input).")
    g = p.add_argument_group("a path played by hand (instead of FILE)")
    g.add_argument("--path", default=None, metavar='"a1 b3 c5 …"',
                   help="the squares played so far, in order, separated by spaces (names or "
                        "col,row)")
    g.add_argument("--rows", default=None, help="board rows (default 8)")
    g.add_argument("--cols", default=None, help="board columns (default 8)")
    g.add_argument("--completions", action="store_true",
                   help="count every way to finish the tour (exactly, within --budget) and "
                        "show one")
    g.add_argument("--budget", default=None, metavar="SECONDS",
                   help="time for --completions (default 60); past it the count is null "
                        "with a reason")
    add_board_options(g)


def path_requested(args) -> bool:
    """Whether the command line asks about a path rather than a file."""
    return (args.path is not None or args.completions or args.file is None
            or args.rows is not None or args.cols is not None or args.budget is not None)


def _budget(text) -> float:
    try:
        value = float(text)
    except (TypeError, ValueError):
        raise CliError(f"--budget must be a number of seconds, got {str(text)[:30]!r}") from None
    if not math.isfinite(value) or not 0 < value <= 1_000_000:
        raise CliError(f"--budget must be a number of seconds above 0 and at most 1,000,000, "
                       f"got {str(text)[:30]!r}")
    return value


def run_path(args) -> int:
    """``check --path``: read the board and the path, print the verdict (and with
    ``--completions`` the count); the exit status of the module docstring."""
    if args.file is not None:
        raise CliError("knightgui check: give FILE or --path, not both")
    if args.path is None:
        raise CliError("knightgui check: give a tour FILE, or --path \"a1 b3 …\" with --rows "
                       "and --cols")
    if args.budget is not None and not args.completions:
        raise CliError("knightgui check: --budget goes with --completions")
    rows = positive_int("--rows", 8 if args.rows is None else args.rows, 1, 10_000)
    cols = positive_int("--cols", 8 if args.cols is None else args.cols, 1, 10_000)
    budget = _budget(60 if args.budget is None else args.budget)
    board = board_of(args, rows, cols)
    if len(args.path) > MAX_PATH_TEXT:
        raise CliError(f"--path: {len(args.path):,} characters, at most {MAX_PATH_TEXT:,}")
    words = args.path.split()
    if len(words) > board.size:
        raise CliError(f"--path: {len(words):,} squares on a board of {board.size:,}")
    squares = [parse_square(board, w, f"--path square {i + 1}") for i, w in enumerate(words)]
    from knightgui_core.api import check_path
    from knightgui_core.walks.hand.verdict import PlayError
    with cli_errors(PlayError, prefix="knightgui check --path: "):
        res = check_path(board, squares, completions=args.completions, budget=budget)
    out = res.to_dict()
    if args.json:
        emit_json(out)
    else:
        _print(board, out)
    found = res.extendable if args.completions else not res.lost
    return EXIT_NOT_FOUND if found is False else 0


def _print(board, out: dict) -> None:
    path = out["path"]
    what = f"a path of {len(path):,} squares from {path[0]} to {path[-1]}"
    print(f"{board.describe()}: {what if len(path) > 1 else 'the first square ' + path[0]}, "
          f"{out['free']:,} free")
    for r in out["verdict"]["reasons"]:
        what = "no closed tour" if r["closed_only"] else "lost"
        print(f"  {what}: {r['sentence']}")
    if "extendable" not in out:
        if not out["verdict"]["lost"]:
            print("  no quick reason it cannot be finished (--completions counts the finishes)")
        return
    if out["completions"] is not None:
        c = out["completions"]
        print(f"  finishes: {c['open']:,}, of which {c['closed']:,} close the tour "
              f"({out['seconds']:.2f} s)")
    else:
        yes = {True: "yes", False: "no", None: "not known"}[out["extendable"]]
        print(f"  can be finished: {yes}; {out['reason']}")
    if out["example"] is not None:
        print(f"  for example: {' '.join(out['example']) or '(the board is covered)'}")
