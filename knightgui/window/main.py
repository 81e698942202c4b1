"""The explorer window: board in the middle, controls on the left, options matrix, counter and
timing on the right; toolbar for stepping and animation; File / View / Run / Play / Help menus
(View ▸ Analysis opens the Analysis view in a window of its own); status bar with the hovered
square. The controls edit a :class:`knightgui.request.model.RequestModel`; the window observes it
and marks the shown figures stale when the board, mode, start or end change."""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QCloseEvent, QStatusTipEvent
from PySide6.QtWidgets import QApplication, QDockWidget, QLabel, QMainWindow, QMessageBox

from knightgui import settings
from knightgui.animation.player import ConstructionAnimator
from knightgui.board.view import BoardView
from knightgui.panels.controls.panel import ControlsPanel
from knightgui.panels.counter import CounterPanel, TimingPanel
from knightgui.panels.options_matrix import OptionsMatrixView
from knightgui.play.controller import PlayController
from knightgui.request.model import RESULT_FIELDS, Mode
from knightgui.solutions.results import ResultsPresenter
from knightgui.window.actions import make_actions
from knightgui.window.engine_warmup import show_in, stages_for
from knightgui.window.files import FileActions, guarded
from knightgui.window.shown_tour import show_from_elsewhere
from knightgui.window.status_line import StatusBar
from knightgui.window.watch_player import WatchPlayer
from knightgui.worker import SolverThread
from knightgui_core.board.squares import Board, square_name

if TYPE_CHECKING:
    from knightgui.analysis.window import AnalysisWindow

log = logging.getLogger("knightgui.window")
#: the window's own title: Qt appends the application's display name ("… — knightgui") on
#: the platforms that show it
TITLE = "Knight's tour explorer"


def can_watch(exhaustive: bool, every: bool, method: str) -> bool:
    """Whether Watch can play the run's search: Phadke's enumeration (Exhaustive mode, not
    every tour: the every-path and symmetric listings are not watched) or the backtracking
    walk of a single tour."""
    return not every if exhaustive else method == "backtrack"


class MainWindow(QMainWindow):
    """The explorer window (see the module docstring): it wires the controls' model, the solver thread,
    the results presenter and the views together."""
    firstPaint = Signal()
    def __init__(self, restore_settings: bool = True) -> None:
        super().__init__()
        self.setWindowTitle(TITLE)
        self.resize(1280, 820)
        self.state_restored = False
        self._stale_fields: frozenset[str] = frozenset()   # named by the stale note
        self._tip: str | None = None       # the status tip shown, and the message it covers
        self._covered = ""
        self.setStatusBar(StatusBar())     # a message cut by its width: whole in the tooltip
        self.view = BoardView()
        self.setCentralWidget(self.view)
        self.controls = ControlsPanel()
        self.matrix = OptionsMatrixView()
        self.counter = CounterPanel()
        self.timing = TimingPanel()
        # the panel scrolls its own fields (up and down only); Solve and Cancel stay in sight
        self.controls_dock = self._dock("Controls", self.controls, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.counter_dock = self._dock("Solutions", self.counter, Qt.DockWidgetArea.RightDockWidgetArea)
        self.timing_dock = self._dock("Timing", self.timing, Qt.DockWidgetArea.RightDockWidgetArea)
        self.matrix_dock = self._dock("Options matrix", self.matrix, Qt.DockWidgetArea.RightDockWidgetArea)
        self.analysis: AnalysisWindow | None = None   # the Analysis view, made when first opened
        self.resizeDocks([self.controls_dock, self.matrix_dock], [340, 340], Qt.Orientation.Horizontal)
        self.worker = SolverThread(self)
        self.results = ResultsPresenter(self.worker, self.view, self.matrix, self.counter,
                                        self.timing, self)
        self.animator = ConstructionAnimator(self.view, self)
        self.watcher = WatchPlayer(self.view, self.matrix, self.counter, self.timing, self)
        self.files = FileActions(self, self.view, self.tour_on_board, self.show_tour,
                                 self.statusBar().showMessage, self.show_error)
        self.engine, self.engine_status = show_in(self.statusBar())   # the warm-up's progress
        self.hover_label = QLabel()
        self.statusBar().addPermanentWidget(self.hover_label)
        self.act = make_actions(self)
        self._connect()
        self.play = PlayController(self)        # a tour by hand: the Mode box's play mode
        for sig in (self.results.currentChanged, self.results.busyChanged,
                    self.results.tourShown, self.watcher.activeChanged,
                    self.animator.finished):
            sig.connect(lambda *_: self.update_actions())
        self.controls.model.observe(lambda _c: self.update_actions())
        self._restore_settings = restore_settings
        if restore_settings:
            try:
                settings.load(self)
            except Exception:  # noqa: BLE001 - bad settings never stop the window
                log.exception("could not restore settings")
        self.fit_screen()
        self.view.set_board(board=self.controls.board())
        self.view.set_markers(*self.controls.marked_squares())
        self.statusBar().showMessage("Ready — choose a board and press Solve (Ctrl+R)")
        self.update_actions()
        self._painted = False
        self.view.viewport().installEventFilter(self)
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self._shutdown)

    # ------------------------------------------------------------------ layout
    def fit_screen(self) -> None:
        """Keep the window within its screen's free area: the default 1280 × 820, or a size
        restored from a larger screen, shrinks to a smaller screen (1024 × 700: the board,
        fitted to its view, is then fitted to what the screen shows)."""
        screen = self.screen() or QApplication.primaryScreen()
        if screen is None:
            return
        room = screen.availableGeometry()
        w, h = min(self.width(), room.width()), min(self.height(), room.height())
        if (w, h) != (self.width(), self.height()):
            self.resize(w, h)
            self.move(room.topLeft())

    def _dock(self, title, widget, area) -> QDockWidget:
        d = QDockWidget(title, self)
        d.setObjectName(title.replace(" ", "_").lower())
        d.setWidget(widget)
        self.addDockWidget(area, d)
        return d

    def open_analysis(self, *_, staged: bool = False):
        """Show the Analysis view, made on first use (its pages one by one when ``staged``:
        View ▸ Analysis, :mod:`knightgui.analysis.opener`, which imports its modules first)."""
        view = self.analysis
        if view is None:
            from knightgui.analysis.window import AnalysisWindow
            self.analysis = view = AnalysisWindow(self, staged=staged)
            view.show_tour.connect(self.show_tour)
            view.start_chosen.connect(self.use_start)
            if self._restore_settings:
                try:
                    settings.load_analysis(view)
                except Exception:  # noqa: BLE001 - bad settings never stop the view
                    log.exception("could not restore the Analysis view's settings")
        view.show()
        view.raise_()
        view.activateWindow()
        return view

    def event(self, ev: QEvent) -> bool:
        """A hovered button's status tip shows in the status bar and, once the pointer
        leaves, the message it covered comes back (Qt's own handling clears it for good)."""
        if ev.type() == QEvent.Type.StatusTip and isinstance(ev, QStatusTipEvent):
            bar, tip = self.statusBar(), ev.tip()
            if tip:
                if self._tip is None or bar.currentMessage() != self._tip:
                    self._covered = bar.currentMessage()
                self._tip = tip
                bar.showMessage(tip)
            elif self._tip is not None:
                if bar.currentMessage() == self._tip:      # nothing newer was said
                    bar.showMessage(self._covered)
                self._tip = None
            return True
        return super().event(ev)

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:
        """Report the board's first painted frame (``firstPaint``), once."""
        if obj is self.view.viewport() and ev.type() == QEvent.Type.Paint and not self._painted:
            self._painted = True
            self.view.viewport().removeEventFilter(self)
            self.firstPaint.emit()
        return False

    def _connect(self):
        c = self.controls
        c.solveRequested.connect(self._solve_request)
        c.cancelRequested.connect(self.cancel)
        c.boardChanged.connect(self._board_changed)
        c.squaresChanged.connect(self._squares_changed)
        c.message.connect(self._controls_message)
        c.model.observe(self._model_changed)
        self.view.squareClicked.connect(self._square_clicked)
        self.results.tourShown.connect(self.counter.show_identity)
        self.view.squareHovered.connect(self._hovered)
        r = self.results
        r.status.connect(lambda s: self.statusBar().showMessage(s))
        r.errorDialog.connect(self.show_error)
        r.busyChanged.connect(self._busy)
        self.act.jump_box.valueChanged.connect(lambda n: self.results.jump(n))
        r.currentChanged.connect(self._current_changed)
        for box, set_speed in ((self.act.play_speed, self.results.set_play_speed),
                               (self.act.anim_speed, self.animator.set_speed),
                               (self.act.watch_speed, self.watcher.set_speed)):
            box.valueChanged.connect(set_speed)
            set_speed(box.value())
        self.animator.finished.connect(lambda: self.act.anim.setChecked(False))
        self.animator.frame.connect(self._anim_frame)
        self.watcher.status.connect(lambda s: self.statusBar().showMessage(s))
        self.watcher.activeChanged.connect(self._watch_active)
        self.watcher.finished.connect(lambda *_: self._keep_watched())

    # ---------------------------------------------------------------- slots
    @guarded
    def open_solutions(self, *_, filename=None):
        """Step through a solutions file written by ``knightgui enumerate --out``."""
        from knightgui.solutions.file import open_solutions_file
        return open_solutions_file(self, filename)

    def show_error(self, title: str, text: str) -> None:
        """A warning dialog, its text shortened to what a dialog can show."""
        from knightgui_core.system.text import shorten
        QMessageBox.warning(self, title, shorten(str(text), 600))

    @guarded
    def show_tour(self, tour):
        """Show a ``Tour`` or a stuck ``Walk`` from a file or the Analysis view; the controls
        take its start (:func:`knightgui.window.shown_tour.show_from_elsewhere`)."""
        if tour is not None:
            show_from_elsewhere(self, tour)
            self.update_actions()

    def _model_changed(self, changed: frozenset) -> None:
        """Board, mode, start, end or closed changed: what the panels show is stale. The
        stale note names every field changed since the figures were made, not only the
        latest change."""
        s = self.controls.model.settings                 # every-tour mode's symmetry, drawn
        self.view.set_symmetry(s.symmetry if s.mode == "exhaustive" and s.all_tours else "")
        if not changed & RESULT_FIELDS:
            return
        self.watcher.stop(quiet=True)
        if self.engine.forget("board"):          # a run waiting for the engine is stale too
            self._busy(False)
        words = {"rows": "board", "cols": "board", "mode": "mode", "start": "start",
                 "end": "end", "closed": "open/closed", "topology": "edges",
                 "leaper": "piece"}
        fields = changed & RESULT_FIELDS
        if self.results.stale:
            fields |= self._stale_fields
        self._stale_fields = fields
        what = ", ".join(sorted({words.get(f, f) for f in fields}))
        self.results.mark_stale(f"{what} changed — press Solve (Ctrl+R)")

    @guarded
    def solve(self, *_):
        """Solve with the controls as they are (Ctrl+R)."""
        self.controls.submit()

    @guarded
    def _solve_request(self, req):
        if self.play.active:                    # Solve in play mode: the rule finishes it
            return self.play.finish()
        self.animator.stop(restore=False)
        self.watcher.stop(quiet=True)
        self._current_changed(1)
        watch = self.act.watch.isChecked() and can_watch(req.mode == Mode.EXHAUSTIVE,
                                                         req.all_tours, req.method)
        # runs once the kernels it needs are ready (an empty cache: the warm-up's stages)
        if not self.engine.when_ready(stages_for(req, watch), lambda: self._run_request(req, watch),
                                      "board"):
            self.results.cancel()
            self._busy(True)
            self.statusBar().showMessage(self.engine.wait_text())

    @guarded
    def _run_request(self, req, watch: bool) -> None:
        self._busy(False)
        if watch:
            self.results.cancel()
            self.results.forget()
            self.results.tour = self.results.ties = None     # the board shows the search
            self.watcher.start(req)
            return
        self.results.submit(req)

    @guarded
    def toggle_watch(self, *_: object) -> None:
        """Watch on: the next exhaustive or backtracking Solve plays the search itself. Off
        while watching: the same search runs to its end at full speed on the solver thread
        (its solutions kept for stepping)."""
        if self.act.watch.isChecked():
            st = self.controls.model.settings
            if not can_watch(st.mode == "exhaustive", st.all_tours, st.method):
                self.statusBar().showMessage("Watch plays a search: choose Exhaustive mode "
                                             "(not every tour) or the backtrack method, then "
                                             "Solve (Ctrl+R)")
            else:
                self.statusBar().showMessage("Watch on: Solve (Ctrl+R) plays the search")
            return
        req = self.watcher.request if self.watcher.active else None
        self.watcher.stop(quiet=True)
        self.act.watch_pause.setChecked(False)
        if req is not None:
            self.results.submit(req)
            self.statusBar().showMessage("Watch off: the search goes on at full speed")

    @guarded
    def pause_watch(self, *_: object) -> None:
        """Pause or resume the watched search."""
        self.watcher.set_paused(self.act.watch_pause.isChecked())

    @guarded
    def step_watch(self, *_: object) -> None:
        """One forward move of the watched search (it pauses)."""
        if self.watcher.step_once() is not None:
            self.act.watch_pause.setChecked(True)

    def _watch_active(self, active: bool) -> None:
        """A watch started or ended: Cancel and the busy controls follow; an ended watch
        leaves Pause up (the next watch plays)."""
        self.act.cancel.setEnabled(active or self.results.running)
        self.controls.set_busy(active or self.results.running)
        if not active:
            self.act.watch_pause.setChecked(False)

    @guarded
    def cancel(self, *_: object) -> None:
        """Stop the running search (Esc); found solutions stay steppable."""
        if self.engine.forget("board"):
            self._busy(self.results.running)
            self.statusBar().showMessage("Cancelled")
        if self.watcher.active:
            self.watcher.stop()
            self._keep_watched()
            return
        self.results.cancel()

    def _keep_watched(self) -> None:
        """A watch stopped (Esc) or ended: an enumeration's solutions met so far become the
        steppable ones and the panels say it stopped (a last frame that is the solution just
        met is shown as that solution, saved and exported as the board shows it); a
        backtracking walk's tour becomes the shown tour."""
        w = self.watcher
        req, step = w.request, w.last
        if req is None:
            return
        if req.mode != Mode.EXHAUSTIVE:
            path = self.view.path
            b = req.board()
            if step is not None and step.solution and len(path) == b.size:
                from knightgui_core.board.tour import Tour
                self.results.tour = Tour(b, path.copy(), bool(req.closed)
                                         and b.is_knight_move(int(path[-1]), int(path[0])),
                                         {"method": "warnsdorff-backtracking (watched)"})
                self.results.tourShown.emit(self.results.tour)
            return
        found = 0 if step is None else step.solutions
        done = step is not None and step.done
        at = "" if step is None or done else f" at move {step.number:,}"
        steps = "; ▶ (Right) steps through them" if found else ""
        path = self.view.path.copy()
        self.results.keep_watched(
            req, w.kept(), found, done,
            f"Watch {'ended' if done else 'stopped'}{at}: {found:,} "
            f"solution{'s' if found != 1 else ''} found{steps}")
        kept = len(self.results.store)
        if kept and np.array_equal(self.results.store.path(kept - 1), path):
            self.results.show_solution(kept - 1)    # the frame kept is that solution

    def update_actions(self) -> None:
        """Enable what can act now: stepping with solutions, Watch where :func:`can_watch`
        (unchecked where it cannot), Pause and Step while watching, Animate with a tour."""
        a = self.act
        st = self.controls.model.settings
        play = st.mode == "play"
        watching = self.watcher.active
        r = self.results
        solutions = (not play and not watching
                     and (len(r.store) > 0 or (r.running and st.mode == "exhaustive")))
        for x in (a.first, a.prev, a.next, a.last, a.play, a.jump_box, a.play_speed):
            x.setEnabled(solutions)
        a.new_only.setEnabled(st.mode == "exhaustive")
        watchable = not play and can_watch(st.mode == "exhaustive", st.all_tours, st.method)
        a.watch.setEnabled(watchable or watching)
        if not (watchable or watching):
            # a Watch that cannot act is off, not checked and greyed; it stays off when the
            # mode allows it again, until the user checks it (setChecked: no toggle_watch)
            a.watch.setChecked(False)
        a.watch_speed.setEnabled(watchable or watching)
        a.watch_pause.setEnabled(watching)
        a.watch_step.setEnabled(watching)
        animate = self.animator.running or (not play and not watching
                                            and self.tour_on_board() is not None)
        a.anim.setEnabled(animate)
        a.anim_speed.setEnabled(animate)

    def tour_on_board(self):
        """The complete tour the board shows (or whose construction it is animating), or
        None (the board shows a watched search's path, a walk, a hand-made path or
        nothing): what Save and Export write."""
        t = self.results.tour
        if t is not None and self.animator.running:    # its construction is being played
            return t
        if t is None or len(t.path) != len(self.view.path) or \
                not np.array_equal(np.asarray(t.path), self.view.path):
            return None
        return t

    def _current_changed(self, number: int) -> None:
        self.act.jump_box.blockSignals(True)
        self.act.jump_box.setValue(number)
        self.act.jump_box.blockSignals(False)

    def _busy(self, busy: bool) -> None:
        self.controls.set_busy(busy)
        self.act.cancel.setEnabled(busy)

    @guarded
    def _board_changed(self, rows: int, cols: int) -> None:
        board = self.controls.board()
        if board != self.view.board:
            self.animator.stop(restore=False)
            self.view.set_board(board=board)

    @guarded
    def _squares_changed(self, start: int, end: int) -> None:
        self.view.set_markers(start, end)

    def _controls_message(self, text: str) -> None:
        if text:
            self.statusBar().showMessage(text)
        else:
            self.statusBar().clearMessage()

    @guarded
    def use_start(self, board: Board, sq: int) -> None:
        """Make ``sq`` of ``board`` the start (from the Analysis view's heat map): the board
        (its size, edges and piece) changes when it must."""
        if board != self.controls.board():
            self.controls.set_board(board.rows, board.cols, board=board)
            self.view.set_board(board=self.controls.board())
        self.controls.set_start(sq)
        self.statusBar().showMessage(f"Start set to {self.controls.board().name(sq)} — "
                                     "press Solve (Ctrl+R)")
        self.raise_()
        self.activateWindow()

    @guarded
    def _square_clicked(self, sq: int, as_end: bool) -> None:
        name = self.controls.board().name(sq)
        if as_end:
            done = self.controls.set_end(sq)
            if done:
                self.statusBar().showMessage(f"{done} — press Solve (Ctrl+R)")
        else:
            self.controls.set_start(sq)
            self.statusBar().showMessage(f"Start set to {name} — press Solve (Ctrl+R)")

    def _hovered(self, sq: int) -> None:
        try:
            if sq < 0:
                self.hover_label.setText("")
                return
            v = self.view
            st = self.controls.model.settings
            name = self.controls.board().name(sq) if (v.rows, v.cols) == (st.rows, st.cols) \
                else square_name(sq % v.cols, sq // v.cols)
            k = v.move_number(sq)
            text = f"{name}  ·  move {k}" if k else f"{name}  ·  not visited"
            self.hover_label.setText(f"{text}  ·  {v.outlets(sq)} outlets")
        except Exception:  # noqa: BLE001
            self.hover_label.setText("")

    def set_view_options(self, numbers: bool | None = None, path: bool | None = None,
                         ties: bool | None = None, colour: str | None = None,
                         sums: bool | None = None) -> None:
        """Set the View menu's toggles and colouring (None: leave as is)."""
        for act, val in ((self.act.numbers, numbers), (self.act.path, path),
                         (self.act.ties, ties), (self.act.sums, sums)):
            if val is not None:
                act.setChecked(bool(val))
        if colour in self.act.colour:
            self.act.colour[colour].setChecked(True)
        self._view_toggled()

    @guarded
    def _view_toggled(self, *_: object) -> None:
        mode = next((k for k, a in self.act.colour.items() if a.isChecked()), "auto")
        self.view.colour_mode = mode
        self.view.set_options(numbers=self.act.numbers.isChecked(),
                              path=self.act.path.isChecked(), ties=self.act.ties.isChecked(),
                              sums=self.act.sums.isChecked())

    @guarded
    def toggle_play(self, *_: object) -> None:
        """Play or pause stepping through the solutions (Space)."""
        self.act.play.setChecked(self.results.toggle_play())

    @guarded
    def toggle_animation(self, *_: object) -> None:
        """Start or stop the construction animation of the shown tour (Ctrl+A)."""
        if self.animator.running:
            self.animator.stop(restore=True)
            return
        tour = self.results.tour
        if tour is None:
            self.act.anim.setChecked(False)
            self.statusBar().showMessage("No tour to animate: solve or open one first")
            return
        self.results.stop_play()
        self.act.play.setChecked(False)
        reserved = ()
        if self.results.current >= 0:
            L = self.results.store.mo_length - 1
            reserved = tour.path[L:]
        self.animator.start(tour.path, tour.closed, tour.rows, tour.cols,
                            self.results.ties, reserved)
        self.act.anim.setChecked(True)

    def _anim_frame(self, k: int, total: int) -> None:
        self.statusBar().showMessage(f"Construction: move {k:,} of {total:,}")

    # --------------------------------------------------------------- events
    def _shutdown(self) -> None:
        """Stop every thread (application quitting without the window being closed)."""
        self.results.stop_play()
        self.animator.stop(restore=False)
        self.watcher.stop(quiet=True)
        self.worker.stop()
        if self.analysis is not None:
            self.analysis.shutdown()

    def closeEvent(self, event: QCloseEvent) -> None:
        """Save the settings, stop every thread, close the Analysis view."""
        try:
            settings.save(self)
        except settings.SettingsError as e:
            log.warning("%s", e)
        except Exception:  # noqa: BLE001
            log.exception("could not save settings")
        self._shutdown()
        self.timing.stop("closed")
        if self.analysis is not None:
            self.analysis.close()
        super().closeEvent(event)
