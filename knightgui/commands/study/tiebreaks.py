"""``knightgui study tie-breaks``: greedy Warnsdorff success against board size, per tie rule."""
from __future__ import annotations

import sys

from knightgui.commands._common import CliError, cli_errors, emit_json, positive_int
from knightgui.commands.study.options import add_runner_options, run_study


def add_parser(studies) -> None:
    """``knightgui study tiebreaks``: the greedy walk of every tie rule for n = 5 … N."""
    p = studies.add_parser(
        "tie-breaks", help="greedy Warnsdorff success on n×n boards, per tie rule",
        description="For each tie rule (and the construction when available) and every n×n "
                    "board from --min to --max: does the greedy walk (no backtracking) "
                    "complete from the chosen start squares?")
    p.add_argument("--max", dest="n_max", default="200", help="largest side (default 200, "
                   "at most 2000)")
    p.add_argument("--min", dest="n_min", default="5", help="smallest side (default 5)")
    p.add_argument("--rules", default=None, help="comma-separated rules (default: every tie "
                   "rule of 'knightgui solve --tie', and construction when available)")
    p.add_argument("--starts", default="corner",
                   help="start set: corner (a1, default), corners, all, sample")
    p.add_argument("--sample", default="16", help="squares per size for --starts sample")
    p.add_argument("--seed", default="0", help="seed for the random rules and the sample")
    p.add_argument("--trials", default="1", help="seeds per size for the rules with random "
                   "ties (random, pohl-random, center-far-random): seed, seed+1, ...; the "
                   "success rate per n then has a 95%% Wilson interval")
    p.add_argument("--order", default="12345678", help="move order for the order-based rules")
    p.add_argument("--csv", default=None, metavar="FILE", help="write the table: rule,n,"
                   "starts,completed,success_rate,first_failed_start,visited")
    p.add_argument("--png", default=None, metavar="FILE", help="draw the success plot (as "
                   "in the window's Analysis view) to FILE.png")
    p.add_argument("--table", action="store_true", help="include the per-size table in --json")
    p.add_argument("--json", action="store_true", help="print one JSON object as the last line")
    add_runner_options(p)
    p.set_defaults(func=run)


def run(args) -> int:
    """Run the tie-break study and print its table; ``--json``: the
    :class:`~knightgui_core.api_results.TieBreakStudy`'s ``to_dict()``."""
    import time

    from knightgui_core.api import tie_break_result
    from knightgui_core.studies.tiebreaks import (
        N_MAX_LIMIT,
        START_SETS,
        TRIALS_LIMIT,
        TieBreakError,
        assemble,
        plan_study,
        runner_tasks,
        with_exact,
    )
    n_max = positive_int("--max", args.n_max, 1, N_MAX_LIMIT)
    n_min = positive_int("--min", args.n_min, 1, N_MAX_LIMIT)
    if n_min > n_max:
        raise CliError(f"--min ({n_min}) is larger than --max ({n_max})")
    sample = positive_int("--sample", args.sample, 1, 1_000_000)
    seed = positive_int("--seed", args.seed, 0, 2**48)
    trials = positive_int("--trials", args.trials, 1, TRIALS_LIMIT)
    if args.starts not in START_SETS:
        raise CliError(f"--starts must be one of {', '.join(START_SETS)}, got '{args.starts}'")
    rules = None
    if args.rules is not None:
        rules = [r.strip() for r in str(args.rules).split(",") if r.strip()]
        if not rules:
            raise CliError("--rules is empty")
    if args.csv is not None and not str(args.csv).lower().endswith(".csv"):
        raise CliError(f"--csv must name a .csv file, got '{args.csv}'")
    if args.png is not None and not str(args.png).lower().endswith(".png"):
        raise CliError(f"--png must name a .png file, got '{args.png}'")
    with cli_errors(TieBreakError, prefix="knightgui study tie-breaks: "):
        plan = plan_study(n_max, n_min=n_min, rules=rules, starts=args.starts, sample=sample,
                          seed=seed, order=args.order, trials=trials)
    t0 = time.perf_counter()
    report = run_study(args, runner_tasks(plan), f"tie-breaks {n_min}..{n_max}")
    res = with_exact(assemble(plan, [report.results.get(t.key()) for t in plan.tasks],
                              time.perf_counter() - t0, report.tasks_json()))
    if args.csv:
        try:
            res.save_csv(args.csv)
        except OSError as e:
            raise CliError(f"cannot write {args.csv}: {e.strerror or e}") from None
    if args.png:
        from knightgui.export import save_success_png
        try:
            save_success_png(res, args.png)
        except OSError as e:
            raise CliError(f"cannot write {args.png}: {e.strerror or e}") from None
    if args.json:
        emit_json(tie_break_result(res, n_min, n_max, table=args.table).to_dict())
    else:
        _print_report(res)
    return 0


def _print_report(res) -> None:
    out = sys.stdout
    n0, n1 = int(res.sizes[0]), int(res.sizes[-1])
    what = {"corner": "from a1", "corners": "from the four corners",
            "all": "from every square", "sample": f"from {res.sample} sampled squares per size"}
    out.write(f"Greedy Warnsdorff on n×n, n = {n0}..{n1}, {what[res.starts]}, order "
              f"{res.order}, seed {res.seed}\n")
    out.write(f"  {'rule':<18}{'walks':>10}{'complete':>10}{'rate':>9}  first failing n\n")
    for rule, s in res.summary().items():
        rate = f"{100 * s.success_rate:.2f}%" if s.success_rate is not None else "-"
        ff = s.first_failure
        where = (f"{ff.n} (from {ff.start}: {ff.visited:,} of {ff.squares:,} "
                 "squares)") if ff else "none"
        out.write(f"  {rule:<18}{s.walks:>10,}{s.completed:>10,}{rate:>9}  {where}\n")
        bad = s.failing_n
        if len(bad) > 1:
            more = f" ... ({len(bad)} sizes)" if len(bad) > 12 else ""
            out.write(f"  {'':<18}failing n: {', '.join(map(str, bad[:12]))}{more}\n")
    if res.exact_random and "random" in res.rules:
        by_n = res.by_n("random")
        cells = []
        for n, p in sorted(res.exact_random.items()):
            got = by_n.get(n)
            if got is not None:
                lo, hi = got.ci95
                cells.append(f"{n}: {100 * got.success_rate:.1f}% "
                             f"[{100 * lo:.1f}, {100 * hi:.1f}] vs exact {100 * p:.2f}%")
        if cells:
            out.write(f"  {'random':<18}measured vs exact (count study): " + "; ".join(cells)
                      + "\n")
    left = int(res.left_out.max(axis=0).sum()) if res.left_out.size else 0
    if left:
        out.write(f"  {left:,} start squares left out: no open tour starts there (odd n: the "
                  "minority colour)\n")
    out.write(f"  {res.seconds:.2f} s{'' if res.complete else ' (cancelled)'}\n")
