"""Images: PNG rendered offscreen (also from a process with no window), SVG up to 100×100."""
from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from PySide6.QtGui import QImage

from knightgui import export

from gui_helpers import some_tour


def test_save_png_renders_the_board(qapp, tmp_path):
    t = some_tour(8, 8)
    out = export.save_png(t, tmp_path / "t.png", width_px=400)
    img = QImage(str(out))
    assert (img.width(), img.height()) == (400, 400)
    # the start square is green-marked and squares are the checkerboard colours
    colours = {img.pixel(x, y) for x in range(0, 400, 7) for y in range(0, 400, 7)}
    assert len(colours) > 10


def test_save_png_without_an_application(tmp_path):
    """What ``knightgui solve --png`` does: a fresh process, no QApplication, no display."""
    t = some_tour(6, 6)
    src = tmp_path / "t.json"
    t.save(src)
    png = tmp_path / "t.png"
    env = {k: v for k, v in os.environ.items()
           if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    code = ("import sys; from knightgui_core.board.tour import Tour; from knightgui.export import save_png; "
            "save_png(Tour.load(sys.argv[1]), sys.argv[2], numbers=True)")
    r = subprocess.run([sys.executable, "-c", code, str(src), str(png)], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    img = QImage(str(png))
    assert img.width() == 800 and img.height() == 800


def test_svg_has_every_square_number_and_the_path(tmp_path):
    t = some_tour(10, 10)
    p = export.save_svg(t, tmp_path / "t.svg")
    root = ET.parse(p).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    texts = [e.text for e in root.iter(ns + "text")]
    assert sorted(int(x) for x in texts) == list(range(1, 101))
    poly = next(root.iter(ns + "polyline"))
    assert len(poly.get("points").split()) == 100
    assert len(list(root.iter(ns + "rect"))) == 1 + 50        # background + dark squares


def test_svg_refuses_boards_above_100(tmp_path):
    from knightgui_core.board.squares import Board
    from knightgui_core.board.tour import Tour
    # a 101-wide board is refused before anything is drawn
    t = Tour.__new__(Tour)
    t.board, t.path, t.closed, t.method = Board(101, 101), None, False, {}
    with pytest.raises(ValueError, match="limited to 100"):
        export.svg_text(t)


def test_copy_image_puts_the_board_on_the_clipboard(window):
    from PySide6.QtWidgets import QApplication
    window.files.copy_image()
    img = QApplication.clipboard().image()
    assert not img.isNull() and img.width() == window.view.width()


def test_png_of_a_big_board_fills_the_image(tmp_path):
    """The offscreen render follows the requested size (the board is not squeezed into a
    corner of a large image)."""
    from PySide6.QtGui import QImage

    from knightgui.export import save_png
    from knightgui_core.walks.solve import solve
    tour = solve(300, 300, closed=True).tour
    f = save_png(tour, tmp_path / "big.png", width_px=1200)
    img = QImage(str(f))
    assert (img.width(), img.height()) == (1200, 1200)
    # the far corner (top right, inside the board) is painted, not background
    bg = img.pixelColor(img.width() - 1, 0)
    inner = img.pixelColor(int(img.width() * 0.95), int(img.height() * 0.05))
    assert inner != bg or inner.saturation() > 40


def test_plot_svg_export_reads_closed_paths_and_leaves_pyqtgraph_as_it_was(qapp, tmp_path):
    import importlib
    import xml.dom.minidom

    from knightgui.analysis.plot_export import export_plot, svg_path_shim
    from knightgui.analysis.plots import FailureHistogram
    mod = importlib.import_module("pyqtgraph.exporters.SVGExporter")
    before = mod.correctCoordinates
    w = FailureHistogram()
    w.resize(400, 300)
    w.set_distribution([3, 5, 2, 7])               # bars and a legend: closed paths
    out = export_plot(w, tmp_path / "bars.svg")
    doc = xml.dom.minidom.parse(str(out))
    assert doc.getElementsByTagName("path") or doc.getElementsByTagName("rect")
    assert mod.correctCoordinates is before        # pyqtgraph is left unchanged
    with svg_path_shim() as m:
        assert m.correctCoordinates is not before
    assert mod.correctCoordinates is before


def test_closed_paths_are_written_as_lines_back_to_their_start():
    import xml.dom.minidom

    from knightgui.analysis.plot_export import _close_paths_explicitly
    doc = xml.dom.minidom.parseString('<g><path d="M1,2 L3,4 L5,6 Z M7,8 L9,9 z"/></g>')
    _close_paths_explicitly(doc.documentElement)
    d = doc.getElementsByTagName("path")[0].getAttribute("d")
    assert d.split() == ["M1,2", "L3,4", "L5,6", "L1,2", "M7,8", "L9,9", "L7,8"]
