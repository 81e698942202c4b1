"""The count study in the window: every Warnsdorff tour from each start square, counted.

:class:`CountStudyPage` (a page of the Analysis view): board, starts, scheduler and store
(the last two remembered under ``count/`` in the settings), a progress bar over the start
squares (its text adds the tasks done and queued), the table
(:class:`~knightgui.analysis.count_table.CountTable`: a row per symmetry class as soon as it
is counted, then the totals) and beside it a heat map of the per-start figures (chosen in a
combo box; hover for a square's numbers, click to emit ``startChosen(board, square)``;
Export PNG and CSV). The study (:func:`knightgui_core.studies.count_study.run_count`) runs
on the view's study thread and sends its news through a
:class:`~knightgui.analysis.count_table.CountFeed`; Cancel stops it between tasks, the rows
counted stay and no total is shown.
"""
from __future__ import annotations

import dataclasses
import math
from typing import Any

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QLineEdit,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from knightgui.analysis.base import AnalysisPage, StudyRunner, button, combo, rows, spin
from knightgui.analysis.count_table import CountFeed, CountTable, row_texts
from knightgui.analysis.heat_map import SquareHeatMap, share, whole
from knightgui.panels.controls.layout import EDGES, PIECES
from knightgui.settings import qsettings, text_value
from knightgui_core.board.squares import Board, parse_leaper
from knightgui_core.system.files import write_bytes, write_text

#: the heat map's frame before a count
EMPTY_HEAT = "No counts yet: press Run.\nEach start square fills in as it is counted."
#: the heat map's quantities: label → the per-start record's field, and how it is written
QUANTITIES = {"tours": ("tours", whole), "closed": ("closed", whole),
              "dead ends": ("dead_ends", whole), "P(success)": ("p_success", share),
              "P(closed)": ("p_closed", share)}


def count_study(n: int, starts: list[int], scheduler: str | None, store_path: str | None,
                board: Board | None = None, feed: CountFeed | None = None,
                budget: int | None = None):
    """The study function the runner calls: ``fn(progress=, cancel=)`` → ``CountResult``
    (``starts``: square indices, parsed by the page; ``board``: another topology or piece of
    side ``n``; ``feed``: gets each class of starts as it is counted and the tasks done and
    queued; ``budget``: forward moves a task makes, None for the study's own). A bad board,
    store or scheduler raises; the study thread reports it in one line."""
    from knightgui_core.run.store import ResultStore
    from knightgui_core.studies.count_study import CountOptions, run_count
    options = CountOptions(board=None if board is None or board.is_classic else board)
    if budget is not None:
        options = dataclasses.replace(options, budget=budget)

    def fn(progress: Any, cancel: Any):
        store = ResultStore(store_path) if store_path else None
        more: dict[str, Any] = {}
        if feed is not None:
            more.update(on_start=feed.start, on_tasks=feed.tasks)
        try:
            return run_count(n, n, starts, options=options, scheduler=scheduler, store=store,
                             cancel=cancel, **more)
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

    #: forward moves a task makes (None: the study's own, ``TASK_MOVES``)
    task_moves: int | None = None

    def __init__(self, runner: StudyRunner, parent: QWidget | None = None):
        super().__init__(runner, parent,
                         run_tip="count every Warnsdorff tour from each start",
                         status="Counts every Warnsdorff tour (strict rule, every tie "
                                "followed, open) from each start square.")
        self.result = None
        self._feed: CountFeed | None = None
        self._live: dict[str, dict] = {}        # start square → figures, as counted
        self._starts_total = 0
        self._tasks = (0, 0)
        v = QVBoxLayout(self)
        self.size_spin = spin(1, 11, 8, "n = ", "board side: n×n (10×10: minutes on two cores; "
                              "11×11: many hours)")
        self.starts_combo = combo(["all", "corners"], "all, corners, or squares such as a1,c3",
                                  editable=True)
        self.edges_combo = combo(EDGES, "the board's edges: plane, cylinder (columns wrap) or "
                                 "torus (both wrap)")
        self.piece_combo = combo(PIECES, "the piece: a listed leaper, or A,B typed",
                                 editable=True)
        self._board: Board | None = None
        s = qsettings()
        self.scheduler_edit = QLineEdit(text_value(s, "count/scheduler"))
        self.scheduler_edit.setPlaceholderText("this machine (or tcp://HOST:8786)")
        self.scheduler_edit.setToolTip("Dask scheduler of a cluster; empty: this machine")
        self.store_edit = QLineEdit(text_value(s, "count/store"))
        self.store_edit.setPlaceholderText("no store (or a .sqlite file to resume from)")
        self.store_edit.setToolTip("SQLite result store: finished tasks are kept and reused")
        rows(v, (QLabel("Board"), self.size_spin, self.edges_combo, self.piece_combo,
                 QLabel("starts"), self.starts_combo))
        rows(v, (QLabel("Scheduler"), self.scheduler_edit), (QLabel("Store"), self.store_edit),
             stretch=False)
        rows(v, (self.run_btn, self.cancel_btn))
        v.addWidget(self.progress)
        v.addWidget(self.status)
        t = self.table = CountTable()
        # the heat map and its controls, beside the table
        self.heat = SquareHeatMap("per start square", empty_text=EMPTY_HEAT)
        self.heat.setToolTip("the figures of each start square; hover for its numbers, "
                             "click to make it the start in the main window")
        self.heat.squareClicked.connect(self._square_clicked)
        self.quantity_combo = combo(QUANTITIES, "what the heat map shows")
        self.quantity_combo.currentTextChanged.connect(self._show_quantity)
        self.png_btn = button("Export PNG…", lambda: self.export_png(),
                              "save the heat map as a picture")
        self.csv_btn = button("Export CSV…", lambda: self.export_csv(),
                              "save every start's figures, one row per square")
        for b in (self.quantity_combo, self.png_btn, self.csv_btn):
            b.setEnabled(False)
        right = QWidget()
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 0, 0, 0)
        rows(rv, (QLabel("Show"), self.quantity_combo, self.png_btn, self.csv_btn))
        rv.addWidget(self.heat, 1)
        split = self.split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(t)
        split.addWidget(right)
        split.setChildrenCollapsible(False)
        split.setStretchFactor(0, 0)            # the table: its columns' width
        split.setStretchFactor(1, 1)            # the heat map: the rest
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
        self.table.clear_rows()
        self.heat.clear_figures("Counting …\nEach start square fills in as it is counted.")
        for b in (self.quantity_combo, self.png_btn, self.csv_btn):
            b.setEnabled(False)
        self._live, self._starts_total, self._tasks = {}, len(squares), (0, 0)
        self._feed = feed = CountFeed()
        feed.changed.connect(self._fed)
        self._show_progress("starting …")
        self.status.setText(f"Counting {board.describe()}, starts: {starts}, on "
                            f"{sched or 'this machine'} … A start's row appears as soon as "
                            "it is counted; a big start is split into more tasks as it runs.")
        self.start_study("count", count_study(n, squares, sched or None, store or None, board,
                                              feed, self.task_moves))

    def cancel(self) -> None:
        """Stop the running count between two tasks."""
        if self.running:
            self.status.setText("Cancelling …")
        super().cancel()

    # ------------------------------------------------------------ progress
    def _show_progress(self, tasks_text: str = "") -> None:
        """The bar: start squares counted out of those asked for (only ever forward); its
        text adds the tasks done and queued."""
        done, total = sum(len(m) for m in self._live_members()), self._starts_total
        self.progress.setValue(int(1000 * done / total) if total else 0)
        if not tasks_text:
            tdone, queued = self._tasks
            tasks_text = (f"{tdone:,} tasks done, {queued:,} queued" if queued
                          else f"{tdone:,} tasks done")
        self.progress.setFormat(f"{done:,} / {total:,} starts counted · {tasks_text}")

    def _live_members(self) -> list[list[str]]:
        return [rec["members"] for rec in self._live.values()]

    def _fed(self) -> None:
        """News from the running count: new rows, the heat map, the progress."""
        feed = self._feed
        if feed is None:
            return
        starts, tasks = feed.take()
        if tasks is not None:
            self._tasks = tasks
        b = self._board
        for name, members, rec in starts:
            self._live[name] = {"members": members, "record": rec}
            key = min(b.parse(m) for m in members) if b is not None else len(self._live)
            self.table.add_row(key, row_texts(name, len(members), rec))
        if starts:
            self._fit_table()
            per_start = {m: v["record"] for v in self._live.values() for m in v["members"]}
            if b is not None:
                self._fill_heat_map(b, per_start)
        self._show_progress()

    def _fit_table(self) -> None:
        """Give the table the width its columns need (the heat map keeps the rest, and at
        least 360 pixels)."""
        sizes = self.split.sizes()
        whole_width = sum(sizes)
        need = self.table.needed_width()
        if whole_width <= 0 or sizes[0] >= need:
            return
        give = min(need, max(sizes[0], whole_width - 360))
        self.split.setSizes([give, whole_width - give])

    def showEvent(self, ev):  # noqa: N802 (Qt name)
        """Once laid out, the table gets its columns' width."""
        super().showEvent(ev)
        QTimer.singleShot(0, self, self._fit_table)     # not after the page is gone

    def study_done(self, res) -> None:
        """The count ended: show its table and heat map, or say it was cancelled."""
        if self._feed is not None:
            self._fed()                     # news still queued comes first
            self._feed = None
        if res is None or res.cancelled:
            if not self._live:
                self.heat.clear_figures()
            counted = sum(len(m) for m in self._live_members())
            self.status.setText(f"Cancelled: {self._tasks[0]:,} tasks finished, "
                                f"{counted} of {self._starts_total} starts counted (their "
                                "rows stay; a store keeps the finished tasks)")
            self._show_progress()
            return
        self.show_result(res)

    def study_failed(self, message: str) -> None:
        """The count raised: its first line on the status line; an empty map says so."""
        super().study_failed(message)
        self._feed = None
        if not self._live:
            self.heat.clear_figures()

    def show_result(self, res) -> None:
        """Fill the table (one row per symmetry class, then the totals) and the heat map."""
        self.result = res
        rows = [row_texts(rep, len(m), res.per_start[m[0]]) for rep, m in res.classes.items()]
        rows.append(row_texts("all", len(res.per_start), res.totals))
        self.table.set_rows(rows)
        self._fit_table()
        b = self._result_board(res)
        self._fill_heat_map(b, res.per_start)
        for w in (self.quantity_combo, self.png_btn, self.csv_btn):
            w.setEnabled(True)
        t = res.tasks
        n = len(res.per_start)
        self.progress.setValue(1000)
        self.progress.setFormat(f"{n:,} / {n:,} starts counted · {t['total']:,} tasks done")
        self.status.setText(f"{b.describe()}: "
                            f"{res.totals['tours']:,} tours from "
                            f"{n} starts ({len(res.classes)} classes), "
                            f"P(success) {share(res.totals['p_success'])} for a random start, "
                            f"in {res.seconds:.1f} s; {t['total']:,} tasks, "
                            f"{t['from_store']:,} from the store")

    # ---------------------------------------------------------------- heat map
    def _result_board(self, res) -> Board:
        """The board the result counts (the one the page ran on, if it ran this result)."""
        b = self._board
        return b if b is not None and (b.rows, b.cols) == (res.rows, res.cols) else \
            Board(res.rows, res.cols)

    def _fill_heat_map(self, b: Board, per_start: dict[str, dict]) -> None:
        """The heat map of ``per_start`` (start square → figures; the others blank)."""
        figures = {}
        for label, (field, _fmt) in QUANTITIES.items():
            v = [math.nan] * b.size
            for name, rec in per_start.items():
                v[b.parse(name)] = float(rec[field])
            figures[label] = v
        self.heat.set_figures(b.rows, b.cols, figures,
                              {label: fmt for label, (_f, fmt) in QUANTITIES.items()})
        self._show_quantity(self.quantity_combo.currentText())
        self.quantity_combo.setEnabled(True)

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
