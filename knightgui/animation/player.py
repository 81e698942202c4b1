"""Play the construction of a tour move by move on the board view, showing at each step the
Warnsdorff candidates of the next move with their outlet counts (docs/spec.md §2)."""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QObject, QTimer, Signal

from knightgui_core.board.rules import candidates_at
from knightgui_core.board.squares import Board

FRAME_MS = 30


class ConstructionAnimator(QObject):
    """Plays the construction of a tour on the board (a QTimer on the GUI thread; each frame
    only moves the drawn end of the path)."""
    frame = Signal(int, int)   # moves shown, total
    finished = Signal()

    def __init__(self, view, parent=None):
        super().__init__(parent)
        self.view = view
        self._timer = QTimer(self)
        self._timer.setInterval(FRAME_MS)
        self._timer.timeout.connect(self._tick)
        self.speed = 20.0           # moves per second
        self._path = np.zeros(0, dtype=np.int32)
        self._closed = False
        self._ties = None
        self._reserved = np.zeros(0, dtype=np.int32)
        self._board = None
        self._k = 0.0

    @property
    def running(self) -> bool:
        """Whether an animation is playing."""
        return self._timer.isActive()

    @property
    def shown(self) -> int:
        """How many moves of the tour are drawn now."""
        return int(self._k)

    def start(self, path, closed: bool, rows: int, cols: int, ties=None, reserved=()):
        """Animate ``path`` from move 1; ``reserved``: squares kept for the end (not
        candidates until their turn)."""
        self._path = np.asarray(path, dtype=np.int32)
        self._closed = closed
        self._ties = ties
        self._reserved = np.asarray(reserved, dtype=np.int32)
        self._board = Board(rows, cols)
        self._k = 1.0
        self._show(1)
        self._timer.start()

    def set_speed(self, moves_per_second: float):
        """Moves per second (the timer's interval follows)."""
        self.speed = max(float(moves_per_second), 0.1)

    def stop(self, restore: bool = True):
        """Stop; with ``restore`` the whole tour is shown again."""
        was = self._timer.isActive()
        self._timer.stop()
        self.view.set_candidates([])
        if restore and len(self._path):
            self.view.set_tour(self._path, self._closed, self._ties)
        if was:
            self.finished.emit()

    def _tick(self):
        try:
            self._k += self.speed * FRAME_MS / 1000.0
            k = int(self._k)
            if k >= len(self._path):
                self._k = len(self._path)
                self.stop(restore=True)
                self.frame.emit(len(self._path), len(self._path))
                return
            self._show(k)
        except Exception:  # noqa: BLE001 - never raise out of a timer slot
            self._timer.stop()

    def _show(self, k: int):
        """Moves 1..k on the board, candidates of move k+1."""
        self.view.set_tour(self._path[:k], False, None)
        items = []
        if k < len(self._path):
            visited_reserved = [int(s) for s in self._reserved if s not in self._path[:k]
                                and s != self._path[k]]
            try:
                items = candidates_at(self._board, self._path, k + 1, visited_reserved)
            except Exception:  # noqa: BLE001
                items = []
        nxt = int(self._path[k]) if k < len(self._path) else -1
        self.view.set_candidates(items, chosen=nxt)
        self.frame.emit(k, len(self._path))
