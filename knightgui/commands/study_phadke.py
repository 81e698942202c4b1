"""``knightgui study phadke``: Phadke's 1981 study of the closed 8×8 tour (docs/spec.md §6).

    knightgui study phadke --family strict            # 53 runs: 989,931 solutions
    knightgui study phadke --family all --out results # all 22,432 runs, CSV tables
"""
from __future__ import annotations

from ._common import CliError, Progress, emit_json, positive_int


def add_parser(studies) -> None:
    p = studies.add_parser("phadke", help="Phadke's exhaustive study: 53 start/end "
                           "combinations, up to 22,432 algorithms, counts beside the paper's")
    p.add_argument("--family", default="strict",
                   choices=("strict", "cd", "semi", "ecd", "xcd", "all"),
                   help="strict (53 runs), cd (736, full corner dash, includes strict), semi "
                   "(10,144), ecd (256 + 1,792 semi), xcd (1,224 + 8,280 semi), all (22,432)")
    p.add_argument("--out", metavar="DIR", help="write algorithms.csv, combos.csv (Table 1), "
                   "starts.csv (Table 2) and families.csv into DIR")
    p.add_argument("--workers", help="threads (default: one per CPU)")
    p.add_argument("--checkpoint", metavar="FILE", help="save finished algorithms to FILE and "
                   "skip them when the same command runs again")
    p.add_argument("--json", action="store_true", help="last stdout line: one JSON object")
    p.set_defaults(func=run)


def run(args) -> int:
    from knightgui_core.studies import phadke as P
    from knightgui_core.studies.phadke_tables import export_csv, family_totals, format_families
    workers = None if args.workers is None else positive_int("--workers", args.workers, 1, 256)
    algos = P.algorithms(args.family)
    bar = Progress(f"phadke {args.family}", total=len(algos))
    try:
        res = P.run(algos, workers=workers, checkpoint=args.checkpoint,
                    progress=lambda d, t, s: bar(d, t, f"{s:,} solutions"))
    except OSError as e:
        raise CliError(f"--checkpoint: {e}") from None
    finally:
        bar.close()
    print(format_families(res))
    print(f"{len(res.counts):,} algorithms in {res.seconds:.1f} s")
    if args.out:
        try:
            paths = export_csv(res, args.out)
        except OSError as e:
            raise CliError(f"--out: cannot write {args.out}: {e.strerror or e}") from None
        print("wrote " + ", ".join(str(p) for p in paths))
    if args.json:
        out = {"family": args.family, "seconds": round(res.seconds, 3)}
        for r in family_totals(res):
            rec = {"algorithms": r["algorithms"], "solutions": r["solutions"],
                   "paper_solutions": r["paper_solutions"],
                   "paper_algorithms": r["paper_algorithms"]}
            if "full_board" in r:
                rec["full_board"] = r["full_board"]
                rec["paper_full_board"] = r["paper_full_board"]
            out[r["family"]] = rec
        emit_json(out)
    return 0
