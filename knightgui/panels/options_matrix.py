"""The options matrix (``mo``) of the shown solution: a table model and its view.

Rows are move numbers 1..L, columns the square of that move and the option slots 1..7
(docs/spec.md §4: the other tied move types stored at that number, ascending by slot). Non-empty
cells are highlighted; the row the current solution branched at is marked. The model reads
the numpy array directly, so 10,000 rows scroll smoothly.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QSizePolicy,
    QStyledItemDelegate,
    QTableView,
    QVBoxLayout,
    QWidget,
)

SLOTS = 7
ROW_HEIGHT = 18
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
_ROOT = QModelIndex()
_TEXT_PEN = QColor(20, 20, 20)


_DIGITS = ("", "1", "2", "3", "4", "5", "6", "7", "8")


class OptionsMatrixModel(QAbstractTableModel):
    """Column 0 = square of the move, columns 1..7 = options-matrix slots 1..7. The array
    and the square names are kept as they are (no per-cell work); a cell's text is read
    when it is painted, and only visible cells are."""

    _ALIGN = int(Qt.AlignmentFlag.AlignCenter)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._mo = np.zeros((1, 8), dtype=np.int8)
        self._squares: Sequence[str] = ()
        self._rows = 0
        self._branch = 0
        self._bold = QFont()
        self._bold.setBold(True)

    # ----------------------------------------------------------------- data in
    def set_matrix(self, mo: np.ndarray | None, branch: int = 0, squares=None):
        """``mo``: ``int[L+1, 8]`` (row 0 unused, values 0..8); ``squares``: names of moves
        1..L (kept, not copied). With the same number of rows the cells change in place,
        much cheaper for the view than a model reset."""
        new = np.zeros((1, 8), dtype=np.int8) if mo is None else np.asarray(mo)
        if new.ndim != 2 or new.shape[1] != 8 or new.shape[0] < 1:
            raise ValueError(f"options matrix: shape (L+1, 8) expected, got {new.shape}")
        rows = new.shape[0] - 1
        same_shape = rows == self._rows and rows > 0
        old_branch = self._branch
        if not same_shape:
            self.beginResetModel()
        self._mo = new
        self._rows = rows
        self._branch = int(branch)
        self._squares = squares if squares is not None else ()
        if same_shape:
            last = rows - 1
            self.dataChanged.emit(self.index(0, 0), self.index(last, SLOTS))
            for k in {old_branch, self._branch} - {0}:   # only these labels change
                if k - 1 <= last:
                    self.headerDataChanged.emit(_VERTICAL, k - 1, k - 1)
        else:
            self.endResetModel()

    def matrix(self) -> np.ndarray:
        """The options matrix shown (int8[L + 1, 8])."""
        return self._mo

    @property
    def branch(self) -> int:
        """The row the shown solution branched at (0: none)."""
        return self._branch

    def text(self, r: int, c: int) -> str:
        """The text of cell (row ``r``, column ``c``): the square name or the move type."""
        if c == 0:
            sq = self._squares
            return sq[r] if r < len(sq) else ""
        v = int(self._mo[r + 1, c])
        return _DIGITS[v] if 0 <= v <= 8 else str(v)

    # ----------------------------------------------------------------- Qt API
    def rowCount(self, parent=_ROOT):
        """One row per move number."""
        return 0 if parent.isValid() else self._rows

    def columnCount(self, parent=_ROOT):
        """The square, then the seven option slots."""
        return 0 if parent.isValid() else SLOTS + 1

    def data(self, index, role=_DISPLAY):
        """The text, tooltip or colour of a cell (the branch row is highlighted)."""
        if role == _DISPLAY:
            return self.text(index.row(), index.column())
        if role in (_BACKGROUND, _FONT):
            r, c = index.row(), index.column()
            filled, branch = c > 0 and self._mo[r + 1, c] != 0, r + 1 == self._branch
            if role == _FONT:
                return self._bold if filled or branch else None
            if branch:
                return _BRANCH_FILLED if filled else _BRANCH
            return _FILLED if filled else None
        if role == _ALIGNMENT:
            return self._ALIGN
        if role == _TOOLTIP:
            return self.tooltip(index.row(), index.column())
        return None

    def tooltip(self, r: int, c: int) -> str | None:
        """Cell (``r``, ``c``) in words: the square of the move, or a tie kept for later."""
        k = r + 1
        sq = self.text(r, 0) or "its square"
        if c == 0:
            return f"Move {k}: the knight goes to {sq}"
        if not self._mo[k, c]:
            return None
        return (f"Move {k} went to {sq}; another square had as few onward moves: the "
                f"knight's move {self.text(r, c)} (of its 8 moves, numbered as in the Move "
                f"order box). The search keeps it and tries it when it backs up to move {k}")

    def headerData(self, section, orientation, role=_DISPLAY):
        """Move numbers down the side (▶ at the branch row), slot numbers across; each with
        a tooltip in words."""
        if role == _TOOLTIP:
            return header_tip(section, orientation == _HORIZONTAL)
        if role != _DISPLAY:
            if role == _FONT and orientation == _VERTICAL and section + 1 == self._branch:
                return self._bold
            return None
        if orientation == _HORIZONTAL:
            return "square" if section == 0 else str(section)
        k = section + 1
        return f"▶ {k}" if k == self._branch else str(k)


def header_tip(section: int, across: bool) -> str:
    """The tooltip of a column (``across``) or row header of the options matrix."""
    if not across:
        return ("Move number (▶: the move where this solution left the one before it, "
                "taking a square kept there)")
    if section == 0:
        return "The square the knight goes to at each move"
    return (f"Kept option {section}: at a tie (squares with equally few onward moves) the "
            "rule takes one; the others are kept here, by the number of the knight's move "
            "(1–8, as in the Move order box), for the search to try later. Empty: no tie "
            "left at that move")


class _CellDelegate(QStyledItemDelegate):
    """Paints a cell straight from the model's array: one Python call per visible cell
    instead of a dozen ``data()`` role queries through the style."""

    _CENTER = Qt.AlignmentFlag.AlignCenter

    def __init__(self, model: OptionsMatrixModel, parent=None):
        super().__init__(parent)
        self._m = model

    def paint(self, p, option, index):
        m = self._m
        r, c = index.row(), index.column()
        try:
            if c == 0:
                text, filled = m._squares[r], False  # noqa: SLF001 - the model's own data
            else:
                text = _DIGITS[m._mo[r + 1, c]]  # noqa: SLF001
                filled = text != ""
        except IndexError:
            return
        branch = r + 1 == m._branch  # noqa: SLF001
        if branch:
            p.fillRect(option.rect, _BRANCH_FILLED if filled else _BRANCH)
        elif filled:
            p.fillRect(option.rect, _FILLED)
        if text:
            p.setFont(m._bold if (filled or branch) else option.font)  # noqa: SLF001
            p.setPen(_TEXT_PEN)
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
        self.caption.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        lay.addWidget(self.caption)
        self.model = OptionsMatrixModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setItemDelegate(_CellDelegate(self.model, self.table))
        vh = self.table.verticalHeader()
        vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vh.setDefaultSectionSize(ROW_HEIGHT)
        vh.setMinimumWidth(QFontMetrics(vh.font()).horizontalAdvance("▶ 00000") + 8)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        hh.setDefaultSectionSize(28)
        self.table.setColumnWidth(0, 46)
        self.table.setSelectionMode(QTableView.SelectionMode.NoSelection)
        self.table.setEditTriggers(QTableView.EditTrigger.NoEditTriggers)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.table.setVerticalScrollMode(QTableView.ScrollMode.ScrollPerPixel)
        self._pending_scroll = -1
        self.table.verticalScrollBar().rangeChanged.connect(self._range_changed)
        lay.addWidget(self.table)

    def show_matrix(self, mo, branch: int = 0, squares=None, caption: str = ""):
        """Show a solution's options matrix with its square names and a caption."""
        self._pending_scroll = -1
        self.model.set_matrix(mo, branch, squares)
        self.table.setColumnWidth(0, 46)
        if caption:
            self.caption.setText(caption)
        if branch > 0:
            # scroll (a repaint) only when the branch row is out of sight; rows have one height
            bar = self.table.verticalScrollBar()
            h = self.table.viewport().height()
            top = (branch - 1) * ROW_HEIGHT
            if not bar.value() <= top <= bar.value() + h - ROW_HEIGHT:
                want = max(0, top - (h - ROW_HEIGHT) // 2) // ROW_HEIGHT * ROW_HEIGHT
                if want <= bar.maximum():
                    bar.setValue(want)
                else:   # a new row count: scroll once the range is laid out
                    self._pending_scroll = want

    def _range_changed(self, _lo: int, hi: int):
        if 0 <= self._pending_scroll <= hi:
            self.table.verticalScrollBar().setValue(self._pending_scroll)
            self._pending_scroll = -1

    def clear(self, caption: str):
        """No matrix: the caption says why."""
        self._pending_scroll = -1
        self.model.set_matrix(None)
        self.caption.setText(caption)
