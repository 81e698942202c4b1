"""Make the guide's screenshots in docs/guide/img from the real window on an X server, at the
default window size (1280×820): 8×8 with numbers and the options matrix, 100×100 (and its
corner zoomed in), 1000×1000 in colour mode, the Analysis view's two pages, and
(docs/guide/boards-and-pieces.md) a zebra's closed tour of 10×10 and a knight's closed tour
of the 8×8 torus.

    Xvfb :96 -screen 0 1280x820x24 &
    DISPLAY=:96 .venv/bin/python bench/_gui_screenshots.py [--only leapers]

Each picture is taken from the X server's framebuffer (``QScreen.grabWindow``), so it is what
the window shows there. Look at each before committing."""
from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtWidgets import QApplication  # noqa: E402

DOCS = Path(__file__).resolve().parent.parent / "docs" / "guide" / "img"


def wait(app, cond, timeout=120.0):
    t0 = time.monotonic()
    while not cond():
        if time.monotonic() - t0 > timeout:
            raise SystemExit("timed out")
        app.processEvents()
        time.sleep(0.005)


def shoot(app, window, name: str) -> None:
    """Save what the X server shows of ``window`` as docs/guide/img/<name>."""
    for _ in range(20):
        app.processEvents()
        time.sleep(0.01)
    img = app.primaryScreen().grabWindow(window.winId())
    if img.isNull() or not img.save(str(DOCS / name)):
        raise SystemExit(f"could not take {name}")
    print(f"{name}: {img.width()}×{img.height()}")


def leapers(app, w) -> None:
    """docs/guide/boards-and-pieces.md: the zebra's closed tour of 10×10 and the knight's of the 8×8 torus,
    from a1 with Phadke's tie rule (auto: the rule's walk, then the searches)."""
    c = w.controls
    c.mode.setCurrentIndex(c.mode.findData("single"))
    c.method.setCurrentIndex(c.method.findText("auto"))
    c.tie.setCurrentIndex(c.tie.findData("phadke"))
    for topology, leaper, n, name in (("plane", "2,3", 10, "window-zebra-10x10.png"),
                                      ("torus", "1,2", 8, "window-torus-8x8.png")):
        c.model.update(rows=n, square=True, closed=True, start="a1", topology=topology,
                       leaper=leaper)
        w.solve()
        wait(app, lambda: not w.results.running)
        w.set_view_options(colour="checker")
        w.view.fit()
        shoot(app, w, name)


def main() -> int:
    if not os.environ.get("DISPLAY"):
        print("needs an X server: Xvfb :96 -screen 0 1280x820x24 & then DISPLAY=:96 …",
              file=sys.stderr)
        return 2
    os.environ["QT_QPA_PLATFORM"] = "xcb"
    from knightgui.settings import use_folder
    use_folder(tempfile.mkdtemp())
    app = QApplication(sys.argv[:1])
    app.setApplicationDisplayName("knightgui")
    from knightgui.window.main import MainWindow
    w = MainWindow(restore_settings=False)      # the default size, 1280×820
    w.move(0, 0)
    w.show()
    app.processEvents()
    c = w.controls
    if "--only" in sys.argv and sys.argv[-1] == "leapers":
        leapers(app, w)
        w.close()
        return 0

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
    shoot(app, w, "window-8x8-options-matrix.png")

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
    shoot(app, w, "window-100x100.png")
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
    shoot(app, w, "window-1000x1000-colour.png")

    # 4. the Analysis view: the 8×8 move-order analysis, the tie-break study up to n = 200
    a = w.open_analysis()
    a.move(0, 0)
    page = a.show_page("Move orders")
    page.size_spin.setValue(8)
    page.run_orders()
    wait(app, lambda: not a.running, timeout=600)
    page._worst_clicked(0, 1)                                 # noqa: SLF001 - as a click
    shoot(app, a, "analysis-move-orders.png")
    page = a.show_page("Tie-breaks")
    page.nmax_spin.setValue(200)
    page.run_tiebreaks()
    wait(app, lambda: not a.running, timeout=600)
    shoot(app, a, "analysis-tie-breaks.png")
    a.close()
    leapers(app, w)
    w.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
