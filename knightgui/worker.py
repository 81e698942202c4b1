"""The solver thread: one QThread owns every numba computation of the window.

Modelled on Qt's Mandelbrot example: :meth:`SolverThread.submit` hands over a request and
returns its generation number at once; a newer request supersedes the running one, which
sees the restart flag between two bounded chunks (the kernels release the GIL) and drops its
work (a single solve is one call: its result is dropped). Results and progress are signals
that carry the generation, so the window ignores an older one. :meth:`SolverThread.stop`
raises the abort flag and waits for at most one chunk.

A :class:`StudyRequest` (the Analysis view, on a thread of its own) and a
:class:`PlayRequest` (a question about a tour by hand) get a ``cancel()`` that reads the
restart and abort flags; a cancelled study's partial result is still sent (``studyDone``).
"""
from __future__ import annotations

import atexit
import time
import traceback
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QMutex, QMutexLocker, QThread, QWaitCondition, Signal

from knightgui.request.model import Mode, Request
from knightgui.solutions.store import Packed, fewer_runs
from knightgui_core.tietree import keep_policy
from knightgui_core.tietree.keep_policy import kept_path_chunks, kept_solution_chunks

__all__ = ["PlayRequest", "Request", "SolverThread", "Stats", "StudyRequest"]

#: seconds between two progress signals / solution batches
EMIT_INTERVAL = 0.05


@dataclass(frozen=True)
class StudyRequest:
    """One study run: ``run(progress=..., cancel=...)`` returns the study's result;
    ``progress(done, total)`` is forwarded at most every :data:`EMIT_INTERVAL`, ``cancel()``
    is true once the study should stop and return what it has."""

    kind: str
    run: Callable[..., object]


@dataclass(frozen=True)
class PlayRequest:
    """A question about a position played by hand: ``kind``, ``path`` (the squares it is
    about) and ``run(cancel=...)``, which returns the engine's answer or raises
    ``Cancelled``."""

    kind: str
    path: tuple[int, ...]
    run: Callable[..., object]


@dataclass
class Stats:
    """Counters of an enumeration so far (what the progress and finished signals carry);
    ``dead_ends`` None when the search does not count them (every knight's path)."""
    solutions: int = 0
    dead_ends: int | None = 0
    forward_moves: int = 0
    seconds: float = 0.0
    exhausted: bool = False
    cancelled: bool = False
    extra: dict = field(default_factory=dict)


_LIVE: weakref.WeakSet[SolverThread] = weakref.WeakSet()


@atexit.register
def _stop_all():
    """A script that exits without closing its window must not leave a running QThread
    behind (Qt would warn, or abort, when it is destroyed)."""
    for t in list(_LIVE):
        try:
            t.stop(5000)
        except RuntimeError:  # the C++ object is already gone
            pass


class SolverThread(QThread):
    """The one thread that runs the window's computations (see the module docstring)."""
    tourSolved = Signal(int, object)       # gen, knightgui_core.walks.solve.SolveResult
    solutionsFound = Signal(int, object)   # gen, list[knightgui.solutions.store.Packed]
    progress = Signal(int, object)         # gen, Stats
    finishedRun = Signal(int, object)      # gen, Stats (enumeration done/cancelled/limit)
    failed = Signal(int, str, bool)        # gen, message, True = bad input (not a crash)
    started_gen = Signal(int, object)      # gen, Request (the thread began working on it)
    studyProgress = Signal(int, float, float)  # gen, done, total (floats: totals pass 2**31)
    studyDone = Signal(int, object)        # gen, study result (partial when cancelled)
    playDone = Signal(int, object, object)  # gen, PlayRequest, its answer

    def __init__(self, parent=None):
        super().__init__(parent)
        self._mutex = QMutex()
        self._cond = QWaitCondition()
        self._pending: tuple[int, Request | StudyRequest | PlayRequest] | None = None
        self._gen = 0
        self._restart = False
        self._abort = False
        self.busy_gen = 0
        self.setObjectName("knightgui-solver")
        _LIVE.add(self)

    # ------------------------------------------------------------ GUI side
    def submit(self, request: Request | StudyRequest | PlayRequest) -> int:
        """Queue ``request`` (superseding any running one); returns its generation."""
        with QMutexLocker(self._mutex):
            self._gen += 1
            self._pending = (self._gen, request)
            self._restart = True
            gen = self._gen
            if not self.isRunning() and not self._abort:
                self.start(QThread.Priority.LowPriority)
            else:
                self._cond.wakeOne()
        return gen

    def cancel(self) -> int:
        """Stop the running computation (the thread stays, idle). Returns the new generation."""
        with QMutexLocker(self._mutex):
            self._gen += 1
            self._pending = None
            self._restart = True
            self._cond.wakeOne()
            return self._gen

    def stop(self, timeout_ms: int | None = None) -> bool:
        """Abort and wait for the thread to end (closing the window). True when it ended."""
        with QMutexLocker(self._mutex):
            self._abort = True
            self._pending = None
            self._cond.wakeOne()
        return self.wait() if timeout_ms is None else self.wait(timeout_ms)

    @property
    def generation(self) -> int:
        """The generation of the newest request."""
        return self._gen

    # --------------------------------------------------------- worker side
    def _should_stop(self) -> bool:
        return self._restart or self._abort

    def run(self):
        """The thread's loop: wait for a request, run it in bounded chunks, emit; until stopped."""
        while True:
            with QMutexLocker(self._mutex):
                while self._pending is None and not self._abort:
                    self.busy_gen = 0
                    self._cond.wait(self._mutex)
                if self._abort:
                    return
                pending = self._pending
                if pending is None:       # woken by the abort
                    return
                gen, req = pending
                self._pending = None
                self._restart = False
                self.busy_gen = gen
            self.started_gen.emit(gen, req)
            try:
                if isinstance(req, StudyRequest):
                    self._study(gen, req)
                elif isinstance(req, PlayRequest):
                    self._play(gen, req)
                elif req.mode == Mode.EXHAUSTIVE:
                    self._enumerate(gen, req)
                else:
                    self._solve(gen, req)
            except ValueError as e:  # SolveError, EnumerationError, BoardError, RuleError
                if not self._should_stop():
                    self.failed.emit(gen, str(e), True)
            except Exception as e:  # noqa: BLE001 - report, never kill the thread
                traceback.print_exc()
                if not self._should_stop():
                    self.failed.emit(gen, f"{type(e).__name__}: {e}", False)

    def _study(self, gen: int, req: StudyRequest):
        last = [0.0]

        def progress(done, total):
            now = time.perf_counter()
            if now - last[0] >= EMIT_INTERVAL or done >= total:
                last[0] = now
                self.studyProgress.emit(gen, float(done), float(total))

        res = req.run(progress=progress, cancel=self._should_stop)
        if not self._abort:
            self.studyDone.emit(gen, res)

    def _play(self, gen: int, req: PlayRequest) -> None:
        from knightgui_core.system.errors import Cancelled
        try:
            answer = req.run(cancel=self._should_stop)
        except Cancelled:
            return
        if not self._should_stop():
            self.playDone.emit(gen, req, answer)

    def _every_path(self, gen: int, req: Request):
        """Every knight's path from the start (not only Warnsdorff's), kept for stepping."""
        from knightgui_core.tietree.alltours.all_tours_list import AllToursLister
        lister: Any
        if req.symmetry:           # the tours a symmetry keeps, from no particular start
            from knightgui_core.tietree.alltours.symmetric_listing import SymmetricLister
            lister = SymmetricLister(req.board(), req.symmetry, req.closed)
            if lister.reason:
                self.failed.emit(gen, f"No tour the {req.symmetry} keeps: {lister.reason}", True)
                return
        else:
            lister = AllToursLister(req.rows, req.cols, 0 if req.start is None else req.start,
                                    board=req.board())
        t0 = time.perf_counter()

        def stats(**kw) -> Stats:       # its pruned search counts no dead ends
            return Stats(lister.found, None, lister.nodes, time.perf_counter() - t0,
                         lister.done, **kw)

        self._stream(gen, kept_path_chunks(lister, req.keep, req.limit, keep_policy.KEEP_BYTES),
                     stats, t0, last_progress=False)

    def _stream(self, gen: int, chunks, stats: Callable[..., Stats], t0: float,
                last_progress: bool) -> None:
        """Send the solutions kept in ``chunks`` and ``stats()`` at most every
        :data:`EMIT_INTERVAL`, then the rest (with a last ``stats()`` when
        ``last_progress``) and the end; nothing more once stopped."""
        last = t0
        batch: list[Packed] = []
        for block in chunks:
            if block is not None:
                batch.append(block)
            now = time.perf_counter()
            if now - last >= EMIT_INTERVAL:
                last = now
                if batch:
                    self.solutionsFound.emit(gen, fewer_runs(batch))
                    batch.clear()
                self.progress.emit(gen, stats())
            if self._should_stop():
                return
        if batch:
            self.solutionsFound.emit(gen, fewer_runs(batch))
        if last_progress:
            self.progress.emit(gen, stats())
        self.finishedRun.emit(gen, stats(cancelled=False))

    def _solve(self, gen: int, req: Request):
        from knightgui_core.walks.solve import solve
        res = solve(req.rows, req.cols, start=req.start, closed=req.closed, tie=req.tie,
                    order=req.order, seed=req.seed, method=req.method,
                    dashes=req.dash_dict() or None, topology=req.topology, leaper=req.leaper)
        if not self._should_stop():
            self.tourSolved.emit(gen, res)

    def _enumerate(self, gen: int, req: Request):
        from knightgui_core.tietree.enumeration.enumerator import Cancelled, Enumerator
        if req.all_tours:
            return self._every_path(gen, req)
        kwargs: dict[str, object] = dict(rows=req.rows, cols=req.cols, start=req.start,
                                         end=req.end if req.closed else None,
                                         dashes=req.dash_dict())
        if (req.topology, req.leaper) != ("plane", (1, 2)):
            kwargs["board"] = req.board()
        if req.tail:
            kwargs["tail"] = req.tail
        try:   # building the tables of a large board is asked to stop between its stages
            en = Enumerator(**kwargs, cancel=self._should_stop)
        except Cancelled:
            return
        t0 = time.perf_counter()

        def stats(**kw) -> Stats:
            return Stats(int(en.solutions), int(en.dead_ends), int(en.forward_moves),
                         time.perf_counter() - t0, bool(en.exhausted), **kw)

        # what is kept and how the search is chunked: knightgui_core.tietree.keep_policy
        self._stream(gen, kept_solution_chunks(en, req.keep, req.limit, keep_policy.KEEP_BYTES),
                     stats, t0, last_progress=True)
