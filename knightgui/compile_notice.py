"""The command line's one line when the engine compiles: "knightgui: compiling the engine
(once)…" on stderr, never on stdout (``--json`` keeps its one object there).

A command imports the engine inside its ``run()``, so :func:`compile_notice` watches from a
thread: once the engine's ``jit`` module is loaded it clocks numba's compile events
(:func:`knightgui_core.system.compile_watch.watch_compiles`) and prints the line after
:data:`AFTER` seconds of compiling; kernels from the cache are no compile.
"""
from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

#: what the command line says
NOTICE = "knightgui: compiling the engine (once)…"
#: seconds of compiling before it says so
AFTER = 1.0
_JIT = "knightgui_core.system.jit"


class _Watch(threading.Thread):
    def __init__(self, stream: TextIO | None, after: float):
        super().__init__(name="knightgui-compile-notice", daemon=True)
        self.stream, self.after = stream, after
        self.halt = threading.Event()
        self.said = False

    def run(self) -> None:
        clock = None
        try:
            while not self.halt.wait(0.02):
                if clock is None:
                    if _JIT not in sys.modules:
                        continue
                    from knightgui_core.system.compile_watch import watch_compiles
                    clock = watch_compiles()
                    if clock is None:         # kernels compiled ahead of time
                        return
                if clock.seconds() >= self.after:
                    self._say()
                    return
        finally:
            if clock is not None:
                clock.stop()

    def _say(self) -> None:
        stream = self.stream if self.stream is not None else sys.stderr
        text = NOTICE
        try:
            NOTICE.encode(getattr(stream, "encoding", None) or "ascii")
        except (UnicodeEncodeError, LookupError):     # an ASCII-only terminal
            text = NOTICE.replace("…", "...")
        try:
            print(text, file=stream, flush=True)
            self.said = True
        except (OSError, ValueError):        # a closed or broken stderr: say nothing
            pass


@contextmanager
def compile_notice(stream: TextIO | None = None, after: float = AFTER) -> Iterator[_Watch]:
    """Watch the compiles of the block; say :data:`NOTICE` on ``stream`` (stderr) when they
    take ``after`` seconds."""
    watch = _Watch(stream, after)
    watch.start()
    try:
        yield watch
    finally:
        watch.halt.set()
        watch.join(1.0)
