"""The tie-tree search's uses side by side: this checkout's engine against another copy of
``core/`` (an earlier revision), in one run, alternating, best of N CPU seconds (the machine
is shared: CPU time moves less with the load than wall time), with the load printed.

    git archive REV core | tar -x -C DIR
    .venv/bin/python bench/tietree_loops.py --before DIR [--repeat N]

Each case runs in a fresh process per tree and per round (``knightgui_core`` imported from
that tree), its kernels compiled and run once before the clock:

* ``count``: the search alone to the end (8×8 open from each square of the first two rows:
  bitboard and array state);
* ``keep``: the window's use, the first solutions written as changes
  (``Enumerator.block_compact``: 9×9 a1 open on the array state, 8×8 a1 open on bitboards);
* ``stream``: whole paths in blocks (``solution_blocks``: 9×9 a1, 8×8 a1);
* ``collect``: paths with their options matrices (``Enumerator.first``, 8×8 a8→c7 and 9×9);
* ``options``: options matrices rebuilt from the paths (``OptionsReplay.matrix``).

Without ``--before`` only this checkout is measured.
"""
from __future__ import annotations

import argparse
import os

from _trees import before_after, best_of, run_child, timing_row

CHILD = r"""
case, n = sys.argv[2], int(sys.argv[3])
try:
    from knightgui_core.tietree.enumeration.enumerator import Enumerator
    from knightgui_core.tietree.enumeration.solution_writer import solution_blocks
except ImportError:   # a revision from before tietree/ was split into rooms
    from knightgui_core.tietree.enumerator import Enumerator
    from knightgui_core.tietree.solution_writer import solution_blocks

def make(case):
    kind, board = case.split(":")
    rows, cols, start, end, bits = {
        "8x8c7": (8, 8, "a8", "c7", True), "8x8c7a": (8, 8, "a8", "c7", False),
        "8x8": (8, 8, "a1", None, True), "8x8a": (8, 8, "a1", None, False),
        "9x9": (9, 9, "a1", None, False)}[board]
    new = lambda: Enumerator(rows, cols, start, end, bits=bits)
    if kind == "count":   # the first two rows' starts, one after another
        engines = [Enumerator(rows, cols, f"{f}{r}", end, bits=bits).engine
                   for f in "abcdefgh" for r in (1, 2)]
        return lambda: sum(int(e.count()[0]) for e in engines)
    if kind == "keep":
        return lambda: len(new().block_compact(n, key_every=16))
    if kind == "stream":
        return lambda: sum(len(b) for _, b, _ in solution_blocks(new(), block=4096, limit=n))
    if kind == "collect":
        return lambda: len(new().first(n))
    if kind == "options":
        en = new()
        paths = [s.path for s in en.first(n)]
        rep = en.options_replay()
        return lambda: sum(int(rep.matrix(p)[1:, 0].sum() >= 0) for p in paths)
    raise SystemExit(case)

fn = make(case)
fn()
t, c = time.perf_counter(), time.process_time()
got = fn()
print(json.dumps({"seconds": time.perf_counter() - t, "cpu": time.process_time() - c,
                  "result": got}))
"""

CASES = [("count:8x8", 0), ("count:8x8a", 0), ("keep:9x9", 1_000_000),
         ("keep:8x8", 1_000_000), ("keep:8x8a", 300_000), ("stream:9x9", 1_000_000),
         ("stream:8x8", 1_000_000), ("collect:8x8c7", 1981), ("collect:9x9", 20_000),
         ("options:8x8", 5_000), ("options:9x9", 5_000)]


def run(root: str, case: str, n: int) -> dict:
    return run_child(CHILD, root, case, str(n))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", help="a folder holding another revision's core/")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", help="cases whose name contains this text")
    a = ap.parse_args()
    trees = before_after(a)
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}; best of {a.repeat}")
    print(f"{'case':16} {'n':>9} " + " ".join(f"{t:>10}" for t, _ in trees)
          + ("  ratio" if a.before else ""))
    for case, n in CASES:
        if a.only and a.only not in case:
            continue
        best, _ = best_of(trees, a.repeat, case,
                          lambda root, case=case, n=n: run(root, case, n))
        print(f"{case:16} {n:>9,} {timing_row(best, trees, True)}", flush=True)
    print(f"load average at the end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
