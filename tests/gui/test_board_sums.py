"""The row and column sums beside the board (knightgui/board/sums.py): written for a whole
tour on a small board, none for a walk that has not finished."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from knightgui.board.sums import line_sums_shown

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
from test_magic import BEVERLEY, tour_of  # noqa: E402


@pytest.fixture
def view(board_view):
    return board_view


def test_a_semi_magic_tour_shows_its_sums_beside_the_board(view):
    t = tour_of(BEVERLEY)
    view.set_tour(t.path, False, rows=8, cols=8)
    item = view.numbers_item
    assert item.row_sums == (260,) * 8 and item.col_sums == (260,) * 8
    view.grab()
    assert item.last_sums_painted == 16
    assert item.boundingRect().width() > 8                      # the sums are in its bounds


def test_a_walk_that_stopped_shows_no_sums(view):
    t = tour_of(BEVERLEY)
    view.set_tour(t.path[:40], False, rows=8, cols=8)
    view.grab()
    assert view.numbers_item.row_sums == () and view.numbers_item.last_sums_painted == 0


def test_sums_of_a_whole_numbering_and_none_on_big_boards():
    import numpy as np
    nums = np.arange(1, 10).reshape(3, 3)
    assert line_sums_shown(nums) == ((6, 15, 24), (12, 15, 18))
    assert line_sums_shown(np.arange(1, 27 * 27 + 1).reshape(27, 27)) == ((), ())
    assert line_sums_shown(None) == ((), ())
