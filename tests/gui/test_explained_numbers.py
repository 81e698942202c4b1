"""The numbers beside the board and in the options matrix say what they are: the row and
column sums have a "Σ", a tooltip in words and a View toggle; the matrix's headers and cells
have plain-words tooltips."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from PySide6.QtCore import QPointF, Qt

from knightgui.panels.options_matrix import OptionsMatrixModel

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
from test_magic import BEVERLEY, tour_of  # noqa: E402

TIP = int(Qt.ItemDataRole.ToolTipRole)


def _hover(window, x: float, y: float) -> str:
    v = window.view
    v.scene().sigMouseMoved.emit(v.vb.mapViewToScene(QPointF(x, y)))
    return v.sums_tip_shown


def test_the_sums_have_a_tooltip_and_a_view_toggle(window):
    window.show_tour(tour_of(BEVERLEY))
    item = window.view.numbers_item
    window.view.grab()
    assert item.last_sums_painted == 16
    tip = _hover(window, 8.3, 2.5)                     # right of rank 3
    assert tip.startswith("Rank 3: its move numbers sum to 260") and "semi-magic" in tip
    tip = _hover(window, 0.5, 8.4)                     # above file a
    assert tip.startswith("File a: its move numbers sum to 260")
    assert _hover(window, 8.3, 8.3).startswith("Σ: the sum of the move numbers")
    assert _hover(window, 3.5, 3.5) == ""               # on the board: no sum
    sums = window.act.sums
    assert sums.isCheckable() and sums.isChecked() and sums in window.act.view_menu.actions()
    sums.trigger()                                      # View ▸ Row and column sums off
    window.view.grab()
    assert item.last_sums_painted == 0 and _hover(window, 8.3, 2.5) == ""
    sums.trigger()
    window.view.grab()
    assert item.last_sums_painted == 16


def test_the_options_matrix_explains_its_columns_and_cells(qtbot):
    m = OptionsMatrixModel()
    mo = np.zeros((4, 8), dtype=np.int8)
    mo[2, 0], mo[2, 1] = 1, 5                          # move 2: move type 5 kept
    m.set_matrix(mo, 0, ["a1", "b3", "c5"])
    across = Qt.Orientation.Horizontal
    assert "square the knight goes to" in m.headerData(0, across, TIP)
    col = m.headerData(1, across, TIP)
    assert "tie" in col and "onward moves" in col and "try later" in col
    cell = m.data(m.index(1, 1), TIP)
    assert cell.startswith("Move 2 went to b3") and "knight's move 5" in cell
    assert "slot" not in cell and "stored option" not in cell
    assert m.data(m.index(1, 2), TIP) is None            # an empty cell says nothing
    assert "Move number" in m.headerData(0, Qt.Orientation.Vertical, TIP)
