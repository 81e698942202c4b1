"""Helper processes that run named stages beside this one, for a warm-up that uses every core.

numba compiles one function at a time in one thread, so a warm-up in one process leaves the
other cores idle. :class:`StageHelpers` starts helper processes (each runs ``command``, which
reads stage names on stdin, one a line, and answers each with a line ``done NAME`` or
``failed NAME`` on stdout) and shares a list of stages with the caller: the caller takes
stages from the front (:meth:`take`), the helpers from the back, one at a time, so they meet
in the middle whatever the stages cost. A stage someone waits for goes first on both ends: the
caller takes the first one wanted, a helper the last one wanted that nobody runs yet, so two
stages a feature needs compile side by side. The caller runs a stage a helper has done too,
loading it from the kernel cache. A helper that fails a stage, dies or cannot start gives its
stage back to the caller, which never waits for a helper that is gone. :meth:`close` (also
at interpreter exit) ends the helpers; one mid-compile leaves no half-written cache entry
(numba writes each file under a temporary name and renames it).
"""
from __future__ import annotations

import atexit
import logging
import subprocess
import threading
from collections.abc import Iterable, Sequence
from typing import IO

log = logging.getLogger("knightgui.warmup")

#: a stage's state: not taken, taken by the caller, running in a helper, done by a helper,
#: failed in a helper (left to the caller, never given to a helper again)
FREE, CALLER, HELPER, CACHED, FAILED = "free", "caller", "helper", "cached", "failed"


class StageHelpers:
    """``helpers`` processes running ``command`` over the stage names ``names`` (in the
    caller's order: helpers take from the back), the stages ``wanted`` first. See the module
    docstring."""

    def __init__(self, command: Sequence[str], names: Sequence[str], helpers: int,
                 wanted: Iterable[str] = ()):
        self.order = list(names)
        self.wanted = [n for n in wanted if n in self.order]
        self.state = dict.fromkeys(self.order, FREE)
        self.by_helpers: list[str] = []           # the stages helpers have done, in order
        self._cond = threading.Condition()
        self._procs: list[subprocess.Popen[str]] = []
        self._held: dict[int, str] = {}            # helper's pid → the stage it runs
        for _ in range(max(0, helpers)):
            try:
                proc = subprocess.Popen(list(command), stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        text=True, bufsize=1)
            except OSError as e:
                log.debug("a warm-up helper could not start: %s", e)
                break
            self._procs.append(proc)
            threading.Thread(target=self._listen, args=(proc,), daemon=True,
                             name="knightgui-warm-up-helper").start()
        atexit.register(self.close)
        with self._cond:
            for proc in self._procs:
                self._feed(proc)

    # ----------------------------------------------------------------- the caller
    def take(self, wanted: Iterable[str] = ()) -> str | None:
        """The next stage for the caller (a wanted one first), marked as the caller's; None
        when no stage is left. Waits while every stage left runs in a helper, and while every
        wanted stage left does: the feature waiting for it starts sooner if this process
        loads it the moment the helper is done than after another stage."""
        wanted = list(wanted)
        with self._cond:
            self.wanted = [n for n in wanted if n in self.state]
            while True:
                left = [n for n in self.order if self.state[n] != CALLER]
                if not left:
                    return None
                ranked = [n for n in self.wanted if n in left] or left
                pick = next((n for n in ranked if self.state[n] != HELPER), None)
                if pick is not None:
                    self.state[pick] = CALLER
                    return pick
                self._cond.wait(timeout=1.0)

    def close(self) -> None:
        """End the helpers (a stage one of them is compiling is left to the caller)."""
        for proc in self._procs:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
        atexit.unregister(self.close)

    # ---------------------------------------------------------------- the helpers
    def _feed(self, proc: subprocess.Popen[str]) -> None:
        """Give ``proc`` the last free stage wanted, else the last free one, or end it when
        none is left (lock held)."""
        stdin: IO[str] | None = proc.stdin
        if stdin is None:
            return
        ranked = [*reversed(self.wanted), *reversed(self.order)]
        name = next((n for n in ranked if self.state[n] == FREE), None)
        try:
            if name is None:
                stdin.close()
                return
            stdin.write(name + "\n")
            stdin.flush()
        except OSError:                            # the helper is gone
            return
        self.state[name] = HELPER
        self._held[proc.pid] = name

    def _listen(self, proc: subprocess.Popen[str]) -> None:
        """Read ``proc``'s answers until it ends; then give back what it held."""
        assert proc.stdout is not None
        for line in proc.stdout:
            word, _, name = line.strip().partition(" ")
            if word not in ("done", "failed"):
                continue
            with self._cond:
                if self.state.get(name) == HELPER:
                    self.state[name] = CACHED if word == "done" else FAILED
                    if word == "done":
                        self.by_helpers.append(name)
                        log.info("warm-up: a helper process compiled %s", name)
                self._feed(proc)
                self._cond.notify_all()
        with self._cond:
            held = self._held.get(proc.pid)
            if held is not None and self.state.get(held) == HELPER:
                self.state[held] = FREE
            self._cond.notify_all()
