"""Headless smoke run of the window, for packaging tests and start-up timing.

With ``KNIGHTGUI_SMOKE_EXIT_MS=N`` set, an application wired with ``install_smoke_exit(app)``
waits for its first painted frame, prints one line on stderr::

    knightgui smoke: first frame 0.734 s after process start (epoch 1763779012.482)

then closes its windows ``N`` ms later and quits (status 0 on a clean shutdown); with no
frame within ``KNIGHTGUI_SMOKE_TIMEOUT_S`` (default 120) seconds it says so and exits with
status 3. ``install_when_app_exists()`` does the wiring from outside the app's code (the
bundle's entry script). It ships in the runtime package because a built bundle, without the
tests, proves with it that it starts and paints (``packaging/bundle_test.sh``); unset, it
costs nothing.
"""
from __future__ import annotations

import os
import sys
import threading
import time

ENV_EXIT_MS = "KNIGHTGUI_SMOKE_EXIT_MS"
ENV_TIMEOUT_S = "KNIGHTGUI_SMOKE_TIMEOUT_S"
PREFIX = "knightgui smoke:"
_MARK = "_knightgui_smoke_hook"
_IMPORTED_AT = time.time()
_BRIDGES: list = []  # objects that carry the install request to the GUI thread
_MARKS: list[tuple[str, float]] = [("smoke imported", _IMPORTED_AT)]  # start-up milestones


def requested() -> int | None:
    """Milliseconds to linger after the first frame, or None when no smoke run is asked."""
    raw = os.environ.get(ENV_EXIT_MS, "").strip()
    if not raw:
        return None
    try:
        ms = int(raw)
    except ValueError:
        raise SystemExit(f"{ENV_EXIT_MS} must be a whole number of milliseconds, not {raw!r}") from None
    return max(0, ms)


def process_start_epoch() -> tuple[float, str]:
    """(epoch seconds when this process started, how it was found): /proc on Linux, so the
    bundle's bootloader and imports count; elsewhere the time this module was imported."""
    try:
        with open("/proc/self/stat", "rb") as f:
            stat = f.read()
        ticks = int(stat.rsplit(b")", 1)[1].split()[19])  # field 22: starttime
        with open("/proc/uptime") as f:
            uptime = float(f.read().split()[0])
        since_start = uptime - ticks / os.sysconf("SC_CLK_TCK")
        return time.time() - since_start, "process start"
    except (OSError, ValueError, IndexError, AttributeError):
        return _IMPORTED_AT, "smoke module import"


def _say(text: str) -> None:
    print(f"{PREFIX} {text}", file=sys.stderr, flush=True)


def install_smoke_exit(app=None) -> bool:
    """Arm the smoke exit on ``app`` (default: the running QApplication), on the GUI thread;
    True when armed (the variable is set)."""
    wanted = requested()
    if wanted is None:
        return False
    linger_ms: int = wanted
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication

    app = app or QApplication.instance()
    if app is None:
        raise RuntimeError("install_smoke_exit needs a QApplication")
    if getattr(app, _MARK, None) is not None:
        return True
    timeout_s = float(os.environ.get(ENV_TIMEOUT_S, "120") or 120)

    class _Hook(QObject):
        def __init__(self):
            super().__init__(app)
            self.seen = False

        def eventFilter(self, obj, event):
            if not self.seen and event.type() == QEvent.Type.Paint:
                win = obj.window() if hasattr(obj, "window") else None
                if win is not None and win.isVisible():
                    self.seen = True
                    QTimer.singleShot(0, self.frame_done)  # after this paint is flushed
            return False

        def frame_done(self):
            start, how = process_start_epoch()
            now = time.time()
            marks = ", ".join(f"{name} {t - start:.3f} s" for name, t in _MARKS)
            _say(f"first frame {now - start:.3f} s after {how} (epoch {now:.3f}); {marks}")
            app.removeEventFilter(self)
            QTimer.singleShot(linger_ms, self.leave)

        def leave(self):
            for w in QApplication.topLevelWidgets():
                if w.isVisible():
                    w.close()
            QTimer.singleShot(0, app.quit)

        def give_up(self):
            if not self.seen:
                _say(f"no frame within {timeout_s:g} s")
                app.exit(3)

    hook = _Hook()
    setattr(app, _MARK, hook)
    app.installEventFilter(hook)
    QTimer.singleShot(int(timeout_s * 1000), hook.give_up)
    for w in QApplication.topLevelWidgets():  # a window already painted before we came
        if w.isVisible():
            w.update()
    return True


def install_when_app_exists(poll_s: float = 0.005, give_up_s: float = 120.0) -> bool:
    """When a smoke run is requested, start a daemon thread that waits for the QApplication
    and then arms ``install_smoke_exit`` on the GUI thread; returns whether it started."""
    if requested() is None:
        return False

    def watch():
        from PySide6.QtCore import QCoreApplication, QEvent, QObject

        deadline = time.monotonic() + give_up_s
        while QCoreApplication.instance() is None:
            if time.monotonic() > deadline:
                return
            time.sleep(poll_s)
        _MARKS.append(("QApplication", time.time()))
        kind = QEvent.Type(QEvent.registerEventType())

        class _Bridge(QObject):
            def event(self, e):
                if e.type() == kind:
                    _MARKS.append(("event loop", time.time()))  # window built, exec() running
                    install_smoke_exit(None)
                    return True
                return super().event(e)

        bridge = _Bridge()
        core_app = QCoreApplication.instance()
        if core_app is None:              # the application is already gone
            return
        bridge.moveToThread(core_app.thread())
        _BRIDGES.append(bridge)  # outlives this thread, or Qt deletes it with the event
        QCoreApplication.postEvent(bridge, QEvent(kind))

    threading.Thread(target=watch, name="knightgui-smoke-watch", daemon=True).start()
    return True
