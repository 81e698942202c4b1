"""Helpers for the window tests (imported by the test modules)."""
from __future__ import annotations

import time

import numpy as np

from knightgui_core.board.squares import Board
from knightgui_core.board.tour import Tour

#: messages from Qt's offscreen platform plugin that say nothing about our code
BENIGN_QT = ("propagateSizeHints", "does not support raise()")

def wait_until(qtbot, cond, timeout=60.0):
    """Process events until ``cond()`` is true (fails the test on timeout)."""
    t0 = time.monotonic()
    while not cond():
        if time.monotonic() - t0 > timeout:
            raise AssertionError("timed out waiting for the window")
        qtbot.wait(10)


def warnsdorff(rows: int, cols: int, start: int = 0) -> np.ndarray | None:
    """A plain Warnsdorff walk (first minimum in move order) — a tour built without the
    engine, for view tests. None when the walk gets stuck."""
    b = Board(rows, cols)
    nbr = b.neighbours
    visited = np.zeros(b.size, dtype=bool)
    path = [start]
    visited[start] = True
    deg = (nbr >= 0).sum(axis=1)
    free = deg.copy()
    for s in nbr[start]:
        if s >= 0:
            free[s] -= 1
    while len(path) < b.size:
        q = path[-1]
        best = None
        for c in nbr[q]:
            if c >= 0 and not visited[c] and (best is None or free[c] < free[best]):
                best = c
        if best is None:
            return None
        visited[best] = True
        path.append(int(best))
        for s in nbr[best]:
            if s >= 0:
                free[s] -= 1
    return np.array(path, dtype=np.int32)


def some_tour(rows: int, cols: int) -> Tour:
    b = Board(rows, cols)
    for s in range(b.size):
        p = warnsdorff(rows, cols, s)
        if p is not None:
            return Tour(b, p, False, {"method": "test warnsdorff"})
    raise AssertionError("no Warnsdorff tour from any start")


def open_exhaustive(window, size: int = 6, start: str = "a1") -> None:
    """Put the window's controls on an exhaustive run of open tours of ``size`` × ``size``
    from ``start`` (through the widgets, as a user would)."""
    c = window.controls
    c.mode.setCurrentIndex(c.mode.findData("exhaustive"))
    c.closed.setChecked(False)
    c.rows.setValue(size)
    c.start.setText(start)
    c.start.editingFinished.emit()
