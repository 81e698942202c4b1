"""The board view's tour polyline and move-number painter. Square ``(col, row)`` covers
``[col, col+1] × [row, row+1]`` in view units, row 0 at the bottom. Each item paints one
thing for the whole board, and only what is visible.
"""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPen, QStaticText, QTransform

from knightgui.board.images import colour_index
from knightgui.board.paint import device_pixels, pixels_per_unit, safe_paint, visible_rect
from knightgui.board.sums import line_sums_shown, paint_line_sums, sums_tip

#: Boards up to this many squares keep one cached path of the whole tour.
FULL_PATH_LIMIT = 250_000
#: Squares at least this many pixels wide get a wider pen, drawn as separate lines.
WIDE_PEN_PX = 14.0
#: At most this many visible segments are drawn as separate lines.
MAX_LINES = 60_000


# ---------------------------------------------------------------------- the path
class TourPathItem(pg.GraphicsObject):
    """The tour as one polyline through the square centres; on a board whose edges wrap,
    a move across an edge as two halves, each from its square to the edge (the leaps are
    given to :meth:`set_path`, drawing clips at the board's edges)."""

    min_px = 2.0

    def __init__(self, colour=(200, 20, 20)):
        super().__init__()
        self._bounds = QRectF()
        self._cols = 1
        self._p = self._numbers = self._xy_cache = self._full = None
        self._window_key = self._window_path = None
        self._colour = QColor(*colour)
        self._steps: np.ndarray | None = None
        self._reach = 3
        self.setZValue(10)

    def set_style(self, on_colours: bool):
        """A dark translucent line over the colour-by-move image, red over the checkerboard."""
        self._colour = QColor(40, 40, 40) if on_colours else QColor(200, 30, 30)
        self.min_px = 4.0 if on_colours else 2.0

    def set_path(self, path: np.ndarray | None, rows: int, cols: int, closed: bool = False,
                 numbers: np.ndarray | None = None, steps: np.ndarray | None = None):
        """Keep ``path`` (flat squares); coordinates are built when a paint needs them.
        ``numbers``: the board's move numbers (``int32[rows, cols]``, 1-based, 0 = not
        visited), used to find the visible segments fast. ``steps`` (``int32[moves, 2]``,
        the closing move included): the leap ``(dcol, drow)`` of each move on a board whose
        edges wrap, or None on the plane."""
        self._numbers = numbers
        self._steps = None if steps is None or path is None else np.asarray(steps, np.int64)
        self._reach = 3 if self._steps is None or not len(self._steps) else \
            int(np.abs(self._steps).max()) + 1
        self.prepareGeometryChange()
        self._bounds = QRectF(0, 0, cols, rows)
        self._full = self._window_path = self._window_key = self._xy_cache = None
        self._cols = cols
        if path is None or len(path) < 2:
            self._p = None
        else:
            p = np.asarray(path, dtype=np.int32)
            self._p = np.append(p, p[0]) if closed and len(p) > 2 else p
        self.update()

    def _path(self) -> np.ndarray:
        """The path drawn (closing square appended); only called while there is one."""
        if self._p is None:
            raise RuntimeError("no path is drawn")       # a bug: callers check first
        return self._p

    def _centres(self, squares: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The centres (x, y) of flat ``squares``, as float64."""
        return ((squares % self._cols + 0.5).astype(np.float64),
                (squares // self._cols + 0.5).astype(np.float64))

    def _xy(self):
        if self._xy_cache is None:
            self._xy_cache = self._centres(self._path())
        return self._xy_cache

    def full_path(self):
        """The cached path of the whole tour (boards up to FULL_PATH_LIMIT squares)."""
        if self._full is None and self._p is not None and len(self._p) <= FULL_PATH_LIMIT:
            if self._steps is not None:
                self._full = self._pairs_path(np.arange(len(self._p) - 1))
                return self._full
            x, y = self._xy()
            self._full = pg.arrayToQPath(x, y, connect="all")
        return self._full

    def segment_count(self) -> int:
        """Moves drawn (the closing move of a closed tour included)."""
        return 0 if self._p is None else len(self._p) - 1

    def boundingRect(self):
        """The board's rectangle, in square units (Qt asks before painting)."""
        return QRectF(self._bounds)

    def _visible_segments(self, rect: QRectF) -> np.ndarray:
        """Indices i of the segments (i, i+1) with an end inside ``rect`` (plus a margin of
        the longest leap); with the board's move numbers, O(visible squares)."""
        m = self._reach
        c0, r0 = max(int(np.floor(rect.left())) - m, 0), max(int(np.floor(rect.top())) - m, 0)
        c1, r1 = int(np.ceil(rect.right())) + m, int(np.ceil(rect.bottom())) + m
        p = self._path()
        nseg = len(p) - 1
        if self._numbers is not None:
            block = self._numbers[r0:r1, c0:c1]
            ks = block[block > 0].astype(np.int64) - 1          # 0-based move indices
            seg = np.union1d(ks - 1, ks)
            if len(p) > self._numbers.size and (ks == 0).any():
                seg = np.append(seg, nseg - 1)                   # the closing segment
            return seg[(seg >= 0) & (seg < nseg)]
        x, y = self._xy()
        inside = (x >= c0) & (x <= c1) & (y >= r0) & (y <= r1)
        return np.flatnonzero(inside[:-1] | inside[1:])

    def _segment_xy(self, seg: np.ndarray):
        """Start and end coordinates of the lines that draw moves ``seg`` (square centres;
        a move across a wrapping edge gives two lines, each leaving the board)."""
        p = self._path()
        (xa, ya), (xb, yb) = self._centres(p[seg]), self._centres(p[seg + 1])
        if self._steps is None:
            return (xa, ya, xb, yb)
        dx, dy = self._steps[seg, 0], self._steps[seg, 1]
        wrap = (xa + dx != xb) | (ya + dy != yb)
        return (np.concatenate([xa, (xb - dx)[wrap]]), np.concatenate([ya, (yb - dy)[wrap]]),
                np.concatenate([xa + dx, xb[wrap]]), np.concatenate([ya + dy, yb[wrap]]))

    def _pairs_path(self, seg: np.ndarray):
        """One ``QPainterPath`` of the lines of moves ``seg`` (a wrapping board)."""
        xa, ya, xb, yb = self._segment_xy(seg)
        x = np.empty(2 * len(xa), dtype=np.float64)
        y = np.empty(2 * len(xa), dtype=np.float64)
        x[0::2], x[1::2], y[0::2], y[1::2] = xa, xb, ya, yb
        return pg.arrayToQPath(x, y, connect="pairs")

    def _window(self, make, rect: QRectF):
        """``make(visible segments)`` for ``rect``, kept while the squares in view stay."""
        key = (make.__name__, int(np.floor(rect.left())), int(np.floor(rect.top())),
               int(np.ceil(rect.right())), int(np.ceil(rect.bottom())))
        if key != self._window_key:
            self._window_key, self._window_path = key, make(self._visible_segments(rect))
        return self._window_path

    def _visible_path(self, seg: np.ndarray):
        """One ``QPainterPath`` of the visible segments (huge boards, thin pen)."""
        if len(seg) and self._steps is not None:
            return self._pairs_path(seg)
        if len(seg):
            keep = np.union1d(seg, seg + 1)
            return pg.arrayToQPath(*self._centres(self._path()[keep]),
                                   connect=np.isin(keep, seg))
        return None

    def _visible_lines(self, seg: np.ndarray):
        """``QLineF`` list of the visible segments (zoomed in, wide pen: a translucent or wide
        antialiased *path* is slow to stroke in Qt, separate lines are not)."""
        if not 0 < len(seg) <= MAX_LINES:
            return None
        xa, ya, xb, yb = self._segment_xy(seg)
        return [QLineF(a, b, c, d) for a, b, c, d in
                zip(xa.tolist(), ya.tolist(), xb.tolist(), yb.tolist())]

    @safe_paint
    def paint(self, p, opt, widget):
        """Draw the segments in the exposed rectangle (all of them below the full-path limit)."""
        p.save()                            # the clip to the board stays with this item
        try:
            self._paint(p)
        finally:
            p.restore()

    def _paint(self, p):
        if self._p is None:
            return
        px = pixels_per_unit(p)
        if px < self.min_px:
            return
        rect = visible_rect(p, self._bounds)
        if self._steps is not None:
            p.setClipRect(self._bounds)     # a wrapped move's halves end at the edges
        if px >= WIDE_PEN_PX:
            lines = self._window(self._visible_lines, rect)
            if lines is not None:
                pen = QPen(self._colour, min(px * 0.07, 3.0))
                pen.setCosmetic(True)
                pen.setCapStyle(Qt.PenCapStyle.FlatCap)
                p.setRenderHint(p.RenderHint.Antialiasing, True)
                p.setPen(pen)
                p.drawLines(lines)
                return
        path = self.full_path()
        if path is None:
            path = self._window(self._visible_path, rect)
        if path is None:
            return
        pen = QPen(self._colour, 1.0)
        pen.setCosmetic(True)
        # antialiased hairlines cost ~25% more: only for small boards or when zoomed in
        p.setRenderHint(p.RenderHint.Antialiasing, self.segment_count() <= 5_000 or px >= 10)
        p.setPen(pen)
        p.drawPath(path)


# ------------------------------------------------------------------- the numbers
class NumbersItem(pg.GraphicsObject):
    """Move numbers of the visible squares, painted in device pixels by one item."""

    min_font_px = 6.0

    def __init__(self):
        super().__init__()
        self._numbers = None
        self._dark = None
        self._total = 0
        self._bounds = QRectF()
        self._cache: dict[int, tuple[QStaticText, float]] = {}
        self._cache_font = None
        #: how many numbers the last paint drew (0 when not legible), for bench/gui.py
        self.last_painted = 0
        #: a whole tour's row sums (rank 1 first) and column sums (file a first), written
        #: beside the board (:mod:`knightgui.board.sums`)
        self.row_sums: tuple[int, ...] = ()
        self.col_sums: tuple[int, ...] = ()
        self.last_sums_painted = 0
        #: the sums are written (View ▸ Row and column sums)
        self.show_sums = True
        self.setZValue(20)

    def set_numbers(self, numbers: np.ndarray | None, dark_lut: np.ndarray | None = None,
                    total: int = 0):
        """``numbers``: ``int32[rows, cols]`` (0 = draw nothing). ``dark_lut``: bool[256] of the
        colour-by-move map (numbers on dark colours are white), None on the checkerboard."""
        self.prepareGeometryChange()
        self._numbers = numbers
        self._dark = dark_lut
        self._total = total
        self.row_sums, self.col_sums = line_sums_shown(numbers)
        if numbers is not None:
            rows, cols = numbers.shape
            m = max(rows, cols) * 0.25 if self.row_sums else 0.0   # the labels' margin
            self._bounds = QRectF(0, 0, cols + m, rows + m)
        self.update()

    def boundingRect(self):
        """The board's rectangle, in square units."""
        return QRectF(self._bounds)

    def set_show_sums(self, on: bool) -> None:
        """Write the row and column sums of a whole tour, or not."""
        self.show_sums = bool(on)
        self.update()

    def sums_tip(self, x: float, y: float) -> str:
        """What the sum at ``(x, y)`` (square units) is, in words; "" off the sums."""
        return sums_tip(self.row_sums, self.col_sums, x, y) if self.show_sums else ""

    def font_px(self, px: float) -> float:
        """Font pixel size that fits the largest number in a square of ``px`` pixels."""
        if self._numbers is None:
            return 0.0
        digits = len(str(int(self._numbers.max(initial=1))))
        return min(px * 0.42, px * 0.88 / (0.62 * max(digits, 1)))

    @safe_paint
    def paint(self, p, opt, widget):
        """Draw the move numbers of the visible squares, when they are large enough to read."""
        self.last_painted = self.last_sums_painted = 0
        if self._numbers is None:
            return
        vr = visible_rect(p, self._bounds)
        with device_pixels(p) as (t, px):
            if self.row_sums and self.show_sums:
                self.last_sums_painted = paint_line_sums(p, t, px, self.row_sums,
                                                         self.col_sums)
            self.last_painted = self._paint_numbers(p, t, px, vr)

    def _paint_numbers(self, p, t, px: float, vr: QRectF) -> int:
        """Draw the numbers of the squares in ``vr`` (device pixels); returns how many."""
        fpx = self.font_px(px)
        if self._numbers is None or fpx < self.min_font_px:
            return 0
        rows, cols = self._numbers.shape
        c0, c1 = max(int(np.floor(vr.left())), 0), min(int(np.ceil(vr.right())), cols)
        r0, r1 = max(int(np.floor(vr.top())), 0), min(int(np.ceil(vr.bottom())), rows)
        if c1 <= c0 or r1 <= r0:
            return 0
        block = self._numbers[r0:r1, c0:c1]
        rr, cc = np.nonzero(block > 0)
        if len(rr) == 0:
            return 0
        vals = block[rr, cc]
        font = QFont()
        font.setPixelSize(max(int(round(fpx)), 1))
        p.setFont(font)
        key = font.pixelSize()
        if key != self._cache_font:
            self._cache.clear()
            self._cache_font = key
        fm = QFontMetricsF(font)
        half_h = fm.height() / 2.0
        # centres in device pixels (affine: no rotation in a ViewBox)
        xs = t.m11() * (cc + c0 + 0.5) + t.m21() * (rr + r0 + 0.5) + t.dx()
        ys = t.m12() * (cc + c0 + 0.5) + t.m22() * (rr + r0 + 0.5) + t.dy()
        dark = (self._dark[colour_index(vals, self._total)] if self._dark is not None
                else np.zeros(len(rr), dtype=bool))
        cache = self._cache
        for white in (False, True):
            sel = np.flatnonzero(dark == white)
            if len(sel) == 0:
                continue
            p.setPen(QColor(255, 255, 255) if white else QColor(0, 0, 0))
            for i in sel.tolist():
                n = int(vals[i])
                entry = cache.get(n)
                if entry is None:
                    st = QStaticText(str(n))
                    st.setPerformanceHint(QStaticText.PerformanceHint.AggressiveCaching)
                    st.prepare(QTransform(), font)
                    entry = cache[n] = (st, st.size().width() / 2.0)
                p.drawStaticText(QPointF(xs[i] - entry[1], ys[i] - half_h), entry[0])
        return len(rr)
