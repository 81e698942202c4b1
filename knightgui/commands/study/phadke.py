"""``knightgui study phadke``: Phadke's 1981 study of the closed 8×8 tour (docs/spec.md §6).

    knightgui study phadke --family strict            # 53 runs: 989,931 solutions
    knightgui study phadke --family all --out results # all 22,432 runs, CSV tables
    knightgui study phadke --family all --store results.sqlite --scheduler tcp://HOST:8786
"""
from __future__ import annotations

from knightgui.commands._common import CliError, cli_errors, emit_json, positive_int
from knightgui.commands.study.options import add_runner_options, open_study_store, run_study


def add_parser(studies) -> None:
    """``knightgui study phadke``: Phadke's algorithm families and their tour counts."""
    p = studies.add_parser("phadke", help="Phadke's exhaustive study: 53 start/end "
                           "combinations, up to 22,432 algorithms, counts beside the paper's")
    p.add_argument("--family", default="strict",
                   choices=("strict", "cd", "semi", "ecd", "xcd", "all"),
                   help="strict (53 runs), cd (736, full corner dash, includes strict), semi "
                   "(10,144), ecd (256 + 1,792 semi), xcd (1,224 + 8,280 semi), all (22,432)")
    p.add_argument("--out", metavar="DIR", help="write algorithms.csv, combos.csv (Table 1), "
                   "starts.csv (Table 2) and families.csv into DIR")
    p.add_argument("--workers", help="cores of this machine to use (default: all)")
    add_runner_options(p)
    p.add_argument("--checkpoint", metavar="FILE", help="an old JSON checkpoint of earlier "
                   "versions: read once into the --store file (which replaces it)")
    p.add_argument("--distinct", action="store_true",
                   help="also count the different cycles per family: the tours its algorithms "
                        "find, the same cycle found by several algorithms counted once, up to "
                        "the board's symmetries, and on the full board")
    p.add_argument("--json", action="store_true", help="last stdout line: one JSON object")
    p.set_defaults(func=run)


def _import_checkpoint(path: str, store) -> None:
    from knightgui_core.run.store import StoreError
    from knightgui_core.studies.phadke.runner import import_checkpoint
    from knightgui_core.system.files import FileRefused
    try:
        n = import_checkpoint(path, store)
    except FileRefused as e:           # its sentence names the file
        raise CliError(f"--checkpoint: {e}") from None
    except OSError as e:
        raise CliError(f"--checkpoint: cannot read {path}: {e.strerror or e}") from None
    except ValueError as e:
        raise CliError(f"--checkpoint: {path}: {e}") from None
    except StoreError as e:
        raise CliError(f"--store: {e}") from None
    import sys
    print(f"read {n:,} finished algorithms from the checkpoint {path} into the store "
          f"{store.path}; from now on --store {store.path} alone resumes", file=sys.stderr)


def _distinct(algos) -> dict:
    """``--distinct``: per family of ``algos``, the cycles its algorithms find (printed, and
    returned for ``--json``: the :class:`~knightgui_core.studies.distinct.DistinctCounts`)."""
    from knightgui_core.studies.distinct import DistinctError, distinct_of_algorithms
    out = {}
    for family in dict.fromkeys(a.family for a in algos):
        with cli_errors(DistinctError, prefix="--distinct: "):
            r = distinct_of_algorithms([a for a in algos if a.family == family])
        out[family] = r
        print(f"{family}: {r.tours:,} tours, {r.distinct:,} different cycles, "
              f"{r.distinct_up_to_symmetry:,} up to symmetry; full board "
              f"{r.distinct_full:,} different cycles ({r.seconds:.1f} s)")
    return out


def run(args) -> int:
    """Count the tours of the chosen families (``--distinct``: how many are different);
    ``--json``: the :class:`~knightgui_core.api_results.PhadkeStudy`'s ``to_dict()``."""
    from knightgui_core.api import phadke_result
    from knightgui_core.studies import phadke as P
    from knightgui_core.studies.phadke.runner import counts_of, phadke_tasks
    from knightgui_core.studies.phadke.tables import export_csv, format_families
    workers = None if args.workers is None else positive_int("--workers", args.workers, 1, 256)
    if args.checkpoint is not None and args.store is None:
        raise CliError("--checkpoint is replaced by --store FILE (SQLite); give both once to "
                       "read the old checkpoint into the store")
    algos = P.algorithms(args.family)
    with open_study_store(args) as store:
        if args.checkpoint is not None:
            _import_checkpoint(args.checkpoint, store)
        report = run_study(args, phadke_tasks(algos), f"phadke {args.family}", store=store,
                           workers=workers)
    wanted = {a.id for a in algos}
    res = P.StudyResult(algos)
    res.counts = {i: c for i, c in counts_of(report).items() if i in wanted}
    res.seconds = report.seconds
    print(format_families(res))
    print(f"{len(res.counts):,} algorithms in {res.seconds:.1f} s ({report.from_store:,} of "
          f"{report.total:,} tasks from the store)")
    if args.out:
        try:
            paths = export_csv(res, args.out)
        except OSError as e:
            raise CliError(f"--out: cannot write {args.out}: {e.strerror or e}") from None
        print("wrote " + ", ".join(str(p) for p in paths))
    distinct = _distinct(algos) if args.distinct else {}
    if args.json:
        emit_json(phadke_result(args.family, res, report.tasks_json(), distinct).to_dict())
    return 0
