"""``knightgui warmup``: compile the engine's kernels now, once, with a progress bar
(``make install`` runs it), instead of on each feature's first use."""
from __future__ import annotations

import sys
import time
from typing import Any


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
    """Run the warm-up; exit 0 (a stage that fails compiles on its first real use)."""
    from knightgui_core.warmup import default_jobs, warm_up

    say = _Progress(enabled=not args.quiet)
    seconds = warm_up(say, jobs=default_jobs() if args.jobs is None else max(1, args.jobs))
    say.close()
    if not args.quiet:
        print(f"knightgui: the engine is ready ({seconds:.1f} s)", file=sys.stderr)
    return 0


class _Progress:
    """``progress(done, total, name)``: a tqdm bar on a terminal, else one line a stage."""

    def __init__(self, enabled: bool = True):
        self.enabled = enabled
        self.tty = sys.stderr.isatty()
        self.bar: Any = None
        self.t0 = time.perf_counter()

    def __call__(self, done: int, total: int, name: str) -> None:
        if not self.enabled:
            return
        if not self.tty:
            if name:
                print(f"knightgui: preparing the engine — {done} of {total} ({name})",
                      file=sys.stderr, flush=True)
            return
        if self.bar is None:
            from tqdm import tqdm
            self.bar = tqdm(total=total, desc="preparing the engine", unit="stage",
                            file=sys.stderr, dynamic_ncols=True, leave=False)
        self.bar.set_postfix_str(name)
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
