"""``knightgui study move-orders``: all 8! move orders × every start square (docs/spec.md §7, §10)."""
from __future__ import annotations

import sys

from knightgui.commands._common import (
    CliError,
    cli_errors,
    emit_json,
    parse_move_order,
    parse_square,
    positive_int,
)
from knightgui.commands.study.options import add_runner_options, open_study_store, run_study


def add_parser(studies) -> None:
    """``knightgui study orders``: all 40,320 move orders from every start."""
    p = studies.add_parser(
        "move-orders", help="plain Warnsdorff over all 40,320 move orders × every start",
        description="Walk every move order (8! = 40,320, lexicographic from 12345678) from "
                    "every start square of an N×N board with plain Warnsdorff (ties to the "
                    "first, or last, tied move in the order) and count the failures.")
    p.add_argument("--size", default="8", help="board side N (1..16, default 8)")
    p.add_argument("--cols", default=None, help="columns, for an N×COLS board (default N)")
    p.add_argument("--tie", default="first", help="first (default) or last")
    p.add_argument("--worst", default="10", help="how many worst orders to list (default 10)")
    p.add_argument("--csv", default=None, metavar="FILE",
                   help="write one row per order: index,order,matrix,failed_walks,"
                        "closed_walks,failed_starts")
    p.add_argument("--starts-csv", default=None, metavar="FILE",
                   help="write failures per start square: square,col,row,failed_walks")
    p.add_argument("--walk", default=None, metavar="ORDER",
                   help="instead of the analysis, show the one walk of ORDER (digits or "
                        "⟨dx,dy⟩ pairs) from --from")
    p.add_argument("--from", dest="start", default="a1", metavar="SQ",
                   help="start square for --walk (default a1)")
    add_runner_options(p)
    p.add_argument("--json", action="store_true", help="print one JSON object as the last line")
    p.set_defaults(func=run)


def run(args) -> int:
    """Run the move-order study and print its summary; ``--json``: the
    :class:`~knightgui_core.api_results.MoveOrderStudy`'s ``to_dict()`` (with ``--walk``,
    the :class:`~knightgui_core.api_results.OrderWalk`'s)."""
    import time

    from knightgui_core.api import move_order_result
    from knightgui_core.studies.orders import MAX_SIDE, OrderError
    from knightgui_core.studies.orders.runner import assemble, orders_tasks
    n = positive_int("--size", args.size, 1, MAX_SIDE)
    cols = n if args.cols is None else positive_int("--cols", args.cols, 1, MAX_SIDE)
    worst = positive_int("--worst", args.worst, 0, 40320)
    tie = str(args.tie).strip().lower()
    if tie not in ("first", "last"):
        raise CliError(f"--tie must be first or last, got '{args.tie}'")
    for opt in ("csv", "starts_csv"):
        val = getattr(args, opt)
        if val is not None and not str(val).lower().endswith(".csv"):
            raise CliError(f"--{opt.replace('_', '-')} must name a .csv file, got '{val}'")
    if args.walk is not None:
        return _show_walk(n, cols, tie, args.walk, args.start, args.json)
    from knightgui_core.run.store import StoreError
    t0 = time.perf_counter()
    with open_study_store(args) as store:   # orders_tasks reads it: slices stored before
        with (cli_errors(OrderError, prefix="knightgui study move-orders: "),
              cli_errors(StoreError, prefix="--store: ")):
            tasks = orders_tasks(n, tie, cols=cols, store=store)
            report = run_study(args, tasks, f"move orders {n}×{cols} ({tie})", store=store)
            res = assemble(n, tie, tasks, report, cols=cols, seconds=time.perf_counter() - t0)
    for opt, table in (("csv", "orders"), ("starts_csv", "starts")):
        val = getattr(args, opt)
        if val:
            try:
                res.save_csv(val, table=table)
            except OSError as e:
                raise CliError(f"cannot write {val}: {e.strerror or e}") from None
    if args.json:
        emit_json(move_order_result(res.board, tie, res, worst, report.tasks_json()).to_dict())
    else:
        _print_report(res, worst)
        print(f"{report.total} tasks, {report.from_store} from the store")
    return 0


def _show_walk(n, cols, tie, order, start, as_json) -> int:
    import numpy as np

    from knightgui_core.board.squares import Board, column_letters
    from knightgui_core.studies.orders import OrderError, replay
    # the edge: the order and the start become typed values here, once
    o = parse_move_order(order, "--walk")
    first = parse_square(Board(n, cols), start, "--from")
    with cli_errors(OrderError, prefix="knightgui study move-orders --walk: "):
        w = replay(n, o, tie, first, cols=cols)
    board, path = w.board, w.path
    if as_json:
        from knightgui_core.api import order_walk_result
        emit_json(order_walk_result(w, o, tie).to_dict())
        return 0
    nums = np.zeros(board.size, dtype=np.int64)
    nums[path] = np.arange(1, len(path) + 1)
    width = len(str(board.size))
    for r in range(board.rows - 1, -1, -1):
        cells = (f"{v:>{width}}" if v else "." * width for v in nums[r * cols:(r + 1) * cols])
        print(f"{r + 1:>3} " + " ".join(cells))
    print("    " + " ".join(f"{column_letters(c):>{width}}" for c in range(cols)))
    print(w.message)
    return 0


def _print_report(res, worst: int) -> None:
    out = sys.stdout
    s = res.summary()
    b = res.board
    out.write(f"Move-order analysis, {b.cols}×{b.rows} board, ties to the {res.tie} tied move\n")
    out.write(f"  orders                  {s.orders:>12,}\n")
    out.write(f"  walks                   {s.walks:>12,}\n")
    pct = 100 * s.failed_walks / s.walks if s.walks else 0.0
    out.write(f"  failed walks            {s.failed_walks:>12,}  ({pct:.3f}%)\n")
    out.write(f"  orders with a failure   {s.orders_with_failure:>12,}\n")
    out.write(f"  most failures per order {s.max_failures_per_order:>12,}\n")
    done = s.walks - s.failed_walks
    cpct = 100 * s.closed_walks / done if done else 0.0
    out.write(f"  closed walks            {s.closed_walks:>12,}  ({cpct:.2f}% of the "
              f"complete walks)\n")
    out.write(f"  seconds                 {s.seconds:>12.3f}  "
              f"({s.walks / max(s.seconds, 1e-9) / 1e6:.2f} M walks/s)\n")
    out.write("Failed walks per order: " + ", ".join(
        f"{k}: {int(v):,}" for k, v in enumerate(res.distribution()) if v) + " orders\n")
    if worst and s.failed_walks:
        out.write("Worst orders (index, digits, matrix ⟨dx,dy⟩, failures, failed starts):\n")
        for w in res.worst(worst):
            out.write(f"  {w['index']:>5} {w['order']} {w['matrix']} {w['failed_walks']:>3}  "
                      f"{' '.join(w['failed_starts'])}\n")
    if b.size <= 16 * 16:
        fps = res.failures_per_start.reshape(b.rows, b.cols)
        width = max(4, len(f"{int(fps.max()):,}") + 1)
        out.write("Failed walks per start square (rank 1 at the bottom):\n")
        for r in range(b.rows - 1, -1, -1):
            out.write(f"{r + 1:>4} " + "".join(f"{int(v):>{width},}" for v in fps[r]) + "\n")
        from knightgui_core.board.squares import column_letters
        out.write("     " + "".join(f"{column_letters(c):>{width}}" for c in range(b.cols)) + "\n")
