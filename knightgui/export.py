"""Images of tours: PNG through the board view rendered offscreen (without a window or a
display: the CLI's ``solve --png``), SVG written directly (up to 100×100), the clipboard.
"""
from __future__ import annotations

import os
import sys
from html import escape
from pathlib import Path

import numpy as np

from knightgui_core.board.tour import Tour
from knightgui_core.system import files

SVG_MAX_SIDE = 100
DEFAULT_WIDTH = 800
LABEL_MARGIN_PX = 30


def ensure_app():
    """The running ``QApplication``, or a new one (offscreen when there is no display)."""
    from PySide6.QtWidgets import QApplication
    app = QApplication.instance()
    if app is None:
        if not os.environ.get("QT_QPA_PLATFORM") and sys.platform.startswith("linux") and \
                not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
            os.environ["QT_QPA_PLATFORM"] = "offscreen"
        app = QApplication(sys.argv[:1])
    return app


def _show_offscreen(widget, width_px: int, height_px: int) -> None:
    """Show ``widget`` on no screen, at the size asked, and let its layout settle."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication
    widget.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
    widget.resize(int(width_px), int(height_px))
    widget.show()
    QApplication.processEvents()


def render_view(tour: Tour | None, width_px: int, height_px: int | None = None,
                numbers=None, colour_mode: str = "auto", rows=None, cols=None, ties=None):
    """A sized, laid-out :class:`BoardView` showing ``tour`` (not shown on screen)."""
    ensure_app()
    from PySide6.QtWidgets import QApplication

    from knightgui.board.view import BoardView
    view = BoardView()
    rows = tour.rows if tour is not None else rows
    cols = tour.cols if tour is not None else cols
    if height_px is None:
        height_px = max(int(round(width_px * rows / cols)), 16)
    _show_offscreen(view, width_px, height_px)
    view.set_board(rows, cols, board=tour.board if tour is not None else None)
    view.set_colour_mode(colour_mode)
    if numbers is not None:
        view.set_options(numbers=bool(numbers))
    if tour is not None:
        view.set_tour(tour.path, tour.closed, ties)
    # a margin of LABEL_MARGIN_PX pixels around the board for the file and rank labels
    m = LABEL_MARGIN_PX * max(cols / max(width_px - 2 * LABEL_MARGIN_PX, 1),
                              rows / max(height_px - 2 * LABEL_MARGIN_PX, 1))
    view.vb.setRange(xRange=(-m, cols + m), yRange=(-m, rows + m), padding=0)
    QApplication.processEvents()
    return view


def save_png(tour: Tour, filename, numbers=None, width_px: int | None = None,
             colour_mode: str = "auto") -> Path:
    """Render ``tour`` as the window shows it and save a PNG; returns the path written,
    ``OSError`` when it cannot write. ``numbers``: None = where legible, else forced on or
    off; ``width_px``: default 800, or 40 px a column up to 2000."""
    files.check_write_target(filename)    # a device or FIFO is refused before rendering
    if width_px is None:
        width_px = min(max(DEFAULT_WIDTH, 40 * tour.cols), 2000)
    view = render_view(tour, int(width_px), numbers=numbers, colour_mode=colour_mode)
    try:
        return write_png(view, filename)
    finally:
        view.close()
        view.deleteLater()


def encode_png(img) -> bytes:
    """The ``QImage`` ``img`` encoded as PNG in memory (for :mod:`knightgui_core.system.files`
    to write: Qt never opens a file by name). Raises ``OSError`` when Qt cannot encode it."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    ok = img is not None and not img.isNull() and img.save(buf, "PNG")
    buf.close()
    if not ok or data.isEmpty():
        raise OSError("the image could not be encoded as PNG")
    return bytes(data.data())


def png_bytes(widget) -> bytes:
    """What ``widget`` shows, encoded as PNG in memory."""
    return encode_png(widget.grab().toImage())


def write_png(widget, filename) -> Path:
    """Save what ``widget`` shows as a PNG through :mod:`knightgui_core.system.files`'s safe
    writer (``OSError`` when it cannot write)."""
    files.check_write_target(filename)    # refuse a device before rendering anything
    return files.write_bytes(filename, png_bytes(widget))


def save_success_png(result, filename, width_px: int = 1100, height_px: int = 640) -> Path:
    """The tie-break study's success plot (the Analysis view's) as a PNG, without a window.
    ``result`` is a :class:`knightgui_core.studies.tiebreaks.TieBreakResult`."""
    files.check_write_target(filename)
    ensure_app()
    from PySide6.QtWidgets import QApplication

    from knightgui.analysis.success_plot import SuccessPlot
    plot = SuccessPlot()
    _show_offscreen(plot, width_px, height_px)
    try:
        plot.set_result(result)
        QApplication.processEvents()
        return write_png(plot, filename)
    finally:
        plot.close()
        plot.deleteLater()


def svg_text(tour: Tour, numbers: bool = True, cell: int = 40) -> str:
    """An SVG picture of ``tour`` (checkerboard, path, numbers); boards up to 100×100."""
    rows, cols = tour.rows, tour.cols
    if max(rows, cols) > SVG_MAX_SIDE:
        raise ValueError(f"SVG export is limited to {SVG_MAX_SIDE}×{SVG_MAX_SIDE} boards "
                         f"(this one is {rows}×{cols}); export a PNG instead")
    w, h = cols * cell, rows * cell
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'viewBox="0 0 {w} {h}">',
           f'<title>{escape(f"knight tour {rows}x{cols}")}</title>',
           f'<rect width="{w}" height="{h}" fill="#f0d9b5"/>', '<g fill="#b58863">']
    for r in range(rows):
        y = (rows - 1 - r) * cell
        for c in range((r & 1) ^ 0, cols, 2):  # (c + r) even = dark, a1 dark
            out.append(f'<rect x="{c * cell}" y="{y}" width="{cell}" height="{cell}"/>')
    out.append("</g>")
    p = np.asarray(tour.path, dtype=np.int64)
    if tour.closed:
        p = np.append(p, p[0])
    xs = (p % cols) * cell + cell // 2
    ys = (rows - 1 - p // cols) * cell + cell // 2
    pts = " ".join(f"{x},{y}" for x, y in zip(xs.tolist(), ys.tolist()))
    out.append(f'<polyline points="{pts}" fill="none" stroke="#c81414" stroke-width="2" '
               'stroke-linejoin="round" stroke-opacity="0.8"/>')
    s0, s1 = int(tour.path[0]), int(tour.path[-1])
    for sq, colour in ((s0, "#1eaa3c"), (s1, "#d72828")):
        cx, cy = (sq % cols) * cell + cell // 2, (rows - 1 - sq // cols) * cell + cell // 2
        out.append(f'<circle cx="{cx}" cy="{cy}" r="{cell * 0.18:.1f}" fill="{colour}" '
                   'stroke="black"/>')
    if numbers:
        digits = len(str(rows * cols))
        fs = min(cell * 0.42, cell * 0.88 / (0.62 * digits))
        out.append(f'<g font-family="sans-serif" font-size="{fs:.1f}" text-anchor="middle" '
                   'dominant-baseline="central">')
        nums = tour.numbers()
        for r in range(rows):
            y = (rows - 1 - r) * cell + cell // 2
            for c in range(cols):
                out.append(f'<text x="{c * cell + cell // 2}" y="{y}">{nums[r, c]}</text>')
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def save_svg(tour: Tour, filename, numbers: bool = True) -> Path:
    """Write the tour as an SVG drawing (boards up to :data:`SVG_MAX_SIDE`), atomically."""
    return files.write_text(filename, svg_text(tour, numbers))


def copy_image(widget) -> None:
    """Put a picture of ``widget`` on the clipboard."""
    from PySide6.QtWidgets import QApplication
    QApplication.clipboard().setImage(widget.grab().toImage())
