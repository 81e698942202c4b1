"""The board-shaped heat map: figures per square, the quantity shown, hover text, clicks, CSV."""
import math

import numpy as np
import pytest
from PySide6.QtCore import QPointF
from PySide6.QtGui import QImage, QPainter

from knightgui.analysis.heat_map import SquareHeatMap, compact, share, whole


@pytest.fixture
def heat(qtbot):
    h = SquareHeatMap("per start square")
    qtbot.addWidget(h)
    h.resize(500, 460)
    h.show()
    qtbot.waitExposed(h)
    return h


def test_figures_colour_the_board_and_the_bar_follows_the_quantity(heat):
    tours = np.arange(25, dtype=float)
    p = np.linspace(0.5, 1.0, 25)
    heat.set_figures(5, 5, {"tours": tours, "P(success)": p},
                     {"tours": whole, "P(success)": share})
    assert heat.shown == "tours"
    assert heat.image.image.shape == (5, 5) and heat.image.image[4, 4] == 24
    assert heat.colorbar.levels() == (0.0, 24.0)
    heat.show_quantity("P(success)")
    assert heat.colorbar.levels() == pytest.approx((0.5, 1.0))
    assert "P(success)" in heat.getPlotItem().titleLabel.text
    with pytest.raises(KeyError):
        heat.show_quantity("nothing")


def test_hover_text_names_the_square_and_every_figure(heat):
    heat.set_figures(5, 6, {"tours": np.arange(30) * 1000.0, "P(success)": np.full(30, 0.97918)},
                     {"tours": whole, "P(success)": share})
    sq = 2 * 6 + 3                     # d3
    text = heat.describe(sq)
    assert text.splitlines() == ["d3", "tours: 15,000", "P(success): 97.918 %"]
    assert heat.square_at(3.5, 2.5) == sq
    assert heat.square_at(-0.1, 1) == -1 and heat.square_at(6.0, 1) == -1
    assert heat.square_at(float("nan"), 1) == -1


def test_a_click_on_a_square_emits_it(heat, qtbot):
    heat.set_figures(5, 5, {"tours": np.ones(25)})
    vb = heat.getPlotItem().getViewBox()
    scene = vb.mapViewToScene(QPointF(1.5, 3.5))       # b4
    with qtbot.waitSignal(heat.squareClicked, timeout=1000) as sig:
        heat._clicked(type("Ev", (), {"scenePos": lambda self: scene})())
    assert sig.args == [3 * 5 + 1]


def test_missing_figures_are_blank_and_csv_keeps_them_empty(heat):
    p = np.full(25, np.nan)
    p[0], p[24] = 0.25, 1.0
    heat.set_figures(5, 5, {"tours": np.arange(25), "P(success)": p})
    heat.show_quantity("P(success)")
    assert heat.colorbar.levels() == (0.25, 1.0)
    rows = heat.to_csv_text().splitlines()
    assert rows[0] == "square,tours,P(success)"
    assert rows[1] == "a1,0,0.25" and rows[2] == "b1,1," and rows[25] == "e5,24,1"
    assert "—" in heat.describe(1)


def test_a_constant_quantity_and_bad_shapes(heat):
    heat.set_figures(5, 5, {"closed": np.zeros(25)})
    lo, hi = heat.colorbar.levels()
    assert lo == 0 and hi > lo
    with pytest.raises(ValueError, match="24 figures for 25 squares"):
        heat.set_figures(5, 5, {"tours": np.zeros(24)})
    with pytest.raises(ValueError):
        heat.set_figures(0, 5, {"tours": []})


def test_cell_labels_are_short():
    assert compact(396) == "396" and compact(1300) == "1.3k" and compact(34_000) == "34k"
    assert compact(1_234_567) == "1.2M" and compact(117_143_031_736) == "117G"
    assert share(0.979183) == "97.918 %" and whole(1234.0) == "1,234"
    assert not math.isnan(float(compact(0.5)))


def _drawn_labels(axis):
    """The tick labels pyqtgraph would draw on ``axis`` (it leaves out any that do not fit),
    with their rectangles."""
    img = QImage(10, 10, QImage.Format.Format_ARGB32)
    p = QPainter(img)
    try:
        _axis, _ticks, texts = axis.generateDrawSpecs(p)
    finally:
        p.end()
    return [(rect, text) for rect, _flags, text in texts]


def _number(text):
    return float(text.replace("%", "").replace(",", "").strip())


def test_the_colour_bar_has_several_labels_that_fit_in_the_cells_unit(heat, qtbot):
    """8×8's figures: tours from 14,570 to 510,410 and P(success) from 96.9 % to 98.9 %.
    The bar drew one label (pyqtgraph drops any wider than its 45-pixel axis), its title
    sat on the labels, and it read 0.975 beside cells written as 97.5."""
    tours = np.linspace(14_570, 510_410, 64)
    p = np.linspace(0.96935, 0.98906, 64)
    heat.set_figures(8, 8, {"tours": tours, "P(success)": p},
                     {"tours": whole, "P(success)": share})
    qtbot.wait(20)
    drawn = _drawn_labels(heat.colorbar.axis)
    assert len(drawn) >= 3, [t for _, t in drawn]
    assert [t for _, t in drawn][-1] == "500k"
    rects = [r for r, _ in drawn]                  # no two labels on each other
    assert not any(a.intersects(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    assert not heat.colorbar.axis.label.isVisible()           # the name is in the title
    assert heat.getPlotItem().titleLabel.text.startswith("tours")
    heat.show_quantity("P(success)")
    qtbot.wait(20)
    drawn = _drawn_labels(heat.colorbar.axis)
    assert len(drawn) >= 3 and all(t.endswith("%") for _, t in drawn)
    bar = [_number(t) for _, t in drawn]
    cells = [_number(t.toPlainText()) for t in heat.labels]
    assert all(96.9 <= x <= 98.95 for x in bar + cells), (bar, cells[:4])
    assert "(%)" in heat.getPlotItem().titleLabel.text


def test_an_empty_heat_map_says_so_and_shows_no_scale(qtbot):
    h = SquareHeatMap("per start square", empty_text="No counts yet")
    qtbot.addWidget(h)
    h.resize(500, 460)
    h.show()
    qtbot.waitExposed(h)
    pi = h.getPlotItem()

    def empty():
        return (h.empty_note.isVisible() and not h.colorbar.isVisible()
                and not any(pi.getAxis(s).style["showValues"] for s in ("left", "bottom")))
    assert empty() and h.empty_note.toPlainText() == "No counts yet"
    for side in ("left", "bottom"):                     # not "rank (x0.001)" from -500
        assert "x0.001" not in pi.getAxis(side).labelString()
        assert _drawn_labels(pi.getAxis(side)) == []
    h.set_figures(5, 5, {"tours": np.arange(25.0)})
    assert not h.empty_note.isVisible() and h.colorbar.isVisible()
    assert [t for _, t in _drawn_labels(pi.getAxis("bottom"))] == list("abcde")
    h.clear_figures()
    assert empty() and h.quantities == {} and h.labels == []
