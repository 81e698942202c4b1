"""Small overlay items of the board view: start / end markers and the candidates of the
construction animation. Both paint in device pixels so they stay readable at any zoom."""
from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPen, QTransform

from .board_items import _pixels_per_unit, safe_paint


# --------------------------------------------------------- candidates (animation)
class CandidatesItem(pg.GraphicsObject):
    """The candidates of the move being animated: a ring on each square and its outlets."""

    def __init__(self):
        super().__init__()
        self._items: list[tuple[int, int, int, bool]] = []  # col, row, outlets, chosen
        self._bounds = QRectF()
        self.setZValue(30)

    def set_candidates(self, items, rows: int, cols: int, chosen: int = -1):
        self.prepareGeometryChange()
        self._bounds = QRectF(0, 0, cols, rows)
        self._items = [(int(s) % cols, int(s) // cols, int(o), int(s) == chosen) for s, o in items]
        self.update()

    def boundingRect(self):
        return QRectF(self._bounds)

    @safe_paint
    def paint(self, p, opt, widget):
        if not self._items:
            return
        px = _pixels_per_unit(p)
        t = p.transform()
        p.save()
        p.setTransform(QTransform())
        p.setRenderHint(p.RenderHint.Antialiasing, True)
        rad = max(min(px * 0.42, 40.0), 6.0)
        font = QFont()
        font.setBold(True)
        font.setPixelSize(max(int(rad * 0.9), 7))
        p.setFont(font)
        for col, row, outlets, chosen in self._items:
            c = t.map(QPointF(col + 0.5, row + 0.5))
            colour = QColor(0, 150, 60) if chosen else QColor(30, 90, 200)
            p.setPen(QPen(colour, 2.5 if chosen else 1.5))
            p.setBrush(QColor(255, 255, 255, 215))
            p.drawEllipse(c, rad, rad)
            p.setPen(colour)
            p.drawText(QRectF(c.x() - rad, c.y() - rad, 2 * rad, 2 * rad), Qt.AlignCenter,
                       str(outlets))
        p.restore()


# ------------------------------------------------------------ start / end markers
class MarkersItem(pg.GraphicsObject):
    """Start (green circle) and end (red square) as outlines around their squares, so the
    numbers stay readable; filled dots of at least 12 px when squares are tiny.
    ``items``: [(square, kind)] with kind "start", "end" or "want" (a requested start
    that differs from the shown tour's)."""

    STYLE = {"start": (QColor(20, 160, 50), "circle"), "end": (QColor(215, 30, 30), "square"),
             "want": (QColor(20, 160, 50), "ring")}

    def __init__(self):
        super().__init__()
        self._items: list[tuple[int, int, str]] = []
        self._bounds = QRectF()
        self.setZValue(25)

    def set_markers(self, items, rows: int, cols: int):
        self.prepareGeometryChange()
        self._bounds = QRectF(0, 0, cols, rows)
        self._items = [(int(s) % cols, int(s) // cols, kind) for s, kind in items
                       if 0 <= int(s) < rows * cols]
        self.update()

    def boundingRect(self):
        return QRectF(self._bounds)

    @safe_paint
    def paint(self, p, opt, widget):
        if not self._items:
            return
        px = _pixels_per_unit(p)
        t = p.transform()
        p.save()
        p.setTransform(QTransform())
        p.setRenderHint(p.RenderHint.Antialiasing, True)
        big = px >= 14
        for col, row, kind in self._items:
            colour, shape = self.STYLE[kind]
            c = t.map(QPointF(col + 0.5, row + 0.5))
            if big:
                half = px * 0.44
                p.setPen(QPen(colour, max(px * 0.07, 2.5)))
                p.setBrush(Qt.NoBrush)
            else:
                half = 6.0
                p.setPen(QPen(QColor(0, 0, 0), 1.2))
                p.setBrush(Qt.NoBrush if shape == "ring" else colour)
                if shape == "ring":
                    p.setPen(QPen(colour, 2.0))
            r = QRectF(c.x() - half, c.y() - half, 2 * half, 2 * half)
            if shape == "square":
                p.drawRect(r)
            else:
                p.drawEllipse(r)
        p.restore()
