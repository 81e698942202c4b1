"""The tie-break study's success plot: greedy success against the board side n, one strip and
one line per rule. The Analysis view shows it (:mod:`knightgui.analysis.tiebreaks`) and
the export draws it without a window (:func:`knightgui.export.save_success_png`), so it sits
here, below both."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QFont, QFontMetrics

BACKGROUND = (250, 250, 248)
LABEL_COLOUR = "#333333"
RULE_COLOURS = {
    "phadke": (31, 119, 180), "first": (255, 127, 14), "last": (44, 160, 44),
    "random": (214, 39, 40), "center-far": (148, 103, 189), "lookahead": (140, 86, 75),
    "construction": (30, 30, 30), "pohl": (23, 190, 207), "pohl-random": (188, 189, 34),
    "center-far-random": (227, 119, 194), "squirrel": (127, 127, 127),
    "squirrel-unsplit": (90, 90, 160), "squirrel-ganzfried": (60, 60, 60),
}


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
        from knightgui_core.studies.tiebreaks.result import wilson_interval
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
