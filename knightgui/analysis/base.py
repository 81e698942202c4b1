"""What every page of the Analysis view shares: the study runner (a
:class:`knightgui.worker.SolverThread` for the studies, a second one for the single walks a
page shows on the board: nothing is computed on the GUI thread), small widget makers, and
the page base class :class:`AnalysisPage`: a tab ``title``, its :meth:`~AnalysisPage.plots`
(exported by "Export plots…"), the study callbacks, and what every study shows the same way:
Run and Cancel (``run_btn``: off while any study runs; ``cancel_btn``: on for the page whose
study runs), the progress bar (``progress``, counting ``unit``) and the status line
(``status``). Pages are listed in :mod:`knightgui.analysis.pages`.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from knightgui.analysis.plot_export import export_plot
from knightgui.window.engine_warmup import STUDY_STAGES, engine
from knightgui.window.files import attempt
from knightgui.worker import SolverThread, StudyRequest


def button(text: str, slot, tip: str = "") -> QPushButton:
    """A push button wired to ``slot``, with a tooltip."""
    b = QPushButton(text)
    b.clicked.connect(slot)
    if tip:
        b.setToolTip(tip)
    return b


def rows(layout, *groups, stretch: bool = True) -> None:
    """Controls in short rows, each pushed to the left (``stretch``) or as wide as the page."""
    for group in groups:
        row = QHBoxLayout()
        for x in group:
            row.addWidget(x)
        if stretch:
            row.addStretch(1)
        layout.addLayout(row)


def table(headers, stretch: int | None = None) -> QTableWidget:
    """A read-only table with one selectable row at a time, sized to its contents."""
    t = QTableWidget(0, len(headers))
    t.setHorizontalHeaderLabels(headers)
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    t.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    t.verticalHeader().setVisible(False)
    t.verticalHeader().setDefaultSectionSize(22)
    t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    t.horizontalHeader().setStretchLastSection(stretch is None)
    if stretch is not None:
        t.horizontalHeader().setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
    return t


#: figures in a table cell: right-aligned
RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


def add_row(t: QTableWidget, cells, data=None, align=()) -> list[QTableWidgetItem]:
    """Append a row of ``cells`` to ``t`` and return its items; each holds ``data``
    (UserRole) and ``align[column]`` when one is given."""
    r = t.rowCount()
    t.insertRow(r)
    items = []
    for c, text in enumerate(cells):
        it = QTableWidgetItem(str(text))
        if data is not None:
            it.setData(Qt.ItemDataRole.UserRole, data)
        if c < len(align) and align[c] is not None:
            it.setTextAlignment(align[c])
        t.setItem(r, c, it)
        items.append(it)
    return items


def spin(lo: int, hi: int, value: int, prefix: str = "", tip: str = "") -> QSpinBox:
    """A spin box over ``lo`` … ``hi`` showing ``value``."""
    s = QSpinBox()
    s.setRange(lo, hi)
    s.setValue(value)
    s.setPrefix(prefix)
    if tip:
        s.setToolTip(tip)
    return s


def combo(items=(), tip: str = "", editable: bool = False) -> QComboBox:
    """A combo box of ``items``: texts, or ``(data, text)`` pairs."""
    c = QComboBox()
    c.setEditable(editable)
    for item in items:
        if isinstance(item, tuple):
            c.addItem(item[1], item[0])
        else:
            c.addItem(item)
    if tip:
        c.setToolTip(tip)
    return c


def check(text: str, tip: str, checked: bool = False) -> QCheckBox:
    """A check box."""
    b = QCheckBox(text)
    b.setChecked(checked)
    b.setToolTip(tip)
    return b


class StudyRunner(QObject):
    """Runs the pages' studies, one at a time, on its own :class:`SolverThread` (the same
    request / restart / abort pattern as the board's solves). Results of the current run, or
    of a run cancelled with :meth:`cancel` (a partial result), go to the page that started
    it; anything older is dropped."""

    busyChanged = Signal(bool)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.worker = SolverThread(self)
        self.worker.setObjectName("knightgui-studies")
        self.gen = 0
        self.page: AnalysisPage | None = None
        self.running = False
        self.worker.studyProgress.connect(self._progress)
        self.worker.studyDone.connect(self._done)
        self.worker.failed.connect(self._failed)
        # single walks (a click on a failed walk replays it): their own thread, so a click
        # never waits for a study and a newer click supersedes an older one
        self.walker = SolverThread(self)
        self.walker.setObjectName("knightgui-walks")
        self.walk_gen = 0
        self.walk_page: AnalysisPage | None = None
        self.walker.studyDone.connect(self._walked)
        self.walker.failed.connect(self._walk_failed)

    def run(self, page: AnalysisPage, kind: str, fn) -> int:
        """Start ``fn(progress=, cancel=)`` for ``page`` (superseding a running study)."""
        self.page = page
        self.running = True
        self.gen = self.worker.submit(StudyRequest(kind, fn))
        self.busyChanged.emit(True)
        return self.gen

    def walk(self, page: AnalysisPage, fn: Callable[[], object]) -> int:
        """Compute ``fn()`` (one walk: a Tour or a stuck Walk) on the walk thread and emit
        it on ``page.show_tour`` (a newer walk supersedes it)."""
        self.walk_page = page
        self.walk_gen = self.walker.submit(StudyRequest("walk", lambda **_kw: fn()))
        return self.walk_gen

    def cancel(self) -> None:
        """Stop the running study; its partial result still arrives."""
        if self.running:
            self.worker.cancel()

    def shutdown(self, timeout_ms: int = 30000) -> bool:
        """Abort and wait for both threads; True when they ended."""
        self.running = False
        walks_ended = bool(self.walker.stop(timeout_ms))
        return bool(self.worker.stop(timeout_ms)) and walks_ended

    def _walked(self, gen: int, result) -> None:
        if gen == self.walk_gen and self.walk_page is not None and result is not None:
            self.walk_page.show_tour.emit(result)

    def _walk_failed(self, gen: int, message: str, _bad_input: bool) -> None:
        if gen == self.walk_gen and self.walk_page is not None:
            self.walk_page.study_failed(message)

    def _progress(self, gen: int, done: float, total: float) -> None:
        if gen == self.gen and self.page is not None:
            self.page.study_progress(done, total)

    def _end(self, gen: int, tell: Callable[[AnalysisPage], None]) -> None:
        """The current study ended: Run comes back, and ``tell`` informs its page."""
        if gen == self.gen and self.running:
            self.running = False
            self.busyChanged.emit(False)
            if self.page is not None:
                tell(self.page)

    def _done(self, gen: int, result) -> None:
        self._end(gen, lambda page: page.study_done(result))

    def _failed(self, gen: int, message: str, _bad_input: bool) -> None:
        self._end(gen, lambda page: page.study_failed(message))


class AnalysisPage(QWidget):
    """Base of the Analysis view's pages; see the module docstring."""

    #: the tab's title
    title = ""
    #: a :class:`~knightgui_core.board.tour.Tour`, or the ``Walk`` that got stuck, to show
    show_tour = Signal(object)

    #: what the progress bar counts ("" for a plain percentage)
    unit = ""

    def __init__(self, runner: StudyRunner, parent=None, *, run_tip: str = "",
                 status: str = ""):
        super().__init__(parent)
        self.runner = runner
        self.export_btn = button("Export plots…", self.export_plots,
                                 "save this page's plots as PNG or SVG images")
        self.run_btn = button("Run", self.run, run_tip)
        self.cancel_btn = button("Cancel", self.cancel, "stop the study (what is done stays)")
        self.cancel_btn.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.status = QLabel(status)
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

    # ------------------------------------------------------------ to override
    def plots(self) -> dict[str, QWidget]:
        """The page's plots by a short name (used in exported file names)."""
        return {}

    def run(self) -> None:
        """Start the page's study (the Run button)."""

    def study_done(self, result) -> None:
        """The study ended (``result`` is partial when it was cancelled)."""

    # ------------------------------------------------- shared study display
    def study_progress(self, done: float, total: float) -> None:
        """Progress of this page's running study, on the progress bar."""
        self.progress.setValue(int(1000 * done / total) if total else 0)
        if self.unit:
            self.progress.setFormat(f"{int(done):,} / {int(total):,} {self.unit}")

    def study_failed(self, message: str) -> None:
        """The study raised: its first line on the status line."""
        self.status.setText(f"Failed: {message.splitlines()[0] if message else 'error'}")

    def set_busy(self, busy: bool) -> None:
        """A study (of any page) started or ended: Run waits, Cancel is this page's."""
        self.run_btn.setEnabled(not busy)
        self.cancel_btn.setEnabled(busy and self.runner.page is self)

    # ---------------------------------------------------------------- helpers
    def start_study(self, kind: str, fn) -> None:
        """Run ``fn(progress=, cancel=)`` as this page's study (unless one is running), once
        the engine's kernels it needs are ready: the first run after an empty cache waits for
        the warm-up's stage, and the status line says so."""
        def go() -> None:
            if not self.runner.running:
                self.runner.run(self, kind, fn)
        if self.runner.running:
            return
        warm = engine()
        if not warm.when_ready(STUDY_STAGES.get(kind, ()), go, "analysis"):
            self.status.setText(warm.wait_text())

    def show_walk(self, fn: Callable[[], Any]) -> None:
        """Compute one walk with ``fn()`` on the walk thread; its tour, or the walk where it
        got stuck, is shown on the board."""
        self.runner.walk(self, lambda: w.tour if (w := fn()).complete else w)

    def cancel(self) -> None:
        """Stop this page's running study (its partial result still arrives)."""
        self.runner.cancel()

    def export_plots(self, *_, filename: str | None = None) -> list[Path]:
        """Save every plot of the page, ``<stem>-<plot>.png`` or ``.svg`` (from the chosen
        name's suffix). Returns the files written; a failure is a dialog."""
        name = filename or QFileDialog.getSaveFileName(
            self, "Export plots", f"{self.title.lower().replace(' ', '-')}.png",
            "PNG image (*.png);;SVG image (*.svg)")[0]
        if not name:
            return []
        p = Path(name)
        suffix = p.suffix.lower() if p.suffix.lower() in (".png", ".svg") else ".png"
        written: list[Path] = []

        def work() -> None:
            for key, plot in self.plots().items():
                written.append(export_plot(plot, p.with_name(f"{p.stem}-{key}{suffix}")))
        self.write_file(name, work, f"Saved {len(self.plots())} plot(s) as {p.stem}-…{suffix}",
                        dialog=filename is None)
        return written

    def save_csv(self, res, title: str, default: str, filename: str | None) -> None:
        """Save the study result ``res`` with its ``save_csv`` (asks for a name when
        ``filename`` is None)."""
        if res is None:
            return
        name = filename or QFileDialog.getSaveFileName(self, title, default, "CSV (*.csv)")[0]
        if name:
            self.write_file(name, lambda: res.save_csv(name), f"Saved {name}",
                            dialog=filename is None)

    def write_file(self, name: str, work: Callable[[], object], done_text: str,
                   dialog: bool = False) -> bool:
        """Write a file through the window's one error path
        (:func:`knightgui.window.files.attempt`): a refusal is one line on the status line
        (and a dialog when ``dialog``), nothing is lost."""
        def fail(text: str) -> None:
            self.status.setText(f"Could not save {text}")
            if dialog:
                QMessageBox.warning(self, "Cannot save", text)
        return attempt(name, work, fail, self.status.setText, done_text)
