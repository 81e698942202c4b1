"""Window benchmarks (offscreen): first frame, redraws, numbers, stepping.

    .venv/bin/python bench/gui.py [--runs N]
    .venv/bin/python bench/gui.py --keep     # only: window keeps solutions vs engine counts
    .venv/bin/python bench/gui.py --new-only # only: stepping through new tours only
    .venv/bin/python bench/gui.py --watch    # only: Watch on 100×100, frames a second

Prints each figure with its target and the ratio figure/target (below 1 = within target);
exit status 1 when one is missed. Medians after a warm-up; the machine is shared, so spread
is reported too.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _gui_common import quiet_offscreen_notices, report, timed
from _gui_window import keep_only, keep_rate, main_window, new_only_steps, p95, step_times, watch_fps
from _targets import verdict

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent


def first_frame(runs: int) -> list[float]:
    """Process start to the board's first paint event, in ms (warm numba cache)."""
    env = dict(os.environ, KNIGHTGUI_FIRST_FRAME="1")
    cfg = tempfile.mkdtemp()
    env["XDG_CONFIG_HOME"] = cfg           # fresh settings: the default 8×8 window
    out = []
    for i in range(runs + 1):
        t0 = time.time()
        r = subprocess.run([sys.executable, "-c", "from knightgui.app import main; main([])"],
                           env=env, capture_output=True, text=True, timeout=120, cwd=ROOT)
        line = next((ln for ln in r.stdout.splitlines() if ln.startswith("FIRST_FRAME")), None)
        if line is None:
            raise SystemExit(f"no first frame reported:\n{r.stdout}\n{r.stderr}")
        if i:  # the first run warms the OS file cache
            out.append((float(line.split()[1]) - t0) * 1000)
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--keep", action="store_true",
                    help="only the exhaustive-mode line (window keeps solutions vs engine)")
    ap.add_argument("--new-only", action="store_true",
                    help="only the 'new tours only' stepping lines")
    ap.add_argument("--watch", action="store_true", help="only the Watch lines")
    a = ap.parse_args()
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    if a.keep:
        return keep_only()
    if a.new_only:
        return keep_only(new_only_steps)
    if a.watch:
        return keep_only(watch_fps)
    report("process start → first painted frame", first_frame(max(a.runs // 2, 3)), 1000)

    from PySide6.QtWidgets import QApplication
    app = QApplication(sys.argv[:1])
    quiet_offscreen_notices()
    from knightgui.board.view import BoardView
    from knightgui_core.walks.solve import solve

    view = BoardView()
    view.resize(800, 800)
    view.show()
    app.processEvents()
    vp = view.viewport()

    for n, tie, target_new, target_paint in ((100, "first", 10, 10),
                                              (1000, "center-far", 50, 50)):
        res = solve(n, n, start="1,1", tie=tie)
        assert res.ok, res.message
        path = res.path
        view.set_board(n, n)

        def new_tour(path=path):
            view.set_tour(path, False)
            vp.repaint()

        report(f"{n}×{n}: new tour shown (set + paint)", timed(new_tour, a.runs), target_new)
        report(f"{n}×{n}: repaint (pan/zoom frame)", timed(vp.repaint, a.runs), target_paint)

    # 2000×2000 zoomed in: each pan frame finds its visible segments through move numbers
    res = solve(2000, 2000, start="1,1")
    view.set_tour(res.path, False, rows=2000, cols=2000)
    pos = [0]

    def pan():
        pos[0] = (pos[0] + 7) % 1900
        view.vb.setRange(xRange=(pos[0], pos[0] + 40), yRange=(pos[0], pos[0] + 40), padding=0)
        vp.repaint()
    report("2000×2000 zoomed to 40×40: pan frame", timed(pan, a.runs), 50)

    # 100×100 with every move number legible: a view large enough for 5-digit numbers
    res = solve(100, 100, start="1,1", tie="first")
    big = BoardView()
    big.resize(2300, 2300)
    big.show()
    big.set_tour(res.path, False, rows=100, cols=100)
    big.vb.setRange(xRange=(0, 100), yRange=(0, 100), padding=0)
    app.processEvents()
    big.viewport().repaint()
    shown = big.numbers_item.last_painted
    report(f"100×100, all {shown:,} numbers painted", timed(big.viewport().repaint, a.runs), 150)
    big.close()

    # options matrix with 10,000 rows: fill, then scroll page by page (each step painted)
    import numpy as np

    from knightgui.panels.options_matrix import OptionsMatrixView
    mv = OptionsMatrixView()
    mv.resize(420, 700)
    mv.show()
    app.processEvents()
    rng = np.random.default_rng(1)
    mo = np.zeros((10_001, 8), dtype=np.int8)
    rows = rng.choice(np.arange(1, 10_001), 1500, replace=False)
    mo[rows, 1] = rng.integers(1, 9, len(rows))
    names = [f"{i % 100 + 1},{i // 100 + 1}" for i in range(10_000)]
    branch = [5_000]

    def set_and_paint():
        branch[0] = 5_000 + (branch[0] + 37) % 200        # another solution, another branch
        mv.show_matrix(mo, branch[0], names)
        mv.table.viewport().repaint()

    report("options matrix: 10,000 rows set + painted (wall)", timed(set_and_paint, 30), 16)
    cpu = []
    for _ in range(30):
        c0 = time.process_time()
        set_and_paint()
        cpu.append((time.process_time() - c0) * 1000)
    report("options matrix: 10,000 rows set + painted (CPU time)", cpu, 16)
    bar = mv.table.verticalScrollBar()
    assert bar.maximum() > 1000, bar.maximum()

    def page():
        bar.setValue((bar.value() + bar.pageStep()) % max(bar.maximum(), 1))
        app.processEvents()
    report("options matrix: 10,000 rows, one page scrolled", timed(page, 50), 16)
    mv.close()

    # stepping: hold Right through the first 1,981 solutions of a8→c7
    w = main_window(app)
    c = w.controls
    c.mode.setCurrentIndex(c.mode.findData("exhaustive"))
    c.closed.setChecked(True)
    c.start.setText("a8")
    c.start.editingFinished.emit()
    c.end.setCurrentIndex(c.end.findText("c7"))
    runs = []
    for _ in range(max(1, a.runs)):
        t0 = time.monotonic()
        w.solve()
        while w.results.running and time.monotonic() - t0 < 120:
            app.processEvents()
            time.sleep(0.001)
        runs.append(time.monotonic() - t0)
        app.processEvents()
    kept = len(w.results.store)
    med = sorted(runs)[len(runs) // 2]
    print(f"{'window: a8→c7, every solution found and kept':<46} {med * 1000:8.1f} ms median "
          f"= {kept / med:,.0f} solutions/s ({kept:,} kept for stepping)")
    cpu = []
    steps = step_times(app, w.act.next, 1980, cpu)    # what the Right key does, repainted
    assert w.results.current == 1980
    report("8×8 step: next solution painted (wall)", steps, 16)
    report("8×8 step: next solution painted (CPU time)", cpu, 16)
    print(f"{'':<46} wall p95 {p95(steps):.2f} ms over {len(steps)} steps")
    keep_rate(w, app)
    new_only_steps(w, app)
    w.close()
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
