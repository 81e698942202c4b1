"""The row and column sums of a whole tour, written beside the board (ranks right, files
above), green where a semi-magic tour's total is (docs/structure.md), with a "Σ" where the
two lines meet. :class:`knightgui.board.items.NumbersItem` paints them; :func:`sums_tip`
says what the number under the pointer is."""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetrics

from knightgui.board.paint import label_font
from knightgui_core.board.squares import column_letters

__all__ = ["line_sums_shown", "paint_line_sums", "sums_tip", "band_px", "MAX_SIDE", "MARGIN"]

#: sums are written on boards of at most this many squares a side
MAX_SIDE = 26
#: the sums' band beside the board, in squares (right of the ranks, above the files)
MARGIN = 1.0


def magic_total(rows: int, cols: int, axis: int) -> float:
    """What every rank (``axis`` 0) or file (1) of a semi-magic tour sums to."""
    n = rows * cols
    return (cols if axis == 0 else rows) * (n + 1) / 2


def sums_tip(row_sums: tuple[int, ...], col_sums: tuple[int, ...], x: float,
             y: float) -> str:
    """The tooltip at ``(x, y)`` (square units): a rank's sum, a file's, or the "Σ"; ""
    elsewhere or when no sums are shown."""
    rows, cols = len(row_sums), len(col_sums)
    if not rows or not cols:
        return ""
    rank_total, file_total = magic_total(rows, cols, 0), magic_total(rows, cols, 1)
    green = "green: the {} every {} of a semi-magic tour has"
    if cols <= x < cols + MARGIN and rows <= y < rows + MARGIN:
        return ("Σ: the sum of the move numbers in each rank (right) and each file "
                f"(above); a semi-magic tour has {rank_total:g} in every rank and "
                f"{file_total:g} in every file (shown in green)")
    if cols <= x < cols + MARGIN and 0 <= y < rows:
        k, v = int(y), row_sums[int(y)]
        return (f"Rank {k + 1}: its move numbers sum to {v:,}"
                + (f" ({green.format(f'{rank_total:g}', 'rank')})" if v == rank_total else
                   f" (a semi-magic tour has {rank_total:g} in every rank)"))
    if rows <= y < rows + MARGIN and 0 <= x < cols:
        k, v = int(x), col_sums[int(x)]
        return (f"File {column_letters(k)}: its move numbers sum to {v:,}"
                + (f" ({green.format(f'{file_total:g}', 'file')})" if v == file_total else
                   f" (a semi-magic tour has {file_total:g} in every file)"))
    return ""


def line_sums_shown(numbers: np.ndarray | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(row sums, column sums) of ``numbers`` (int[rows, cols], 0 = not visited) when every
    square is numbered and the board is small enough; ``((), ())`` otherwise."""
    if (numbers is None or numbers.size == 0 or max(numbers.shape) > MAX_SIDE
            or int(numbers.min()) <= 0):
        return (), ()
    whole = numbers.astype(np.int64)
    return (tuple(int(v) for v in whole.sum(axis=1)),
            tuple(int(v) for v in whole.sum(axis=0)))


def band_px(px: float, rows: int, cols: int) -> tuple[float, float]:
    """The pixels the sums of any tour of ``rows`` × ``cols`` take beside the board at
    ``px`` pixels a square: (width right of the ranks, height above the files); (0, 0)
    where none are written."""
    if px < 14 or max(rows, cols) > MAX_SIDE:
        return 0.0, 0.0
    n = rows * cols
    widest = cols * n - cols * (cols - 1) // 2          # a rank of the highest numbers
    return 4.0 + QFontMetrics(label_font(px)).horizontalAdvance("0" * len(str(widest))), 21.0


def paint_line_sums(p, t, px: float, row_sums: tuple[int, ...],
                    col_sums: tuple[int, ...]) -> int:
    """Paint the sums with painter ``p`` in device pixels (``t`` maps square units to them,
    ``px`` pixels a square); returns how many it wrote (none under 14 pixels a square)."""
    if px < 14 or not row_sums:
        return 0
    rows, cols = len(row_sums), len(col_sums)
    targets = (magic_total(rows, cols, 0), magic_total(rows, cols, 1))
    p.setFont(label_font(px))
    align = Qt.AlignmentFlag
    painted = 0
    for axis, sums in ((0, row_sums), (1, col_sums)):
        for k, v in enumerate(sums):
            p.setPen(QColor(20, 140, 40) if v == targets[axis] else QColor(70, 70, 70))
            if axis == 0:
                c = t.map(QPointF(cols, k + 0.5))
                p.drawText(QRectF(c.x() + 4, c.y() - 9, 60, 18),
                           align.AlignLeft | align.AlignVCenter, str(v))
            else:
                c = t.map(QPointF(k + 0.5, rows))
                p.drawText(QRectF(c.x() - 30, c.y() - 21, 60, 18),
                           align.AlignHCenter | align.AlignBottom, str(v))
            painted += 1
    c = t.map(QPointF(cols, rows))           # where the two lines meet: what they are
    p.setPen(QColor(70, 70, 70))
    p.drawText(QRectF(c.x() + 4, c.y() - 21, 60, 18), align.AlignLeft | align.AlignBottom,
               "Σ")
    return painted
