"""Step through a solutions file (``enumerate --out``: ``.npy``, ``.csv``, ``.json``) in the
window, with the controls of a live enumeration. :func:`open_solutions_file` is what the
File menu calls; a ``.npy`` file is memory-mapped, so millions of solutions open at once.
The files hold no options matrix; the matrix dock says so.
"""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np

from knightgui.solutions.store import SolutionStore
from knightgui_core.board.tour import TourError, check_path
from knightgui_core.tietree.enumeration.enumerator import EnumerationError
from knightgui_core.tietree.enumeration.solution_reader import SolutionFile, open_solutions

FILTER = "Solutions (*.npy *.csv *.json);;All files (*)"


class FileSolutionStore(SolutionStore):
    """The presenter's store backed by a :class:`SolutionFile` until it is cleared (a new
    search clears it and it becomes an ordinary in-memory store again)."""

    def __init__(self, sf: SolutionFile | None = None):
        super().__init__(0 if sf is None else sf.board.size)
        self.file = sf

    def clear(self, size: int | None = None):
        """Forget the file."""
        self.file = None
        super().__init__(self.size if size is None else size)

    def __len__(self) -> int:
        return len(self.file) if self.file is not None else super().__len__()

    def path(self, i: int) -> np.ndarray:
        """Solution ``i``'s path (0-based), read from the file."""
        if self.file is None:
            return super().path(i)
        try:
            return self.file.path(i)
        except EnumerationError as e:
            raise IndexError(str(e)) from None

    def index(self, i: int) -> int:
        """1-based number of solution ``i``."""
        return self.file.index(i) if self.file is not None else super().index(i)

    def branch(self, i: int) -> int:
        """Branch row of solution ``i`` (as written in the file)."""
        return self.file.branch(i) if self.file is not None else super().branch(i)

    def mo(self, i: int) -> np.ndarray:
        """The options matrix of solution ``i``, rebuilt from its path."""
        if self.file is None:
            return super().mo(i)
        return np.zeros((1, 8), dtype=np.int8)


def load_into(window, sf: SolutionFile, name: str = "") -> bool:
    """Show solution 1 of ``sf`` in ``window`` and make the stepping controls walk the file."""
    if len(sf) == 0:
        window.show_error("Cannot open the solutions", f"{name}: the file holds no solution")
        return False
    first = sf.path(0)                   # checked before the window changes
    closed = sf.board.is_knight_move(int(first[-1]), int(first[0]))
    err = check_path(sf.board, first, closed)
    if err:
        raise TourError(f"solution 1: {err}")
    # the controls first: a change of board marks the shown run stale and drops its store
    window.controls.set_board(sf.rows, sf.cols, board=sf.board)
    window.view.set_board(board=sf.board)
    r = window.results
    if r.running:
        r.cancel()
    r.stop_play()
    r.store = FileSolutionStore(sf)
    r.board = sf.board
    r.request = SimpleNamespace(mode="exhaustive", closed=closed, rows=sf.rows, cols=sf.cols,
                                all_tours=False, topology=sf.board.topology,
                                leaper=sf.board.leaper, board=lambda: sf.board)
    r.found, r.exhausted, r.running, r.cancelled = len(sf), True, False, False
    if not r.show_solution(0):
        return False
    window.matrix.clear(f"{name}: solutions from a file (no options matrix stored)")
    window.statusBar().showMessage(f"Opened {name}: {len(sf):,} solutions on "
                                   f"{sf.board.describe()}")
    return True


def open_solutions_file(window, filename=None) -> bool:
    """Ask for (or take) a solutions file and step through it; a bad file is a dialog."""
    if not filename:
        import os

        from PySide6.QtWidgets import QFileDialog
        filename, _ = QFileDialog.getOpenFileName(window, "Open solutions",
                                                  getattr(window, "last_dir", "") or os.getcwd(),
                                                  FILTER)
        if not filename:
            return False
    name = Path(filename).name
    try:
        sf = open_solutions(filename)
    except (EnumerationError, OSError) as e:
        window.show_error("Cannot open the solutions", _line(filename, e))
        return False
    try:
        return load_into(window, sf, name)
    except (EnumerationError, IndexError, TourError) as e:
        window.show_error("Cannot open the solutions", _line(filename, e))
        return False


def _line(filename, e: BaseException) -> str:
    """The reader's one line, naming the file once (it may start with its name or path)."""
    name = Path(filename).name
    text = (str(e).splitlines() or [type(e).__name__])[0]
    return text if text.startswith((name, str(filename))) else f"{name}: {text}"
