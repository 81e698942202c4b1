"""The board always fits what the user sees of its view: on a screen smaller than the default
window, after the window is resized, and after Zoom to fit (F); a zoom by hand is kept."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, QRect

from knightgui.window.main import MainWindow

from gui_helpers import wait_until


def _board_on_screen(w: MainWindow) -> QRect:
    """The board's squares and their letters (a margin of half a square), in screen pixels."""
    v = w.view
    a = v.mapFromScene(v.vb.mapViewToScene(QPointF(-0.5, -0.5)))
    b = v.mapFromScene(v.vb.mapViewToScene(QPointF(v.cols + 0.5, v.rows + 0.5)))
    vp = v.viewport()
    return QRect(vp.mapToGlobal(a), vp.mapToGlobal(b)).normalized()


def _seen(w: MainWindow) -> QRect:
    """What the user sees of the board's view: the viewport within the screen."""
    vp = w.view.viewport()
    r = QRect(vp.mapToGlobal(QPoint(0, 0)), vp.size())
    return r.intersected(w.screen().availableGeometry())


def _fits(w: MainWindow) -> bool:
    return _seen(w).contains(_board_on_screen(w))


def test_the_default_window_fits_a_smaller_screen(qtbot):
    w = MainWindow(restore_settings=False)      # the offscreen screen: 800 × 800
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    room = w.screen().availableGeometry()
    assert w.width() <= room.width() and w.height() <= room.height()
    wait_until(qtbot, lambda: _fits(w), timeout=5)


@pytest.mark.parametrize("size", [(1024, 700), (1100, 760), (2560, 1440), (1280, 820)])
def test_the_board_fits_after_every_resize(window, qtbot, monkeypatch, size):
    big = QRect(0, 0, 2560, 1440)                # a screen with room for every size here
    monkeypatch.setattr(type(window.screen()), "availableGeometry", lambda self: big)
    window.resize(*size)
    wait_until(qtbot, lambda: window.size().toTuple() == size and _fits(window), timeout=5)


def test_zoom_by_hand_is_kept_and_zoom_to_fit_fits_the_new_size(window, qtbot, monkeypatch):
    big = QRect(0, 0, 2560, 1440)
    monkeypatch.setattr(type(window.screen()), "availableGeometry", lambda self: big)
    v = window.view
    v.vb.scaleBy((0.25, 0.25))                   # zoomed in, as a wheel does
    v.vb.sigRangeChangedManually.emit(v.vb.state["mouseEnabled"])
    window.resize(1024, 700)
    wait_until(qtbot, lambda: window.view.viewport().width() < 500, timeout=5)
    assert not _fits(window)                     # the user's zoom stays
    window.act.fit.trigger()                     # F
    wait_until(qtbot, lambda: _fits(window), timeout=5)
    window.resize(1100, 760)
    wait_until(qtbot, lambda: window.width() == 1100 and _fits(window), timeout=5)


@pytest.mark.parametrize("size", [(1024, 700), (1100, 760)])
def test_a_tours_row_sums_are_in_view_after_a_resize(window, qtbot, monkeypatch, size):
    from PySide6.QtGui import QFont, QFontMetrics

    from gui_helpers import some_tour
    big = QRect(0, 0, 2560, 1440)
    monkeypatch.setattr(type(window.screen()), "availableGeometry", lambda self: big)
    window.show_tour(some_tour(8, 8))
    v = window.view
    assert v.numbers_item.row_sums                  # a whole tour: its sums are written

    def sums_in_view() -> bool:
        left = v.mapFromScene(v.vb.mapViewToScene(QPointF(v.cols, 0))).x()
        px = left - v.mapFromScene(v.vb.mapViewToScene(QPointF(v.cols - 1, 0))).x()
        font = QFont()                               # as knightgui/board/sums.py writes them
        font.setPixelSize(int(min(max(px * 0.3, 11), 16)))
        wide = max(QFontMetrics(font).horizontalAdvance(str(s))
                   for s in v.numbers_item.row_sums)
        return left + 4 + wide <= v.viewport().width()
    window.resize(*size)
    wait_until(qtbot, lambda: window.size().toTuple() == size and _fits(window)
               and sums_in_view(), timeout=5)
