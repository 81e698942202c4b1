"""Analysis page "Tie-breaks": does the greedy walk (no backtracking) complete on n×n for
n = 5 … N, for each tie rule? A success plot (strip and trend per rule) and a table; click a
rule to see its first failing walk on the board."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QComboBox, QFileDialog, QLabel, QProgressBar, QSpinBox, QSplitter,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from .analysis_base import AnalysisPage, button, rows, table
from .analysis_plots import SuccessPlot


class TieBreakPage(AnalysisPage):
    """The tie-break study (``knightgui_core.studies.tiebreaks``)."""

    title = "Tie-breaks"

    def __init__(self, runner, parent=None):
        super().__init__(runner, parent)
        from knightgui_core.studies.tiebreaks import START_SETS
        self.tie_result = None
        v = QVBoxLayout(self)
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
        self.run_tie_btn = button("Run", self.run_tiebreaks,
                                  "greedy walk for every rule and every size")
        self.cancel_tie_btn = button("Cancel", self.cancel)
        self.cancel_tie_btn.setEnabled(False)
        self.tie_csv_btn = button("CSV…", self.export_tie_csv, "rule, n, success")
        self.tie_csv_btn.setEnabled(False)
        rows(v, (self.nmax_spin, QLabel("starts"), self.starts_combo, self.sample_spin,
             self.run_tie_btn, self.cancel_tie_btn, self.tie_csv_btn, self.export_btn))
        self.tie_progress = QProgressBar()
        self.tie_progress.setRange(0, 1000)
        v.addWidget(self.tie_progress)
        self.tie_label = QLabel("Does the greedy walk complete? Click a rule to see where it "
                                "first fails.")
        self.tie_label.setWordWrap(True)
        v.addWidget(self.tie_label)
        # the plot beside the table: the plot gets the window's height, the table a third
        # of its width
        split = QSplitter(Qt.Orientation.Horizontal)
        self.success_plot = SuccessPlot()
        split.addWidget(self.success_plot)
        self.rule_table = table(["rule", "walks", "completed", "rate", "first failing n"],
                                stretch=4)
        self.rule_table.cellClicked.connect(self._rule_clicked)
        split.addWidget(self.rule_table)
        split.setSizes([740, 520])
        v.addWidget(split, 1)

    def plots(self) -> dict[str, QWidget]:
        return {"success": self.success_plot}

    # ----------------------------------------------------------------- running
    def run_tiebreaks(self) -> None:
        from knightgui_core.studies.tiebreaks import run_tiebreaks
        n_max, starts = self.nmax_spin.value(), self.starts_combo.currentText()
        sample = self.sample_spin.value()
        self.tie_label.setText(f"Greedy walks on n×n, n = 5 … {n_max}, starts: {starts} …")
        self.start_study("tiebreaks", lambda progress, cancel: run_tiebreaks(
            n_max, starts=starts, sample=sample, progress=progress, cancel=cancel))

    def set_busy(self, busy: bool) -> None:
        self.run_tie_btn.setEnabled(not busy)
        self.cancel_tie_btn.setEnabled(busy and self.runner.page is self)

    def study_progress(self, done: float, total: float) -> None:
        self.tie_progress.setValue(int(1000 * done / total) if total else 0)

    def study_failed(self, message: str) -> None:
        self.tie_label.setText(f"Failed: {message}")

    def study_done(self, result) -> None:
        self.show_tiebreak_result(result)

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
                it.setData(Qt.ItemDataRole.UserRole, rule)
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
        ff = self.tie_result.first_failure(str(it.data(Qt.ItemDataRole.UserRole)))
        if ff is None:
            return
        from knightgui_core.studies.tiebreaks import walk
        w = walk(str(it.data(Qt.ItemDataRole.UserRole)), ff["n"], ff["square"], order=self.tie_result.order,
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
