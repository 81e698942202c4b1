"""What the window benchmarks share (bench/gui.py and its window runs): quiet offscreen
notices, timing a call, printing a figure beside its target (checked: bench/_targets.py)."""
from __future__ import annotations

import statistics
import sys
import time

from _targets import check

#: what the offscreen platform says on every resize or raise: not the window's fault
BENIGN_QT = ("propagateSizeHints", "does not support raise()")


def quiet_offscreen_notices() -> None:
    """Drop the offscreen platform's notices (thousands of lines over a run); keep the rest."""
    from PySide6.QtCore import qInstallMessageHandler

    def handler(_mode, _ctx, msg: str) -> None:
        if not any(b in msg for b in BENIGN_QT):
            sys.stderr.write(msg + "\n")
    qInstallMessageHandler(handler)


def report(name, values_ms, target_ms):
    """Print the median of ``values_ms`` with its spread, checked against ``target_ms``."""
    med = statistics.median(values_ms)
    lo, hi = min(values_ms), max(values_ms)
    print(f"{name:<46} median {med:8.2f} ms  (min {lo:.2f}, max {hi:.2f}, n={len(values_ms)})"
          f"  target ≤ {target_ms:g} ms  ratio {med / target_ms:.2f} "
          f"[{check(name, med <= target_ms)}]")
    return med


def timed(fn, runs: int) -> list[float]:
    fn()
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out
