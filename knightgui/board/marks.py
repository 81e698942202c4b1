"""Overlay items of the board view: start / end markers, the candidates of the animation
and of Watch, the file and rank labels; all paint in device pixels (readable at any zoom)."""
from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPen

from knightgui.board.paint import device_pixels, label_font, safe_paint
from knightgui_core.board.squares import column_letters


# ------------------------------------------------------------ marks on squares
class SquareMarksItem(pg.GraphicsObject):
    """Marks on squares, ``(col, row, kind)``, painted in device pixels so they read the
    same at any zoom: a subclass draws them in :meth:`draw`."""

    def __init__(self, z: float) -> None:
        super().__init__()
        self._items: list[tuple] = []
        self._bounds = QRectF()
        self.setZValue(z)

    def _set_items(self, items, rows: int, cols: int) -> None:
        """``items``: (square, kind) pairs; squares off the board are dropped."""
        self.prepareGeometryChange()
        self._bounds = QRectF(0, 0, cols, rows)
        self._items = [(int(s) % cols, int(s) // cols, kind) for s, kind in items
                       if 0 <= int(s) < rows * cols]
        self.update()

    def boundingRect(self):
        """The board's rectangle, in square units."""
        return QRectF(self._bounds)

    @safe_paint
    def paint(self, p, opt, widget):
        """Set the painter to device pixels, then :meth:`draw` the marks."""
        if self._items:
            with device_pixels(p, antialias=True) as (t, px):
                self.draw(p, t, px)

    def draw(self, p, t, px: float) -> None:
        """Draw ``self._items``; ``t`` maps square units to pixels, ``px`` pixels a square."""
        raise NotImplementedError


# --------------------------------------------------------- candidates (animation, Watch)
#: the outlets badge of a numbered square: its radius in squares (on the square's top-right
#: corner, clear of the move number in the middle half) and at most this many pixels
BADGE_SQUARES = 0.24
BADGE_MAX_PX = 20.0


def candidate_layout(px: float, numbered: bool) -> tuple[float, float, float, float]:
    """Where a candidate's marks go in a square of ``px`` pixels, relative to its centre in
    device pixels (y down): ``(ring radius, badge dx, badge dy, badge radius)``: outlets in
    the middle of an unnumbered square, in a badge on the top-right corner of a numbered one."""
    if not numbered:
        rad = max(min(px * 0.42, 40.0), 6.0)
        return rad, 0.0, 0.0, rad
    badge = max(min(px * BADGE_SQUARES, BADGE_MAX_PX), 1.0)
    return px * 0.47, px / 2, -px / 2, badge


class CandidatesItem(SquareMarksItem):
    """The candidates of the move being animated or watched: a ring on each square and its
    outlets (:func:`candidate_layout`: never over the square's move number). Its items:
    ``(col, row, outlets, chosen, numbered)``, numbered when the square shows a number."""

    def __init__(self):
        super().__init__(30)

    def set_candidates(self, items, rows: int, cols: int, chosen: int = -1,
                       numbered=frozenset()):
        """Mark the squares a frame is choosing between, with their outlets; ``numbered``:
        the squares among them that show a move number."""
        bounds = QRectF(0, 0, cols, rows)
        new = [(int(s) % cols, int(s) // cols, int(o), int(s) == chosen, int(s) in numbered)
               for s, o in items]
        if new == self._items and bounds == self._bounds:
            return          # nothing to redraw (every new search clears the empty list again)
        self.prepareGeometryChange()
        self._bounds = bounds
        self._items = new
        self.update()

    def boundingRect(self):
        """The board's rectangle and half a square around it (a corner badge)."""
        return QRectF(self._bounds).adjusted(-0.5, -0.5, 0.5, 0.5)

    def draw(self, p, t, px: float) -> None:
        """Draw the candidate rings and their outlet counts."""
        font = QFont()
        font.setBold(True)
        for col, row, outlets, chosen, numbered in self._items:
            ring, dx, dy, badge = candidate_layout(px, numbered)
            c = t.map(QPointF(col + 0.5, row + 0.5))
            colour = QColor(0, 150, 60) if chosen else QColor(30, 90, 200)
            p.setPen(QPen(colour, 2.5 if chosen else 1.5))
            p.setBrush(Qt.BrushStyle.NoBrush if numbered else QColor(255, 255, 255, 215))
            p.drawEllipse(c, ring, ring)
            b = QPointF(c.x() + dx, c.y() + dy)
            if numbered:
                p.setPen(QPen(colour, 1.5))
                p.setBrush(QColor(255, 255, 255, 235))
                p.drawEllipse(b, badge, badge)
            font.setPixelSize(max(int(badge * 1.15), 1) if numbered else max(int(badge * 0.9), 7))
            p.setFont(font)
            p.setPen(colour)
            p.drawText(QRectF(b.x() - badge, b.y() - badge, 2 * badge, 2 * badge),
                       Qt.AlignmentFlag.AlignCenter, str(outlets))


# ------------------------------------------------------------ start / end markers
class MarkersItem(SquareMarksItem):
    """Start (green circle) and end (red square) as outlines around their squares (filled
    dots of 12 px when squares are tiny); kind "want" is a requested start other than the
    shown tour's."""

    STYLE = {"start": (QColor(20, 160, 50), "circle"), "end": (QColor(215, 30, 30), "square"),
             "want": (QColor(20, 160, 50), "ring")}

    def __init__(self):
        super().__init__(25)

    def set_markers(self, items, rows: int, cols: int):
        """Mark the start and end squares (-1: none)."""
        self._set_items(items, rows, cols)

    def draw(self, p, t, px: float) -> None:
        """Draw the start and end markers."""
        big = px >= 14
        for col, row, kind in self._items:
            colour, shape = self.STYLE[kind]
            c = t.map(QPointF(col + 0.5, row + 0.5))
            if big:
                half = px * 0.44
                p.setPen(QPen(colour, max(px * 0.07, 2.5)))
                p.setBrush(Qt.BrushStyle.NoBrush)
            else:
                half = 6.0
                p.setPen(QPen(colour, 2.0) if shape == "ring" else QPen(QColor(0, 0, 0), 1.2))
                p.setBrush(Qt.BrushStyle.NoBrush if shape == "ring" else colour)
            r = QRectF(c.x() - half, c.y() - half, 2 * half, 2 * half)
            if shape == "square":
                p.drawRect(r)
            else:
                p.drawEllipse(r)


# ------------------------------------------------------------- file and rank labels
def _nice_step(x: float) -> int:
    """1, 2, 5, 10, 20, 50, ... at least ``x``."""
    step = 1
    while True:
        for m in (1, 2, 5):
            if step * m >= x:
                return step * m
        step *= 10


class EdgeLabelsItem(pg.GraphicsObject):
    """Files (:func:`knightgui_core.board.squares.column_letters`) under the board and ranks
    left of it, at any zoom: every square when they fit, else about 40 px apart."""

    def __init__(self):
        super().__init__()
        self.rows = self.cols = 0
        self._bounds = QRectF()
        self.setZValue(40)

    def set_board(self, rows: int, cols: int):
        """Label the files and ranks of a ``rows`` × ``cols`` board."""
        self.prepareGeometryChange()
        self.rows, self.cols = rows, cols
        m = max(rows, cols) * 0.25
        self._bounds = QRectF(-m, -m, cols + 2 * m, rows + 2 * m)
        self.update()

    def boundingRect(self):
        """The board's rectangle and the margin the labels use."""
        return QRectF(self._bounds)

    @safe_paint
    def paint(self, p, opt, widget):
        """Draw the file letters and rank numbers that are in view."""
        if self.rows:
            with device_pixels(p) as (t, px):
                self._draw(p, t, px)

    def _draw(self, p, t, px: float) -> None:
        p.setFont(label_font(px))
        p.setPen(QColor(70, 70, 70))
        every = self.cols <= 26 and self.rows <= 26
        view = QRectF(p.viewport())
        for axis, n in ((0, self.cols), (1, self.rows)):
            step = 1 if every and px >= 14 else _nice_step(40.0 / max(px, 1e-9))
            ks = [1, *range(step, n + 1, step)] if step > 1 else range(1, n + 1)
            for k in ks:
                if axis == 0:
                    c = t.map(QPointF(k - 0.5, 0.0))
                    text = column_letters(k - 1)
                    r = QRectF(c.x() - 30, c.y() + 3, 60, 18)
                else:
                    c = t.map(QPointF(0.0, k - 0.5))
                    text = str(k)
                    r = QRectF(c.x() - 50, c.y() - 9, 45, 18)
                if view.intersects(r):
                    A = Qt.AlignmentFlag
                    p.drawText(r, (A.AlignHCenter | A.AlignTop) if axis == 0 else
                               (A.AlignRight | A.AlignVCenter), text)
