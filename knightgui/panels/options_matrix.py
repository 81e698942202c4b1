"""The options matrix (``mo``) of the shown solution: a table model and its view.

Rows are move numbers 1..L, columns the square of that move and the option slots 1..7
(docs/spec.md §4: the other tied move types stored at that number, ascending by slot). Non-empty
cells are highlighted; the row the current solution branched at is marked. The model reads
the numpy array directly, so 10,000 rows scroll smoothly.
"""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics
from PySide6.QtWidgets import (QHeaderView, QLabel, QSizePolicy, QStyledItemDelegate, QTableView,
                               QVBoxLayout, QWidget)

SLOTS = 7
# roles as plain ints: comparing with ``Qt.DisplayRole`` costs microseconds per call
_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_BACKGROUND = int(Qt.ItemDataRole.BackgroundRole)
_ALIGNMENT = int(Qt.ItemDataRole.TextAlignmentRole)
_FONT = int(Qt.ItemDataRole.FontRole)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
_VERTICAL = Qt.Orientation.Vertical
_HORIZONTAL = Qt.Orientation.Horizontal
_FILLED = QBrush(QColor(255, 226, 140))
_BRANCH = QBrush(QColor(170, 210, 255))
_BRANCH_FILLED = QBrush(QColor(120, 180, 255))


class OptionsMatrixModel(QAbstractTableModel):
    """Column 0 = square of the move, columns 1..7 = options-matrix slots 1..7.

    ``data()`` is called for every visible cell and role on each repaint, so it reads
    prepared Python lists (no numpy scalar access) and answers unknown roles at once."""

    _ALIGN = int(Qt.AlignCenter)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._mo = np.zeros((1, 8), dtype=np.int8)
        self._text: list[list[str]] = []
        self._branch = 0
        self._bold = QFont()
        self._bold.setBold(True)

    # ----------------------------------------------------------------- data in
    def set_matrix(self, mo: np.ndarray | None, branch: int = 0, squares=None):
        """``mo``: ``int[L+1, 8]`` (row 0 unused); ``squares``: names of moves 1..L.
        Same number of rows as before (stepping): the cells change in place, which is much
        cheaper for the view than a model reset."""
        new = np.zeros((1, 8), dtype=np.int8) if mo is None else np.asarray(mo)
        same_shape = new.shape[0] == self._mo.shape[0] and len(self._text) > 0
        old_branch = self._branch
        if not same_shape:
            self.beginResetModel()
        self._mo = new
        self._branch = int(branch)
        squares = list(squares) if squares is not None else []
        rows = self._mo[1:].tolist()
        for k, row in enumerate(rows):
            row[0] = squares[k] if k < len(squares) else ""
            for c in range(1, 8):
                row[c] = str(row[c]) if row[c] else ""
        self._text = rows
        if same_shape:
            last = len(rows) - 1
            self.dataChanged.emit(self.index(0, 0), self.index(last, SLOTS))
            for k in {old_branch, self._branch} - {0}:   # only these labels change
                if k - 1 <= last:
                    self.headerDataChanged.emit(_VERTICAL, k - 1, k - 1)
        else:
            self.endResetModel()

    def matrix(self) -> np.ndarray:
        return self._mo

    @property
    def branch(self) -> int:
        return self._branch

    # ----------------------------------------------------------------- Qt API
    def rowCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else len(self._text)

    def columnCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else SLOTS + 1

    def data(self, index, role=_DISPLAY):
        if role == _DISPLAY:
            return self._text[index.row()][index.column()]
        if role == _BACKGROUND:
            r, c = index.row(), index.column()
            filled = c > 0 and self._text[r][c] != ""
            if r + 1 == self._branch:
                return _BRANCH_FILLED if filled else _BRANCH
            return _FILLED if filled else None
        if role == _ALIGNMENT:
            return self._ALIGN
        if role == _FONT:
            r, c = index.row(), index.column()
            if r + 1 == self._branch or (c > 0 and self._text[r][c] != ""):
                return self._bold
            return None
        if role == _TOOLTIP:
            r, c = index.row(), index.column()
            if c > 0 and self._text[r][c]:
                return f"move {r + 1}: stored option, move type {self._text[r][c]} (slot {c})"
        return None

    def headerData(self, section, orientation, role=_DISPLAY):
        if role != _DISPLAY:
            if role == _FONT and orientation == _VERTICAL and section + 1 == self._branch:
                return self._bold
            return None
        if orientation == _HORIZONTAL:
            return "square" if section == 0 else str(section)
        k = section + 1
        return f"▶ {k}" if k == self._branch else str(k)


class _CellDelegate(QStyledItemDelegate):
    """Paints a cell straight from the model's prepared lists: one Python call per visible
    cell instead of a dozen ``data()`` role queries through the style."""

    _CENTER = Qt.AlignmentFlag.AlignCenter

    def __init__(self, model: OptionsMatrixModel, parent=None):
        super().__init__(parent)
        self._m = model

    def paint(self, p, option, index):
        m = self._m
        r, c = index.row(), index.column()
        try:
            text = m._text[r][c]  # noqa: SLF001 - the delegate belongs to the model
        except IndexError:
            return
        filled = c > 0 and text != ""
        branch = r + 1 == m._branch  # noqa: SLF001
        if branch:
            p.fillRect(option.rect, _BRANCH_FILLED if filled else _BRANCH)
        elif filled:
            p.fillRect(option.rect, _FILLED)
        if text:
            p.setFont(m._bold if (filled or branch) else option.font)  # noqa: SLF001
            p.setPen(option.palette.text().color())
            p.drawText(option.rect, self._CENTER, text)


class OptionsMatrixView(QWidget):
    """Title line + table. :meth:`show_matrix` scrolls to the branch row."""

    def __init__(self, parent=None):
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        self.caption = QLabel("No options matrix (exhaustive mode shows one per solution)")
        self.caption.setWordWrap(True)
        # a fixed two-line caption: changing its text never re-lays out the dock
        self.caption.setFixedHeight(2 * self.caption.fontMetrics().lineSpacing() + 4)
        self.caption.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Fixed)
        lay.addWidget(self.caption)
        self.model = OptionsMatrixModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setItemDelegate(_CellDelegate(self.model, self.table))
        vh = self.table.verticalHeader()
        vh.setSectionResizeMode(QHeaderView.Fixed)
        vh.setDefaultSectionSize(18)
        vh.setMinimumWidth(QFontMetrics(vh.font()).horizontalAdvance("▶ 00000") + 8)
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
            # scroll only when the branch row is out of sight (scrolling repaints the table)
            idx = self.model.index(branch - 1, 0)
            if not self.table.viewport().rect().contains(self.table.visualRect(idx)):
                self.table.scrollTo(idx, QTableView.PositionAtCenter)

    def clear(self, caption: str):
        self.model.set_matrix(None)
        self.caption.setText(caption)
