"""Results presenter: shows the solver thread's signals in the views and keeps the found
solutions for stepping. Every slot ignores signals of an older generation, so a superseded
or cancelled run never reaches the screen."""
from __future__ import annotations

from collections.abc import Sequence
from typing import overload

import numpy as np
from PySide6.QtCore import QObject, QTimer, Signal

from knightgui.panels.counter import EXHAUSTED_TEXT, format_seconds
from knightgui.request.model import Mode
from knightgui.solutions.classes import TourClasses
from knightgui.solutions.store import SolutionStore
from knightgui.window.single_caption import single_tour_caption
from knightgui_core.board.squares import Board
from knightgui_core.board.tour import Tour


class SquareNames(Sequence[str]):
    """The names of ``squares`` on ``board``, each made when it is read: the options matrix
    reads only the rows it paints, so a step costs no name for the rows out of sight."""

    def __init__(self, board: Board, squares: np.ndarray):
        self._board, self._squares = board, squares

    def __len__(self) -> int:
        return len(self._squares)

    @overload
    def __getitem__(self, i: int) -> str: ...

    @overload
    def __getitem__(self, i: slice) -> list[str]: ...

    def __getitem__(self, i: int | slice) -> str | list[str]:
        if isinstance(i, slice):
            return [self._board.name(int(s)) for s in self._squares[i]]
        return self._board.name(int(self._squares[i]))


class ResultsPresenter(QObject):
    """The presenter of one window (see the module docstring)."""
    status = Signal(str)                  # one line for the status bar
    errorDialog = Signal(str, str)        # title, text
    busyChanged = Signal(bool)
    tourShown = Signal(object)            # knightgui_core.board.tour.Tour now on the board (or None)
    currentChanged = Signal(int)          # 1-based number of the solution shown

    def __init__(self, worker, view, matrix, counter, timing, parent=None):
        super().__init__(parent)
        self.worker, self.view, self.matrix = worker, view, matrix
        self.counter, self.timing = counter, timing
        self.store = SolutionStore()
        self.gen = 0
        self.request = None
        self.board: Board | None = None
        self.current = -1
        self.tour: Tour | None = None
        self.ties = None
        self.running = self.cancelled = self.exhausted = self._want_next = False
        self.found = 0
        #: the figures are marked stale (:meth:`mark_stale`) and nothing was run or shown since
        self.stale = False
        #: step through new tours only (skip a solution that repeats an earlier tour up to
        #: the board's symmetries, reversal or the start of its cycle)
        self.new_only = False
        self.classes: TourClasses | None = None
        self.play_timer = QTimer(self)
        self.play_timer.timeout.connect(self._play_tick)
        self.set_play_speed(10)
        worker.tourSolved.connect(self._on_tour)
        worker.solutionsFound.connect(self._on_solutions)
        worker.progress.connect(self._on_progress)
        worker.finishedRun.connect(self._on_finished)
        worker.failed.connect(self._on_failed)

    # -------------------------------------------------------------- requests
    def submit(self, req):
        """Start a run for ``req`` (a newer one supersedes it); returns its generation."""
        self.stop_play()
        self.request = req
        self.board = req.board()
        self.stale = self.cancelled = self.exhausted = self._want_next = False
        self.running, self.found = True, 0
        self.tourShown.emit(None)       # the shown tour's id goes with it
        if req.mode == Mode.EXHAUSTIVE:
            self.store.clear(req.rows * req.cols)
            self.classes = self._new_classes(self.board)
            self.current = -1
            self.counter.set_counts(found=0, state="Searching…")
            self.matrix.clear("Searching…")
            self.timing.start("enumerating…")
        else:
            self.timing.start("solving…")
        self.gen = self.worker.submit(req)
        self.busyChanged.emit(True)
        self.status.emit(f"{'Enumerating' if req.mode == 'exhaustive' else 'Solving'} "
                         f"{req.rows}×{req.cols}…")
        return self.gen

    def cancel(self):
        """Stop the running search; what was found stays steppable."""
        if not self.running:
            return
        self.gen = self.worker.cancel()
        self.running = self._want_next = False
        self.cancelled = True
        self.timing.stop("cancelled")
        self.busyChanged.emit(False)
        if self.request is not None and self.request.mode == Mode.EXHAUSTIVE:
            self.counter.set_counts(self.current + 1 if self.current >= 0 else None,
                                    self.found, None, False, len(self.store),
                                    state=f"Cancelled after {self.found:,} solutions")
        self.status.emit("Cancelled")

    def mark_stale(self, why: str):
        """The controls moved away from the shown run: a running search is cancelled, the
        stored solutions dropped, and the docks say ``why`` instead of the old figures
        (nothing is stale while nothing was run or shown)."""
        if not (self.running or self.request is not None or self.tour is not None):
            return
        if self.running:
            self.gen = self.worker.cancel()
            self.running = False
            self.busyChanged.emit(False)
        self.forget()
        self.stale, self.found, self.exhausted = True, 0, False
        self.timing.clear(f"stale: {why}")
        self.counter.mark_stale(f"Stale: {why}")
        self.matrix.clear(f"Stale: {why}")
        self.currentChanged.emit(1)

    def keep_watched(self, req, block, found: int, exhausted: bool, caption: str) -> None:
        """A watched enumeration of ``req`` ended with ``found`` solutions, those kept in
        ``block`` (a :class:`Packed` run from 1, or None) become the stored ones; the board
        keeps the search's last frame (no tour is shown), the options matrix ``caption``."""
        self.stop_play()
        self.request = req
        self.board = req.board()
        self.stale = self.running = self.cancelled = self._want_next = False
        self.exhausted, self.found = bool(exhausted), int(found)
        self.store.clear(req.rows * req.cols)
        if block is not None:
            self.store.extend(block)
        self.classes = self._new_classes(self.board)
        self.current, self.tour, self.ties = -1, None, None
        self.tourShown.emit(None)
        self._update_counter()
        self.matrix.clear(caption)
        self.currentChanged.emit(1)

    def forget(self):
        """Drop stored solutions (a tour from a file replaces them); nothing is stale."""
        self.stop_play()
        self.store.clear()
        self.classes = None
        self.current = -1
        self.request = None
        self.stale = False

    # ----------------------------------------------------------- worker slots
    def _on_tour(self, gen, res):
        if gen != self.gen:
            return
        self.running = False
        self.busyChanged.emit(False)
        self.timing.set_single(res.seconds, res.method, res.nodes)
        self.timing.stop("done" if res.ok else "no tour")
        req = self.request
        if req is None:                 # a result without its request: nothing to show
            return
        self.store.clear()
        self.current = -1
        self.ties = np.asarray(res.ties, dtype=bool) if len(res.ties) else None
        self.view.set_tour(res.path, req.closed and res.ok, self.ties, board=req.board())
        self.tour = res.tour
        self.matrix.clear(single_tour_caption(res, req.tie.label))
        self.counter.set_counts(state="single tour" if res.ok else "no tour",
                                warning=not res.ok)
        self.tourShown.emit(res.tour)
        self.status.emit(f"{res.message} ({format_seconds(res.seconds)})")
        if not res.ok:
            self.errorDialog.emit("No tour found", res.message)

    def _on_solutions(self, gen, batch):
        if gen != self.gen:
            return
        self.store.extend(batch)
        if self.current < 0 and len(self.store):
            self.show_solution(0)
        elif self._want_next and (j := self._next_index()) is not None:
            self._want_next = False
            self.show_solution(j)
        else:
            self._update_counter()

    def _on_progress(self, gen, st):
        if gen != self.gen:
            return
        self.found = st.solutions
        self._set_timing(st)
        self._update_counter()

    def _set_timing(self, st):
        self.timing.set_enumeration(st.solutions, st.dead_ends, st.forward_moves, st.seconds,
                                    self.request is not None and self.request.all_tours)

    def _on_finished(self, gen, st):
        if gen != self.gen:
            return
        self.running = self._want_next = False
        self.found, self.exhausted = st.solutions, st.exhausted
        self.busyChanged.emit(False)
        self._set_timing(st)
        self.timing.stop("done")
        self._update_counter()
        if st.exhausted:
            dead = "" if st.dead_ends is None else f"{st.dead_ends:,} dead ends, "
            self.status.emit(f"{EXHAUSTED_TEXT}: {st.solutions:,} solutions, {dead}"
                             f"{format_seconds(st.seconds)}")
        else:
            self.status.emit(f"Stopped after {st.solutions:,} solutions")
        if st.solutions == 0 and self.request is not None:
            self.view.set_tour(np.zeros(0, dtype=np.int32), board=self.request.board())
            self.matrix.clear("No solution: Warnsdorff's rule allows no tour with these "
                              "choices.")

    def _on_failed(self, gen, message, bad_input):
        if gen != self.gen:
            return
        self.running = False
        self.busyChanged.emit(False)
        self.timing.stop("failed")
        self.status.emit(message)
        self.errorDialog.emit("Cannot solve" if bad_input else "Solver error", message)

    def _update_counter(self):
        if self.request is None or self.request.mode != Mode.EXHAUSTIVE:
            return
        state = None
        if not self.running and not self.exhausted:
            state = (f"Cancelled after {self.found:,} solutions" if self.cancelled else
                     f"Stopped after {self.found:,} solutions")
        elif self.running:
            state = "Searching…"
        self.counter.set_counts(self.current + 1 if self.current >= 0 else None,
                                max(self.found, len(self.store)),
                                self.found if self.exhausted else None, self.exhausted,
                                len(self.store), state)

    # ------------------------------------------------------------- stepping
    def show_solution(self, i: int) -> bool:
        """Show stored solution ``i`` (0-based) on the board, matrix and counter."""
        b = self.board
        if b is None or not 0 <= i < len(self.store):
            return False
        path = self.store.path(i)
        every = self.request is not None and self.request.all_tours
        mo = self.store.mo(i)
        branch = self.store.branch(i)
        # a closed run's solutions all close; a file says nothing of the run, so each of its
        # solutions is shown closed when it closes
        closed = (self.request is not None and bool(self.request.closed)
                  and b.is_knight_move(int(path[-1]), int(path[0])))
        self.current = i
        meta: dict[str, object] = {"method": "all-tours" if every else "phadke-enumeration",
                                   "solution": self.store.index(i)}
        same = self.same_as(i)
        if same is not None:
            meta["same_as"] = same
        self.tour = Tour(b, path, closed, meta)
        self.ties = None
        self.view.set_tour(path, closed, None, board=b)
        names = SquareNames(b, path[: mo.shape[0] - 1])
        sym = getattr(self.request, "symmetry", "")
        if every and sym:
            self.matrix.clear(f"Tour {self.store.index(i):,}: one of the tours the {sym} "
                              "maps onto itself, any rule — no options matrix")
        elif every:
            self.matrix.clear(f"Path {self.store.index(i):,}: every knight's path from the "
                              "start, not only Warnsdorff's — no options matrix")
        else:
            self.matrix.show_matrix(mo, branch, names,
                                    f"Options matrix of solution {self.store.index(i):,}"
                                    + (f" — branched at move {branch}" if branch else
                                       " — no backtracking"))
        self._update_counter()
        self.tourShown.emit(self.tour)
        self.currentChanged.emit(i + 1)
        return True

    # ------------------------------------------------------ new tours only
    def _new_classes(self, board: Board) -> TourClasses:
        return TourClasses(board, self.store.path, lambda: len(self.store), self.store.index,
                           self.store.paths)

    def set_new_only(self, on: bool) -> None:
        """Step through new tours only (Next/Previous skip a solution that repeats an
        earlier one up to symmetry); the shown solution stays."""
        self.new_only = bool(on)
        self.status.emit("Stepping through new tours only (a tour the same as an earlier one "
                         "up to turns, mirrors and reversal is skipped)" if on else
                         "Stepping through every solution")

    def same_as(self, i: int) -> str | None:
        """What kept solution ``i`` repeats ("solution 17 rotated 90° clockwise"), "a new
        tour", or None when not worked out (no run, or a jump too far to compare)."""
        c = self.classes
        if c is None or self.board is None or len(self.store) == 0:
            return None
        if not (self.new_only or c.within_reach(i)):
            return None
        try:
            return c.describe(i) or "a new tour"
        except (IndexError, ValueError):
            return None

    def _next_index(self) -> int | None:
        """The solution Next shows: the one after the current, or with new tours only the
        next new one kept (None when there is none yet)."""
        if self.new_only and self.classes is not None:
            return self.classes.next_new(self.current)
        return self.current + 1 if self.current + 1 < len(self.store) else None

    def next(self) -> bool:
        """Show the next solution (or new tour); waits for the search when none is kept."""
        j = self._next_index()
        if j is not None:
            return self.show_solution(j)
        if self.running:
            self._want_next = True
            self.status.emit("Searching for the next new tour…" if self.new_only else
                             "Searching for the next solution…")
        elif self.exhausted and len(self.store) == self.found:
            if self.new_only and self.classes is not None:
                self.status.emit(f"{EXHAUSTED_TEXT} — no new tour after solution "
                                 f"{self.current + 1:,} ({self.classes.classes:,} different "
                                 f"tours among the {self.found:,} solutions)")
            else:
                self.status.emit(f"{EXHAUSTED_TEXT} — last solution {self.found:,}")
            self.stop_play()
        elif len(self.store) < self.found:
            self.status.emit(f"Only the first {len(self.store):,} solutions are kept "
                             "(raise 'Keep' to step further)")
            self.stop_play()
        return False

    def previous(self) -> bool:
        """Show the previous solution (or the previous new tour)."""
        if self.new_only and self.classes is not None and self.current > 0:
            j = self.classes.previous_new(self.current)
            return self.show_solution(j) if j is not None else False
        return self.show_solution(self.current - 1) if self.current > 0 else False

    def first(self) -> bool:
        """Show the first solution."""
        return self.show_solution(0)

    def last(self) -> bool:
        """Show the last solution kept (with new tours only, the last new tour kept)."""
        if self.new_only and self.classes is not None and len(self.store):
            j = self.classes.last_new()
            return self.show_solution(j) if j is not None else False
        return self.show_solution(len(self.store) - 1)

    def jump(self, number: int) -> bool:
        """Show solution ``number`` (1-based)."""
        if self.show_solution(int(number) - 1):
            return True
        self.status.emit(f"Solution {number:,} is not available ({len(self.store):,} found so "
                         "far)")
        return False

    def set_play_speed(self, per_second: float):
        """Solutions per second while playing."""
        self.play_timer.setInterval(max(int(1000 / max(per_second, 0.1)), 1))

    def toggle_play(self) -> bool:
        """Play or stop; returns whether it plays now."""
        if self.play_timer.isActive():
            self.stop_play()
            return False
        if len(self.store) == 0:
            return False
        self.play_timer.start()
        return True

    def stop_play(self):
        """Stop playing."""
        self.play_timer.stop()

    def _play_tick(self):
        try:
            if not self.next() and not self.running:
                self.stop_play()
        except Exception:  # noqa: BLE001 - never raise out of a timer slot
            self.stop_play()
