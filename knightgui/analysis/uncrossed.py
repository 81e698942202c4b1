"""Analysis page "Uncrossed": the longest knight's path (or cycle) whose moves never cross,
found and proved by ``knightgui_core.studies.uncrossed`` on the study thread; each run adds a
row (length, how many up to symmetry, nodes and seconds of the proof, the published length
on square boards) and the path found goes to the board (click a row to show it again)."""
from __future__ import annotations

import numpy as np
from PySide6.QtWidgets import QLabel, QVBoxLayout

from knightgui.analysis.base import AnalysisPage, add_row, check, rows, spin, table
from knightgui_core.board.squares import Board
from knightgui_core.walks.result import Walk

#: OEIS A003192 (paths) and A157416 (cycles) on n×n, in moves
PUBLISHED = {False: {3: 2, 4: 5, 5: 10, 6: 17, 7: 24, 8: 35, 9: 47},
             True: {3: 0, 4: 4, 5: 8, 6: 12, 7: 24, 8: 32, 9: 42}}


class UncrossedPage(AnalysisPage):
    """The longest uncrossed path or cycle of an m×n board, with its proof's figures."""

    title = "Uncrossed"
    unit = "start squares"

    def __init__(self, runner, parent=None):
        super().__init__(runner, parent, run_tip="find the longest uncrossed path and prove it",
                         status="The longest knight's path whose moves never cross: found, "
                                "proved longest, counted up to symmetry.")
        v = QVBoxLayout(self)
        self.rows_spin, self.cols_spin = spin(3, 9, 6, "rows "), spin(3, 9, 6, "cols ")
        self.cycle_box = check("cycle", "the longest closed path instead")
        rows(v, (QLabel("Board"), self.rows_spin, self.cols_spin, self.cycle_box,
                 self.run_btn, self.cancel_btn))
        v.addWidget(self.progress)
        v.addWidget(self.status)
        self.results = table(["board", "kind", "moves", "up to symmetry", "on the board",
                              "nodes", "seconds", "published"])
        self.results.setToolTip("click a row to show its path on the board")
        self.results.cellClicked.connect(self._row_clicked)
        v.addWidget(self.results, 1)
        self.walks: list[Walk] = []

    def run(self) -> None:
        """Search the board as set (the Run button)."""
        from knightgui_core.studies.uncrossed import longest_uncrossed
        from knightgui_core.system.errors import Cancelled
        r, c, cycle = self.rows_spin.value(), self.cols_spin.value(), self.cycle_box.isChecked()
        self.status.setText(f"Searching {c}×{r} for the longest uncrossed "
                            f"{'cycle' if cycle else 'path'}…")

        def proof(progress=None, cancel=None):
            """The search's result, or None when it was cancelled."""
            try:
                return longest_uncrossed(r, c, cycle=cycle, cancel=cancel, progress=progress)
            except Cancelled:
                return None
        self.start_study("uncrossed", proof)

    def study_done(self, result) -> None:
        """A proof ended: a row in the table and its path on the board."""
        if result is None:
            self.status.setText("Cancelled.")
            return
        kind = "cycle" if result.cycle else "path"
        board = Board(result.rows, result.cols)
        path = list(result.path) + (result.path[:1] if result.cycle else [])
        walk = Walk(board, np.asarray(path, dtype=np.int32),
                    f"the longest uncrossed {kind} of {result.cols}×{result.rows}: "
                    f"{result.length} moves, {result.count} up to symmetry "
                    f"(proved: {result.nodes:,} nodes, {result.seconds:.2f} s)")
        self.walks.append(walk)
        pub = PUBLISHED[result.cycle].get(result.rows) if result.rows == result.cols else None
        cells = [f"{result.cols}×{result.rows}", kind, str(result.length), str(result.count),
                 str(result.total), f"{result.nodes:,}", f"{result.seconds:.2f}",
                 "" if pub is None else str(pub)]
        add_row(self.results, cells)
        self.status.setText(walk.message[0].upper() + walk.message[1:] + ".")
        if path:
            self.show_tour.emit(walk)

    def _row_clicked(self, row: int, _col: int) -> None:
        if 0 <= row < len(self.walks) and len(self.walks[row].path):
            self.show_tour.emit(self.walks[row])
