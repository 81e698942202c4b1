"""The plots of the Analysis view: failures-per-order histogram, failures-per-start heat map,
and greedy success rate against board size (:class:`~knightgui.analysis.success_plot.SuccessPlot`,
outside the panels so that the export can draw it without a window;
:mod:`knightgui.analysis.plot_export` saves any of them as PNG or SVG)."""
from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Signal
from PySide6.QtGui import QFont

from knightgui.analysis.colour_scale import label_colour_bar
from knightgui.analysis.success_plot import BACKGROUND, LABEL_COLOUR, SuccessPlot
from knightgui_core.board.squares import column_letters

__all__ = ["BoardImage", "FailureHistogram", "StartHeatMap", "SuccessPlot", "show_empty"]


def _style(w: pg.PlotWidget, title: str, left: str, bottom: str) -> None:
    w.setBackground(BACKGROUND)
    w.setTitle(title, color=(40, 40, 40), size="10pt")
    w.setMenuEnabled(False)
    for ax in ("left", "bottom"):
        w.getAxis(ax).setTextPen((60, 60, 60))
        w.getAxis(ax).setPen((120, 120, 120))
    w.setLabel("left", left, color=LABEL_COLOUR)
    w.setLabel("bottom", bottom, color=LABEL_COLOUR)


#: what an empty plot says
EMPTY_TEXT = "No data yet: press Run"


def show_empty(w: pg.PlotWidget, text: str | None) -> None:
    """A plot's "no data yet" state: ``text`` in the middle of an empty frame, no axis
    values (pyqtgraph's default ±0.5 range reads as "rank (x0.001)" from −500 to 500, a
    scale of nothing); ``None`` goes back to showing data (automatic ticks, until the
    caller sets its own)."""
    pi = w.getPlotItem()
    note = getattr(w, "empty_note", None)
    if note is None:
        note = pg.TextItem("", color=(110, 110, 110), anchor=(0.5, 0.5))
        font = QFont()
        font.setPointSize(11)
        note.setFont(font)
        pi.addItem(note, ignoreBounds=True)
        w.empty_note = note
    note.setText(text or "")
    note.setVisible(text is not None)
    for side in ("left", "bottom"):
        ax = pi.getAxis(side)
        ax.enableAutoSIPrefix(False)
        ax.setStyle(showValues=text is None)
        ax.setTicks([[], []] if text is not None else None)
    if text is not None:
        note.setPos(0.5, 0.5)
        pi.setRange(xRange=(0, 1), yRange=(0, 1), padding=0)


def _compact(v: int) -> str:
    """Short label for a heat-map cell: 396, 1.3k, 34k, 1.2M."""
    if v < 1000:
        return str(v)
    if v < 10_000:
        return f"{v / 1000:.1f}k"
    if v < 1_000_000:
        return f"{v // 1000}k"
    return f"{v / 1e6:.1f}M"


class FailureHistogram(pg.PlotWidget):
    """Bars: number of orders (y) with k failed walks (x)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        _style(self, "Failed walks per order", "orders", "failed walks in the order")
        self.bars = pg.BarGraphItem(x=[], height=[], width=0.8, brush=(70, 130, 180),
                                    pen=(40, 80, 120), name="move orders")
        pi = self.getPlotItem()
        self.legend = pi.addLegend(offset=(-10, 10), labelTextColor=(30, 30, 30))
        pi.addItem(self.bars)
        self.heights = np.zeros(0, dtype=np.int64)
        show_empty(self, EMPTY_TEXT)

    def set_distribution(self, dist) -> None:
        """Bars for ``dist[k]`` = orders with k failed walks."""
        dist = np.asarray(dist, dtype=np.int64)
        self.heights = dist
        show_empty(self, None if dist.size else EMPTY_TEXT)
        if not dist.size:
            self.bars.setOpts(x=[], height=[], width=0.8)
            return
        x = np.arange(dist.size)
        self.bars.setOpts(x=x, height=dist.astype(float), width=0.8)
        ax = self.getPlotItem().getAxis("bottom")
        ax.setTicks([[(int(k), str(int(k))) for k in x]] if dist.size <= 30 else None)
        self.getPlotItem().enableAutoRange()


class BoardImage(pg.PlotWidget):
    """Figures per square as coloured cells, rank 1 at the bottom, with a colour bar (shown
    with the first figures); a click on a square emits ``squareClicked(square)``."""

    squareClicked = Signal(int)
    #: cells at least this many pixels wide show their figure
    LABEL_PIXELS = 30

    def __init__(self, title: str, colour_map: str, parent=None):
        super().__init__(parent)
        _style(self, title, "rank", "file")
        self.image = pg.ImageItem(axisOrder="row-major")
        cmap = pg.colormap.get(colour_map)
        self.image.setColorMap(cmap)
        pi = self.getPlotItem()
        pi.addItem(self.image)
        self.colorbar = pg.ColorBarItem(values=(0, 1), colorMap=cmap, interactive=False,
                                        width=14)
        self.colorbar.setImageItem(self.image, insert_in=pi)
        self.colorbar.setVisible(False)
        pi.setAspectLocked(True)
        pi.hideButtons()
        self.labels: list[pg.TextItem] = []
        self.label_font = QFont()
        self.label_font.setPointSize(8)
        self.rows = self.cols = 0
        self.scene().sigMouseClicked.connect(self._clicked)

    def _drop_labels(self) -> None:
        pi = self.getPlotItem()
        for t in self.labels:
            pi.removeItem(t)
        self.labels = []

    def _draw_cells(self, v: np.ndarray, lo: float, hi: float, fmt) -> None:
        """``v`` coloured over the levels ``lo`` … ``hi``, the board's axes and, on boards up
        to 16×16, ``fmt(x)`` in each cell of a finite figure ``x`` (white on the lower 60 %)."""
        show_empty(self, None)
        self.image.setImage(np.asarray(v, dtype=np.float64), levels=(lo, hi))
        self.colorbar.setLevels((lo, hi))
        self.colorbar.setVisible(True)
        self.image.setRect(0, 0, self.cols, self.rows)
        self._drop_labels()
        pi = self.getPlotItem()
        pi.getAxis("bottom").setTicks([[(c + 0.5, column_letters(c)) for c in range(self.cols)]])
        pi.getAxis("left").setTicks([[(r + 0.5, str(r + 1)) for r in range(self.rows)]])
        pi.setRange(xRange=(0, self.cols), yRange=(0, self.rows), padding=0.02)
        if self.rows * self.cols > 16 * 16:
            return
        for r in range(self.rows):
            for c in range(self.cols):
                x = float(v[r, c])
                if not math.isfinite(x):
                    continue
                t = pg.TextItem(fmt(x), anchor=(0.5, 0.5),
                                color=(255, 255, 255) if x - lo < 0.6 * (hi - lo) else (0, 0, 0))
                t.setPos(c + 0.5, r + 0.5)
                t.setFont(self.label_font)
                pi.addItem(t)
                self.labels.append(t)
        self._fit_labels()

    def square_at(self, x: float, y: float) -> int:
        """The flat square under the view point ``(x, y)``, or −1 off the board."""
        if not (math.isfinite(x) and math.isfinite(y)):
            return -1
        c, r = int(math.floor(x)), int(math.floor(y))
        if 0 <= c < self.cols and 0 <= r < self.rows:
            return r * self.cols + c
        return -1

    def cell_pixels(self) -> float:
        """Width of one square on screen, in pixels."""
        pi = self.getPlotItem()
        if not getattr(self, "cols", 0) or pi is None:
            return 0.0
        vb = pi.getViewBox()
        return min(vb.width() / self.cols, vb.height() / max(self.rows, 1))

    def _fit_labels(self) -> None:
        show = self.cell_pixels() >= self.LABEL_PIXELS
        for t in getattr(self, "labels", ()):
            t.setVisible(show)

    def resizeEvent(self, ev):  # noqa: N802 (Qt name)
        """Labels only where the cells can hold them."""
        super().resizeEvent(ev)
        self._fit_labels()

    def _point(self, scene_pos) -> int:
        pt = self.getPlotItem().getViewBox().mapSceneToView(scene_pos)
        return self.square_at(pt.x(), pt.y())

    def _clicked(self, ev) -> None:
        sq = self._point(ev.scenePos())
        if sq >= 0:
            self.squareClicked.emit(sq)


class StartHeatMap(BoardImage):
    """Failed walks per start square."""

    def __init__(self, parent=None):
        super().__init__("Failed walks per start square", "inferno", parent)
        self.values = np.zeros((0, 0), dtype=np.int64)
        show_empty(self, EMPTY_TEXT)

    def set_counts(self, counts, rows: int, cols: int) -> None:
        """One cell per start square, coloured by its figure, written in cells large enough
        to read."""
        v = np.asarray(counts, dtype=np.int64).reshape(rows, cols)
        self.values, self.rows, self.cols = v, rows, cols
        top = max(int(v.max()) if v.size else 0, 1)
        self._draw_cells(v, 0, top, lambda x: _compact(int(x)))
        label_colour_bar(self.colorbar, 0, top, percent=False, label="failed walks")
