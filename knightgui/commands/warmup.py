"""``knightgui warmup``: compile the engine's kernels now, once, with a progress bar
(``make install`` runs it), instead of on each feature's first use."""
from __future__ import annotations

import sys

from knightgui.commands._common import Activity


def add_parser(sub) -> None:
    """``knightgui warmup``: every stage of the engine's warm-up."""
    p = sub.add_parser("warmup", help="compile the engine's kernels now (once, about a minute)",
                       description="Compile (or load from the cache) every kernel of the "
                                   "engine, stage by stage, as the window does in the "
                                   "background on its first start. The kernels are cached: "
                                   "later runs load them in seconds. Progress on stderr.")
    p.add_argument("--quiet", "-q", action="store_true", help="print nothing")
    p.add_argument("--jobs", "-j", type=int, default=None, metavar="N",
                   help="processes that compile at once (default: one per core, at most 4)")
    p.set_defaults(func=run)


def run(args) -> int:
    """Run the warm-up; exit 0 (a stage that fails compiles on its first real use). Progress:
    a bar on a terminal, else one line a stage."""
    from knightgui_core.warmup import default_jobs, warm_up
    act = Activity(quiet=args.quiet)
    opened: list[int] = []

    def progress(done: int, total: int, name: str) -> None:
        if not act.tty:
            if name:
                act.say(f"knightgui: preparing the engine — {done} of {total} ({name})",
                        always=True)
            return
        if not opened:
            act.start("preparing the engine", total, unit="stage")
            opened.append(total)
        act.show(done, name)
    seconds = warm_up(progress, jobs=default_jobs() if args.jobs is None else max(1, args.jobs))
    act.close()
    if not args.quiet:
        print(f"knightgui: the engine is ready ({seconds:.1f} s)", file=sys.stderr)
    return 0
