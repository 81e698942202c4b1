"""The board view draws one item per layer and only what is visible and legible."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt

from gui_helpers import some_tour


@pytest.fixture
def view(board_view):
    return board_view


def _widget_point(view, x, y) -> QPoint:
    scene = view.vb.mapViewToScene(QPointF(x, y))
    return view.mapFromScene(scene)


def test_tour_is_one_path_and_numbers_match(view):
    t = some_tour(8, 8)
    view.set_tour(t.path, False, rows=8, cols=8)
    assert view.path_item.segment_count() == 63
    np.testing.assert_array_equal(view.numbers, t.numbers())
    view.grab()
    assert view.numbers_item.last_painted == 64
    # one item per layer, however big the board: squares, ties, path, numbers, markers,
    # candidates, edge labels, the symmetry's centre or axis
    assert len(view.vb.addedItems) == 8
    view.set_tour(some_tour(30, 30).path, False, rows=30, cols=30)
    view.grab()
    assert len(view.vb.addedItems) == 8


def test_closed_tour_draws_the_closing_segment(view):
    t = some_tour(8, 8)
    view.set_tour(t.path, True, rows=8, cols=8)
    closes = t.is_closed_path
    assert view.path_item.segment_count() == (64 if closes else 63)
    view.grab()                                   # wide pen: the visible segments as lines
    assert len(view.path_item._window_path) == view.path_item.segment_count()


def test_closing_segment_drawn_when_only_the_start_is_in_view(view):
    from knightgui_core.walks.solve import solve
    res = solve(8, 8, start="a1", closed=True)
    assert res.ok and res.tour.is_closed_path
    view.set_tour(res.path, True, rows=8, cols=8)
    view.vb.setRange(xRange=(-3.5, 0.5), yRange=(-3.5, 0.5), padding=0)  # a1 corner only
    view.grab()
    lines = view.path_item._window_path
    ends = {(round(l.x1() - 0.5), round(l.y1() - 0.5)) for l in lines} | \
        {(round(l.x2() - 0.5), round(l.y2() - 0.5)) for l in lines}
    last = int(res.path[-1])
    assert (last % 8, last // 8) in ends          # the segment last → a1 is there


def test_numbers_only_where_visible_and_legible(view):
    t = some_tour(100, 100)
    view.set_tour(t.path, False, rows=100, cols=100)
    view.grab()
    assert view.numbers_item.last_painted == 0          # 6 px squares: not legible
    view.vb.setRange(xRange=(10, 16), yRange=(20, 26), padding=0)
    view.grab()
    painted = view.numbers_item.last_painted
    assert 36 <= painted <= 8 * 8                        # the visible block and its rim
    assert view.effective_colour_mode() == "moves"


def test_colour_mode_image_follows_move_numbers(view):
    t = some_tour(50, 50)
    view.set_tour(t.path, False, rows=50, cols=50)
    img = view.image.image
    assert img.shape == (50, 50, 4)
    first = img.reshape(-1, 4)[t.path[0], :3]
    last = img.reshape(-1, 4)[t.path[-1], :3]
    assert not np.array_equal(first, last)
    view.set_colour_mode("checker")
    img = view.image.image
    assert np.array_equal(img[0, 0], img[1, 1]) and not np.array_equal(img[0, 0], img[0, 1])


def test_huge_board_draws_without_per_square_items(view):
    n = 1000
    path = np.arange(n * n, dtype=np.int32)          # rendering test only: not a tour
    view.set_tour(path, False, rows=n, cols=n)
    view.grab()
    assert view.numbers_item.last_painted == 0
    assert view.path_item._full is None                  # windowed path above the limit
    view.vb.setRange(xRange=(0, 100), yRange=(0, 100), padding=0)   # ~6 px squares
    view.grab()
    path = view.path_item._window_path                 # one path of the visible part
    assert path is not None and 10_000 <= path.elementCount() < 12_000
    view.vb.setRange(xRange=(0, 20), yRange=(0, 20), padding=0)     # wide pen: lines
    view.grab()
    lines = view.path_item._window_path
    assert isinstance(lines, list) and 20 * 20 <= len(lines) < 30 * 30


def test_partial_path_and_ties_overlay(view):
    t = some_tour(8, 8)
    ties = np.zeros(64, dtype=bool)
    ties[[3, 10]] = True
    view.set_options(ties=True)
    view.set_tour(t.path[:20], False, ties, rows=8, cols=8)
    assert view.move_number(int(t.path[19])) == 20
    assert view.move_number(int(t.path[20])) == 0
    assert view.ties_image.isVisible()
    over = view.ties_image.image.reshape(-1, 4)
    assert over[int(t.path[3]), 3] > 0 and over[int(t.path[4]), 3] == 0


def test_click_sets_start_shift_or_right_click_sets_end(view, qtbot):
    got = []
    view.squareClicked.connect(lambda sq, end: got.append((sq, end)))
    view.fit()
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=_widget_point(view, 2.5, 6.5))
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, Qt.ShiftModifier,
                     pos=_widget_point(view, 1.5, 5.5))
    qtbot.mouseClick(view.viewport(), Qt.RightButton, pos=_widget_point(view, 0.5, 0.5))
    assert got == [(6 * 8 + 2, False), (5 * 8 + 1, True), (0, True)]


def test_hover_reports_square_and_outlets(view, qtbot):
    t = some_tour(8, 8)
    view.set_tour(t.path, False, rows=8, cols=8)
    seen = []
    view.squareHovered.connect(seen.append)
    qtbot.mouseMove(view.viewport(), _widget_point(view, 0.5, 7.5))
    qtbot.wait(20)
    assert seen and seen[-1] == 56
    # outlets of a square = knight moves to squares numbered after it
    sq = int(t.path[10])
    k = view.move_number(sq)
    nums = t.numbers().reshape(-1)
    expect = sum(1 for s in t.board.neighbours[sq] if s >= 0 and nums[s] > k)
    assert view.outlets(sq) == expect
    assert view.outlets(int(t.path[-1])) == 0


def test_an_error_inside_paint_is_contained(view, monkeypatch, caplog):
    t = some_tour(8, 8)
    view.set_tour(t.path, False, rows=8, cols=8)

    def boom(*a):
        raise RuntimeError("broken painter")
    monkeypatch.setattr(type(view.numbers_item), "font_px", boom)
    img = view.grab()                          # would abort the process without the guard
    assert not img.isNull()
    assert "paint of NumbersItem failed" in caplog.text


def _pixels(view) -> np.ndarray:
    from PySide6.QtGui import QImage
    img = view.grab().toImage().convertToFormat(QImage.Format.Format_RGBA8888)
    return np.frombuffer(img.constBits(), np.uint8).reshape(img.height(), img.width(), 4).copy()


def test_small_boards_keep_checkerboard_and_labels_as_pixmaps_with_the_same_pixels(view):
    from PySide6.QtWidgets import QGraphicsItem
    cached = QGraphicsItem.CacheMode.DeviceCoordinateCache
    t = some_tour(8, 8)
    view.set_tour(t.path, False, rows=8, cols=8)
    assert view.image.cacheMode() == cached and view.labels.cacheMode() == cached
    with_cache = _pixels(view)
    for item in (view.image, view.labels):
        item.setCacheMode(QGraphicsItem.CacheMode.NoCache)
    view.viewport().update()
    np.testing.assert_array_equal(_pixels(view), with_cache)
    view.set_colour_mode("moves")                   # an image that changes with the tour
    assert view.image.cacheMode() == QGraphicsItem.CacheMode.NoCache
    view.set_colour_mode("checker")
    assert view.image.cacheMode() == cached
    big = some_tour(60, 60)
    view.set_tour(big.path, False, rows=60, cols=60)
    assert view.image.cacheMode() == QGraphicsItem.CacheMode.NoCache


def test_clearing_no_candidates_does_not_redraw(view, monkeypatch):
    calls = []
    monkeypatch.setattr(view.candidates, "update", lambda *a: calls.append(a))
    view.set_candidates([])
    view.set_candidates([])                          # every new search does this
    assert calls == []
    view.set_candidates([(3, 2)])
    assert len(calls) == 1
    assert view.candidates._items == [(3, 0, 2, False, False)]


def test_the_outlets_of_a_numbered_square_never_cover_its_move_number(view):
    """Watch marks the square just taken, which shows its move number, with its outlets:
    the count goes to a badge on the square's corner and the number's pixels stay as they
    are (issue 35: the outlet count was drawn over the move number)."""
    t = some_tour(8, 8)
    path = t.path[:30]
    view.set_tour(path, False, rows=8, cols=8)
    taken, rival = int(path[-1]), int(t.path[30])
    view.set_options(numbers=False)
    bare = _pixels(view)
    view.set_options(numbers=True)
    numbered = _pixels(view)
    ink = np.any(bare != numbered, axis=2)            # the pixels the move numbers drew
    view.set_candidates([(taken, 3), (rival, 2)], chosen=taken)
    marked = _pixels(view)
    near = np.zeros_like(ink)                          # the taken square and its rim
    c = view.mapFromScene(view.vb.mapViewToScene(QPointF(taken % 8 + 0.5, taken // 8 + 0.5)))
    x, y = c.x(), c.y()
    near[max(y - 60, 0):y + 60, max(x - 60, 0):x + 60] = True
    assert (ink & near).sum() > 30                     # "30" is there to be covered
    changed = np.any(marked != numbered, axis=2)
    assert (changed & near).sum() > 30                 # the ring and its badge are drawn
    assert not (changed & ink).any()                   # and no number pixel changed
