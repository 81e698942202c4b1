"""Watch the search: Phadke's exhaustive enumeration, or the backtracking walk, played on
the board move by move.

:class:`WatchPlayer` steps a :class:`knightgui_core.tietree.enumeration.watch.SearchWatch`
(or a backtracking watch) from a timer on the window's thread, at most :data:`FRAME_BUDGET`
of work a frame so the window keeps painting: the path, the square taken and its tied
rivals with their outlets, dead ends in the status line, the options matrix and the
counters. Turning the watch off hands the request to the solver thread (the same solutions
at full speed); the solutions met while watching are kept for stepping
(:meth:`WatchPlayer.kept`).
"""
from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QObject, QTimer, Signal

from knightgui_core.board.dash import EnumerationError
from knightgui_core.board.squares import Board
from knightgui_core.tietree.enumeration.kept_solutions import CompactBlock, compact_paths

if TYPE_CHECKING:
    from knightgui_core.board.watch_step import WatchStep
    from knightgui_core.tietree.enumeration.enumerator import Enumerator
    from knightgui_core.tietree.enumeration.watch import SearchWatch
    from knightgui_core.walks.backtrack_watch import BacktrackWatch

from knightgui.request.model import Mode, Request
from knightgui.solutions.results import SquareNames

__all__ = ["WatchPlayer", "FRAME_MS", "FRAME_BUDGET", "MAX_SPEED"]

#: timer interval (about 60 frames a second)
FRAME_MS = 16
#: the most time one frame spends stepping the search (the rest is the window's)
FRAME_BUDGET = 0.008
#: the fastest chosen speed, moves a second (0 means: as fast as painting allows)
MAX_SPEED = 10_000
#: the options matrix is redrawn at most this often while watching (seconds)
MATRIX_EVERY = 0.1
#: the most solutions a watch keeps for stepping (each a whole path: a watch meets few)
KEEP_MAX = 100_000


class WatchPlayer(QObject):
    """Plays one exhaustive search on the board (see the module docstring)."""

    #: one line for the status bar
    status = Signal(str)
    #: the search ended (exhausted): solutions, dead ends, forward moves
    finished = Signal(int, int, int)
    #: playing or not (started, stopped, ended)
    activeChanged = Signal(bool)

    def __init__(self, view, matrix, counter, timing, parent=None):
        super().__init__(parent)
        self.view, self.matrix, self.counter, self.timing = view, matrix, counter, timing
        self._timer = QTimer(self)
        self._timer.setInterval(FRAME_MS)
        self._timer.timeout.connect(self._tick)
        self.speed = 100.0
        self.request: Request | None = None
        self._watch: SearchWatch | BacktrackWatch | None = None
        self._board: Board | None = None
        self._credit = 0.0
        self._t0 = self._tick_at = 0.0
        self._paused_at: float | None = None
        self._matrix_at = 0.0
        self.paused = False
        self.last: WatchStep | None = None
        self.frames = 0
        self._enumerator: Enumerator | None = None     # the watched enumeration's, for kept()
        self._kept: list[np.ndarray] = []              # the solutions met, numbered part

    # ---------------------------------------------------------------- control
    @property
    def active(self) -> bool:
        """Whether a search is being watched (playing or paused)."""
        return self._watch is not None

    def set_speed(self, moves_per_second: float) -> None:
        """Moves a second (0: as fast as painting allows)."""
        self.speed = max(0.0, min(float(moves_per_second), MAX_SPEED))

    def start(self, req: Request) -> bool:
        """Watch the search of ``req`` (an exhaustive request, or a single tour by the
        backtracking method) from its first move; False with a status line when it cannot
        start."""
        self.stop(quiet=True)
        # here, not at the top: the window's first frame comes before numba is loaded
        # (tests/gui/test_app.py::test_first_frame_comes_before_numba)
        from knightgui_core.tietree.enumeration.enumerator import Enumerator
        from knightgui_core.tietree.enumeration.watch import SearchWatch
        if req.mode != Mode.EXHAUSTIVE:
            return self._start_backtracking(req)
        try:
            board = req.board()
            en = Enumerator(req.rows, req.cols, req.start, req.end if req.closed else None,
                            req.dash_dict(), req.tail or None,
                            board=None if board.is_classic else board)
        except EnumerationError as e:
            self.status.emit(f"Cannot watch: {e}")
            return False
        return self._begin(req, en.board, SearchWatch(en), en, "the search",
                           "the options matrix fills as ties are met", found=0)

    def _begin(self, req: Request, board: Board, watch: SearchWatch | BacktrackWatch,
               enumerator: Enumerator | None, what: str, note: str, **counts) -> bool:
        """Start watching ``watch`` (``what`` it plays, for the panels): the clock, the empty
        board, no tour id (the path on the board is the search's, not a tour), ``note`` in
        the options matrix, ``counts`` on the counter; True."""
        self.request, self._board, self._watch = req, board, watch
        self._credit = 0.0
        self._t0 = self._tick_at = time.perf_counter()
        self._paused_at = None
        self._matrix_at = 0.0
        self.paused = False
        self.last = None
        self.frames = 0
        self._enumerator = enumerator
        self._kept = []
        self.view.set_tour(np.zeros(0, dtype=np.int32), board=board)
        self.counter.show_identity(None)
        self.matrix.clear(f"Watching {what}: {note}")
        self.counter.set_counts(state=f"Watching {what}…", **counts)
        self.timing.start("watching…")
        self._timer.start()
        self.activeChanged.emit(True)
        self.status.emit(f"Watching {what} (Run ▸ Watch off: finish at full speed)")
        return True

    def _seconds(self) -> float:
        """Time spent watching, the pauses left out."""
        now = time.perf_counter() if self._paused_at is None else self._paused_at
        return now - self._t0

    @property
    def _backtracking(self) -> bool:
        return self.request is not None and self.request.mode != Mode.EXHAUSTIVE

    def _end(self, step: WatchStep, seconds: float) -> None:
        """The search is exhausted, or the watched backtracking walk found its tour: the
        panels say how it ended, ``finished`` is emitted."""
        w, b = self._watch, self._board
        self._timer.stop()
        self.view.set_candidates([])
        if self._backtracking:
            closed = bool(self.request is not None and self.request.closed)
            found = int(bool(step.solution))
            if w is not None and b is not None:
                self.view.set_tour(w.path(), closed and bool(found), None, board=b)
            self.counter.set_counts(state="tour found" if found else "no tour",
                                    warning=not found)
            word = "done" if found else "no tour"
            line = (f"Watched to the end: a tour after {step.forward_moves:,} nodes and "
                    f"{step.dead_ends:,} dead ends" if found else
                    f"Watched to the end: no tour ({step.forward_moves:,} nodes, "
                    f"{step.dead_ends:,} dead ends)")
        else:
            self.counter.set_counts(found=step.solutions, total=step.solutions,
                                    exhausted=True)
            found, word = step.solutions, "done"
            line = (f"Watched to the end: {step.solutions:,} solutions, "
                    f"{step.dead_ends:,} dead ends, {step.forward_moves:,} moves")
        self._show_time(step, seconds)
        self.timing.stop(word)
        self.status.emit(line)
        self._watch = None
        self.activeChanged.emit(False)
        self.finished.emit(found, step.dead_ends, step.forward_moves)

    def _show_time(self, step: WatchStep, seconds: float) -> None:
        """The timing panel after ``step``, ``seconds`` into the watch."""
        if self._backtracking:
            self.timing.set_single(seconds, f"warnsdorff backtracking (watched), "
                                            f"{step.dead_ends:,} dead ends", step.forward_moves)
        else:
            self.timing.set_enumeration(step.solutions, step.dead_ends, step.forward_moves,
                                        seconds)

    def _start_backtracking(self, req: Request) -> bool:
        from knightgui_core.walks.backtrack_watch import BacktrackWatch
        board = req.board()
        try:
            start = 0 if req.start is None else req.start
            watch = BacktrackWatch(board, start, req.closed, req.tie, req.order, req.seed)
        except ValueError as e:         # SolveError, BoardError, an unknown rule
            self.status.emit(f"Cannot watch: {e}")
            return False
        return self._begin(req, board, watch, None, "the backtracking walk",
                           "it keeps no options matrix (Exhaustive mode fills one)")

    def stop(self, quiet: bool = False) -> None:
        """Stop at once (the board keeps the last frame)."""
        was = self._watch is not None
        self._timer.stop()
        self._watch = None
        if was:             # the candidates are the watch's only while it runs (play's too)
            self.view.set_candidates([])
            self.timing.stop("stopped")
            self.activeChanged.emit(False)
            if not quiet:
                self.status.emit("Watch stopped")

    def kept(self) -> CompactBlock | None:
        """The solutions the watched enumeration met (at most :data:`KEEP_MAX`), numbered
        from 1, in the form the window's solution store takes (their options matrices
        rebuilt from their paths); None when it met none or a backtracking walk was
        watched."""
        en = self._enumerator
        if en is None or not self._kept:
            return None
        block = compact_paths(np.stack(self._kept), 1)
        return replace(block, tail=np.asarray(en.chain, dtype=np.int32).reshape(-1),
                       length=en.L + 1, options=en.options_replay())

    def _keep(self, step: WatchStep) -> None:
        """Keep the path of a solution just met (exhaustive watch)."""
        if (step.solution and self._enumerator is not None and self._watch is not None
                and len(self._kept) < KEEP_MAX):
            self._kept.append(self._watch.path())

    def set_paused(self, paused: bool) -> None:
        """Pause or go on. Paused, the clocks stop and the counter, the options matrix and
        its caption show the move on the board."""
        paused = bool(paused)
        now = time.perf_counter()
        self._tick_at = now
        if self._watch is None:
            self.paused = paused
            return
        if paused and self._paused_at is None:
            self._paused_at = now
            self.timing.pause("paused")
        elif not paused and self._paused_at is not None:
            self._t0 += now - self._paused_at
            self._paused_at = None
            self.timing.resume("watching…")
        self.paused = paused
        if self.last is not None:
            self._show(self.last, force_matrix=True)
        self.status.emit("Watch paused (Step: one move)" if paused else
                         "Watching the backtracking walk" if self._backtracking else
                         "Watching the search")

    def step_once(self) -> WatchStep | None:
        """One forward move, shown at once (pauses the watch)."""
        if self._watch is None:
            return None
        if not self.paused:
            self.set_paused(True)
        step = self._watch.step()
        self._keep(step)
        self._show(step, force_matrix=True)
        return step

    # ------------------------------------------------------------------ frames
    def _tick(self) -> None:
        try:
            if self._watch is None or self.paused:
                return
            now = time.perf_counter()
            dt, self._tick_at = now - self._tick_at, now
            if self.speed > 0:      # the chosen speed in real time, a frame late or not
                self._credit = min(self._credit + self.speed * min(dt, 0.1),
                                   max(1.0, self.speed / 10))
                want = int(self._credit)
            else:
                want = 1 << 30
            if want <= 0:
                return
            end = time.perf_counter() + FRAME_BUDGET
            step: WatchStep | None = None
            flash: WatchStep | None = None
            done = 0
            while done < want:
                step = self._watch.step()
                self._keep(step)
                done += 1
                if step.done or (step.solution and self._backtracking):
                    break
                if step.dead_end and flash is None:
                    flash = step
                if done % 64 == 0 and time.perf_counter() > end:
                    break
            self._credit -= done
            if step is not None:
                self._show(step, flash=flash)
        except Exception as e:  # noqa: BLE001 - never raise out of a timer slot
            self.stop(quiet=True)
            self.status.emit(f"Watch stopped: {type(e).__name__}: {e}")

    def _show(self, step: WatchStep, flash: WatchStep | None = None,
              force_matrix: bool = False) -> None:
        """Draw the search as it stands after ``step``."""
        w, b = self._watch, self._board
        if w is None or b is None:
            return
        self.frames += 1
        self.last = step
        seconds = self._seconds()
        if step.done or (self._backtracking and step.solution):
            self._end(step, seconds)
            return
        path = w.path()
        self.view.set_tour(path, False, None)
        visited = np.zeros(b.size, dtype=bool)
        visited[path] = True
        nbr = b.neighbours
        marks = [(s, int(sum(1 for u in nbr[s] if u >= 0 and not visited[u])))
                 for s in (step.square, *step.rivals)]
        self.view.set_candidates(marks, chosen=step.square)
        now = time.perf_counter()
        mo = None
        if force_matrix or now - self._matrix_at >= MATRIX_EVERY:
            self._matrix_at = now
            mo = w.options()
        if mo is not None:
            mo[:, 0] = 0
            self.matrix.show_matrix(mo, 0, SquareNames(b, path[: mo.shape[0] - 1]),
                                    f"Watching: move {step.number:,}, "
                                    f"{step.solutions:,} solutions so far")
        state = (f"dead end — backed up to move {flash.backed_up_to:,}" if flash is not None
                 and flash.backed_up_to is not None else
                 f"solution {step.solution:,} found" if step.solution else "")
        if self.paused:
            state = f"Paused at move {step.number:,}" + (f": {state}" if state else
                                                         " (Step: one move)")
        self.counter.set_counts(found=step.solutions, state=state or "Watching…")
        self._show_time(step, seconds)
        if flash is not None:
            if flash.backed_up_to is None:
                self.status.emit(f"Dead end at move {flash.number:,}: every square is visited "
                                 "but the last is not a move from the end square")
            else:
                self.status.emit(f"Dead end: no unvisited square a move away; backed up to "
                                 f"move {flash.backed_up_to:,}")
