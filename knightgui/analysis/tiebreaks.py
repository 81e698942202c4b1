"""Analysis page "Tie-breaks": does the greedy walk (no backtracking) complete on n×n for
n = 5 … N, for each tie rule? A success plot (strip and trend per rule, with the 95 %
interval of the rules walked over several seeds) and two tables: one row per rule, and the
success rate per n of the rule chosen there; click a rule to see its first failing walk on
the board."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSplitter, QVBoxLayout, QWidget

from knightgui.analysis.base import RIGHT, AnalysisPage, add_row, button, combo, rows, spin, table
from knightgui.analysis.success_plot import SuccessPlot
from knightgui_core.board.rules import RANDOM_RULES, TIE_HELP
from knightgui_core.studies.tiebreaks.result import wilson_interval

#: the trials spin box: seeds per size for the random rules (the study takes up to 100,000)
TRIALS_DEFAULT, TRIALS_MAX = 10, 1000


def _rate(rate: float | None, completed: int, walks: int, sampled: bool) -> str:
    """``82.0% [77.9, 85.5]`` for walks that sample something (several seeds, or sampled
    start squares): the rate and its 95 % interval; ``71.4%`` for a deterministic rule from
    fixed starts (no sample to take an interval of); a dash when nothing was walked."""
    if rate is None:
        return "—"
    if not sampled:
        return f"{100 * rate:.1f}%"
    low, high = wilson_interval(completed, walks)
    return f"{100 * rate:.1f}% [{100 * float(low):.1f}, {100 * float(high):.1f}]"


class TieBreakPage(AnalysisPage):
    """The tie-break study (``knightgui_core.studies.tiebreaks``)."""

    title = "Tie-breaks"

    def __init__(self, runner, parent=None):
        super().__init__(runner, parent, run_tip="greedy walk for every rule and every size",
                         status="Does the greedy walk complete? Click a rule to see where it "
                                "first fails.")
        from knightgui_core.studies.tiebreaks import START_SETS
        self.tie_result = None
        v = QVBoxLayout(self)
        self.nmax_spin = spin(6, 2000, 200, "n = 5 … ")
        self.starts_combo = combo(START_SETS)
        self.sample_spin = spin(1, 10000, 16, "sample ",
                                "start squares drawn per board size (starts: sample)")
        self.sample_spin.setEnabled(self.starts_combo.currentText() == "sample")
        self.starts_combo.currentTextChanged.connect(
            lambda text: self.sample_spin.setEnabled(text == "sample"))
        self.trials_spin = spin(
            1, TRIALS_MAX, TRIALS_DEFAULT, "trials ",
            "Seeds per board size for the rules that break their remaining ties at random "
            f"({', '.join(RANDOM_RULES)}): seed 0, 1, … Each size's success rate is then over "
            "starts × trials walks, with its 95 % (Wilson) interval. The other rules walk "
            "once.")
        self.tie_csv_btn = button("CSV…", self.export_tie_csv, "rule, n, success")
        self.tie_csv_btn.setEnabled(False)
        rows(v, (self.nmax_spin, QLabel("starts"), self.starts_combo, self.sample_spin,
                 self.trials_spin),
             (self.run_btn, self.cancel_btn, self.tie_csv_btn, self.export_btn))
        v.addWidget(self.progress)
        v.addWidget(self.status)
        # the plot beside the tables: the plot gets the window's height, the tables (one
        # above the other) about two fifths of its width
        split = QSplitter(Qt.Orientation.Horizontal)
        self.success_plot = SuccessPlot()
        split.addWidget(self.success_plot)
        side = QSplitter(Qt.Orientation.Vertical)
        self.rule_table = table(["rule", "trials", "walks", "completed", "rate [95 % interval]",
                                 "first failing n"], stretch=5)
        self.rule_table.cellClicked.connect(self._rule_clicked)
        side.addWidget(self.rule_table)
        by_n = QWidget()
        bv = QVBoxLayout(by_n)
        bv.setContentsMargins(0, 4, 0, 0)
        self.by_n_label = QLabel("Per board size: run the study, then click a rule.")
        bv.addWidget(self.by_n_label)
        self.by_n_table = table(["n", "walks", "completed", "rate", "95 % interval"])
        bv.addWidget(self.by_n_table, 1)
        side.addWidget(by_n)
        side.setSizes([300, 300])
        split.addWidget(side)
        split.setSizes([740, 520])
        v.addWidget(split, 1)
        self.by_n_rule: str | None = None

    def plots(self) -> dict[str, QWidget]:
        """The success-rate plot."""
        return {"success": self.success_plot}

    def run_tiebreaks(self) -> None:
        """Greedy walks of every rule on n×n for n = 5 … the chosen maximum (the Run
        button)."""
        from knightgui_core.studies.tiebreaks import run_tiebreaks
        n_max, starts = self.nmax_spin.value(), self.starts_combo.currentText()
        sample, trials = self.sample_spin.value(), self.trials_spin.value()
        self.status.setText(f"Greedy walks on n×n, n = 5 … {n_max}, starts: {starts}, "
                               f"{trials} trial{'s' if trials > 1 else ''} for the random "
                               "rules …")
        self.start_study("tiebreaks", lambda progress, cancel: run_tiebreaks(
            n_max, starts=starts, sample=sample, trials=trials, progress=progress,
            cancel=cancel))

    run = run_tiebreaks

    def study_done(self, res) -> None:
        """The study ended: fill the rule table and the plot from its result."""
        self.tie_result = res
        self.success_plot.set_result(res)
        t = self.rule_table
        t.setRowCount(0)
        for rule, s in res.summary().items():
            rate = _rate(s.success_rate, s.completed, s.walks, self._sampled(s.trials))
            ff = s.first_failure
            first = f"{ff.n} (from {ff.start}, {ff.visited:,} squares)" if ff else "none"
            cells = (rule, str(s.trials), f"{s.walks:,}", f"{s.completed:,}", rate, first)
            for c, it in enumerate(add_row(t, cells, rule)):
                it.setToolTip(it.text() if c else TIE_HELP.get(rule, rule))
        several = [r for i, r in enumerate(res.rules) if res.trials[i] > 1]
        self.show_by_n(several[0] if several else (res.rules[0] if res.rules else None))
        state = "" if res.complete else " (cancelled)"
        self.status.setText(f"n = {int(res.sizes[0])} … {int(res.sizes[-1])}, starts "
                               f"{res.starts}: {res.seconds:.2f} s{state}. Click a rule to see "
                               "its first failing walk.")
        self.progress.setValue(1000 if res.complete else self.progress.value())
        self.tie_csv_btn.setEnabled(True)

    def _sampled(self, trials: int) -> bool:
        """Are the walks a sample (several seeds, or sampled starts), so that an interval
        means something?"""
        return trials > 1 or (self.tie_result is not None and self.tie_result.starts == "sample")

    def show_by_n(self, rule: str | None) -> None:
        """Fill the per-size table with ``rule``'s rows of the study (the CLI JSON's
        ``by_n``)."""
        t = self.by_n_table
        t.setRowCount(0)
        self.by_n_rule = rule
        if rule is None or self.tie_result is None:
            return
        r = list(self.tie_result.rules).index(rule)
        trials = int(self.tie_result.trials[r])
        rows_ = self.tie_result.by_n(rule)
        self.by_n_label.setText(
            f"Per board size: {rule}, {trials} trial{'s' if trials > 1 else ''} "
            f"({len(rows_)} sizes; click a rule above for another)")
        sampled = self._sampled(trials)
        for n, d in rows_.items():
            low, high = d.ci95
            ci = f"{100 * low:.1f} – {100 * high:.1f}%" if sampled else "—"
            add_row(t, (str(n), f"{d.walks:,}", f"{d.completed:,}",
                        f"{100 * d.success_rate:.1f}%", ci),
                    align=(RIGHT,) * 4 + (Qt.AlignmentFlag.AlignCenter,))

    def _rule_clicked(self, row: int, _col: int) -> None:
        it = self.rule_table.item(row, 0)
        if it is None or self.tie_result is None:
            return
        rule = str(it.data(Qt.ItemDataRole.UserRole))
        self.show_by_n(rule)
        ff = self.tie_result.first_failure(rule)
        if ff is None:
            return
        from knightgui_core.studies.tiebreaks import walk
        order, seed = self.tie_result.order, ff.seed
        self.show_walk(lambda: walk(rule, ff.n, ff.square, order=order, seed=seed))

    def export_tie_csv(self, *_, filename: str | None = None) -> None:
        """Save the table (rule, n, success) as CSV (asks for a name when none is given)."""
        self.save_csv(self.tie_result, "Save tie-break table", "tie-breaks.csv", filename)
