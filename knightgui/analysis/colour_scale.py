"""Readable colour bars for the heat maps: a few round ticks, written in the cells' unit.

pyqtgraph's colour bar has a fixed 45-pixel axis that drops a wider label (``100000``) and
writes a probability as ``0.975`` beside cells in percent. :func:`label_colour_bar` gives
the axis round ticks (1, 2, 2.5 or 5 × 10^k) written as counts (``250k``) or percentages
(``97.5 %``), and the width the widest of them and the bar's own label need.
"""
from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtGui import QFont, QFontMetrics

#: pixels beside the widest label: the tick, the gap before the text, a margin
AXIS_PADDING = 16


def nice_ticks(lo: float, hi: float, most: int = 6) -> list[float]:
    """Round values from ``lo`` to ``hi`` (at most ``most`` of them, at least two when
    ``hi > lo``): every multiple of the smallest step 1, 2, 2.5 or 5 × 10^k that gives no
    more than ``most``; ``[lo]`` for an empty range."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return [lo] if math.isfinite(lo) else []
    raw = (hi - lo) / max(1, most - 1)
    power = 10.0 ** math.floor(math.log10(raw))
    for m in (1.0, 2.0, 2.5, 5.0, 10.0):
        step = m * power
        first, last = math.ceil(lo / step - 1e-9), math.floor(hi / step + 1e-9)
        if last - first + 1 <= most:
            break
    ticks = [k * step for k in range(first, last + 1)]
    if len(ticks) < 2:                   # a range narrower than one step: its two ends
        ticks = [lo, hi]
    return ticks


def _decimals(ticks: list[float]) -> int:
    """Decimals that tell the ticks apart (0.25 → 2, 0.5 → 1, 20 → 0)."""
    if len(ticks) < 2:
        return 0
    step = min(abs(b - a) for a, b in zip(ticks, ticks[1:]))
    for d in range(0, 7):
        if abs(round(step, d) - step) < 1e-9 * max(1.0, abs(step)):
            return d
    return 6


def count_labels(ticks: list[float]) -> list[str]:
    """Counts, short: ``0, 250k, 500k`` or ``0, 0.5M, 1.0M``; plain below 10,000."""
    top = max((abs(t) for t in ticks), default=0.0)
    unit, suffix = next(((u, s) for u, s in ((1e9, "G"), (1e6, "M"), (1e4, "k"))
                         if top >= u), (1.0, ""))
    if suffix == "k":
        unit = 1e3
    scaled = [t / unit for t in ticks]
    d = _decimals(scaled)
    if not suffix:
        return [f"{t:,.{d}f}" for t in scaled]
    return [f"{t:.{d}f}{suffix}" if t else "0" for t in scaled]


def colour_bar_ticks(lo: float, hi: float, percent: bool) -> list[tuple[float, str]]:
    """The bar's ticks between the levels ``lo`` and ``hi``: (value, label). Percentages
    are chosen round in percent (97.5 %, not 0.975 rounded)."""
    if percent:
        values = [v / 100.0 for v in nice_ticks(100.0 * lo, 100.0 * hi)]
        pct = [100.0 * t for t in values]
        d = _decimals(pct)
        return [(v, f"{t:.{d}f} %") for v, t in zip(values, pct, strict=True)]
    values = nice_ticks(lo, hi)
    if hi - lo >= 2:                     # counts: whole steps only
        values = [v for v in values if float(v).is_integer()] or values
    return list(zip(values, count_labels(values), strict=True))


def label_colour_bar(bar: pg.ColorBarItem, lo: float, hi: float, percent: bool,
                     label: str = "") -> list[str]:
    """Give ``bar`` (levels ``lo`` … ``hi``) round ticks in the cells' unit and an axis wide
    enough for them and for ``label`` (none when empty); returns the tick labels."""
    ticks = colour_bar_ticks(lo, hi, percent)
    axis = bar.axis
    axis.setTicks([ticks, []])
    axis.setTextPen((60, 60, 60))
    font = axis.style.get("tickFont") or QFont()
    fm = QFontMetrics(font)
    width = max((fm.horizontalAdvance(text) for _, text in ticks), default=0) + AXIS_PADDING
    if label:
        axis.setLabel(label, color="#333333")
        width += int(axis.label.boundingRect().height())
    else:
        axis.setLabel("")
        axis.showLabel(False)
    axis.setWidth(width)
    return [text for _, text in ticks]
