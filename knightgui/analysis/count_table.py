"""The Tour counts page's table and what brings it its rows while the count runs.

:class:`CountTable`: a row per class of start squares, then the totals; its size hint is its
columns' width (:meth:`CountTable.needed_width`), so no header or figure is cut.

:class:`CountFeed` carries the count's news (each class of starts as it is counted, the
tasks done and queued) from the study thread, which emits ``changed`` only when no news is
waiting: a burst of results is one update on the GUI thread, and the last state arrives.
"""
from __future__ import annotations

import math
import threading
from typing import Any

from PySide6.QtCore import QObject, QSize, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QStyle,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from knightgui.analysis.heat_map import share

HEADERS = ("start", "starts", "tours", "closed", "dead ends", "P(success)", "P(closed)")


def row_texts(name: str, starts: int, rec: dict[str, Any]) -> list[str]:
    """A row's cells: the start (or "all"), its starts and its figures."""
    return [name, f"{starts}", f"{rec['tours']:,}", f"{rec['closed']:,}",
            f"{rec['dead_ends']:,}", share(rec.get("p_success", math.nan)),
            share(rec.get("p_closed", math.nan))]


class CountTable(QTableWidget):
    """See the module docstring. Rows are kept in the order of their first start square
    (the order of the finished study's classes), whichever is counted first."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(0, len(HEADERS), parent)
        self.setHorizontalHeaderLabels(list(HEADERS))
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.verticalHeader().setVisible(False)
        h = self.horizontalHeader()
        # the stretched last column is never narrower than the default section size (Qt's
        # 100 made it wider than its figures and pushed it out of view): set it first
        h.setDefaultSectionSize(h.minimumSectionSize())
        h.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        h.setStretchLastSection(True)
        self.order: list[int] = []       # each row's sort key

    def needed_width(self) -> int:
        """Pixels that show every column whole, with room for the vertical scroll bar."""
        h = self.horizontalHeader()
        cols = sum(max(h.sectionSizeHint(j), self.sizeHintForColumn(j))
                   for j in range(self.columnCount()))
        bar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        return cols + 2 * self.frameWidth() + bar + 2

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        """As wide as the columns."""
        hint = super().sizeHint()
        return QSize(self.needed_width(), hint.height())

    def clear_rows(self) -> None:
        """No rows."""
        self.setRowCount(0)
        self.order = []

    def add_row(self, key: int, texts: list[str]) -> None:
        """A row, placed by ``key`` among the rows already there."""
        i = sum(1 for k in self.order if k <= key)
        self.insertRow(i)
        self.order.insert(i, key)
        for j, text in enumerate(texts):
            self.setItem(i, j, QTableWidgetItem(text))
        self.updateGeometry()

    def set_rows(self, rows: list[list[str]]) -> None:
        """Every row at once, in this order."""
        self.clear_rows()
        for i, texts in enumerate(rows):
            self.add_row(i, texts)


class CountFeed(QObject):
    """See the module docstring. One feed per run: a superseded run's news goes to a feed
    nobody reads any more."""

    changed = Signal()

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._lock = threading.Lock()
        self._starts: list[tuple[str, list[str], dict[str, Any]]] = []
        self._tasks: tuple[int, int] | None = None
        self._waiting = False

    # the study thread's side
    def start(self, name: str, members: list[str], record: dict[str, Any]) -> None:
        """A class of starts is counted (``run_count``'s ``on_start``)."""
        with self._lock:
            self._starts.append((name, list(members), dict(record)))
        self._nudge()

    def tasks(self, done: int, queued: int) -> None:
        """Tasks done so far and queued (``run_count``'s ``on_tasks``)."""
        with self._lock:
            self._tasks = (int(done), int(queued))
        self._nudge()

    def _nudge(self) -> None:
        with self._lock:
            if self._waiting:
                return
            self._waiting = True
        self.changed.emit()

    # the GUI thread's side
    def take(self) -> tuple[list[tuple[str, list[str], dict[str, Any]]], tuple[int, int] | None]:
        """The classes counted since the last call, and the latest task numbers."""
        with self._lock:
            starts, self._starts = self._starts, []
            self._waiting = False
            return starts, self._tasks
