"""The application: ``knightgui`` with no arguments and ``knightgui-app`` call :func:`main`.

The window is shown first; the numba kernels are loaded (or compiled) in a background
thread afterwards, so the first frame never waits for numba. ``KNIGHTGUI_FIRST_FRAME=1``
prints ``FIRST_FRAME <unix time> numba=<0|1>`` when the board has painted once, then quits:
the start-to-first-frame time is measured so on the installed application (``bench/gui.py``).
"""
from __future__ import annotations

import atexit
import logging
import os
import sys
import threading
import time

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication

log = logging.getLogger("knightgui")


def start_warm_up() -> threading.Thread:
    """Run the engine's warm-up in a daemon thread (:mod:`knightgui.window.engine_warmup`):
    the first frame never waits for numba."""
    from knightgui.window.engine_warmup import engine

    return engine().start()


def _excepthook(exc_type, exc, tb):
    """Uncaught exceptions in slots are logged and shown, never fatal."""
    log.error("uncaught exception", exc_info=(exc_type, exc, tb))
    try:
        from PySide6.QtWidgets import QMessageBox
        if QApplication.instance() is not None:
            QMessageBox.warning(None, "Unexpected error", f"{exc_type.__name__}: {exc}")
    except Exception:  # noqa: BLE001
        pass


def main(argv=None) -> int:
    """Open the explorer window; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "knightgui",
                                                   *argv])
    app.setOrganizationName("knightgui")
    app.setApplicationName("knightgui")
    QApplication.setApplicationDisplayName("knightgui")
    try:
        from knightgui.resources import apply_identity
        apply_identity(app)          # window icon + desktop file name
    except Exception:  # noqa: BLE001 - a missing icon never stops the app
        log.warning("application icon not found", exc_info=True)
    from knightgui.smoke import install_smoke_exit
    from knightgui.window.main import MainWindow

    sys.excepthook = _excepthook
    win = MainWindow()
    first_frame = os.environ.get("KNIGHTGUI_FIRST_FRAME") == "1"
    if first_frame:
        def _painted():
            print(f"FIRST_FRAME {time.time():.6f} numba={int('numba' in sys.modules)}",
                  flush=True)
            QTimer.singleShot(0, win.close)
        win.view.viewport().installEventFilter(_FirstPaint(win.view.viewport(), _painted))
    win.show()
    install_smoke_exit(app)          # no-op unless KNIGHTGUI_SMOKE_EXIT_MS is set
    from knightgui.window.stop_signals import close_on_signals
    stops = close_on_signals(app)    # SIGTERM, SIGHUP: closed as by the close button
    warm: list[threading.Thread] = []
    if not first_frame:
        QTimer.singleShot(0, lambda: warm.append(start_warm_up()))
    rc = int(app.exec())
    if stops is not None and stops.exit_code is not None:
        rc = stops.exit_code
    return _leave(rc, warm)


def _leave(rc: int, threads) -> int:
    """Leave at once (the window closed, its settings saved): a study's local Dask cluster
    is shut down, the exit handlers run, and the process ends without the interpreter's
    slow clean-up, in which a daemon thread still inside numba could crash it. A compiling
    warm-up is not waited for: its cache files are written sealed, so a cut write costs one
    compile next time (``threads`` is kept for callers)."""
    del threads
    clusters = sys.modules.get("knightgui_core.run.clusters")   # never imported to quit
    if clusters is not None:
        clusters.shutdown_local(wait=0.3)
    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(rc)


class _FirstPaint(QObject):
    """Calls ``callback`` once, after the watched widget's first paint event."""

    def __init__(self, parent, callback):
        super().__init__(parent)
        self._cb = callback
        self._done = False

    def eventFilter(self, obj, ev):
        if not self._done and ev.type() == QEvent.Type.Paint:
            self._done = True
            QTimer.singleShot(0, self._cb)
        return False


if __name__ == "__main__":
    sys.exit(main())
