"""The options matrix (``mo``) of the shown solution: a table model and its view.

Rows are move numbers 1..L, columns the square of that move and the option slots 1..7
(SPEC §4: the other tied move types stored at that number, ascending by slot). Non-empty
cells are highlighted; the row the current solution branched at is marked. The model reads
the numpy array directly, so 10,000 rows scroll smoothly.
"""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QHeaderView, QLabel, QTableView, QVBoxLayout, QWidget

SLOTS = 7
_FILLED = QBrush(QColor(255, 226, 140))
_BRANCH = QBrush(QColor(170, 210, 255))
_BRANCH_FILLED = QBrush(QColor(120, 180, 255))


class OptionsMatrixModel(QAbstractTableModel):
    """Column 0 = square of the move, columns 1..7 = options-matrix slots 1..7."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._mo = np.zeros((1, 8), dtype=np.int8)
        self._squares: list[str] = []
        self._branch = 0
        self._bold = QFont()
        self._bold.setBold(True)

    # ----------------------------------------------------------------- data in
    def set_matrix(self, mo: np.ndarray | None, branch: int = 0, squares=None):
        """``mo``: ``int[L+1, 8]`` (row 0 unused); ``squares``: names of moves 1..L."""
        self.beginResetModel()
        self._mo = np.zeros((1, 8), dtype=np.int8) if mo is None else np.asarray(mo)
        self._branch = int(branch)
        self._squares = list(squares) if squares is not None else []
        self.endResetModel()

    def matrix(self) -> np.ndarray:
        return self._mo

    @property
    def branch(self) -> int:
        return self._branch

    # ----------------------------------------------------------------- Qt API
    def rowCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else max(self._mo.shape[0] - 1, 0)

    def columnCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else SLOTS + 1

    def data(self, index, role=Qt.DisplayRole):
        if not index.isValid():
            return None
        k, c = index.row() + 1, index.column()
        if role == Qt.DisplayRole:
            if c == 0:
                return self._squares[k - 1] if k - 1 < len(self._squares) else ""
            v = int(self._mo[k, c])
            return str(v) if v else ""
        if role == Qt.BackgroundRole:
            filled = c > 0 and self._mo[k, c] != 0
            if k == self._branch:
                return _BRANCH_FILLED if filled else _BRANCH
            return _FILLED if filled else None
        if role == Qt.TextAlignmentRole:
            return int(Qt.AlignCenter)
        if role == Qt.FontRole and (k == self._branch or (c > 0 and self._mo[k, c] != 0)):
            return self._bold
        if role == Qt.ToolTipRole and c > 0 and self._mo[k, c] != 0:
            return f"move {k}: stored option, move type {int(self._mo[k, c])} (slot {c})"
        return None

    def headerData(self, section, orientation, role=Qt.DisplayRole):
        if role != Qt.DisplayRole:
            if role == Qt.FontRole and orientation == Qt.Vertical and section + 1 == self._branch:
                return self._bold
            return None
        if orientation == Qt.Horizontal:
            return "square" if section == 0 else str(section)
        k = section + 1
        return f"▶ {k}" if k == self._branch else str(k)


class OptionsMatrixView(QWidget):
    """Title line + table. :meth:`show_matrix` scrolls to the branch row."""

    def __init__(self, parent=None):
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        self.caption = QLabel("No options matrix (exhaustive mode shows one per solution)")
        self.caption.setWordWrap(True)
        lay.addWidget(self.caption)
        self.model = OptionsMatrixModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        vh = self.table.verticalHeader()
        vh.setSectionResizeMode(QHeaderView.Fixed)
        vh.setDefaultSectionSize(18)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.Fixed)
        hh.setDefaultSectionSize(28)
        self.table.setColumnWidth(0, 46)
        self.table.setSelectionMode(QTableView.NoSelection)
        self.table.setEditTriggers(QTableView.NoEditTriggers)
        self.table.setFocusPolicy(Qt.NoFocus)
        lay.addWidget(self.table)

    def show_matrix(self, mo, branch: int = 0, squares=None, caption: str = ""):
        self.model.set_matrix(mo, branch, squares)
        self.table.setColumnWidth(0, 46)
        if caption:
            self.caption.setText(caption)
        if branch > 0:
            self.table.scrollTo(self.model.index(branch - 1, 0), QTableView.PositionAtCenter)

    def clear(self, caption: str):
        self.model.set_matrix(None)
        self.caption.setText(caption)
