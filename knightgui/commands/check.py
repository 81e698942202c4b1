"""``knightgui check FILE``: validate a tour file (docs/spec.md §9)."""
from __future__ import annotations

from knightgui.commands._common import EXIT_NOT_FOUND, CliError, emit_json, say_not_found
from knightgui.commands.completions import add_path_arguments, path_requested, run_path


def add_parser(sub) -> None:
    """``knightgui check FILE``: validate a saved tour."""
    p = sub.add_parser("check", help="validate a tour file (JSON or CSV)",
                       description="Say whether FILE holds a knight's tour. Exit status 0: a "
                                   "tour; 1: the file is read but its path is not a tour; "
                                   "2: the file cannot be read as a tour file.")
    p.add_argument("file", nargs="?", help="a .json or .csv tour file")
    p.add_argument("--json", action="store_true", help="print one JSON object as the last line")
    add_path_arguments(p)           # a path played by hand instead (check_completions.py)
    p.set_defaults(func=run)


def run(args) -> int:
    """Check the file; exit 0 for a valid tour, 1 for a file that is read but whose path is
    not a tour (one line on stderr, or ``{"valid": false, ...}`` with ``--json``), 2 for a
    file that cannot be read as a tour file. With ``--path``: :func:`run_path`."""
    if path_requested(args):
        return run_path(args)
    from knightgui_core.board.tour import NotATourError, Tour, TourError
    try:
        tour = Tour.load(args.file)
    except NotATourError as e:
        if not args.json:
            return say_not_found(f"knightgui check: {args.file}: not a tour: {e}")
        emit_json({"valid": False, "file": str(args.file), "why": str(e)})
        return EXIT_NOT_FOUND
    except TourError as e:
        raise CliError(f"knightgui check: {args.file}: {e}") from None
    from knightgui_core.board.canonical import canonical_id, symmetry_order
    kind = "closed" if tour.is_closed_path else "open"
    ident = canonical_id(tour.board, tour.path)
    sym = symmetry_order(tour.board, tour.path)
    from knightgui_core.board.magic import line_sums
    sums = line_sums(tour.numbers())
    if args.json:
        emit_json({"valid": True, "rows": tour.rows, "cols": tour.cols,
                   "closed": bool(tour.closed), "closed_path": tour.is_closed_path,
                   "squares": tour.board.size, "method": tour.method,
                   "canonical": ident, "symmetry": sym, **sums.to_json_dict()})
    else:
        print(f"{args.file}: valid {kind} tour on {tour.cols}×{tour.rows}; canonical id "
              f"{ident}, mapped onto itself by {sym} of the board's "
              f"{8 if tour.rows == tour.cols else 4} symmetries")
        print(f"magic: {sums.kind} (row sums {_sums(sums.rows)}; column sums "
              f"{_sums(sums.cols)}" + (f"; diagonals {_sums(sums.diagonals)})"
                                       if sums.diagonals else ")"))
    return 0


def _sums(values: tuple[int, ...]) -> str:
    """``all 260`` when the sums agree, else the sums in order (their range on a wide
    board)."""
    if len(set(values)) == 1:
        return f"all {values[0]}"
    if len(values) > 16:
        return f"from {min(values)} to {max(values)}"
    return " ".join(str(v) for v in values)
