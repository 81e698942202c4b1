"""Corners, approach cells, compulsory end dash, ECD/XCD tails (docs/spec.md §4, §5)."""
import pytest

from knightgui_core.board.dash import (
    DashError,
    EnumerationError,
    compulsory_chain,
    corners,
    free_corners,
    list_tails,
    plan,
)
from knightgui_core.board.squares import Board
from knightgui_core.studies.phadke import combos
from knightgui_core.tietree.enumeration.enumerator import Enumerator
from knightgui_core.tietree.enumeration.enumerator import free_corners as api_free
from knightgui_core.tietree.enumeration.enumerator import list_tails as api_list_tails

B = Board(8, 8)
sq = B.parse
name = B.name


def test_approach_cells_a_and_b():
    got = {c.name: (name(c.a), name(c.b)) for c in corners(B)}
    assert got == {"a1": ("b3", "c2"), "a8": ("b6", "c7"), "h8": ("g6", "f7"),
                   "h1": ("g3", "f2")}


def test_free_corners_with_reasons():
    f = free_corners(B, sq("a8"), sq("c7"))
    assert f["a1"] is None and f["h1"] is None and f["h8"] is None
    assert "corner" in f["a8"]
    f = free_corners(B, sq("c6"), sq("b8"))
    assert all(v is None for v in f.values())
    assert api_free(8, 8, "c7", "e6")["a8"].startswith("S (c7) is an approach cell")


def test_compulsory_end_dash_chains():
    assert [name(s) for s in compulsory_chain(B, sq("c8"), sq("b6"))] == ["c7", "a8", "b6"]
    assert [name(s) for s in compulsory_chain(B, sq("c7"), sq("a8"))] == ["b6", "a8"]
    assert [name(s) for s in compulsory_chain(B, sq("a8"), sq("c7"))] == ["c7"]
    assert compulsory_chain(B, sq("a8"), None) == ()
    n = sum(len(compulsory_chain(B, sq(s), sq(e))) > 1 for s, e in combos())
    assert n == 7


def test_tail_listing_matches_the_algorithm_counts():
    ecd = xcd = 0
    free_other = {2: 0, 3: 0}
    for s, e in combos():
        t = list_tails(B, sq(s), sq(e))
        ecd += len(t["ecd"])
        xcd += len(t["xcd"])
        nfree = sum(v is None for v in free_corners(B, sq(s), sq(e)).values())
        for _ in t["xcd"]:
            free_other[nfree - 1] += 1
    assert (ecd, xcd) == (32, 162)
    assert free_other == {3: 144, 2: 18}


def test_paper_examples_of_tails():
    t = api_list_tails(8, 8, "b8", "a6")
    assert ("b6", "a8", "c7", "a6") in t["ecd"]
    assert ("c2", "a1", "b3", "c5", "a6") in t["xcd"]
    assert ("b3", "a1", "c2", "b4", "a6") in t["xcd"]


def test_tail_is_reserved_and_tour_ends_with_it():
    tail = ["c2", "a1", "b3", "c5", "a6"]
    en = Enumerator(8, 8, "b8", "a6", tail=tail, dashes={"h1": "full"})
    assert en.L == 59
    for s in en.first(20):
        assert [name(int(x)) for x in s.path[-5:]] == tail
        assert s.tour.closed


def test_semi_dash_states():
    p = plan(B, sq("c6"), sq("b8"), {"a1": "A", "h8": "B", "h1": "full", "a8": "off"})
    assert sorted(name(s) for s in p.dashed) == sorted(["b3", "f7", "g3", "f2"])
    assert p.states == {"a1": "A", "a8": "off", "h8": "B", "h1": "full"}


@pytest.mark.parametrize("kwargs, msg", [
    (dict(start="a8", end="c6"), "not a knight move"),
    (dict(start="a8", end="a8"), "same square"),
    (dict(start="a8", end="c7", dashes={"a8": "full"}), "cannot be dashed"),
    (dict(start="c7", end="e6", dashes={"a8": "A"}), "approach cell"),
    (dict(start="a8", end="c7", dashes={"d4": "full"}), "not a corner"),
    (dict(start="a8", end="c7", dashes={"a1": "sideways"}), "unknown dash state"),
    (dict(start="b8", end="a6", tail=["b6", "a8", "c7", "a5"]), "must end at E"),
    (dict(start="b8", end="a6", tail=["c7", "a8", "b6", "a6"]), "unknown tail"),
    (dict(start="b8", end="a6", tail=["b6", "a8", "c7", "a6"], dashes={"a8": "full"}),
     "tail runs through"),
    (dict(start="b8", end=None, tail=["b6", "a8", "c7", "a6"]), "needs an end"),
])
def test_bad_dash_input(kwargs, msg):
    with pytest.raises(EnumerationError, match=msg) as ei:
        Enumerator(8, 8, **kwargs)
    assert isinstance(ei.value, ValueError)


def test_dash_error_is_an_enumeration_error():
    assert issubclass(DashError, EnumerationError) and issubclass(EnumerationError, ValueError)


def _plain_tails(board, s, e):
    """list_tails written from the whole neighbour table (the second implementation)."""
    out = {"ecd": [], "xcd": []}
    if len(compulsory_chain(board, s, e)) > 1:
        return out
    free = free_corners(board, s, e)
    nbr = board.neighbours
    for c in corners(board):
        if free[c.name] is not None:
            continue
        for a1, a2 in ((c.a, c.b), (c.b, c.a)):
            row = [int(x) for x in nbr[a2]]
            if e in row:
                out["ecd"].append((a1, c.square, a2, e))
            for x in row:
                if x >= 0 and x not in (s, e, a1, c.square) and e in [int(y) for y in nbr[x]]:
                    out["xcd"].append((a1, c.square, a2, x, e))
    return out


@pytest.mark.parametrize("rows,cols", [(8, 8), (5, 9), (12, 7)])
def test_tails_equal_the_listing_from_the_whole_neighbour_table(rows, cols):
    b = Board(rows, cols)
    pairs = 0
    for s in range(b.size):
        for e in (int(x) for x in b.neighbours[s] if x >= 0):
            assert list_tails(b, s, e) == _plain_tails(b, s, e)
            pairs += 1
    assert pairs > 100


def test_tails_of_a_huge_board_need_no_neighbour_table():
    # the window lists tails at every change of its fields: on its largest board (2000×2000)
    # the whole table as lists took 12.5 s a listing there
    big = Board(3000, 3000)
    s, e = big.parse("b8"), big.parse("a6")
    t = list_tails(big, s, e)
    assert "neighbours" not in big.__dict__
    got = {k: sorted(tuple(big.name(q) for q in x) for x in v) for k, v in t.items()}
    # the same tails as on 8×8 through the corner both boards share (a1); a8 is no corner there
    small = list_tails(B, sq("b8"), sq("a6"))
    want = {k: sorted(tuple(name(q) for q in x) for x in v if name(x[1]) == "a1")
            for k, v in small.items()}
    assert got == want and got["xcd"]
