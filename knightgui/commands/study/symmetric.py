"""``knightgui study count --all-tours --symmetry NAME``: the tours a board symmetry keeps.

    knightgui study count --all-tours --rows 8 --cols 8 --symmetry half-turn --closed-only
    knightgui study count --all-tours --rows 6 --cols 6 --symmetry quarter-turn --json

Counted on the quotient board (one square of each orbit of the symmetry), not by filtering
every tour, so 8×8 is within reach (2,432,932 closed tours a half turn keeps, in about 20 s).
Symmetries: half-turn, quarter-turn (square boards), mirror-rows (the first and last rows
swap), mirror-cols, diagonal (square boards). A kind of tour the symmetry cannot keep is
said in one line with the reason, and counted 0.
"""
from __future__ import annotations

from knightgui.commands._common import CliError, cli_errors, emit_json
from knightgui.commands.study.frontier import every_start
from knightgui.commands.study.options import open_study_store, run_study

#: the names ``--symmetry`` takes (core's list, repeated so that --help needs no engine)
NAMES = ("half-turn", "quarter-turn", "mirror-rows", "mirror-cols", "diagonal")


def add_symmetry_options(p) -> None:
    """``--symmetry NAME`` and ``--closed-only`` on ``study count``."""
    p.add_argument("--symmetry", metavar="NAME", default=None,
                   help="with --all-tours: count only the tours this board symmetry maps "
                        "onto themselves: " + ", ".join(NAMES))
    p.add_argument("--closed-only", action="store_true",
                   help="with --symmetry: count the closed tours only, not the open paths")


def run_symmetric_count(args, rows: int, cols: int, workers: int | None, board) -> int:
    """The symmetric count: a table of its parts, one line of totals, ``--json`` last (the
    :class:`~knightgui_core.api_results.SymmetricCount`'s ``to_dict()``)."""
    from knightgui_core.api import symmetric_result
    from knightgui_core.studies.symmetric_count import run_symmetric
    from knightgui_core.tietree.counting.subtrees import CountError
    name = str(args.symmetry).strip().lower()
    if name not in NAMES:
        raise CliError(f"--symmetry: expected one of {', '.join(NAMES)}, "
                       f"got {str(args.symmetry)[:40]!r}")
    every_start(args, "--symmetry counts every tour")
    with open_study_store(args) as store:
        with cli_errors(CountError):
            res = run_symmetric(rows, cols, name, closed_only=args.closed_only,
                                board=None if board.is_classic else board,
                                runner=lambda tasks: run_study(
                                    args, tasks, f"{name} tours {rows}x{cols}", store=store,
                                    workers=workers))
    if res.cancelled:
        raise CliError("the count did not finish")
    for part in res.parts:
        print(f"{part['kind']:>6} {part['what']}: {part['tours']:,} "
              f"({part['nodes']:,} states)")
    for kind, why in res.reasons.items():
        print(f"{kind:>6} none: {why}")
    said = []
    if res.paths is not None:
        said.append(f"{res.paths:,} open paths")
    said.append(f"{res.closed:,} closed tours")
    print(f"{board.describe()}, {name}: {' and '.join(said)} that it maps onto themselves "
          f"({res.orbits} orbits); {res.seconds:.1f} s")
    if args.json:
        emit_json(symmetric_result(board, res).to_dict())
    return 0
