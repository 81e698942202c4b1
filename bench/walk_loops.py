"""The centre rule's walk on the knight's plane: its own loop (walk_kernel._greedy_centre) against
the keyed loop written once for every rule (walk_loop_kernel.keyed_walk on the padded board),
from a1, in one process, best of N runs (the machine is shared), with the load printed.

    .venv/bin/python bench/walk_loops.py [--repeat N]

Both must give the same tour; the ratio is why walk_kernel keeps its copy.
"""
from __future__ import annotations

import argparse
import os
import time

import numpy as np

from knightgui_core.board.tie_rule import TieRule
from knightgui_core.system.rng_kernel import new_state
from knightgui_core.walks import walk_kernel as w


def _median(fn, repeat: int) -> float:
    fn()
    ts = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return min(ts)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    code = int(TieRule.CENTER_FAR)
    pos = np.arange(8, dtype=np.int64)
    none = np.zeros(0, np.int8)
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}; "
          f"best of {a.repeat}")
    for n in (1000, 2000):
        path, ties = np.empty(n * n, np.int32), np.empty(n * n, np.uint8)
        p2, t2 = path.copy(), ties.copy()

        def own(n=n, path=path, ties=ties):
            return w.greedy_walk(n, n, 0, code, pos, 0, none, path, ties)

        def keyed(n=n, p2=p2, t2=t2):
            free, outlets, pscore, off = w._padded_state(n, n, none)
            cx2, cy2, metric = w.centre_of(code, n, n)
            return w._pad_keyed((off, n), free, outlets, pscore, np.int64(2 * (n + 4) + 2),
                                n * n, code, w.move_keys(code, pos), cx2, cy2, metric,
                                new_state(0, w.SALT), p2, t2)

        fa, fb = _median(own, a.repeat), _median(keyed, a.repeat)
        assert own() == keyed() == n * n and np.array_equal(path, p2)
        print(f"{n}×{n}: centre loop {fa * 1e3:.1f} ms, keyed loop {fb * 1e3:.1f} ms, "
              f"ratio {fb / fa:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
