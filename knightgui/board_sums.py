"""The row and column sums of a whole tour, written beside the board: each rank's sum right
of the board, each file's above it (the edge labels take the left and the bottom), green
where it is the total every line of a semi-magic tour has (docs/structure.md). Painted by
the move numbers' item (:class:`knightgui.board_items.NumbersItem`) in device pixels."""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QTransform

__all__ = ["line_sums_shown", "paint_line_sums", "MAX_SIDE"]

#: sums are written on boards of at most this many squares a side
MAX_SIDE = 26


def line_sums_shown(numbers: np.ndarray | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(row sums, column sums) of ``numbers`` (int[rows, cols], 0 = not visited) when every
    square is numbered and the board is small enough; ``((), ())`` otherwise."""
    if numbers is None or numbers.size == 0 or max(numbers.shape) > MAX_SIDE:
        return (), ()
    if int(numbers.min()) <= 0:
        return (), ()
    whole = numbers.astype(np.int64)
    return (tuple(int(v) for v in whole.sum(axis=1)),
            tuple(int(v) for v in whole.sum(axis=0)))


def paint_line_sums(p, row_sums: tuple[int, ...], col_sums: tuple[int, ...]) -> int:
    """Paint the sums with painter ``p`` (in the board's square units); returns how many it
    wrote (none while a square is under 14 pixels: they would not fit)."""
    t = p.transform()
    px = float(np.hypot(t.m11(), t.m12()))
    if px < 14 or not row_sums:
        return 0
    rows, cols = len(row_sums), len(col_sums)
    n = rows * cols
    targets = (cols * (n + 1) / 2, rows * (n + 1) / 2)
    p.save()
    p.setTransform(QTransform())
    font = QFont()
    font.setPixelSize(int(min(max(px * 0.3, 11), 16)))
    p.setFont(font)
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
    p.restore()
    return painted
