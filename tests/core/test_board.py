import pytest

from knightgui_core.board import MOVES, Board, BoardError, move_type


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
                                 "1,2,3", "a" * 100])
def test_bad_squares_are_refused_with_a_message(bad):
    with pytest.raises(BoardError) as e:
        Board(8, 8).parse(bad)
    assert str(e.value)


def test_wide_boards_use_numeric_names():
    b = Board(3, 30)
    assert b.name(b.index(27, 2)) == "28,3"
    assert b.parse("28,3") == b.index(27, 2)
    with pytest.raises(BoardError, match="26 columns"):
        b.parse("a1")


@pytest.mark.parametrize("rows,cols", [(0, 5), (-1, 5), (5, 0)])
def test_empty_boards_are_refused(rows, cols):
    with pytest.raises(BoardError):
        Board(rows, cols)


def test_corners_bottom_left_clockwise():
    b = Board(8, 8)
    assert [b.name(k) for k in b.corners] == ["a1", "a8", "h8", "h1"]


def test_one_move_order_type_reads_every_notation():
    from knightgui_core.rules import DEFAULT_MOVE_ORDER, MoveOrder, RuleError, parse_order

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
