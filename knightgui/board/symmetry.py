"""The board symmetry of every-tour mode drawn over the board: the centre of a half or
quarter turn, the axis of a mirror (rows: y = rows / 2, columns: x = cols / 2, the
diagonal: (0, 0) to (cols, rows) in the view's units), in device pixels.
"""
from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPen

from knightgui.board.paint import device_pixels, safe_paint

#: the overlay's colour (a purple that neither the path nor the markers use)
COLOUR = QColor(140, 40, 200)


class SymmetryItem(pg.GraphicsObject):
    """The centre (half turn: a ring; quarter turn: a ring and a square) or axis (a dashed
    line) of the chosen symmetry; nothing for ``""``."""

    def __init__(self):
        super().__init__()
        self.name = ""
        self._rows = self._cols = 0
        self.setZValue(24)

    def set_symmetry(self, name: str, rows: int, cols: int) -> None:
        """Draw ``name`` (``half-turn``, ``quarter-turn``, ``mirror-rows``, ``mirror-cols``,
        ``diagonal``; ``""`` draws nothing) on a ``rows`` × ``cols`` board."""
        self.prepareGeometryChange()
        self.name = str(name or "")
        self._rows, self._cols = int(rows), int(cols)
        self.update()

    def boundingRect(self):
        """The board's rectangle, in square units."""
        return QRectF(0, 0, self._cols, self._rows)

    def segments(self) -> list[QLineF]:
        """The axis in the view's units (none for the turns)."""
        r, c = self._rows, self._cols
        axes = {"mirror-rows": QLineF(0, r / 2, c, r / 2),
                "mirror-cols": QLineF(c / 2, 0, c / 2, r), "diagonal": QLineF(0, 0, c, r)}
        return [axes[self.name]] if self.name in axes else []

    @safe_paint
    def paint(self, p, opt, widget):
        """Draw the centre or the axis."""
        if not self.name or not self._rows:
            return
        with device_pixels(p, antialias=True) as (t, _px):
            pen = QPen(COLOUR, 3.0)
            pen.setStyle(Qt.PenStyle.DashLine)
            p.setPen(pen)
            p.setBrush(Qt.BrushStyle.NoBrush)
            for seg in self.segments():
                p.drawLine(QLineF(t.map(seg.p1()), t.map(seg.p2())))
            if self.name in ("half-turn", "quarter-turn"):
                c = t.map(QPointF(self._cols / 2, self._rows / 2))
                p.setPen(QPen(COLOUR, 3.0))
                p.drawEllipse(c, 9.0, 9.0)
                p.setBrush(COLOUR)
                p.drawEllipse(c, 3.0, 3.0)
                if self.name == "quarter-turn":
                    p.setBrush(Qt.BrushStyle.NoBrush)
                    p.drawRect(QRectF(c.x() - 15, c.y() - 15, 30, 30))
