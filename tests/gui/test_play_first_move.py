"""Play mode's first click already shows where the piece may go: the legal squares with their
onward counts, for the knight from a corner and the centre and for the zebra."""
from __future__ import annotations

import pytest

from knightgui_core.board.squares import Board


def _rings(window) -> dict[int, int]:
    """Square → onward count of the rings drawn on the board."""
    cols = window.view.cols
    return {row * cols + col: o for col, row, o, _c, _n in window.view.candidates._items}


@pytest.mark.parametrize("board,start", [
    (Board(8, 8), "a1"), (Board(8, 8), "d4"), (Board(8, 8, leaper=(2, 3)), "a1")])
def test_the_first_click_shows_the_legal_squares_and_their_onward_counts(window, board,
                                                                         start):
    c = window.controls
    c.set_board(board.rows, board.cols, board=board)
    c.model.update(mode="play")
    assert window.play.active
    sq = window.play.model.board.parse(start)
    window.view.squareClicked.emit(sq, False)
    m = window.play.model
    assert m.path == (sq,)
    want = dict(m.legal())
    assert want and _rings(window) == want
    window.view.squareClicked.emit(next(iter(want)), False)     # move 2: still shown
    assert _rings(window) == dict(m.legal())
    window.play.undo()                                          # back at move 1
    assert _rings(window) == want
