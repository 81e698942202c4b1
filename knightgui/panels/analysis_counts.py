"""The count study in the window: every Warnsdorff tour from each start square, counted.

A page of the Analysis view (:class:`CountStudyPage`, registered in
:mod:`knightgui.panels.analysis_pages`): board size, starts, scheduler address and store file
(both remembered in the settings under ``count/``), Run, Cancel, a progress bar over the
tasks, the table (one row per symmetry class, then the totals, with the exact probability that
a walk breaking ties at random completes a tour and a closed tour) and beside it a board heat
map of the per-start figures (tours, closed, dead ends, P(success), P(closed), chosen in a
combo box; hovering a square gives its numbers; clicking one emits
``startChosen(board, square)``, which makes it the start in the main window; Export PNG
and Export CSV save it). The study,
:func:`knightgui_core.studies.count_study.run_count`, runs on the Analysis view's study thread like
every other study (request / restart / abort); Cancel stops it between tasks, and nothing
partial is shown as a result (a store keeps the finished tasks).
"""
from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from knightgui_core.board.squares import Board, parse_leaper
from knightgui_core.system.files import write_bytes, write_text

from ..settings import qsettings
from .analysis_base import AnalysisPage, StudyRunner
from .controls_layout import EDGES, PIECES
from .square_heat_map import SquareHeatMap, share, whole

HEADERS = ("start", "starts", "tours", "closed", "dead ends", "P(success)", "P(closed)")
#: the heat map's quantities: label → the per-start record's field, and how it is written
QUANTITIES = {"tours": ("tours", whole), "closed": ("closed", whole),
              "dead ends": ("dead_ends", whole), "P(success)": ("p_success", share),
              "P(closed)": ("p_closed", share)}


def count_study(n: int, starts: list[int], scheduler: str | None, store_path: str | None,
                board: Board | None = None):
    """The study function the runner calls: ``fn(progress=, cancel=)`` → ``CountResult``
    (``starts``: square indices, parsed by the page; ``board``: another topology or piece of
    side ``n``). A bad board, store or scheduler
    raises; the study thread reports it in one line."""
    from knightgui_core.run.store import ResultStore
    from knightgui_core.studies.count_study import run_count

    def fn(progress: Any, cancel: Any):
        store = ResultStore(store_path) if store_path else None
        try:
            return run_count(n, n, starts, scheduler=scheduler, store=store, cancel=cancel,
                             progress=lambda _round, done, total: progress(done, total),
                             board=None if board is None or board.is_classic else board)
        finally:
            if store is not None:
                store.close()
    return fn


class CountStudyPage(AnalysisPage):
    """See the module docstring. ``result`` holds the last finished
    :class:`~knightgui_core.studies.count_study.CountResult`."""

    title = "Tour counts"
    #: a square of the heat map was clicked: (the board, flat square) to use as the start
    startChosen = Signal(object, int)

    unit = "tasks"

    def __init__(self, runner: StudyRunner, parent: QWidget | None = None):
        super().__init__(runner, parent,
                         run_tip="count every Warnsdorff tour from each start",
                         status="Counts every Warnsdorff tour (strict rule, every tie "
                                "followed, open) from each start square.")
        self.result = None
        v = QVBoxLayout(self)
        self.size_spin = QSpinBox()
        self.size_spin.setRange(1, 11)
        self.size_spin.setValue(8)
        self.size_spin.setPrefix("n = ")
        self.size_spin.setToolTip("board side: n×n (10×10: minutes on two cores; 11×11: many hours)")
        self.starts_combo = QComboBox()
        self.starts_combo.setEditable(True)
        self.starts_combo.addItems(["all", "corners"])
        self.starts_combo.setToolTip("all, corners, or squares such as a1,c3")
        self.edges_combo = QComboBox()
        for key, text in EDGES:
            self.edges_combo.addItem(text, key)
        self.edges_combo.setToolTip("the board's edges: plane, cylinder (columns wrap) or "
                                    "torus (both wrap)")
        self.piece_combo = QComboBox()
        self.piece_combo.setEditable(True)
        for key, text in PIECES:
            self.piece_combo.addItem(text, key)
        self.piece_combo.setToolTip("the piece: a listed leaper, or A,B typed")
        self._board: Board | None = None
        s = qsettings()
        self.scheduler_edit = QLineEdit(str(s.value("count/scheduler", "") or ""))
        self.scheduler_edit.setPlaceholderText("this machine (or tcp://HOST:8786)")
        self.scheduler_edit.setToolTip("Dask scheduler of a cluster; empty: this machine")
        self.store_edit = QLineEdit(str(s.value("count/store", "") or ""))
        self.store_edit.setPlaceholderText("no store (or a .sqlite file to resume from)")
        self.store_edit.setToolTip("SQLite result store: finished tasks are kept and reused")
        for group in ((QLabel("Board"), self.size_spin, self.edges_combo, self.piece_combo,
                       QLabel("starts"), self.starts_combo),
                      (QLabel("Scheduler"), self.scheduler_edit),
                      (QLabel("Store"), self.store_edit),
                      (self.run_btn, self.cancel_btn)):
            row = QHBoxLayout()
            for x in group:
                row.addWidget(x)
            if group[-1] is self.cancel_btn or group[-1] is self.starts_combo:
                row.addStretch(1)
            v.addLayout(row)
        v.addWidget(self.progress)
        v.addWidget(self.status)
        t = QTableWidget(0, len(HEADERS))
        t.setHorizontalHeaderLabels(list(HEADERS))
        t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        t.verticalHeader().setVisible(False)
        t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        t.horizontalHeader().setStretchLastSection(True)
        self.table = t
        # the heat map and its controls, beside the table
        self.heat = SquareHeatMap("per start square")
        self.heat.setToolTip("the figures of each start square; hover for its numbers, "
                             "click to make it the start in the main window")
        self.heat.squareClicked.connect(self._square_clicked)
        self.quantity_combo = QComboBox()
        self.quantity_combo.addItems(list(QUANTITIES))
        self.quantity_combo.setToolTip("what the heat map shows")
        self.quantity_combo.currentTextChanged.connect(self._show_quantity)
        self.png_btn = QPushButton("Export PNG…")
        self.png_btn.setToolTip("save the heat map as a picture")
        self.png_btn.clicked.connect(lambda: self.export_png())
        self.csv_btn = QPushButton("Export CSV…")
        self.csv_btn.setToolTip("save every start's figures, one row per square")
        self.csv_btn.clicked.connect(lambda: self.export_csv())
        for b in (self.quantity_combo, self.png_btn, self.csv_btn):
            b.setEnabled(False)
        right = QWidget()
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        for x in (QLabel("Show"), self.quantity_combo, self.png_btn, self.csv_btn):
            bar.addWidget(x)
        bar.addStretch(1)
        rv.addLayout(bar)
        rv.addWidget(self.heat, 1)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(t)
        split.addWidget(right)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        v.addWidget(split, 1)

    # ----------------------------------------------------------------- running
    @property
    def running(self) -> bool:
        """This page's count is running."""
        return self.runner.page is self and self.runner.running

    def run(self) -> None:
        """Start the count with the page's fields (nothing while any study runs)."""
        if self.runner.running:
            return
        n = self.size_spin.value()
        starts = self.starts_combo.currentText().strip() or "all"
        text = self.piece_combo.currentText().strip()
        i = self.piece_combo.findText(text)
        # the page's edge: the board and the start squares become typed values here, once
        # (the study module is loaded on the first run: numba comes after the first frame)
        from knightgui_core.studies.count_study import parse_starts
        try:
            board = Board(n, n, str(self.edges_combo.currentData()),
                          parse_leaper(self.piece_combo.itemData(i) if i >= 0 else text))
            squares = parse_starts(n, n, starts)
        except ValueError as e:
            self.status.setText(f"Cannot count: {e}")
            return
        self._board = board
        sched, store = self.scheduler_edit.text().strip(), self.store_edit.text().strip()
        s = qsettings()
        s.setValue("count/scheduler", sched)
        s.setValue("count/store", store)
        self.result = None
        self.table.setRowCount(0)
        for b in (self.quantity_combo, self.png_btn, self.csv_btn):
            b.setEnabled(False)
        self.progress.setValue(0)
        self.status.setText(f"Counting {board.describe()}, starts: {starts}, on "
                            f"{sched or 'this machine'} …")
        self.start_study("count", count_study(n, squares, sched or None, store or None, board))

    def cancel(self) -> None:
        """Stop the running count between two tasks."""
        if self.running:
            self.status.setText("Cancelling …")
        super().cancel()

    def study_done(self, res) -> None:
        """The count ended: show its table and heat map, or say it was cancelled."""
        if res is None or res.cancelled:
            done = "" if res is None else f" ({res.tasks['total']:,} tasks finished; a store keeps them)"
            self.status.setText(f"Cancelled{done}")
            return
        self.show_result(res)

    def show_result(self, res) -> None:
        """Fill the table (one row per symmetry class, then the totals) and the heat map."""
        self.result = res
        rows = [(rep, len(m), res.per_start[m[0]]) for rep, m in res.classes.items()]
        rows.append(("all", len(res.per_start), res.totals))
        self.table.setRowCount(len(rows))
        for i, (name, count, rec) in enumerate(rows):
            for j, val in enumerate((name, f"{count}", f"{rec['tours']:,}",
                                     f"{rec['closed']:,}", f"{rec['dead_ends']:,}",
                                     share(rec.get("p_success", math.nan)),
                                     share(rec.get("p_closed", math.nan)))):
                self.table.setItem(i, j, QTableWidgetItem(val))
        self._fill_heat_map(res)
        t = res.tasks
        self.progress.setValue(1000)
        self.status.setText(f"{self._result_board(res).describe()}: "
                            f"{res.totals['tours']:,} tours from "
                            f"{len(res.per_start)} starts ({len(res.classes)} classes), "
                            f"P(success) {share(res.totals['p_success'])} for a random start, "
                            f"in {res.seconds:.1f} s; {t['total']:,} tasks, "
                            f"{t['from_store']:,} from the store")

    # ---------------------------------------------------------------- heat map
    def _result_board(self, res) -> Board:
        """The board the result counts (the one the page ran on, if it ran this result)."""
        b = self._board
        return b if b is not None and (b.rows, b.cols) == (res.rows, res.cols) else \
            Board(res.rows, res.cols)

    def _fill_heat_map(self, res) -> None:
        b = self._result_board(res)
        figures = {}
        for label, (field, _fmt) in QUANTITIES.items():
            v = [math.nan] * b.size
            for name, rec in res.per_start.items():
                v[b.parse(name)] = float(rec[field])
            figures[label] = v
        self.heat.set_figures(res.rows, res.cols, figures,
                              {label: fmt for label, (_f, fmt) in QUANTITIES.items()})
        self._show_quantity(self.quantity_combo.currentText())
        for w in (self.quantity_combo, self.png_btn, self.csv_btn):
            w.setEnabled(True)

    def _show_quantity(self, label: str) -> None:
        if label in self.heat.quantities:
            self.heat.show_quantity(label)

    def _square_clicked(self, square: int) -> None:
        res = self.result
        if res is None or not 0 <= square < res.rows * res.cols:
            return
        self.startChosen.emit(self._result_board(res), int(square))

    def _target(self, filename: str | None, title: str, ext: str, filt: str) -> str | None:
        """The file to export to: ``filename``, or one asked for (None: nothing to export,
        or the dialog was cancelled)."""
        if self.result is None:
            return None
        if filename is not None:
            return filename
        got, _ = QFileDialog.getSaveFileName(
            self, title, f"counts-{self.result.rows}x{self.result.cols}.{ext}", filt)
        return got or None

    def export_png(self, filename: str | None = None) -> bool:
        """Save the heat map as PNG (asks for a file name when none is given)."""
        filename = self._target(filename, "Export heat map", "png", "PNG image (*.png)")
        if filename is None:
            return False
        data = QByteArray()
        buf = QBuffer(data)
        buf.open(QIODevice.OpenModeFlag.WriteOnly)
        if not self.heat.grab().save(buf, "PNG"):
            self.status.setText("Could not draw the heat map")
            return False
        buf.close()
        return self.write_file(filename, lambda: write_bytes(filename, bytes(data.data())),
                               f"Saved {filename}")

    def export_csv(self, filename: str | None = None) -> bool:
        """Save every start's figures as CSV (asks for a file name when none is given)."""
        filename = self._target(filename, "Export figures", "csv", "CSV (*.csv)")
        if filename is None:
            return False
        return self.write_file(filename, lambda: write_text(filename, self.heat.to_csv_text()),
                               f"Saved {filename}")
