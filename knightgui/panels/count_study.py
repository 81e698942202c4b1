"""The count study in the window: every Warnsdorff tour from each start square, counted.

A page of its own (:class:`CountStudyPage`) for the Analysis view: board size, starts,
scheduler address and store file (both remembered in the settings under ``count/``), Run,
Cancel, a progress bar over the rounds of tasks, and the table (one row per symmetry class,
then the totals). The study runs on :func:`knightgui_core.studies.count.run_count` in a
thread of its own; Cancel stops it between tasks and nothing partial is shown as a result.
"""
from __future__ import annotations

import threading

from PySide6.QtCore import QThread, Signal
from PySide6.QtWidgets import (QAbstractItemView, QApplication, QComboBox, QHBoxLayout,
                               QHeaderView, QLabel, QLineEdit, QProgressBar, QPushButton,
                               QSpinBox, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from ..settings import qsettings

HEADERS = ("start", "starts", "tours", "closed", "dead ends")


class CountThread(QThread):
    """Runs the count study off the GUI thread. ``progressed(round, done, total)``;
    ``done(CountResult)``; ``failed(one line)``."""

    progressed = Signal(int, float, float)
    done = Signal(object)
    failed = Signal(str)

    def __init__(self, n: int, starts: str, scheduler: str, store_path: str, parent=None):
        super().__init__(parent)
        self.n, self.starts = n, starts
        self.scheduler = scheduler or None
        self.store_path = store_path or None
        self.cancel_event = threading.Event()

    def run(self) -> None:
        from knightgui_core.count import CountError
        from knightgui_core.runner import RunnerError
        from knightgui_core.store import ResultStore, StoreError
        from knightgui_core.studies.count import run_count
        store = None
        try:
            if self.store_path:
                store = ResultStore(self.store_path)
            res = run_count(self.n, self.n, self.starts, scheduler=self.scheduler, store=store,
                            cancel=self.cancel_event,
                            progress=lambda r, d, t: self.progressed.emit(r, float(d),
                                                                          float(t)))
        except (CountError, RunnerError, StoreError, OSError, ValueError) as e:
            self.failed.emit(str(e).splitlines()[0] if str(e) else type(e).__name__)
            return
        except Exception as e:  # noqa: BLE001 - shown on the page, never a crash
            self.failed.emit(f"{type(e).__name__}: {e}")
            return
        finally:
            if store is not None:
                store.close()
        self.done.emit(res)


class CountStudyPage(QWidget):
    """See the module docstring. ``result`` holds the last finished
    :class:`~knightgui_core.studies.count.CountResult`."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.thread: CountThread | None = None
        self.result = None
        v = QVBoxLayout(self)
        self.size_spin = QSpinBox()
        self.size_spin.setRange(1, 11)
        self.size_spin.setValue(8)
        self.size_spin.setPrefix("n = ")
        self.starts_combo = QComboBox()
        self.starts_combo.setEditable(True)
        self.starts_combo.addItems(["all", "corners"])
        self.starts_combo.setToolTip("all, corners, or squares such as a1,c3")
        s = qsettings()
        self.scheduler_edit = QLineEdit(str(s.value("count/scheduler", "") or ""))
        self.scheduler_edit.setPlaceholderText("this machine (or tcp://HOST:8786)")
        self.scheduler_edit.setToolTip("Dask scheduler of a cluster; empty: this machine")
        self.store_edit = QLineEdit(str(s.value("count/store", "") or ""))
        self.store_edit.setPlaceholderText("no store (or a .sqlite file to resume from)")
        self.run_btn = QPushButton("Run")
        self.run_btn.clicked.connect(self.run)
        self.cancel_btn = QPushButton("Cancel")
        self.cancel_btn.clicked.connect(self.cancel)
        self.cancel_btn.setEnabled(False)
        for group in ((QLabel("Board"), self.size_spin, QLabel("starts"), self.starts_combo),
                      (QLabel("Scheduler"), self.scheduler_edit),
                      (QLabel("Store"), self.store_edit),
                      (self.run_btn, self.cancel_btn)):
            row = QHBoxLayout()
            for x in group:
                row.addWidget(x)
            if group[-1] is self.cancel_btn or group[-1] is self.starts_combo:
                row.addStretch(1)
            v.addLayout(row)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        v.addWidget(self.progress)
        self.status = QLabel("Counts every Warnsdorff tour (strict rule, every tie followed, "
                             "open) from each start square.")
        self.status.setWordWrap(True)
        v.addWidget(self.status)
        t = QTableWidget(0, len(HEADERS))
        t.setHorizontalHeaderLabels(list(HEADERS))
        t.setEditTriggers(QAbstractItemView.NoEditTriggers)
        t.verticalHeader().setVisible(False)
        t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
        t.horizontalHeader().setStretchLastSection(True)
        self.table = t
        v.addWidget(t, 1)
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.shutdown)

    # ----------------------------------------------------------------- running
    @property
    def running(self) -> bool:
        return self.thread is not None and self.thread.isRunning()

    def run(self) -> None:
        if self.running:
            return
        n = self.size_spin.value()
        starts = self.starts_combo.currentText().strip() or "all"
        sched, store = self.scheduler_edit.text().strip(), self.store_edit.text().strip()
        s = qsettings()
        s.setValue("count/scheduler", sched)
        s.setValue("count/store", store)
        self.result = None
        self.table.setRowCount(0)
        self.progress.setValue(0)
        self.status.setText(f"Counting {n}×{n}, starts: {starts}, on "
                            f"{sched or 'this machine'} …")
        t = CountThread(n, starts, sched, store, self)
        t.progressed.connect(self._on_progress)
        t.done.connect(self._on_done)
        t.failed.connect(self._on_failed)
        t.finished.connect(self._on_finished)
        self.thread = t
        self.run_btn.setEnabled(False)
        self.cancel_btn.setEnabled(True)
        t.start()

    def cancel(self) -> None:
        if self.thread is not None:
            self.thread.cancel_event.set()
            self.status.setText("Cancelling …")

    def shutdown(self, timeout_ms: int = 30000) -> bool:
        """Cancel a running count and wait for its thread; True when none is left."""
        t = self.thread
        if t is None:
            return True
        t.cancel_event.set()
        return bool(t.wait(timeout_ms))

    def closeEvent(self, ev):  # noqa: N802 (Qt name)
        self.shutdown()
        super().closeEvent(ev)

    def _on_progress(self, rnd: int, done: float, total: float) -> None:
        self.progress.setValue(int(1000 * done / total) if total else 0)
        self.progress.setFormat(f"round {rnd}: {int(done):,} / {int(total):,} tasks")

    def _on_failed(self, msg: str) -> None:
        self.status.setText(f"Failed: {msg}")

    def _on_finished(self) -> None:
        self.run_btn.setEnabled(True)
        self.cancel_btn.setEnabled(False)
        t, self.thread = self.thread, None
        if t is not None:
            t.deleteLater()

    def _on_done(self, res) -> None:
        if res.cancelled:
            self.status.setText(f"Cancelled after {res.seconds:.1f} s "
                                f"({res.tasks['total']:,} tasks finished; a store keeps them)")
            return
        self.show_result(res)

    def show_result(self, res) -> None:
        """Fill the table: one row per symmetry class, then the totals."""
        self.result = res
        rows = [(rep, len(m), res.per_start[m[0]]) for rep, m in res.classes.items()]
        rows.append(("all", len(res.per_start), res.totals))
        self.table.setRowCount(len(rows))
        for i, (name, count, rec) in enumerate(rows):
            for j, val in enumerate((name, f"{count}", f"{rec['tours']:,}",
                                     f"{rec['closed']:,}", f"{rec['dead_ends']:,}")):
                self.table.setItem(i, j, QTableWidgetItem(val))
        t = res.tasks
        self.progress.setValue(1000)
        self.status.setText(f"{res.rows}×{res.cols}: {res.totals['tours']:,} tours from "
                            f"{len(res.per_start)} starts ({len(res.classes)} classes) in "
                            f"{res.seconds:.1f} s; {t['total']:,} tasks, "
                            f"{t['from_store']:,} from the store")
