"""``knightgui study uncrossed``: the longest uncrossed knight's path or cycle, proved.

    knightgui study uncrossed --rows 6 --cols 6            # 17 moves, 1 up to symmetry
    knightgui study uncrossed --rows 7 --cols 7 --cycle --json

The moves, drawn as segments between square centres, never cross (they may share an end
square). The search is exhaustive (branch and bound): ``length`` is proved the longest, and
``count`` is how many longest ones there are up to the board's symmetries (``total``: as
move sets on the board). docs/structure.md has the table beside the published lengths.
"""
from __future__ import annotations

import time

from knightgui.commands._common import (
    EXIT_NOT_FOUND,
    cli_errors,
    emit_json,
    positive_int,
    say_not_found,
)


def add_parser(studies) -> None:
    """``knightgui study uncrossed``: the longest uncrossed path (or ``--cycle``)."""
    p = studies.add_parser("uncrossed", help="the longest knight's path or cycle whose moves "
                           "never cross, proved by an exhaustive search, counted up to symmetry")
    p.add_argument("--rows", required=True, metavar="R", help="rows of the board (1–12)")
    p.add_argument("--cols", required=True, metavar="C", help="columns of the board (1–12)")
    p.add_argument("--cycle", action="store_true", help="the longest closed path (cycle)")
    p.add_argument("--max-nodes", default="0", metavar="K",
                   help="give up (exit 2) after K search nodes; 0 (default): no limit")
    p.add_argument("--json", action="store_true", help="print one JSON object as the last line")
    p.set_defaults(func=run)


def run(args) -> int:
    """Search, print the answer; exit 0 with the longest path or cycle, 1 when the board has
    none (a cycle on 3×4: the JSON still says length 0), 2 for bad input or a node limit
    reached. ``--json``: the :class:`~knightgui_core.api_results.UncrossedStudy`'s
    ``to_dict()``."""
    from knightgui_core.api import uncrossed_result
    from knightgui_core.studies.uncrossed import MAX_SIDE
    rows = positive_int("--rows", args.rows, 1, MAX_SIDE)
    cols = positive_int("--cols", args.cols, 1, MAX_SIDE)
    limit = positive_int("--max-nodes", args.max_nodes, 0, 10 ** 15)
    from knightgui_core.board.squares import Board
    from knightgui_core.studies.uncrossed import UncrossedError, longest_uncrossed
    t0 = time.perf_counter()
    with cli_errors(UncrossedError, prefix="knightgui study uncrossed: "):
        r = longest_uncrossed(rows, cols, cycle=args.cycle, node_limit=limit)
    board = Board(rows, cols)
    names = [board.name(s) for s in r.path]
    what = "cycle" if args.cycle else "path"
    if r.length == 0 and not args.json:
        return say_not_found(f"knightgui study uncrossed: {cols}×{rows} has no uncrossed "
                             f"{'cycle' if args.cycle else 'move'}")
    if args.json:
        emit_json(uncrossed_result(board, r, time.perf_counter() - t0).to_dict())
        if r.length == 0:
            return EXIT_NOT_FOUND
    else:
        print(f"{cols}×{rows}: the longest uncrossed {what} has {r.length} moves; "
              f"{r.count} up to symmetry ({r.total} on the board); proved in {r.nodes:,} "
              f"nodes, {r.seconds:.2f} s")
        if names:
            print(" ".join(names) + (f" {names[0]}" if args.cycle else ""))
    return 0

