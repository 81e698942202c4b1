"""SIGTERM and SIGHUP close the window as its close button does (settings saved, threads
stopped, an export's temporary file removed), not where the process stands.

While :func:`close_on_signals` is in force, either signal closes every top-level window on
the GUI thread and the event loop then returns; :attr:`SignalClose.signum` says which came
(exit status 128 + its number). Qt's loop may never give Python control to run the handler,
so the signal's wake-up byte goes to a socket a ``QSocketNotifier`` watches.
"""
from __future__ import annotations

import signal
import socket

from PySide6.QtCore import QCoreApplication, QObject, QSocketNotifier, QTimer
from PySide6.QtWidgets import QApplication

__all__ = ["SignalClose", "close_on_signals"]

#: the signals that close the window (those this platform has)
CLOSING = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n))


class SignalClose(QObject):
    """The wiring :func:`close_on_signals` sets up; :meth:`remove` undoes it."""

    def __init__(self, app: QCoreApplication):
        super().__init__(app)
        self.signum: int | None = None
        self._app = app
        self._read, self._write = socket.socketpair()
        self._read.setblocking(False)
        self._write.setblocking(False)
        self._notifier = QSocketNotifier(self._read.fileno(), QSocketNotifier.Type.Read, self)
        self._notifier.activated.connect(self._woken)
        self._old_fd = signal.set_wakeup_fd(self._write.fileno())
        self._old = {s: signal.signal(s, self._handler) for s in CLOSING}

    def _handler(self, signum, frame) -> None:
        if self.signum is None:
            self.signum = int(signum)

    def _woken(self) -> None:
        """The wake-up bytes read: each is the number of a signal that came."""
        got = b""
        try:
            while chunk := self._read.recv(64):
                got += chunk
        except OSError:
            pass
        for b in got:
            if b in CLOSING and self.signum is None:
                self.signum = int(b)
        if self.signum is not None:
            QTimer.singleShot(0, self._close)

    def _close(self) -> None:
        """Every top-level window closed as the user would close it; then the loop ends."""
        for w in QApplication.topLevelWidgets():
            if w.isVisible():
                w.close()
        self._app.exit(128 + int(self.signum or 0))

    @property
    def exit_code(self) -> int | None:
        """128 + the signal's number once one came, else None."""
        return None if self.signum is None else 128 + self.signum

    def remove(self) -> None:
        """The signals' former handlers and wake-up descriptor put back."""
        for s, old in self._old.items():
            signal.signal(s, old)
        signal.set_wakeup_fd(self._old_fd)
        self._notifier.setEnabled(False)
        self._read.close()
        self._write.close()


def close_on_signals(app: QCoreApplication) -> SignalClose | None:
    """SIGTERM and SIGHUP close the windows of ``app`` from now on (see the module); None
    where signals cannot be set (outside the main thread)."""
    try:
        return SignalClose(app)
    except ValueError:                 # not the main thread: signals are left alone
        return None
