"""How long numba has spent compiling kernels (not loading them from its cache), so the command
line can say "compiling the engine (once)…" when a compile takes long.

numba announces each compile — a cache miss, never a cache load — with a ``numba:compile``
event (``numba.core.event``); a kernel calling another kernel compiles the callee inside it,
so the events nest. :func:`watch_compiles` registers a :class:`CompileClock` on them; with the
ahead-of-time kernels (the bundle) nothing is ever compiled and it returns None without
importing numba.
"""
from __future__ import annotations

import contextlib
import threading
import time
from typing import Any


class CompileClock:
    """Seconds spent compiling since it was registered, nested compiles counted once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._depth = 0
        self._since = 0.0
        self._spent = 0.0
        #: compiles begun (nested ones included)
        self.compiles = 0
        self._listener: Any = None

    @property
    def compiling(self) -> bool:
        """Whether a compile is going on now."""
        return self._depth > 0

    def seconds(self) -> float:
        """Seconds spent compiling so far, the compile going on now included."""
        with self._lock:
            now = time.perf_counter() - self._since if self._depth else 0.0
            return self._spent + now

    def started(self) -> None:
        """A compile began (numba's START event)."""
        with self._lock:
            self.compiles += 1
            if self._depth == 0:
                self._since = time.perf_counter()
            self._depth += 1

    def ended(self) -> None:
        """A compile ended (numba's END event; an end whose start came before the clock was
        registered is ignored)."""
        with self._lock:
            if self._depth == 0:
                return
            self._depth -= 1
            if self._depth == 0:
                self._spent += time.perf_counter() - self._since

    def stop(self) -> None:
        """Stop listening to numba."""
        if self._listener is not None:
            from numba.core import event
            with contextlib.suppress(ValueError):
                event.unregister("numba:compile", self._listener)
            self._listener = None


def watch_compiles() -> CompileClock | None:
    """A :class:`CompileClock` registered on numba's compile events, or None when the kernels
    are compiled ahead of time (``KNIGHTGUI_KERNELS=aot``: numba is never imported)."""
    from . import jit
    if jit.MODE != "jit":
        return None
    from numba.core import event

    clock = CompileClock()

    class _Listener(event.Listener):
        def on_start(self, ev: Any) -> None:
            clock.started()

        def on_end(self, ev: Any) -> None:
            clock.ended()

    clock._listener = _Listener()
    event.register("numba:compile", clock._listener)
    return clock
