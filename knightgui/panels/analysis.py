"""Analysis dock: how good is Warnsdorff's rule? (docs/spec.md §7 and the tie-break study.)

``AnalysisDock.show_tour`` (``Signal(object)``) carries what to show on the board:

* a :class:`knightgui_core.tour.Tour` for a walk that visited every square, or
* for a walk that got stuck, a dict ``{"board": knightgui_core.board.Board, "path": int32 array of flat
  squares in visiting order (partial), "message": str}`` saying where and after how many
  squares it stopped.

Studies run in a :class:`StudyThread` (one at a time) in bounded chunks; Cancel sets a flag
the study reads between chunks, and the partial result is shown.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QApplication, QComboBox, QDockWidget,
                               QFileDialog, QHBoxLayout, QHeaderView, QLabel, QListWidget,
                               QListWidgetItem, QProgressBar, QPushButton, QSpinBox,
                               QSplitter, QTableWidget, QTableWidgetItem, QTabWidget,
                               QVBoxLayout, QWidget)

from .analysis_plots import FailureHistogram, StartHeatMap, SuccessPlot
from .study_thread import StudyThread


def _button(text: str, slot, tip: str = "") -> QPushButton:
    b = QPushButton(text)
    b.clicked.connect(slot)
    if tip:
        b.setToolTip(tip)
    return b


def _table(headers, stretch: int | None = None) -> QTableWidget:
    t = QTableWidget(0, len(headers))
    t.setHorizontalHeaderLabels(headers)
    t.setEditTriggers(QAbstractItemView.NoEditTriggers)
    t.setSelectionBehavior(QAbstractItemView.SelectRows)
    t.setSelectionMode(QAbstractItemView.SingleSelection)
    t.verticalHeader().setVisible(False)
    t.verticalHeader().setDefaultSectionSize(22)
    t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
    t.horizontalHeader().setStretchLastSection(stretch is None)
    if stretch is not None:
        t.horizontalHeader().setSectionResizeMode(stretch, QHeaderView.Stretch)
    return t


class _Tabs(QTabWidget):
    def sizeHint(self) -> QSize:  # noqa: N802
        return AnalysisDock.PREFERRED


def _rows(layout, *groups) -> None:
    """Controls in short rows (the dock stays narrow enough to sit beside the board)."""
    for group in groups:
        row = QHBoxLayout()
        for x in group:
            row.addWidget(x)
        row.addStretch(1)
        layout.addLayout(row)


class AnalysisDock(QDockWidget):
    """Move-order analysis and tie-break study with plots; see the module docstring."""

    show_tour = Signal(object)
    #: Preferred size: room for the plots without crowding the board out of the window.
    PREFERRED = QSize(520, 640)

    def __init__(self, parent=None):
        super().__init__("Analysis", parent)
        self.setObjectName("analysis")
        self.study_thread: StudyThread | None = None
        self.orders_result = None
        self.tie_result = None
        self._kind = ""
        tabs = _Tabs()
        tabs.addTab(self._orders_tab(), "Move orders")
        tabs.addTab(self._tiebreak_tab(), "Tie-breaks")
        self.tabs = tabs
        self.setWidget(tabs)
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.shutdown)
        if parent is not None:
            parent.installEventFilter(self)

    # ------------------------------------------------------------------ layout
    def _orders_tab(self) -> QWidget:
        w = QWidget()
        v = QVBoxLayout(w)
        self.size_spin = QSpinBox()
        self.size_spin.setRange(5, 12)
        self.size_spin.setValue(8)
        self.size_spin.setPrefix("n = ")
        self.tie_combo = QComboBox()
        self.tie_combo.addItems(["first", "last"])
        self.tie_combo.setToolTip("ties go to the first (or last) tied move in the order")
        self.run_orders_btn = _button("Run", self.run_orders,
                                      "walk all 40,320 move orders from every start square")
        self.cancel_btn = _button("Cancel", self.cancel)
        self.cancel_btn.setEnabled(False)
        self.csv_btn = _button("CSV…", self.export_orders_csv, "one row per order")
        self.csv_btn.setEnabled(False)
        _rows(v, (QLabel("Board"), self.size_spin, QLabel("ties"), self.tie_combo),
              (self.run_orders_btn, self.cancel_btn, self.csv_btn))
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        v.addWidget(self.progress)
        self.summary_label = QLabel("Run the analysis: every move order from every square.")
        self.summary_label.setWordWrap(True)
        self.summary_label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        v.addWidget(self.summary_label)
        split = QSplitter(Qt.Vertical)
        plots = QSplitter(Qt.Horizontal)
        self.histogram = FailureHistogram()
        self.heatmap = StartHeatMap()
        self.heatmap.squareClicked.connect(self._start_clicked)
        plots.addWidget(self.histogram)
        plots.addWidget(self.heatmap)
        split.addWidget(plots)
        lists = QSplitter(Qt.Horizontal)
        self.worst_table = _table(["#", "order", "⟨dx,dy⟩ matrix order", "failed"], stretch=2)
        self.worst_table.cellClicked.connect(self._worst_clicked)
        self.walks_list = QListWidget()
        self.walks_list.itemClicked.connect(self._walk_clicked)
        self.walks_list.setToolTip("click a walk to show it on the board")
        lists.addWidget(self.worst_table)
        lists.addWidget(self.walks_list)
        lists.setSizes([380, 200])
        split.addWidget(lists)
        split.setSizes([260, 200])
        v.addWidget(split, 1)
        return w

    def _tiebreak_tab(self) -> QWidget:
        from knightgui_core.studies.tiebreaks import START_SETS
        w = QWidget()
        v = QVBoxLayout(w)
        self.nmax_spin = QSpinBox()
        self.nmax_spin.setRange(6, 2000)
        self.nmax_spin.setValue(200)
        self.nmax_spin.setPrefix("n = 5 … ")
        self.starts_combo = QComboBox()
        self.starts_combo.addItems(list(START_SETS))
        self.sample_spin = QSpinBox()
        self.sample_spin.setRange(1, 10000)
        self.sample_spin.setValue(16)
        self.sample_spin.setPrefix("sample ")
        self.run_tie_btn = _button("Run", self.run_tiebreaks,
                                   "greedy walk for every rule and every size")
        self.cancel_tie_btn = _button("Cancel", self.cancel)
        self.cancel_tie_btn.setEnabled(False)
        self.tie_csv_btn = _button("CSV…", self.export_tie_csv, "rule, n, success")
        self.tie_csv_btn.setEnabled(False)
        _rows(v, (self.nmax_spin, QLabel("starts"), self.starts_combo, self.sample_spin),
              (self.run_tie_btn, self.cancel_tie_btn, self.tie_csv_btn))
        self.tie_progress = QProgressBar()
        self.tie_progress.setRange(0, 1000)
        v.addWidget(self.tie_progress)
        self.tie_label = QLabel("Does the greedy walk complete? Click a rule to see where it "
                                "first fails.")
        self.tie_label.setWordWrap(True)
        v.addWidget(self.tie_label)
        split = QSplitter(Qt.Vertical)
        self.success_plot = SuccessPlot()
        split.addWidget(self.success_plot)
        self.rule_table = _table(["rule", "walks", "completed", "rate", "first failing n"])
        self.rule_table.cellClicked.connect(self._rule_clicked)
        split.addWidget(self.rule_table)
        split.setSizes([300, 160])
        v.addWidget(split, 1)
        return w

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        return self.PREFERRED

    # ----------------------------------------------------------------- running
    @property
    def running(self) -> bool:
        return self.study_thread is not None and self.study_thread.isRunning()

    def _start(self, kind: str, fn) -> None:
        if self.running:
            return
        self._kind = kind
        t = StudyThread(fn, self)
        t.progressed.connect(self._on_progress)
        t.done.connect(self._on_done)
        t.failed.connect(self._on_failed)
        t.finished.connect(self._on_finished)
        self.study_thread = t
        self._set_busy(True)
        (self.progress if kind == "orders" else self.tie_progress).setValue(0)
        t.start()

    def run_orders(self) -> None:
        from knightgui_core.studies.orders import run_orders
        n, tie = self.size_spin.value(), self.tie_combo.currentText()
        self.summary_label.setText(f"Walking 40,320 orders × {n * n} starts on {n}×{n} …")
        self._start("orders", lambda progress, cancel: run_orders(n, tie, progress=progress,
                                                                   cancel=cancel))

    def run_tiebreaks(self) -> None:
        from knightgui_core.studies.tiebreaks import run_tiebreaks
        n_max, starts = self.nmax_spin.value(), self.starts_combo.currentText()
        sample = self.sample_spin.value()
        self.tie_label.setText(f"Greedy walks on n×n, n = 5 … {n_max}, starts: {starts} …")
        self._start("tiebreaks", lambda progress, cancel: run_tiebreaks(
            n_max, starts=starts, sample=sample, progress=progress, cancel=cancel))

    def cancel(self) -> None:
        if self.study_thread is not None:
            self.study_thread.cancel_event.set()

    def shutdown(self, timeout_ms: int = 30000) -> bool:
        """Cancel a running study and wait for its thread; True when no thread is left."""
        t = self.study_thread
        if t is None:
            return True
        t.cancel_event.set()
        return bool(t.wait(timeout_ms))

    def eventFilter(self, obj, ev):  # the main window closing stops the study
        if ev.type() == QEvent.Close and obj is self.parent():
            self.shutdown()
        return False

    def _set_busy(self, busy: bool) -> None:
        for b in (self.run_orders_btn, self.run_tie_btn):
            b.setEnabled(not busy)
        for b in (self.cancel_btn, self.cancel_tie_btn):
            b.setEnabled(busy)

    def _on_progress(self, done: float, total: float) -> None:
        bar = self.progress if self._kind == "orders" else self.tie_progress
        bar.setValue(int(1000 * done / total) if total else 0)

    def _on_failed(self, msg: str) -> None:
        (self.summary_label if self._kind == "orders" else self.tie_label).setText(
            f"Failed: {msg}")

    def _on_finished(self) -> None:
        self._set_busy(False)
        t, self.study_thread = self.study_thread, None
        if t is not None:
            t.deleteLater()

    def _on_done(self, res) -> None:
        if self._kind == "orders":
            self.show_orders_result(res)
        else:
            self.show_tiebreak_result(res)

    # ------------------------------------------------------------ move orders
    def show_orders_result(self, res) -> None:
        self.orders_result = res
        s = res.summary()
        pct = 100 * s["failed_walks"] / s["walks"] if s["walks"] else 0.0
        state = "" if res.complete else f" — cancelled after {s['orders']:,} of 40,320 orders"
        self.summary_label.setText(
            f"{res.board.cols}×{res.board.rows}, ties {res.tie}: {s['walks']:,} walks, "
            f"{s['failed_walks']:,} failed ({pct:.2f}%); {s['orders_with_failure']:,} orders "
            f"with a failure, at most {s['max_failures_per_order']} per order; "
            f"{s['closed_walks']:,} closed walks "
            f"({100 * s['closed_share_of_complete']:.1f}% of the complete ones); "
            f"{s['seconds']:.2f} s{state}")
        self.progress.setValue(1000 if res.complete else self.progress.value())
        self.histogram.set_distribution(res.distribution())
        self.heatmap.set_counts(res.failures_per_start, res.board.rows, res.board.cols)
        t = self.worst_table
        t.setRowCount(0)
        for w in res.worst(50):
            r = t.rowCount()
            t.insertRow(r)
            for c, val in enumerate((w["index"], w["order"], w["matrix"], w["failed_walks"])):
                it = QTableWidgetItem(str(val))
                it.setData(Qt.UserRole, w["index"])
                t.setItem(r, c, it)
        self.walks_list.clear()
        self.csv_btn.setEnabled(res.orders > 0)

    def _walks_for_order(self, index: int) -> None:
        res = self.orders_result
        self.walks_list.clear()
        from knightgui_core.studies.orders import digits
        order = digits(res.order(index))
        for s in res.failed_starts(index):
            it = QListWidgetItem(f"{order} from {res.board.name(int(s))}: stuck after "
                                 f"{int(res.lengths[index, s])} squares")
            it.setData(Qt.UserRole, (int(index), int(s)))
            self.walks_list.addItem(it)

    def _worst_clicked(self, row: int, _col: int) -> None:
        it = self.worst_table.item(row, 0)
        if it is None or self.orders_result is None:
            return
        index = int(it.data(Qt.UserRole))
        self._walks_for_order(index)
        starts = self.orders_result.failed_starts(index)
        if len(starts):
            self.emit_walk(index, int(starts[0]))

    def _walk_clicked(self, item: QListWidgetItem) -> None:
        index, s = item.data(Qt.UserRole)
        self.emit_walk(int(index), int(s))

    def _start_clicked(self, sq: int) -> None:
        """Heat-map click: list the orders whose walk from that square fails (first 200)."""
        res = self.orders_result
        if res is None:
            return
        from knightgui_core.studies.orders import digits
        self.walks_list.clear()
        bad = (res.lengths[:, sq] < res.squares).nonzero()[0]
        for i in bad[:200]:
            it = QListWidgetItem(f"{digits(res.order(int(i)))} from {res.board.name(sq)}: stuck "
                                 f"after {int(res.lengths[i, sq])} squares")
            it.setData(Qt.UserRole, (int(i), int(sq)))
            self.walks_list.addItem(it)
        if len(bad) > 200:
            self.walks_list.addItem(f"… and {len(bad) - 200:,} more orders")

    def emit_walk(self, index: int, start: int) -> None:
        """Replay order ``index`` from ``start`` and emit it on :attr:`show_tour`."""
        from knightgui_core.studies.orders import digits, replay
        from knightgui_core.tour import Tour
        res = self.orders_result
        order = res.order(index)
        w = replay(res.board.rows, order, res.tie, start, cols=res.board.cols)
        if w["complete"]:
            self.show_tour.emit(Tour(w["board"], w["path"], w["closed"],
                                     {"method": "move-order analysis walk",
                                      "order": digits(order), "tie": res.tie}))
        else:
            self.show_tour.emit({"board": w["board"], "path": w["path"],
                                 "message": w["message"]})

    def export_orders_csv(self, *_, filename: str | None = None) -> None:
        if self.orders_result is None:
            return
        name = filename or QFileDialog.getSaveFileName(self, "Save move-order table",
                                                       "move-orders.csv", "CSV (*.csv)")[0]
        if name:
            self.orders_result.save_csv(name)

    # ------------------------------------------------------------- tie-breaks
    def show_tiebreak_result(self, res) -> None:
        self.tie_result = res
        self.success_plot.set_result(res)
        t = self.rule_table
        t.setRowCount(0)
        for rule, s in res.summary().items():
            r = t.rowCount()
            t.insertRow(r)
            rate = f"{100 * s['success_rate']:.1f}%" if s["success_rate"] is not None else "—"
            ff = s["first_failure"]
            first = f"{ff['n']} (from {ff['start']}, {ff['visited']:,} squares)" if ff else \
                "none"
            for c, val in enumerate((rule, f"{s['walks']:,}", f"{s['completed']:,}", rate,
                                     first)):
                it = QTableWidgetItem(val)
                it.setData(Qt.UserRole, rule)
                t.setItem(r, c, it)
        state = "" if res.complete else " (cancelled)"
        self.tie_label.setText(f"n = {int(res.sizes[0])} … {int(res.sizes[-1])}, starts "
                               f"{res.starts}: {res.seconds:.2f} s{state}. Click a rule to see "
                               "its first failing walk.")
        self.tie_progress.setValue(1000 if res.complete else self.tie_progress.value())
        self.tie_csv_btn.setEnabled(True)

    def _rule_clicked(self, row: int, _col: int) -> None:
        it = self.rule_table.item(row, 0)
        if it is None or self.tie_result is None:
            return
        ff = self.tie_result.first_failure(str(it.data(Qt.UserRole)))
        if ff is None:
            return
        from knightgui_core.studies.tiebreaks import walk
        w = walk(str(it.data(Qt.UserRole)), ff["n"], ff["square"], order=self.tie_result.order,
                 seed=ff.get("seed", self.tie_result.seed))
        if w["ok"]:
            self.show_tour.emit(w["tour"])
        else:
            self.show_tour.emit({"board": w["board"], "path": w["path"],
                                 "message": w["message"]})

    def export_tie_csv(self, *_, filename: str | None = None) -> None:
        if self.tie_result is None:
            return
        name = filename or QFileDialog.getSaveFileName(self, "Save tie-break table",
                                                       "tie-breaks.csv", "CSV (*.csv)")[0]
        if name:
            self.tie_result.save_csv(name)
