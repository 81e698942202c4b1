"""Make the README screenshots under docs/ (offscreen): 8×8 with numbers and the options
matrix, 100×100, 1000×1000 in colour mode.  Run: .venv/bin/python bench/_gui_screenshots.py"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

DOCS = Path(__file__).resolve().parent.parent / "docs"


def wait(app, cond, timeout=120.0):
    t0 = time.monotonic()
    while not cond():
        if time.monotonic() - t0 > timeout:
            raise SystemExit("timed out")
        app.processEvents()
        time.sleep(0.005)


def main() -> int:
    QSettings.setDefaultFormat(QSettings.IniFormat)
    QSettings.setPath(QSettings.IniFormat, QSettings.UserScope, tempfile.mkdtemp())
    app = QApplication(sys.argv[:1])
    from knightgui.main_window import MainWindow
    w = MainWindow(restore_settings=False)
    w.show()
    w.resize(1500, 930)
    app.processEvents()
    c = w.controls
    DOCS.mkdir(exist_ok=True)

    # 1. 8×8 exhaustive a8→c7, solution 3 (branched at 54), numbers + options matrix
    c.mode.setCurrentIndex(c.mode.findData("exhaustive"))
    c.closed.setChecked(True)
    c.start.setText("a8")
    c.start.editingFinished.emit()
    c.end.setCurrentIndex(c.end.findText("c7"))
    w.solve()
    wait(app, lambda: not w.results.running)
    w.results.jump(3)
    app.processEvents()
    w.grab().save(str(DOCS / "window-8x8-options-matrix.png"))

    # 2. 100×100 single tour (colour by move number, path on top)
    c.mode.setCurrentIndex(c.mode.findData("single"))
    c.closed.setChecked(False)
    c.rows.setValue(100)
    c.tie.setCurrentIndex(c.tie.findData("first"))     # plain Warnsdorff succeeds from 1,1
    c.start.setText("1,1")
    c.start.editingFinished.emit()
    w.solve()
    wait(app, lambda: not w.results.running)
    app.processEvents()
    w.grab().save(str(DOCS / "window-100x100.png"))
    # the same tour zoomed in: move numbers appear where they are legible
    w.set_view_options(colour="checker")
    w.view.vb.setRange(xRange=(-1, 16), yRange=(-1, 16), padding=0)
    app.processEvents()
    w.view.grab().save(str(DOCS / "board-100x100-zoom.png"))
    w.set_view_options(colour="auto")

    w.view.fit()
    # 3. 1000×1000 Warnsdorff tour (Roth's centre-far tie-break) in colour mode
    c.rows.setValue(1000)
    c.tie.setCurrentIndex(c.tie.findData("center-far"))
    c.method.setCurrentIndex(c.method.findText("greedy"))   # auto would construct above 500×500
    w.solve()
    wait(app, lambda: not w.results.running)
    w.set_view_options(colour="moves")
    w.view.fit()
    app.processEvents()
    w.grab().save(str(DOCS / "window-1000x1000-colour.png"))
    w.close()
    print("wrote", *sorted(p.name for p in DOCS.glob("*.png")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
