"""The explorer window: board in the middle, controls on the left, options matrix, counter,
timing (and the move-order analysis when available) on the right; toolbar for stepping and
animation; File / View / Run menus; status bar with the hovered square."""
from __future__ import annotations

import logging

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (QApplication, QDockWidget, QLabel, QMainWindow, QMessageBox,
                               QScrollArea, QSpinBox, QStyle, QToolBar)
from knightgui_core.board import square_name

from . import settings
from .animation import ConstructionAnimator
from .board_view import BoardView
from .file_actions import FileActions, guarded
from .panels.controls import ControlsPanel
from .panels.counter import CounterPanel, TimingPanel
from .panels.options_matrix import OptionsMatrixView
from .results import ResultsPresenter
from .worker import SolverThread

log = logging.getLogger("knightgui.window")


class MainWindow(FileActions, QMainWindow):
    firstPaint = Signal()

    def __init__(self, restore_settings: bool = True):
        super().__init__()
        self.setWindowTitle("knightgui — knight's tour explorer")
        self.resize(1280, 820)
        self.last_dir = ""
        self.state_restored = False
        self.view = BoardView()
        self.setCentralWidget(self.view)
        self.controls = ControlsPanel()
        self.matrix = OptionsMatrixView()
        self.counter = CounterPanel()
        self.timing = TimingPanel()
        scroll = QScrollArea()
        scroll.setWidget(self.controls)
        scroll.setWidgetResizable(True)
        scroll.setMinimumWidth(270)
        self.controls_dock = self._dock("Controls", scroll, Qt.LeftDockWidgetArea)
        self.counter_dock = self._dock("Solutions", self.counter, Qt.RightDockWidgetArea)
        self.timing_dock = self._dock("Timing", self.timing, Qt.RightDockWidgetArea)
        self.matrix_dock = self._dock("Options matrix", self.matrix, Qt.RightDockWidgetArea)
        # the analysis dock loads numba-backed studies: add it after the first frame
        self.analysis_dock = None
        self.resizeDocks([self.controls_dock, self.matrix_dock], [340, 340], Qt.Horizontal)
        self.worker = SolverThread(self)
        self.results = ResultsPresenter(self.worker, self.view, self.matrix, self.counter,
                                        self.timing, self)
        self.animator = ConstructionAnimator(self.view, self)
        self.hover_label = QLabel()
        self.statusBar().addPermanentWidget(self.hover_label)
        self._make_actions()
        self._connect()
        if restore_settings:
            try:
                settings.load(self)
            except Exception:  # noqa: BLE001 - bad settings never stop the window
                log.exception("could not restore settings")
        self.view.set_board(self.controls.rows.value(), self.controls.cols.value())
        self.view.set_markers(self.controls.start_square(), self.controls.end_square())
        self.statusBar().showMessage("Ready — choose a board and press Solve (Ctrl+R)")
        self._painted = False
        self.view.viewport().installEventFilter(self)
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self._shutdown)

    # ------------------------------------------------------------------ layout
    def _dock(self, title, widget, area) -> QDockWidget:
        d = QDockWidget(title, self)
        d.setObjectName(title.replace(" ", "_").lower())
        d.setWidget(widget)
        self.addDockWidget(area, d)
        return d

    def _add_analysis(self):
        """Add the move-order analysis dock (issue 6) when its module is there."""
        if self.analysis_dock is not None:
            return self.analysis_dock
        try:
            from .panels.analysis import AnalysisDock
        except Exception:  # noqa: BLE001 - the analysis dock is optional
            return None
        try:
            dock = AnalysisDock(self)
            dock.setObjectName(dock.objectName() or "analysis")
            # placed where the saved layout had it, else tabbed with the options matrix
            if not (self.state_restored and self.restoreDockWidget(dock)):
                self.addDockWidget(Qt.RightDockWidgetArea, dock)
                self.tabifyDockWidget(self.matrix_dock, dock)
                self.matrix_dock.raise_()
            dock.show_tour.connect(self.show_tour)
            self.view_menu.addAction(dock.toggleViewAction())
            self.analysis_dock = dock
            return dock
        except Exception:  # noqa: BLE001
            log.exception("analysis dock failed")
            return None

    def eventFilter(self, obj, ev):
        if obj is self.view.viewport() and ev.type() == QEvent.Paint and not self._painted:
            self._painted = True
            self.view.viewport().removeEventFilter(self)
            QTimer.singleShot(0, self._after_first_frame)
            self.firstPaint.emit()
        return False

    def _after_first_frame(self):
        self._add_analysis()

    def _action(self, text, slot, shortcut=None, checkable=False, tip=None,
                icon=None) -> QAction:
        a = QAction(text, self)
        if icon is not None:
            a.setIcon(self.style().standardIcon(icon))
        if shortcut:
            a.setShortcut(QKeySequence(shortcut))
        a.setCheckable(checkable)
        if tip:
            a.setStatusTip(tip)
            a.setToolTip(f"{text} ({shortcut})" if shortcut else text)
        a.triggered.connect(slot)
        self.addAction(a)
        return a

    def _make_actions(self):
        A = self._action
        self.act_solve = A("Solve", self.solve, "Ctrl+R", tip="solve with the current controls")
        self.act_cancel = A("Cancel", self.cancel, "Esc", tip="stop the running search")
        S = QStyle.StandardPixmap
        self.act_first = A("First", self.results.first, "Home", tip="first solution",
                           icon=S.SP_MediaSkipBackward)
        self.act_prev = A("Previous", self.results.previous, "Left", tip="previous solution",
                          icon=S.SP_MediaSeekBackward)
        self.act_next = A("Next", self.results.next, "Right", tip="next solution",
                          icon=S.SP_MediaSeekForward)
        self.act_last = A("Last", self.results.last, "End", tip="last solution found",
                          icon=S.SP_MediaSkipForward)
        self.act_play = A("Play", self.toggle_play, "Space", True, "play the solutions",
                          icon=S.SP_MediaPlay)
        self.act_anim = A("Animate", self.toggle_animation, "Ctrl+A", True,
                          "play the construction of the shown tour move by move")
        self.act_open = A("Open tour…", self.open_tour, QKeySequence.Open)
        self.act_open_solutions = A("Open solutions…", self.open_solutions, "Ctrl+Shift+O",
                                    tip="step through a file written by enumerate --out")
        self.act_save = A("Save tour…", self.save_tour, QKeySequence.Save)
        self.act_png = A("Export PNG…", self.export_png, "Ctrl+E")
        self.act_svg = A("Export SVG…", self.export_svg)
        self.act_copy = A("Copy image", self.copy_image, "Ctrl+Shift+C")
        self.act_quit = A("Quit", self.close, QKeySequence.Quit)
        self.act_numbers = A("Move numbers", self._view_toggled, "N", True)
        self.act_path = A("Tour path", self._view_toggled, "P", True)
        self.act_ties = A("Highlight ties", self._view_toggled, "T", True)
        self.act_fit = A("Zoom to fit", self.view.fit, "F")
        self.colour_group = QActionGroup(self)
        self.colour_actions = {}
        for key, text in (("auto", "Colour: automatic"), ("checker", "Colour: checkerboard"),
                          ("moves", "Colour: by move number")):
            a = A(text, self._view_toggled, checkable=True)
            self.colour_group.addAction(a)
            self.colour_actions[key] = a
        self.act_numbers.setChecked(True)
        self.act_path.setChecked(True)
        self.colour_actions["auto"].setChecked(True)

        m = self.menuBar().addMenu("&File")
        for a in (self.act_open, self.act_open_solutions, self.act_save, None, self.act_png,
                  self.act_svg, self.act_copy, None, self.act_quit):
            m.addSeparator() if a is None else m.addAction(a)
        m = self.view_menu = self.menuBar().addMenu("&View")
        for a in (self.act_numbers, self.act_path, self.act_ties, None,
                  *self.colour_actions.values(), None, self.act_fit):
            m.addSeparator() if a is None else m.addAction(a)
        m.addSeparator()
        for d in (self.controls_dock, self.counter_dock, self.timing_dock, self.matrix_dock):
            m.addAction(d.toggleViewAction())
        m = self.menuBar().addMenu("&Run")
        for a in (self.act_solve, self.act_cancel, None, self.act_first, self.act_prev,
                  self.act_next, self.act_last, self.act_play, None, self.act_anim):
            m.addSeparator() if a is None else m.addAction(a)

        tb = QToolBar("Stepping")
        tb.setObjectName("stepping")
        self.addToolBar(tb)
        for a in (self.act_solve, self.act_cancel):
            tb.addAction(a)
        tb.addSeparator()
        for a in (self.act_first, self.act_prev, self.act_next, self.act_last):
            tb.addAction(a)
        tb.addWidget(QLabel(" Go to "))
        self.jump_box = QSpinBox(minimum=1, maximum=2_000_000_000)
        self.jump_box.setKeyboardTracking(False)
        self.jump_box.setToolTip("jump to solution number (Enter)")
        tb.addWidget(self.jump_box)
        tb.addAction(self.act_play)
        self.play_speed = QSpinBox(minimum=1, maximum=240, value=10, suffix=" /s")
        self.play_speed.setToolTip("solutions per second while playing")
        tb.addWidget(self.play_speed)
        tb.addSeparator()
        tb.addAction(self.act_anim)
        self.anim_speed = QSpinBox(minimum=1, maximum=100_000, value=20, suffix=" moves/s")
        self.anim_speed.setToolTip("speed of the construction animation")
        tb.addWidget(self.anim_speed)
        self.act_cancel.setEnabled(False)

    def _connect(self):
        c = self.controls
        c.solveRequested.connect(self._solve_request)
        c.cancelRequested.connect(self.cancel)
        c.boardChanged.connect(self._board_changed)
        c.squaresChanged.connect(self._squares_changed)
        c.message.connect(self._controls_message)
        self.view.squareClicked.connect(self._square_clicked)
        self.view.squareHovered.connect(self._hovered)
        r = self.results
        r.status.connect(lambda s: self.statusBar().showMessage(s))
        r.errorDialog.connect(self.show_error)
        r.busyChanged.connect(self._busy)
        self.jump_box.valueChanged.connect(lambda n: self.results.jump(n))
        r.currentChanged.connect(self._current_changed)
        self.play_speed.valueChanged.connect(self.results.set_play_speed)
        self.results.set_play_speed(self.play_speed.value())
        self.anim_speed.valueChanged.connect(self.animator.set_speed)
        self.animator.set_speed(self.anim_speed.value())
        self.animator.finished.connect(lambda: self.act_anim.setChecked(False))
        self.animator.frame.connect(self._anim_frame)

    # ---------------------------------------------------------------- slots
    @guarded
    def open_solutions(self, *_, filename=None):
        from .solution_file import open_solutions_file
        return open_solutions_file(self, filename)

    def show_error(self, title: str, text: str):
        from knightgui_core.text import shorten
        QMessageBox.warning(self, title, shorten(str(text), 600))

    @guarded
    def solve(self, *_):
        self.controls._solve_clicked()  # noqa: SLF001 - same path as the button

    @guarded
    def _solve_request(self, req):
        self.animator.stop(restore=False)
        self._current_changed(1)
        self.results.submit(req)

    @guarded
    def cancel(self, *_):
        self.results.cancel()

    def _current_changed(self, number: int):
        self.jump_box.blockSignals(True)
        self.jump_box.setValue(number)
        self.jump_box.blockSignals(False)

    def _busy(self, busy: bool):
        self.controls.set_busy(busy)
        self.act_cancel.setEnabled(busy)

    @guarded
    def _board_changed(self, rows, cols):
        if (rows, cols) != (self.view.rows, self.view.cols):
            self.animator.stop(restore=False)
            self.view.set_board(rows, cols)

    @guarded
    def _squares_changed(self, start, end):
        self.view.set_markers(start, end)

    def _controls_message(self, text: str):
        if text:
            self.statusBar().showMessage(text)
        else:
            self.statusBar().clearMessage()

    @guarded
    def _square_clicked(self, sq: int, as_end: bool):
        name = self.controls.board().name(sq)
        if as_end:
            if self.controls.set_end(sq):
                self.statusBar().showMessage(f"End set to {name}")
        else:
            self.controls.set_start(sq)
            self.statusBar().showMessage(f"Start set to {name} — press Solve (Ctrl+R)")

    def _hovered(self, sq: int):
        try:
            if sq < 0:
                self.hover_label.setText("")
                return
            v = self.view
            name = self.controls.board().name(sq) if (v.rows, v.cols) == (
                self.controls.rows.value(), self.controls.cols.value()) else \
                square_name(sq % v.cols, sq // v.cols)
            k = v.move_number(sq)
            text = f"{name}  ·  move {k}" if k else f"{name}  ·  not visited"
            self.hover_label.setText(f"{text}  ·  {v.outlets(sq)} outlets")
        except Exception:  # noqa: BLE001
            self.hover_label.setText("")

    def set_view_options(self, numbers=None, path=None, ties=None, colour=None):
        for act, val in ((self.act_numbers, numbers), (self.act_path, path),
                         (self.act_ties, ties)):
            if val is not None:
                act.setChecked(bool(val))
        if colour in self.colour_actions:
            self.colour_actions[colour].setChecked(True)
        self._view_toggled()

    @guarded
    def _view_toggled(self, *_):
        mode = next((k for k, a in self.colour_actions.items() if a.isChecked()), "auto")
        self.view.colour_mode = mode
        self.view.set_options(numbers=self.act_numbers.isChecked(),
                              path=self.act_path.isChecked(), ties=self.act_ties.isChecked())

    @guarded
    def toggle_play(self, *_):
        self.act_play.setChecked(self.results.toggle_play())

    @guarded
    def toggle_animation(self, *_):
        if self.animator.running:
            self.animator.stop(restore=True)
            return
        tour = self.results.tour
        if tour is None:
            self.act_anim.setChecked(False)
            self.statusBar().showMessage("No tour to animate: solve or open one first")
            return
        self.results.stop_play()
        self.act_play.setChecked(False)
        reserved = ()
        if self.results.current >= 0:
            L = self.results.store.mo_length - 1
            reserved = tour.path[L:]
        self.animator.start(tour.path, tour.closed, tour.rows, tour.cols,
                            self.results.ties, reserved)
        self.act_anim.setChecked(True)

    def _anim_frame(self, k: int, total: int):
        self.statusBar().showMessage(f"Construction: move {k:,} of {total:,}")

    # --------------------------------------------------------------- events
    def _shutdown(self):
        """Stop every thread (application quitting without the window being closed)."""
        self.results.stop_play()
        self.animator.stop(restore=False)
        self.worker.stop()

    def closeEvent(self, event):
        try:
            settings.save(self)
        except Exception:  # noqa: BLE001
            log.exception("could not save settings")
        self.results.stop_play()
        self.animator.stop(restore=False)
        self.timing.stop("closed")
        self.worker.stop()
        super().closeEvent(event)
