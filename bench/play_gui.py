"""Play mode: does the GUI thread stay live while "Can it be finished?" counts?

Opens the window offscreen in play mode on 8×8, plays a1, asks for the count of every
finish (63 free squares: it runs the whole budget on the solver thread) and meanwhile
counts the ticks of a 10 ms QTimer on the GUI thread. Prints the ticks, the longest gap
between two of them, and how long the next move took to cancel the count.

    .venv/bin/python bench/play_gui.py [--budget SECONDS]
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=int, default=3, help="seconds the count runs (1..600)")
    args = ap.parse_args()
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication
    app = QApplication(sys.argv)
    from knightgui import settings
    settings.use_folder(tempfile.mkdtemp())
    from knightgui.window.main import MainWindow
    w = MainWindow(restore_settings=False)
    w.show()
    w.controls.model.update(mode="play")
    w.controls.play_box.budget.setValue(args.budget)
    w.view.squareClicked.emit(0, False)                  # a1
    ticks: list[float] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start(10)
    t0 = time.perf_counter()
    w.play.ask()
    while time.perf_counter() - t0 < args.budget * 0.8:
        app.processEvents()
        time.sleep(0.002)
    c0 = time.perf_counter()
    w.view.squareClicked.emit(w.play.model.board.parse("b3"), False)   # cancels the count
    while w.worker.busy_gen != 0 and time.perf_counter() - c0 < 10:
        app.processEvents()
        time.sleep(0.001)
    cancelled = time.perf_counter() - c0
    timer.stop()
    gaps = [b - a for a, b in zip(ticks, ticks[1:])]
    print(f"count ran {c0 - t0:.2f} s on the solver thread; GUI timer: {len(ticks)} ticks of "
          f"10 ms, longest gap {max(gaps) * 1000:.0f} ms; the next move stopped the count "
          f"in {cancelled * 1000:.0f} ms")
    w.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
