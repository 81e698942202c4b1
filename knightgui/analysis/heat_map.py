"""A board-shaped heat map of per-square figures, with a colour bar, hover and click.

:class:`SquareHeatMap` colours the squares by one of several named quantities (the count
study's tours, closed, P(success)…: :meth:`SquareHeatMap.show_quantity`), rank 1 at the
bottom; a square without a figure (NaN) is blank. Hovering a square gives all its figures,
a click emits ``squareClicked(row * cols + col)``, :meth:`SquareHeatMap.to_csv_text` gives
a row per square. Without figures it says so in an empty frame; the colour bar's ticks are
round values in the cells' unit (:mod:`knightgui.analysis.colour_scale`).
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping

import numpy as np
from PySide6.QtWidgets import QWidget

from knightgui.analysis.colour_scale import label_colour_bar
from knightgui.analysis.plots import BoardImage, show_empty
from knightgui_core.board.squares import column_letters

#: how a figure is written in a cell, the tooltip and the CSV
Formatter = Callable[[float], str]


def whole(v: float) -> str:
    """A count: 1,234,567."""
    return f"{int(v):,}"


def share(v: float) -> str:
    """A probability as a percentage with three decimals: 97.918 %."""
    return f"{100 * v:.3f} %"


def compact(v: float) -> str:
    """A short cell label: 396, 0.5, 1.3k, 34k, 1.2M, 117G."""
    a = abs(v)
    for limit, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if a >= limit:
            x = v / limit
            return f"{x:.1f}{suffix}" if abs(x) < 10 and suffix != "k" or a < 1e4 else f"{x:.0f}{suffix}"
    return f"{v:g}"


class SquareHeatMap(BoardImage):
    """See the module docstring."""

    LABEL_PIXELS = 34

    def __init__(self, title: str = "", parent: QWidget | None = None,
                 empty_text: str = "No data yet"):
        super().__init__(title, "viridis", parent)
        self.base_title = title
        self.empty_text = empty_text
        self.colorbar.axis.enableAutoSIPrefix(False)
        self.quantities: dict[str, np.ndarray] = {}
        self.formats: dict[str, Formatter] = {}
        self.shown = ""
        self.setMouseTracking(True)
        self.scene().sigMouseMoved.connect(self._hovered)
        show_empty(self, empty_text)

    # ------------------------------------------------------------------ data
    def clear_figures(self, text: str | None = None) -> None:
        """No figures: the empty frame saying ``text`` (default: the one given at
        construction)."""
        self._drop_labels()
        self.quantities, self.shown = {}, ""
        self.image.clear()
        self.colorbar.setVisible(False)
        self.setTitle(self.base_title, color=(40, 40, 40), size="10pt")
        show_empty(self, self.empty_text if text is None else text)

    def set_figures(self, rows: int, cols: int, quantities: Mapping[str, object],
                    formats: Mapping[str, Formatter] | None = None) -> None:
        """The board's size and its figures: ``quantities[name]`` is anything of ``rows *
        cols`` numbers in square order (NaN where a square has none)."""
        if rows < 1 or cols < 1:
            raise ValueError(f"a heat map needs a board, got {rows}×{cols}")
        self.rows, self.cols = int(rows), int(cols)
        self.quantities = {}
        for name, values in quantities.items():
            a = np.asarray(values, dtype=np.float64).reshape(-1)
            if a.size != rows * cols:
                raise ValueError(f"{name}: {a.size} figures for {rows * cols} squares")
            self.quantities[name] = a.reshape(rows, cols)
        self.formats = dict(formats or {})
        shown = self.shown if self.shown in self.quantities else next(iter(self.quantities), "")
        self.shown = ""
        if shown:
            self.show_quantity(shown)

    def show_quantity(self, name: str) -> None:
        """Colour the squares by the quantity ``name``."""
        if name not in self.quantities:
            raise KeyError(name)
        self.shown = name
        v = self.quantities[name]
        finite = v[np.isfinite(v)]
        lo = float(finite.min()) if finite.size else 0.0
        hi = float(finite.max()) if finite.size else 1.0
        top = hi if hi > lo else lo + (abs(lo) * 1e-9 or 1.0)
        percent = self.formats.get(name) is share
        self._draw_cells(v, lo, top, compact if not percent else lambda x: f"{100 * x:.1f}")
        label_colour_bar(self.colorbar, lo, hi, percent)
        # the quantity names the plot (on the bar its name sat on the tick labels)
        self.setTitle(f"{name} {self.base_title}{' (%)' if percent else ''}".strip(),
                      color=(40, 40, 40), size="10pt")

    # ------------------------------------------------------------ questions
    def describe(self, square: int) -> str:
        """Every figure of ``square``, one per line: ``c3`` then ``tours: 1,234``…"""
        r, c = divmod(int(square), self.cols)
        lines = [f"{column_letters(c)}{r + 1}"]
        for name, v in self.quantities.items():
            x = float(v[r, c])
            lines.append(f"{name}: {self.formats.get(name, compact)(x) if math.isfinite(x) else '—'}")
        return "\n".join(lines)

    def to_csv_text(self) -> str:
        """The figures as CSV: ``square,<quantity>,…``, one row per square (a1, b1, …)."""
        names = list(self.quantities)
        out = [",".join(["square", *names])]
        for sq in range(self.rows * self.cols):
            r, c = divmod(sq, self.cols)
            cells = []
            for n in names:
                x = float(self.quantities[n][r, c])
                cells.append("" if not math.isfinite(x) else (repr(x) if x != int(x) else str(int(x))))
            out.append(",".join([f"{column_letters(c)}{r + 1}", *cells]))
        return "\n".join(out) + "\n"

    # --------------------------------------------------------------- events
    def close(self) -> bool:
        """Drop the cell labels before pyqtgraph tears the scene down."""
        self.labels = []
        return bool(super().close())

    def _hovered(self, pos) -> None:
        sq = self._point(pos)
        self.setToolTip(self.describe(sq) if sq >= 0 and self.quantities else "")
