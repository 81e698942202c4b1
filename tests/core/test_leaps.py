"""One square's moves and the first square without a move, computed without the neighbour
table's kernel, agree with the table on every board shape, edge and piece tried (the window
asks these on its GUI thread, issue 35)."""
from __future__ import annotations

import numpy as np
import pytest

from knightgui_core.board.existence import known_answer
from knightgui_core.board.leaps import first_square_without_move, moves_from
from knightgui_core.board.squares import Board, BoardError

LEAPERS = [(1, 2), (1, 3), (2, 3), (1, 4), (2, 4), (3, 4), (1, 6)]
SIDES = [1, 2, 3, 5, 8, 9]


def boards():
    for topology in ("plane", "cylinder", "torus"):
        for leaper in LEAPERS:
            for rows in SIDES:
                for cols in SIDES:
                    yield Board(rows, cols, topology, leaper)


def test_moves_from_is_the_table_row_on_every_board():
    checked = 0
    for b in boards():
        nbr = b.neighbours
        for sq in range(b.size):
            assert moves_from(b, sq) == tuple(int(u) for u in nbr[sq]), (b, sq)
            checked += 1
    assert checked > 5_000


def test_first_square_without_move_is_the_tables_first_zero_degree():
    idle = 0
    for b in boards():
        zero = np.flatnonzero(b.degree == 0)
        want = int(zero[0]) if len(zero) else -1
        assert first_square_without_move(b) == want, b
        idle += want >= 0
    assert idle > 30         # the boards tried include many with a square the piece never leaves


def test_is_knight_move_uses_the_moves_across_the_edge():
    b = Board(8, 8, "cylinder")
    a8, h6, g7 = b.parse("a8"), b.parse("h6"), b.parse("g7")
    assert b.is_knight_move(a8, h6) and b.is_knight_move(a8, g7)
    assert not Board(8, 8).is_knight_move(a8, h6)
    assert not b.is_knight_move(a8, b.parse("a6"))


def test_moves_from_refuses_a_square_off_the_board():
    with pytest.raises(BoardError):
        moves_from(Board(5, 5, "torus"), 25)


def test_known_answer_names_the_square_without_a_move_without_the_table():
    b = Board(6, 2, "plane", (1, 4))   # 2 wide, 6 high: the giraffe leaves a1, a2, not a3
    known, why = known_answer(b, False)
    assert known is False and "a3 has no move" in why
    assert b.name(first_square_without_move(b)) == "a3"
    assert "neighbours" not in b.__dict__     # the table was never built for the answer
