import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knightgui_core.board.squares import MOVES, Board, BoardError, column_index, column_letters, move_type


def test_move_types_follow_phadke_numbering():
    b = Board(8, 8)
    a8, b6, c7 = b.parse("a8"), b.parse("b6"), b.parse("c7")
    assert b.neighbours[a8, 0] == c7          # type 1 from a8
    assert b.neighbours[a8, 1] == b6          # type 2 from a8
    assert b.name(int(b.neighbours[b6, 6])) == "c8"   # type 7 from b6
    assert move_type(2, -1) == 1 and move_type(2, 1) == 8


def test_neighbour_table_matches_knight_geometry():
    b = Board(5, 7)
    for sq in range(b.size):
        c, r = b.coords(sq)
        for t, (dc, dr) in enumerate(MOVES):
            expect = b.index(c + dc, r + dr) if b.contains(c + dc, r + dr) else -1
            assert b.neighbours[sq, t] == expect
    assert b.degree.min() == 2 and b.degree.max() == 8


@pytest.mark.parametrize("text,expect", [("a1", (0, 0)), ("c7", (2, 6)), ("3,7", (2, 6)),
                                         (" h8 ", (7, 7)), ((7, 0), (7, 0)), ("(1, 1)", (0, 0))])
def test_square_names_parse_both_notations(text, expect):
    b = Board(8, 8)
    assert b.coords(b.parse(text)) == expect


@pytest.mark.parametrize("bad", ["i1", "a9", "0,1", "9,1", "", "xx", "a", 3.5, None, (8, 0),
                                 "1,2,3", "a" * 100, "aa1", "é1", "a 1 1"])
def test_bad_squares_are_refused_with_a_message(bad):
    with pytest.raises(BoardError) as e:
        Board(8, 8).parse(bad)
    assert str(e.value)


def test_wide_boards_use_the_same_letter_names():
    b = Board(3, 30)
    assert b.name(b.index(27, 2)) == "ab3"
    assert b.parse("ab3") == b.parse("28,3") == b.parse("AB3") == b.index(27, 2)
    assert b.parse("a1") == 0 and b.name(0) == "a1"
    assert b.long_name(b.index(27, 2)) == "ab3 (28,3)"
    assert Board(8, 8).long_name(0) == "a1"
    with pytest.raises(BoardError, match="off the 30×3 board"):
        b.parse("ae1")          # column 31


@pytest.mark.parametrize("col,letters", [(0, "a"), (25, "z"), (26, "aa"), (27, "ab"),
                                         (51, "az"), (52, "ba"), (701, "zz"), (702, "aaa"),
                                         (1999, "bxx")])
def test_column_letters_count_like_spreadsheet_columns(col, letters):
    assert column_letters(col) == letters
    assert column_index(letters) == col == column_index(letters.upper())


@settings(max_examples=300, deadline=None)
@given(cols=st.integers(1, 2600), rows=st.integers(1, 2600), data=st.data())
def test_square_names_round_trip_on_every_width(cols, rows, data):
    b = Board(rows, cols)
    col = data.draw(st.integers(0, cols - 1))
    row = data.draw(st.integers(0, rows - 1))
    sq = b.index(col, row)
    assert b.parse(b.name(sq)) == sq
    assert b.parse(b.numeric_name(sq)) == sq
    assert b.parse(b.name(sq).upper()) == sq
    assert b.name(b.parse(f"{col + 1},{row + 1}")) == b.name(sq)
    # names are unique: the next column never shares the name
    if col + 1 < cols:
        assert b.name(b.index(col + 1, row)) != b.name(sq)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**6))
def test_column_letters_are_a_bijection(col):
    letters = column_letters(col)
    assert letters.isalpha() and letters.islower()
    assert column_index(letters) == col
    assert column_letters(col + 1) != letters


@pytest.mark.parametrize("rows,cols", [(0, 5), (-1, 5), (5, 0)])
def test_empty_boards_are_refused(rows, cols):
    with pytest.raises(BoardError):
        Board(rows, cols)


def test_corners_bottom_left_clockwise():
    b = Board(8, 8)
    assert [b.name(k) for k in b.corners] == ["a1", "a8", "h8", "h1"]


def test_one_move_order_type_reads_every_notation():
    from knightgui_core.board.rules import DEFAULT_MOVE_ORDER, MoveOrder, RuleError, parse_order

    o = parse_order("12438756")
    assert isinstance(o, MoveOrder) and o.digits == "12438756"
    assert parse_order(o.pairs) == o == parse_order(list(o.types)) == parse_order(o)
    assert parse_order(o.types_array()) == o
    assert o.indices().tolist() == [0, 1, 3, 2, 7, 6, 4, 5]
    assert o.positions()[o.indices()].tolist() == list(range(8))
    assert DEFAULT_MOVE_ORDER.rank == 0 and parse_order("87654321").rank == 40319
    with pytest.raises(RuleError):
        MoveOrder((1, 1, 2, 3, 4, 5, 6, 7))
    with pytest.raises(RuleError):
        parse_order([1, 2, 3])


def test_square_is_the_one_conversion_of_a_square():
    b = Board(8, 8)
    assert b.square(0) == 0 and b.square(np.int32(63)) == 63
    assert b.square("c7") == b.parse("c7") == b.square((2, 6)) == b.square("3,7")
    for bad in (64, -1, True, "z9", 2.5, None):
        with pytest.raises(BoardError):
            b.square(bad)
    with pytest.raises(BoardError, match="off the 8×8 board"):
        b.square(64)
