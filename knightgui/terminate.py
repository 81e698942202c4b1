"""Terminating signals as an exception, for the command line.

While :func:`signals_raise` is in force, SIGTERM and SIGHUP raise :class:`Terminated` in the
main thread, a ``KeyboardInterrupt``: every cleanup Ctrl-C runs runs for them too (the one
writer removes its temporary file) and no ``except Exception`` swallows it; the command line
says so in one line and exits 128 + the signal's number. A signal that comes while numba
compiles or loads a kernel is not raised there (an exception through LLVM's bindings can
break them and crash the process at exit): it is sent again a moment later, and raised once
the compiler is left (or after :data:`MAX_WAIT_SECONDS`).
"""
from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Iterator
from types import FrameType

__all__ = ["Terminated", "signals_raise", "TERMINATING", "RETRY_SECONDS", "GRACE_SECONDS",
           "MAX_WAIT_SECONDS"]

#: the signals that raise :class:`Terminated` (those this platform has)
TERMINATING = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n))
#: how long a signal that came inside the compiler waits before it is sent again (seconds)
RETRY_SECONDS = 0.05
#: how many of the innermost frames are looked at for the compiler's code
COMPILER_DEPTH = 12
#: a signal waits for the compiler at most this long, then is raised wherever it lands
MAX_WAIT_SECONDS = 30.0
#: after a signal is raised, further ones are let pass this long (the cleanup's time)
GRACE_SECONDS = 5.0
_COMPILER = (f"{os.sep}numba{os.sep}", f"{os.sep}llvmlite{os.sep}")


def _in_compiler(frame: FrameType | None) -> bool:
    """Whether Python code of numba or llvmlite runs at ``frame`` or in its
    :data:`COMPILER_DEPTH` innermost callers (the standard library it calls counts too)."""
    for _ in range(COMPILER_DEPTH):
        if frame is None:
            return False
        name = frame.f_code.co_filename
        if any(part in name for part in _COMPILER):
            return True
        frame = frame.f_back
    return False


def _send_again(signum: int) -> None:
    t = threading.Timer(RETRY_SECONDS, os.kill, (os.getpid(), signum))
    t.daemon = True
    t.start()


class Terminated(KeyboardInterrupt):
    """The process got a terminating signal (``signum``) while a command ran."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = int(signum)

    @property
    def name(self) -> str:
        """The signal's name, ``SIGTERM`` or ``SIGHUP``."""
        try:
            return signal.Signals(self.signum).name
        except ValueError:
            return f"signal {self.signum}"

    @property
    def exit_code(self) -> int:
        """128 + the signal's number, as a shell reports a process the signal ended."""
        return 128 + self.signum


@contextlib.contextmanager
def signals_raise() -> Iterator[None]:
    """While the block runs, :data:`TERMINATING` signals raise :class:`Terminated` in the
    main thread, and Ctrl-C ``KeyboardInterrupt``; a further signal within
    :data:`GRACE_SECONDS` is let pass (the cleanup finishes). A signal the process ignores,
    a Ctrl-C handler not Python's default and other threads are left alone; the handlers
    before the block are put back after it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    raised_at = [-GRACE_SECONDS]
    waiting_since: list[float] = []

    def handler(signum, frame):
        now = time.monotonic()
        if now - raised_at[0] < GRACE_SECONDS:
            return
        if _in_compiler(frame):
            if not waiting_since:
                waiting_since.append(now)
            if now - waiting_since[0] < MAX_WAIT_SECONDS:
                _send_again(signum)
                return
        waiting_since.clear()
        raised_at[0] = now
        if signum == signal.SIGINT:
            raise KeyboardInterrupt()
        raise Terminated(signum)

    old: dict[int, object] = {}
    for s in TERMINATING + (signal.SIGINT,):
        try:
            current = signal.getsignal(s)
            if current is signal.SIG_IGN or (s == signal.SIGINT and
                                             current is not signal.default_int_handler):
                continue
            old[s] = signal.signal(s, handler)
        except (ValueError, OSError):
            pass
    try:
        yield
    finally:
        for s, h in old.items():
            with contextlib.suppress(ValueError, OSError, TypeError):
                signal.signal(s, h)   # type: ignore[arg-type]
