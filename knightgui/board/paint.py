"""Painting helpers of the board's items: a paint that never raises into Qt, and the
painter switched to device pixels (marks and text read the same at any zoom)."""
from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
from PySide6.QtCore import QRectF
from PySide6.QtGui import QFont, QTransform


def safe_paint(paint):
    """An exception inside ``paint()`` must never reach Qt (it would abort the process):
    log it once and draw nothing for that item."""
    def wrapper(self, p, *args):
        try:
            paint(self, p, *args)
        except Exception:  # noqa: BLE001
            if not getattr(self, "_paint_failed", False):
                self._paint_failed = True
                logging.getLogger("knightgui.board").exception("paint of %s failed",
                                                                type(self).__name__)
    return wrapper


def pixels_per_unit(painter) -> float:
    """Device pixels per board unit under the painter's current (item → device) transform."""
    t = painter.transform()
    return float(np.hypot(t.m11(), t.m12()))


def visible_rect(painter, bounds: QRectF) -> QRectF:
    """The part of ``bounds`` (item coordinates) that lands on the painted device."""
    inv, ok = painter.transform().inverted()
    if not ok:
        return QRectF(bounds)
    return inv.mapRect(QRectF(painter.viewport())).intersected(bounds)


@contextmanager
def device_pixels(p, antialias: bool = False) -> Iterator[tuple[QTransform, float]]:
    """Paint in device pixels inside the block; yields the item → device transform and the
    pixels a square. The painter is restored after."""
    t = p.transform()
    px = float(np.hypot(t.m11(), t.m12()))
    p.save()
    p.setTransform(QTransform())
    if antialias:
        p.setRenderHint(p.RenderHint.Antialiasing, True)
    try:
        yield t, px
    finally:
        p.restore()


def label_font(px: float) -> QFont:
    """The font of the edge labels and the sums at ``px`` pixels a square."""
    font = QFont()
    font.setPixelSize(int(min(max(px * 0.3, 11), 16)))
    return font
