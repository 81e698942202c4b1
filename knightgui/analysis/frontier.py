"""Analysis page "Tours by length": every knight's tour of k×A … k×B counted in one pass of
the frontier count (the window's side of ``knightgui study count --all-tours --rows k
--cols-from A --cols-to B``), on the view's study thread; Cancel stops it inside a cell.

A line under the controls says what a run will cost (``knightgui_core.studies.frontier_cost``).
A board whose tables outgrow the free memory goes through slices on disk in the user's cache
folder (:func:`spill_folder`), where its progress is kept after every cell: Run again, after
a Cancel or a restart, goes on from the last finished cell. The plot shows log10 of each
count against n (ticks read 10^k; a count of 0 has no point), taken from the integer itself
(``math.log10``) so that counts past 10^308 still plot; the table holds the exact counts.
"""
from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QLabel, QVBoxLayout

from knightgui.analysis.base import RIGHT, AnalysisPage, add_row, check, rows, spin, table
from knightgui.analysis.plots import EMPTY_TEXT, _style, show_empty

#: the tallest board the frontier count takes (its kernel's window holds 2k + 1 cells:
#: ``knightgui_core.frontier.count.MAX_ROWS``, read there only when a run starts, so
#: the page loads no numba; tests/gui/test_analysis_frontier.py holds the two equal)
ROWS_UP_TO = 12
#: the longest board the page offers (a run's time grows with its length)
COLS_UP_TO = 400
#: the curves: the board record's field → legend label, colour
CURVES = {"undirected_closed_tours": ("closed tours", (31, 119, 180)),
          "undirected_paths": ("open paths (undirected, closed ones included)", (214, 39, 40))}
HEADERS = ["board", "closed tours", "undirected paths", "directed paths"]


@dataclass
class SequenceRun:
    """What a run brings back: the board records (``frontier_records``' JSON shape), the
    largest table's states, the seconds, and why it stopped early (``None``: it finished)."""

    rows: int
    cols_from: int
    cols_to: int
    boards: list[dict[str, Any]]
    peak_states: int = 0
    seconds: float = 0.0
    stopped: str | None = None
    #: counted through slices on disk, and the cells found done there when it started
    spilled: bool = False
    resumed_cells: int = 0


def spill_folder(make: bool = True) -> Path:
    """The folder the page's runs through slices on disk go to (private to the user):
    ``frontier`` in the user's cache folder for knightgui; made when ``make``, else the
    nearest folder of that path that exists (the disk a run would use, for its cost)."""
    from knightgui_core.system.kernel_cache import user_cache_root
    d = user_cache_root() / "frontier"
    if make:
        d.mkdir(parents=True, exist_ok=True, mode=0o700)
        return d
    while not d.exists() and d.parent != d:
        d = d.parent
    return d


def sequence_study(k: int, a: int, b: int, closed_only: bool, spill: str | None = None,
                   report: Callable[[str], None] | None = None):
    """The study function the runner calls: ``fn(progress=, cancel=)`` → :class:`SequenceRun`
    (a cancel or a table that outgrows the memory ends it with ``stopped`` said; a board the
    estimate refuses up front raises: one line on the status line). ``spill``: a folder for
    a board too big for memory (then counted through slices on disk, resumable), whose lines
    go to ``report`` (called on the study thread)."""
    def fn(progress: Any = None, cancel: Any = None) -> SequenceRun:
        from knightgui_core.frontier.count import FrontierError
        from knightgui_core.studies.tour_methods import frontier_records, run_frontier
        from knightgui_core.system.errors import Cancelled
        try:
            res = run_frontier(k, list(range(a, b + 1)), closed_only=closed_only,
                               progress=progress, cancel=cancel, spill=spill, report=report)
        except Cancelled:
            return SequenceRun(k, a, b, [], stopped="cancelled")
        except FrontierError as e:
            part = e.result
            if part is None:
                raise
            return SequenceRun(k, a, b, frontier_records(part), part.peak_states,
                               stopped=str(e))
        return SequenceRun(k, a, b, frontier_records(res), res.peak_states, res.seconds,
                           spilled=bool(res.slices), resumed_cells=res.resumed_cells)
    return fn


def log_points(boards: list[dict[str, Any]], field: str) -> tuple[list[int], list[float]]:
    """(lengths, log10 of the count) of the boards whose ``field`` is a positive count."""
    xs, ys = [], []
    for rec in boards:
        v = rec.get(field)
        if isinstance(v, int) and v > 0:
            xs.append(int(rec["cols"]))
            ys.append(math.log10(v))
    return xs, ys


def _text(v: Any) -> str:
    return "—" if v is None else f"{v:,}"


class SequencePlot(pg.PlotWidget):
    """log10(count) against the board length n, one curve per kind of count."""

    def __init__(self, parent=None):
        super().__init__(parent)
        _style(self, "Every tour of k×n, by length", "count (log scale)", "board length n")
        pi = self.getPlotItem()
        pi.showGrid(x=True, y=True, alpha=0.25)
        self.legend = pi.addLegend(offset=(10, 10), labelTextColor=(30, 30, 30))
        self.curves: dict[str, pg.PlotDataItem] = {}
        for field, (_label, colour) in CURVES.items():
            self.curves[field] = pi.plot([], [], pen=pg.mkPen(colour, width=2), symbol="o",
                                         symbolSize=6, symbolBrush=colour)
        self._legend_for(["undirected_closed_tours"])
        show_empty(self, EMPTY_TEXT)

    def _legend_for(self, fields: list[str]) -> None:
        """The legend names the curves drawn (the closed tours alone before a run)."""
        self.legend.clear()
        for field in fields:
            self.legend.addItem(self.curves[field], CURVES[field][0])

    def set_boards(self, k: int, boards: list[dict[str, Any]]) -> None:
        """Plot the boards' counts (none: the "no data yet" frame)."""
        pi = self.getPlotItem()
        drawn = 0
        shown = []
        for field, curve in self.curves.items():
            xs, ys = log_points(boards, field)
            curve.setData(xs, ys)
            curve.setVisible(bool(xs))
            drawn += len(xs)
            if xs:
                shown.append(field)
        self._legend_for(shown or ["undirected_closed_tours"])
        show_empty(self, None if drawn else EMPTY_TEXT)
        lengths = [int(rec["cols"]) for rec in boards]
        span = max(lengths) - min(lengths) if lengths else 0
        step = next((s for s in (1, 2, 5, 10, 20, 50, 100) if s * 12 >= span), 200)
        pi.getAxis("bottom").setTickSpacing(step, step)   # board lengths are whole
        # data already in log10: only the axis is in log mode, so its ticks read 10^k
        pi.getAxis("left").setLogMode(bool(drawn))
        pi.setTitle(f"Every tour of {k}×n, by length" if drawn else
                    "Every tour of k×n, by length", color=(40, 40, 40), size="10pt")
        if drawn:
            pi.enableAutoRange()


class FrontierSequencePage(AnalysisPage):
    """k×A … k×B counted in one frontier pass: a log plot and a table of exact counts."""

    title = "Tours by length"
    #: a line of the count through slices (from the study thread)
    noted = Signal(str)

    def __init__(self, runner, parent=None):
        super().__init__(runner, parent,
                         run_tip="count every tour of each board, column by column",
                         status="Every knight's tour of k×n for each length n, counted "
                                "column by column in one pass (closed tours, and the open "
                                "paths if asked; exact integers).")
        self.result: SequenceRun | None = None
        self._cols = 0
        self._running_text = ""
        v = QVBoxLayout(self)
        self.rows_spin = spin(1, ROWS_UP_TO, 6, "k = ",
                              "rows: the short side, read column by column (the work grows "
                              "steeply with it: 6 rows take seconds, 8 rows closed go "
                              "through slices on disk and take hours)")
        self.from_spin = spin(1, COLS_UP_TO, 1, "n from ", "the shortest board length n")
        self.to_spin = spin(1, COLS_UP_TO, 14, "to ", "the longest board length n (one pass "
                            "counts every shorter one on its way)")
        self.closed_box = check("closed tours only",
                                "skip the open paths (they take far more states)", True)
        self.disk_box = check("slices on disk", "a board whose tables outgrow the free memory "
                              "is counted through slices on disk in the cache folder, and "
                              "goes on from its last finished cell when run again; "
                              "unticked, it is refused", True)
        self.cost = QLabel("")
        self.cost.setWordWrap(True)
        self.cost.setToolTip("what the run will take, estimated from measured boards")
        self.detail = QLabel("")
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detail.setToolTip("the latest cell of a count through slices on disk")
        rows(v, (QLabel("Boards"), self.rows_spin, QLabel("×"), self.from_spin, self.to_spin,
                 self.run_btn, self.cancel_btn, self.export_btn),
             (self.closed_box, self.disk_box))
        v.addWidget(self.cost)
        v.addWidget(self.progress)
        v.addWidget(self.status)
        v.addWidget(self.detail)
        self.plot = SequencePlot()
        v.addWidget(self.plot, 3)
        self.table = table(HEADERS)
        self.table.horizontalHeader().setStretchLastSection(False)
        self.table.setToolTip("every count exactly (select and copy)")
        v.addWidget(self.table, 2)
        self.noted.connect(self._note)
        self._cost_timer = QTimer(self)
        self._cost_timer.setSingleShot(True)
        self._cost_timer.timeout.connect(self.update_cost)
        for changed in (self.rows_spin.valueChanged, self.to_spin.valueChanged,
                        self.closed_box.toggled, self.disk_box.toggled):
            changed.connect(lambda *_: self._cost_timer.start(150))
        self._cost_timer.start(0)

    def update_cost(self) -> None:
        """The cost line for the boards as set; once the engine's warm-up has imported the
        frontier count (a moment after the window opens), so the GUI thread never waits for
        numba; it creates no folder."""
        if "knightgui_core.frontier.count" not in sys.modules:
            self.cost.setText("The cost of a run is shown once the engine is loaded …")
            self._cost_timer.start(1000)
            return
        from knightgui_core.studies.frontier_cost import frontier_cost
        k, b, closed = self.rows_spin.value(), self.to_spin.value(), self.closed_box.isChecked()
        spill = str(spill_folder(make=False)) if self.disk_box.isChecked() else None
        c = frontier_cost(k, b, closed, spill=spill)
        text = f"Cost: {c.summary()}"
        if c.spilled and spill is None:
            text += " — too big without slices on disk: it is refused"
        self.cost.setText(text)

    def _note(self, line: str) -> None:
        """A line of the count through slices: why it goes to disk and the resumed cells on
        the status line; each cell's figures, and where a stopped run keeps its progress,
        under it."""
        if line.startswith("cell "):
            self.detail.setText(line)
            return
        said = line.removeprefix("frontier: ")
        if self.runner.running and self._running_text and "progress is kept" not in said:
            self._running_text = f"{self._running_text.removesuffix(' …')}; {said} …"
            self.status.setText(self._running_text)
        else:
            self.detail.setText(said)

    def plots(self):
        """The log plot."""
        return {"by-length": self.plot}

    def run(self) -> None:
        """Count the boards as set (the Run button)."""
        if self.runner.running:
            return
        k, a, b = self.rows_spin.value(), self.from_spin.value(), self.to_spin.value()
        if b < a:
            self.status.setText(f"Cannot count: the last length ({b}) is below the first ({a})")
            return
        closed = self.closed_box.isChecked()
        self._cols = b
        self.result = None
        self.progress.setFormat(f"column 0 of {b}")
        self.progress.setValue(0)
        what = "closed tour" if closed else "tour and open path"
        self._running_text = (f"Counting every {what} of {k}×{a} … {k}×{b}, column by column "
                              f"({b} columns of {k} cells) …")
        self.status.setText(self._running_text)
        self.detail.setText("")
        spill = None
        if self.disk_box.isChecked():
            try:
                spill = os.fspath(spill_folder())
            except OSError as e:
                self.status.setText(f"Cannot use the cache folder for slices: {e}")
                return
        self.start_study("frontier", sequence_study(k, a, b, closed, spill, self.noted.emit))

    def study_progress(self, done: float, total: float) -> None:
        """The bar moves column by column (``done`` and ``total`` count cells)."""
        per = total / self._cols if self._cols and total else 0
        col = int(done // per) if per else 0
        self.progress.setFormat(f"column {col} of {self._cols}")
        self.progress.setValue(int(1000 * done / total) if total else 0)
        if self._running_text and self.status.text() != self._running_text:
            self.status.setText(self._running_text)     # after "Preparing the engine …"

    def study_done(self, res: SequenceRun | None) -> None:
        """Show the counts (what was counted before a stop, if anything)."""
        if res is None:
            self.status.setText("Cancelled.")
            return
        self.result = res
        self.show_boards(res.rows, res.boards)
        span = f"{res.rows}×{res.cols_from} … {res.rows}×{res.cols_to}"
        if res.stopped == "cancelled":
            self.status.setText(f"Cancelled: {span} not counted (a run gives its boards at "
                                "its end)")
            return
        if res.stopped:
            self.status.setText(f"Stopped: {res.stopped}; {len(res.boards)} boards counted "
                                "before it")
            return
        self.progress.setFormat(f"column {res.cols_to} of {res.cols_to}")
        self.progress.setValue(1000)
        last = res.boards[-1] if res.boards else None
        tail = (f"; {last['rows']}×{last['cols']}: "
                f"{last['undirected_closed_tours']:,} closed tours" if last else "")
        how = ""
        if res.spilled:
            how = " through slices on disk" + (f" ({res.resumed_cells} cells were done "
                                               "before)" if res.resumed_cells else "")
        self.status.setText(f"{span}: {len(res.boards)} boards in {res.seconds:.1f} s"
                            f"{how}, {res.peak_states:,} states at most{tail}")

    def show_boards(self, k: int, boards: list[dict[str, Any]]) -> None:
        """Fill the plot and the table with the boards' counts."""
        self.plot.set_boards(k, boards)
        t = self.table
        t.setRowCount(0)
        paths = any(rec["undirected_paths"] is not None for rec in boards)
        for col in (2, 3):                       # the open paths' columns: when counted
            t.setColumnHidden(col, bool(boards) and not paths)
        for rec in boards:
            add_row(t, (f"{rec['rows']}×{rec['cols']}", _text(rec["undirected_closed_tours"]),
                        _text(rec["undirected_paths"]), _text(rec["totals"]["tours"])),
                    align=(None, RIGHT, RIGHT, RIGHT))
