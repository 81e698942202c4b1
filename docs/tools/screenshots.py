"""The user guide's new screenshots, from the real window on an X server at its default size.

    Xvfb :98 -screen 0 1280x820x24 &
    DISPLAY=:98 .venv/bin/python docs/tools/screenshots.py

Writes docs/guide/img/{first-start,export-dialog,solution-1981,watch,window-frontier-plot}.png
(`--only export`: the first two; `--only frontier`: the last) (the other pictures of the guide
come from bench/_gui_screenshots.py and bench/_play_screenshots.py). Each picture is what the
X server shows of the window (``QScreen.grabWindow``); look at each before committing."""
from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

IMG = Path(__file__).resolve().parents[1] / "guide" / "img"


def main() -> int:
    if not os.environ.get("DISPLAY"):
        print("needs an X server: Xvfb :98 -screen 0 1280x820x24 & then DISPLAY=:98 …",
              file=sys.stderr)
        return 2
    os.environ["QT_QPA_PLATFORM"] = "xcb"
    from PySide6.QtWidgets import QApplication

    from knightgui.settings import use_folder
    use_folder(tempfile.mkdtemp())
    app = QApplication(sys.argv[:1])
    app.setApplicationDisplayName("knightgui")
    try:
        from knightgui.window.main import MainWindow
    except ImportError:                      # the layout before knightgui/window/
        from knightgui.main_window import MainWindow
    w = MainWindow(restore_settings=False)
    w.move(0, 0)
    w.show()

    def pump(sec: float) -> None:
        t = time.monotonic() + sec
        while time.monotonic() < t:
            app.processEvents()
            time.sleep(0.01)

    def wait(cond, timeout: float = 180.0) -> None:
        t = time.monotonic() + timeout
        while not cond():
            if time.monotonic() > t:
                raise SystemExit("timed out")
            pump(0.02)

    def shoot(name: str, widget=None) -> None:
        pump(0.5)
        img = app.primaryScreen().grabWindow((widget or w).winId())
        if img.isNull() or not img.save(str(IMG / name)):
            raise SystemExit(f"could not take {name}")
        print(f"{name}: {img.width()}×{img.height()} | {w.statusBar().currentMessage()}")

    pump(1.0)
    if "--only" in sys.argv and sys.argv[-1] == "frontier":
        return _frontier(w, wait, shoot)
    c = w.controls
    # 1. the first start: 8×8, the defaults, Solve
    w.solve()
    wait(lambda: not w.results.running)
    shoot("first-start.png")

    # 1b. File ▸ Export animation…'s dialog for that tour, naming it as the window does
    from knightgui.animation.dialog import AnimationDialog
    try:
        from knightgui.window.files import tour_words
    except ImportError:                      # before the dialog named its tour
        dlg = AnimationDialog(w.tour_on_board(), w)
    else:
        dlg = AnimationDialog(w.tour_on_board(), w, what=tour_words(w.tour_on_board()))
    dlg.show()
    dlg.move(w.x() + 420, w.y() + 250)
    shoot("export-dialog.png", dlg)
    dlg.close()
    if "--only" in sys.argv and sys.argv[-1] == "export":
        w.close()
        return 0

    # 2. every tie followed from a8 to c7, stepped to solution 1981
    c.mode.setCurrentIndex(c.mode.findData("exhaustive"))
    c.closed.setChecked(True)
    c.start.setText("a8")
    c.start.editingFinished.emit()
    c.end.setCurrentIndex(c.end.findText("c7"))
    w.solve()
    wait(lambda: not w.results.running)
    w.results.jump(1981)
    shoot("solution-1981.png")

    # 3. Watch: the same search played at 200 moves a second, paused part way
    w.act.watch.setChecked(True)
    w.toggle_watch()
    w.act.watch_speed.setValue(200)
    w.solve()
    pump(6.0)
    w.act.watch_pause.setChecked(True)
    w.pause_watch()
    shoot("watch.png")
    w.cancel()
    pump(0.3)
    w.close()
    return 0


def _frontier(w, wait, shoot) -> int:
    """Analysis ▸ Tours by length: 6×1 … 6×12 closed tours counted, the cost line above."""
    view = w.open_analysis()
    view.resize(1280, 820)
    view.move(0, 0)
    page = view.show_page("Tours by length")
    page.rows_spin.setValue(6)
    page.from_spin.setValue(1)
    page.to_spin.setValue(12)
    page.closed_box.setChecked(True)
    wait(lambda: page.cost.text().startswith("Cost: 6×12"))
    page.run()
    wait(lambda: page.result is not None and not view.running, 600)
    shoot("window-frontier-plot.png", view)
    view.close()
    w.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
