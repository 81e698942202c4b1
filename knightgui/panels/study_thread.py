"""A QThread that runs one study function with progress and a cancel flag."""
from __future__ import annotations

import threading

from PySide6.QtCore import QThread, Signal


class StudyThread(QThread):
    """Runs ``fn(progress=..., cancel=threading.Event)`` off the GUI thread."""

    progressed = Signal(float, float)  # done, total (floats: totals can pass 2**31)
    done = Signal(object)
    failed = Signal(str)

    def __init__(self, fn, parent=None):
        super().__init__(parent)
        self._fn = fn
        self.cancel_event = threading.Event()

    def run(self) -> None:
        try:
            res = self._fn(progress=self._progress, cancel=self.cancel_event)
        except Exception as e:  # noqa: BLE001 - reported in the dock
            self.failed.emit(f"{type(e).__name__}: {e}")
            return
        self.done.emit(res)

    def _progress(self, done, total) -> None:
        self.progressed.emit(float(done), float(total))
