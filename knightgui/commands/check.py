"""``knightgui check FILE``: validate a tour file (docs/spec.md §9)."""
from __future__ import annotations

from collections.abc import Sequence

from knightgui.commands._common import EXIT_NOT_FOUND, cli_errors, emit_json, say_not_found
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
    file that cannot be read as a tour file. With ``--path``: :func:`run_path`. ``--json``
    prints the :class:`~knightgui_core.api_results.TourCheck`'s ``to_dict()``."""
    if path_requested(args):
        return run_path(args)
    from knightgui_core.api import check_tour
    from knightgui_core.board.tour import TourError
    with cli_errors(TourError, prefix=f"knightgui check: {args.file}: "):
        res = check_tour(args.file)
    if args.json:
        emit_json(res.to_dict())
        return 0 if res.valid else EXIT_NOT_FOUND
    if not res.valid:
        return say_not_found(f"knightgui check: {args.file}: not a tour: {res.why}")
    d = res.to_dict()
    kind = "closed" if d["closed_path"] else "open"
    print(f"{args.file}: valid {kind} tour on {d['cols']}×{d['rows']}; canonical id "
          f"{d['canonical']}, mapped onto itself by {d['symmetry']} of the board's "
          f"{8 if d['rows'] == d['cols'] else 4} symmetries")
    print(f"magic: {d['magic']} (row sums {_sums(d['row_sums'])}; column sums "
          f"{_sums(d['col_sums'])}" + (f"; diagonals {_sums(d['diagonal_sums'])})"
                                       if d["diagonal_sums"] else ")"))
    return 0


def _sums(values: Sequence[int]) -> str:
    """``all 260`` when the sums agree, else the sums in order (their range on a wide
    board)."""
    if len(set(values)) == 1:
        return f"all {values[0]}"
    if len(values) > 16:
        return f"from {min(values)} to {max(values)}"
    return " ".join(str(v) for v in values)
