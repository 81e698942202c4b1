"""The plots of the Analysis view: failures-per-order histogram, failures-per-start heat map,
and greedy success rate against board size (:mod:`knightgui.panels.plot_export` saves any of
them as PNG or SVG)."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Signal
from PySide6.QtGui import QFont, QFontMetrics

from knightgui_core.board.squares import column_letters

from .colour_scale import label_colour_bar

BACKGROUND = (250, 250, 248)
LABEL_COLOUR = "#333333"
RULE_COLOURS = {
    "phadke": (31, 119, 180), "first": (255, 127, 14), "last": (44, 160, 44),
    "random": (214, 39, 40), "center-far": (148, 103, 189), "lookahead": (140, 86, 75),
    "construction": (30, 30, 30), "pohl": (23, 190, 207), "pohl-random": (188, 189, 34),
    "center-far-random": (227, 119, 194), "squirrel": (127, 127, 127),
    "squirrel-unsplit": (90, 90, 160), "squirrel-ganzfried": (60, 60, 60),
}


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

    def clear_data(self) -> None:
        """No bars."""
        self.set_distribution(np.zeros(0, dtype=np.int64))


class StartHeatMap(pg.PlotWidget):
    """Failed walks per start square; rank 1 at the bottom. Emits ``squareClicked(sq)``."""

    squareClicked = Signal(int)

    def __init__(self, parent=None):
        super().__init__(parent)
        _style(self, "Failed walks per start square", "rank", "file")
        self.image = pg.ImageItem(axisOrder="row-major")
        cmap = pg.colormap.get("inferno")
        self.image.setColorMap(cmap)
        pi = self.getPlotItem()
        pi.addItem(self.image)
        # the colour bar is the heat map's legend: failed walks per colour (shown with the
        # first figures)
        self.colorbar = pg.ColorBarItem(values=(0, 1), colorMap=cmap, interactive=False,
                                        width=14)
        self.colorbar.setImageItem(self.image, insert_in=pi)
        self.colorbar.setVisible(False)
        pi.setAspectLocked(True)
        pi.hideButtons()
        self.labels: list[pg.TextItem] = []
        self.label_font = QFont()
        self.label_font.setPointSize(8)
        self.values = np.zeros((0, 0), dtype=np.int64)
        self.rows = self.cols = 0
        self.scene().sigMouseClicked.connect(self._clicked)
        show_empty(self, EMPTY_TEXT)

    def set_counts(self, counts, rows: int, cols: int) -> None:
        """One cell per start square, coloured by its figure, with the figure written in cells large
        enough to read."""
        pi = self.getPlotItem()
        for t in self.labels:
            pi.removeItem(t)
        self.labels = []
        v = np.asarray(counts, dtype=np.int64).reshape(rows, cols)
        self.values, self.rows, self.cols = v, rows, cols
        top = max(int(v.max()) if v.size else 0, 1)
        show_empty(self, None)
        self.image.setImage(v.astype(float), levels=(0, top))
        self.colorbar.setLevels((0, top))
        self.colorbar.setVisible(True)
        label_colour_bar(self.colorbar, 0, top, percent=False, label="failed walks")
        self.image.setRect(0, 0, cols, rows)
        if rows * cols <= 16 * 16:
            for r in range(rows):
                for c in range(cols):
                    val = int(v[r, c])
                    light = val < 0.6 * top
                    t = pg.TextItem(_compact(val), anchor=(0.5, 0.5),
                                    color=(255, 255, 255) if light else (0, 0, 0))
                    t.setPos(c + 0.5, r + 0.5)
                    t.setFont(self.label_font)
                    pi.addItem(t)
                    self.labels.append(t)
        pi.getAxis("bottom").setTicks([[(c + 0.5, column_letters(c))
                                        for c in range(cols)]])
        pi.getAxis("left").setTicks([[(r + 0.5, str(r + 1)) for r in range(rows)]])
        pi.setRange(xRange=(0, cols), yRange=(0, rows), padding=0.02)
        self._fit_labels()

    def cell_pixels(self) -> float:
        """Width of one cell on screen, in pixels."""
        if not getattr(self, "cols", 0):
            return 0.0
        vb = self.getPlotItem().getViewBox()
        return min(vb.width() / self.cols, vb.height() / max(self.rows, 1))

    def _fit_labels(self) -> None:
        """Numbers only when a cell is wide enough to hold them."""
        show = self.cell_pixels() >= 30
        for t in getattr(self, "labels", ()):
            t.setVisible(show)

    def resizeEvent(self, ev):  # noqa: N802 (Qt name)
        """Re-decide which cells are large enough for their figures."""
        super().resizeEvent(ev)
        self._fit_labels()

    def square_at(self, x: float, y: float) -> int:
        """The flat square of the cell at a point of the plot, or -1."""
        c, r = int(np.floor(x)), int(np.floor(y))
        if 0 <= c < self.cols and 0 <= r < self.rows:
            return r * self.cols + c
        return -1

    def _clicked(self, ev) -> None:
        vb = self.getPlotItem().getViewBox()
        pt = vb.mapSceneToView(ev.scenePos())
        sq = self.square_at(pt.x(), pt.y())
        if sq >= 0:
            self.squareClicked.emit(sq)


class SuccessPlot(pg.GraphicsLayoutWidget):
    """Greedy success against the board side n.

    Top: one strip per rule, one cell per n, coloured by the share of walks that completed
    (red 0 % … green 100 %). Bottom: the same share averaged over a sliding window of sizes,
    one line per rule (a single corner start gives 0 or 100 % per n, which the window turns
    into a readable trend); for a rule walked with several seeds (``trials``), a band in its
    colour: the 95 % Wilson interval of the walks in the window (``bands``)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setBackground(BACKGROUND)
        self.strip = self.addPlot(row=0, col=0)
        self.strip.setTitle("Greedy walk completed? (green = all starts, red = none)",
                            color=(40, 40, 40), size="10pt")
        self.strip.setMenuEnabled(False)
        self.strip.hideButtons()
        self.image = pg.ImageItem(axisOrder="row-major")
        self.image.setColorMap(pg.ColorMap([0.0, 0.5, 1.0], [(200, 40, 40), (240, 200, 60),
                                                              (60, 160, 80)]))
        self.strip.addItem(self.image)
        self.lines = self.addPlot(row=1, col=0)
        self.lines.setMenuEnabled(False)
        self.lines.setLabel("left", "completed (%)", color=LABEL_COLOUR)
        self.lines.setLabel("bottom", "board side n", color=LABEL_COLOUR)
        self.lines.setXLink(self.strip)
        # the legends get their own rows under the plot (inside they would cover the lines):
        # the rules in as many columns as fit, the published figures (long labels naming
        # their sources) one a line below them
        self.legend = pg.LegendItem(labelTextColor=(30, 30, 30), colCount=7,
                                    horSpacing=24)
        self.addItem(self.legend, row=2, col=0)
        self.published_legend = pg.LegendItem(labelTextColor=(30, 30, 30), colCount=1)
        self.addItem(self.published_legend, row=3, col=0)
        for pi in (self.strip, self.lines):
            for ax in ("left", "bottom"):
                pi.getAxis(ax).setTextPen((60, 60, 60))
                pi.getAxis(ax).setPen((120, 120, 120))
        self.strip.setLabel("bottom", "board side n", color=LABEL_COLOUR)
        self.strip.setLabel("left", "tie rule", color=LABEL_COLOUR)
        self.ci.layout.setRowStretchFactor(0, 1)
        self.ci.layout.setRowStretchFactor(1, 1)
        # before any result: the default sizes and 0 … 100 %, no rules (not pyqtgraph's
        # default ±0.5 range, which reads as "×0.001")
        self.strip.getAxis("left").setTicks([[]])
        self.strip.setRange(xRange=(4.5, 200.5), yRange=(0, 1), padding=0)
        self.lines.setYRange(0, 102)
        self.curves: dict[str, pg.PlotDataItem] = {}
        self.bands: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self.rates = np.zeros((0, 0))
        self.window = 1

    def _fit_legend(self) -> None:
        """As many legend columns as the width holds: a legend wider than the widget
        would widen the whole layout and push the plots' right side out of view."""
        legend = getattr(self, "legend", None)     # resize events come during __init__
        names = [label.text for _, label in legend.items] if legend is not None else []
        if not names:
            return
        fm = QFontMetrics(QFont())
        col = max(fm.horizontalAdvance(n) for n in names) + 60   # sample line + spacing
        cols = max(1, min(len(names), (self.width() - 20) // col))
        if cols != self.legend.columnCount:
            self.legend.setColumnCount(cols)

    def resizeEvent(self, ev):  # noqa: N802 (Qt name)
        """Keep the legend readable at the new size."""
        super().resizeEvent(ev)
        self._fit_legend()

    def _overlay_published(self, res, sizes) -> None:
        """The published figures about the plotted rules (walks from the corner only), as
        markers with their source in the legend: success rates where they were reported,
        0 % at the sides where a walk was reported to fail."""
        from knightgui_core.studies.published import for_rule
        if res.starts != "corner" or not sizes.size:
            return
        lo, hi = float(sizes[0]), float(sizes[-1])
        for rule in res.rules:
            for f in for_rule(rule, res.order):
                if f.start != "corner":
                    continue
                pts = [(n, 100.0 * r) for n, r in f.rates] + [(n, 0.0) for n in f.failing_n]
                pts = [(x, y) for x, y in pts if lo <= x <= hi]
                if not pts:
                    continue
                col = RULE_COLOURS.get(rule, (0, 0, 0))
                item = self.lines.plot([x for x, _ in pts], [y for _, y in pts], pen=None,
                                       symbol="o" if f.rates else "t", symbolSize=10,
                                       symbolPen=pg.mkPen((20, 20, 20)), symbolBrush=col)
                self.marks.append(item)
                self.published_legend.addItem(item, f"{f.source}: {f.label}")

    def set_result(self, res) -> None:
        """Draw each rule's success rate against n (with the 95 % band of the random rules)."""
        rate = res.success_rate()
        self.rates = rate
        sizes = np.asarray(res.sizes, dtype=float)
        n0 = float(sizes[0]) if sizes.size else 0.0
        R = len(res.rules)
        img = np.where(np.isnan(rate), 0.5, rate)[::-1]  # first rule at the top
        self.image.setImage(img, levels=(0.0, 1.0))
        self.image.setRect(n0 - 0.5, 0, max(len(sizes), 1), R)
        left = self.strip.getAxis("left")
        left.setTicks([[(R - 1 - r + 0.5, rule) for r, rule in enumerate(res.rules)]])
        # wide enough for the longest rule name (pyqtgraph drops labels that do not fit);
        # the same width below keeps the two plots' n axes aligned
        fm = QFontMetrics(left.style.get("tickFont") or QFont())
        width = max([fm.horizontalAdvance(r) for r in res.rules] + [30]) + 16
        left.setWidth(width)
        self.lines.getAxis("left").setWidth(width)
        self.strip.setRange(xRange=(n0 - 0.5, n0 - 0.5 + len(sizes)), yRange=(0, R),
                            padding=0)
        for c in list(self.curves.values()) + getattr(self, "marks", []):
            self.lines.removeItem(c)
        self.legend.clear()
        self.published_legend.clear()
        self.curves = {}
        self.bands = {}
        self.marks: list = []
        self.window = w = max(1, len(sizes) // 20)
        kernel = np.ones(w) / w
        for r, rule in enumerate(res.rules):
            ok = res.tried[r] > 0
            if ok.sum() < 1:
                continue
            y = 100.0 * rate[r][ok]
            if w > 1 and y.size >= w:
                y = np.convolve(y, kernel, mode="valid")
                x = np.convolve(sizes[ok], kernel, mode="valid")
            else:
                x = sizes[ok]
            col = RULE_COLOURS.get(rule, (0, 0, 0))
            if res.trials[r] > 1:
                self._band(rule, col, sizes[ok], res.completed[r][ok], res.tried[r][ok], w)
            self.curves[rule] = self.lines.plot(x, y, pen=pg.mkPen(col, width=2))
            self.legend.addItem(self.curves[rule], rule)
        self._overlay_published(res, sizes)
        self.lines.setYRange(0, 102)
        self._fit_legend()
        title = (f"Share completed, mean over {w} consecutive sizes" if w > 1
                 else "Share of walks completed")
        if self.bands:
            title += "; band: 95 % interval over the trials"
        self.lines.setTitle(title, color=(40, 40, 40), size="9pt")

    def _band(self, rule, col, sizes, completed, tried, w) -> None:
        """The 95 % Wilson interval of the walks pooled over each window of ``w`` sizes (one
        size when ``w == 1``), as a translucent band under the rule's line."""
        from knightgui_core.studies.tiebreaks_result import wilson_interval
        kernel = np.ones(w)
        if w > 1 and sizes.size >= w:
            x = np.convolve(sizes, kernel / w, mode="valid")
            completed = np.convolve(completed, kernel, mode="valid")
            tried = np.convolve(tried, kernel, mode="valid")
        else:
            x = sizes
        low, high = wilson_interval(completed, tried)
        lo = self.lines.plot(x, 100.0 * low, pen=pg.mkPen(col + (90,), width=1))
        hi = self.lines.plot(x, 100.0 * high, pen=pg.mkPen(col + (90,), width=1))
        fill = pg.FillBetweenItem(lo, hi, brush=pg.mkBrush(col + (50,)))
        self.lines.addItem(fill)
        self.marks.extend([lo, hi, fill])
        self.bands[rule] = (x, low, high)
