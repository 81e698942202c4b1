"""The linear-time construction (knightgui_core.construct.huge): every board that has a tour gets one.

Each claim is checked over every size in a range with knightgui_core.board.tour.check_path (vectorised).
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knightgui_core.board.existence import closed_tour_exists, open_tour_exists
from knightgui_core.board.squares import Board, BoardError
from knightgui_core.board.tour import Tour, check_path
from knightgui_core.construct import blocks as cb
from knightgui_core.construct import huge as C
from knightgui_core.construct.huge import (
    ConstructionError,
    construct_closed,
    construct_open,
    max_squares_for_memory,
)


def assert_tour(rows, cols, path, closed):
    assert path.dtype == np.int32
    err = check_path(Board(rows, cols), path, closed)
    assert err is None, f"{cols}×{rows} {'closed' if closed else 'open'}: {err}"


# ------------------------------------------------------------ square boards
def test_open_tours_every_square_board_5_to_300():
    for n in range(5, 301):
        path, honoured = construct_open(n, n)
        assert honoured
        assert_tour(n, n, path, False)


def test_closed_tours_every_even_square_board_6_to_300():
    for n in range(6, 301, 2):
        assert_tour(n, n, construct_closed(n, n), True)


# ------------------------------------------------------------- rectangles
def test_every_rectangle_up_to_30_agrees_with_existence():
    for rows in range(1, 31):
        for cols in range(1, 31):
            if closed_tour_exists(rows, cols):
                assert_tour(rows, cols, construct_closed(rows, cols), True)
            else:
                with pytest.raises(ConstructionError, match="no closed tour"):
                    construct_closed(rows, cols)
            if open_tour_exists(rows, cols):
                path, _ = construct_open(rows, cols)
                assert_tour(rows, cols, path, False)
            else:
                with pytest.raises(ConstructionError, match="no open tour"):
                    construct_open(rows, cols)


@pytest.mark.parametrize("thin", [3, 4, 5, 6])
def test_thin_boards_every_length_to_400_both_ways_round(thin):
    for n in range(1, 401):
        for rows, cols in ((thin, n), (n, thin)):
            if closed_tour_exists(rows, cols):
                assert_tour(rows, cols, construct_closed(rows, cols), True)
            if open_tour_exists(rows, cols):
                assert_tour(rows, cols, construct_open(rows, cols)[0], False)


def test_every_block_combination_short_side_5_to_12():
    # every pair of part sizes (and the odd part in both places) occurs in these
    for rows in range(5, 13):
        for cols in range(5, 125):
            if closed_tour_exists(rows, cols):
                assert_tour(rows, cols, construct_closed(rows, cols), True)
            else:
                assert_tour(rows, cols, construct_open(rows, cols)[0], False)


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 400), cols=st.integers(1, 400), data=st.data())
def test_random_sizes_and_starts(rows, cols, data):
    s = data.draw(st.integers(0, rows * cols - 1))
    if closed_tour_exists(rows, cols):
        path = construct_closed(rows, cols, start=s)
        assert path[0] == s
        assert_tour(rows, cols, path, True)
    if open_tour_exists(rows, cols):
        path, ok = construct_open(rows, cols, start=s)
        assert (path[0] == s) == ok
        if closed_tour_exists(rows, cols):
            assert ok
        assert_tour(rows, cols, path, False)
    else:
        with pytest.raises(ConstructionError):
            construct_open(rows, cols, start=s)


def test_a_spread_of_larger_rectangles():
    rng = np.random.default_rng(7)
    sizes = [(7, 300), (300, 7), (9, 211), (31, 57), (57, 31), (99, 101), (101, 99),
             (120, 250), (251, 133), (3, 1001), (1001, 4), (5, 999), (6, 777)]
    sizes += [tuple(int(v) for v in rng.integers(5, 200, size=2)) for _ in range(20)]
    for rows, cols in sizes:
        if closed_tour_exists(rows, cols):
            assert_tour(rows, cols, construct_closed(rows, cols), True)
        assert_tour(rows, cols, construct_open(rows, cols)[0], False)


# ------------------------------------------------------------------ starts
def test_closed_tour_starts_where_asked():
    rng = np.random.default_rng(1)
    for rows, cols in ((6, 6), (8, 8), (3, 10), (10, 3), (5, 6), (37, 50), (200, 201)):
        for s in rng.integers(0, rows * cols, size=10):
            path = construct_closed(rows, cols, start=int(s))
            assert path[0] == s
            assert_tour(rows, cols, path, True)


def test_start_given_by_name_or_pair():
    assert construct_closed(8, 8, start="c7")[0] == Board(8, 8).parse("c7")
    assert construct_closed(8, 8, start=(2, 6))[0] == 6 * 8 + 2
    with pytest.raises(BoardError):
        construct_closed(8, 8, start=64)
    with pytest.raises(BoardError):
        construct_open(8, 8, start="z9")


def test_open_tour_on_closed_board_honours_every_start():
    for s in range(36):
        path, ok = construct_open(6, 6, start=s)
        assert ok and path[0] == s
        assert_tour(6, 6, path, False)


@pytest.mark.parametrize("rows,cols", [(5, 5), (5, 7), (7, 7), (9, 9), (11, 11), (13, 15),
                                       (5, 21), (17, 17)])
def test_odd_boards_honour_every_start_of_the_corner_colour(rows, cols):
    for s in range(rows * cols):
        path, ok = construct_open(rows, cols, start=s)
        assert_tour(rows, cols, path, False)
        corner_colour = (s % cols + s // cols) % 2 == 0
        # an open tour of an odd board starts and ends on the corners' colour
        assert ok == corner_colour
        assert (path[0] == s) == ok


def test_odd_board_large_starts():
    rng = np.random.default_rng(3)
    for rows, cols in ((301, 301), (151, 999)):
        for _ in range(6):
            s = int(rng.integers(0, rows * cols))
            path, ok = construct_open(rows, cols, start=s)
            assert_tour(rows, cols, path, False)
            assert ok == ((s % cols + s // cols) % 2 == 0)
            assert (path[0] == s) == ok


def test_strips_honour_corner_starts_and_say_when_not():
    for rows, cols in ((3, 4), (3, 7), (3, 8), (3, 9), (3, 33), (4, 5), (4, 6), (4, 51),
                       (51, 4), (33, 3)):
        b = Board(rows, cols)
        for s in b.corners:
            path, ok = construct_open(rows, cols, start=s)
            assert ok and path[0] == s
            assert_tour(rows, cols, path, False)
    # 3×n: starts in the middle of a long strip go through a middle piece
    honoured = 0
    for s in range(3 * 41):
        path, ok = construct_open(3, 41, start=s)
        assert (path[0] == s) == ok
        assert_tour(3, 41, path, False)
        honoured += ok and 12 <= s % 41 <= 28
    assert honoured >= 10
    # 4×n: an open tour starts on an outer row, never on the two middle rows
    for s in (10 + 1, 2 * 10 + 5):
        path, ok = construct_open(4, 10, start=s)
        assert not ok and path[0] != s
        assert_tour(4, 10, path, False)


#: the fast suite: every start of 4×5 .. 4×16, then a few longer strips at every 7th position
#: along them (all four rows there, and both ends); the slow one every start of all of them
#: (strips of 16 to 35 columns take the block search 20-70 ms a start: about a minute in all)
_FAST_ALL, _FAST_SAMPLED = tuple(range(5, 17)), (20, 27, 35, 40, 97, 1000)
_SLOW_ALL = (*range(5, 41), 97, 1000)


def _four_row_starts(every: tuple, sampled: tuple):
    """(n, rows, cols, start, whether the start is on an outer row of the strip)."""
    for n in (*every, *sampled):
        for rows, cols in ((4, n), (n, 4)):
            b = Board(rows, cols)
            for s in range(b.size):
                col, row = b.coords(s)
                along = col if rows == 4 else row
                if n in every or along % 7 == 0 or along in (n - 2, n - 1):
                    yield n, rows, cols, s, (row if rows == 4 else col) in (0, 3)


@pytest.mark.parametrize("every_start", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_four_row_strips_honour_every_outer_row_start(every_start):
    starts = (_four_row_starts(_SLOW_ALL, ()) if every_start
              else _four_row_starts(_FAST_ALL, _FAST_SAMPLED))
    seen = 0
    for n, rows, cols, s, outer in starts:
        path, ok = construct_open(rows, cols, start=s)
        assert ok == outer, (rows, cols, s)
        assert (path[0] == s) == ok
        if n in (5, 13, 97):
            assert_tour(rows, cols, path, False)
        seen += n == 1000
    assert seen == (8_000 if every_start else 2 * 4 * (143 + 2))


# --------------------------------------------------------------- contract
def test_refusals_are_clear():
    for rows, cols in ((4, 4), (4, 100), (2, 8), (3, 8), (5, 5), (7, 9), (1, 1)):
        with pytest.raises(ConstructionError, match="no closed tour exists"):
            construct_closed(rows, cols)
    for rows, cols in ((4, 4), (3, 5), (3, 6), (2, 50), (1, 2)):
        with pytest.raises(ConstructionError, match="no open tour exists"):
            construct_open(rows, cols)
    path, ok = construct_open(1, 1)
    assert path.tolist() == [0] and ok
    with pytest.raises(BoardError):
        construct_closed(0, 8)


def test_memory_limit_comes_from_available_memory(monkeypatch):
    limit = max_squares_for_memory()
    assert limit >= 4_000_000          # this machine fits 2000×2000 comfortably
    monkeypatch.setattr(C, "_available_bytes", lambda: 100 * 2**20)
    small = max_squares_for_memory()
    assert small == int(100 * 2**20 * C.MEMORY_SHARE // C.BYTES_PER_SQUARE)
    with pytest.raises(ConstructionError, match="memory"):
        construct_closed(2000, 2000)
    with pytest.raises(ConstructionError, match="memory"):
        construct_open(1501, 1501)
    assert_tour(100, 100, construct_closed(100, 100), True)


def test_deterministic_and_valid_as_a_tour_object():
    a = construct_closed(40, 60, start=123)
    b = construct_closed(40, 60, start=123)
    assert np.array_equal(a, b)
    t = Tour(Board(40, 60), a, closed=True, method={"name": "construction"})
    assert t.is_closed_path


# ------------------------------------------------------------- base pieces
def _edge_in(seq, w, a, b, closed):
    ia, ib = a[1] * w + a[0], b[1] * w + b[0]
    pos = {int(s): k for k, s in enumerate(seq)}
    d = abs(pos[ia] - pos[ib])
    return d == 1 or (closed and d == len(seq) - 1)


def test_every_grid_block_has_its_gadget_edges():
    for h in range(5, 12):
        for w in range(5, 12):
            p = cb.grid_block(h, w)
            assert p.closed == ((h * w) % 2 == 0)
            assert_tour(h, w, p.seq, p.closed)
            for a, b in cb.gadgets(h, w).values():
                assert _edge_in(p.seq, w, a, b, p.closed), (h, w, a, b)


def test_gadget_joins_are_knight_moves():
    def knight(p, q):
        return sorted((abs(p[0] - q[0]), abs(p[1] - q[1]))) == [1, 2]
    for h in range(5, 12):
        for w in range(5, 12):
            g = cb.gadgets(h, w)
            (a1, a2), (b1, b2) = g["h_right"], g["h_left"]
            assert knight(a1, (b1[0] + w, b1[1])) and knight(a2, (b2[0] + w, b2[1]))
            (a1, a2), (b1, b2) = g["v_top"], g["v_bottom"]
            assert knight(a1, (b1[0], b1[1] + h)) and knight(a2, (b2[0], b2[1] + h))


def test_strip_pieces_exist_for_every_listed_width():
    for H in (3, 4):
        ain, aout, bin_, bout = cb.STRIP_PORTS[H]
        p = cb.strip_piece(H, "period", cb.STRIP_PERIOD)
        assert p.seq[0] == ain[1] * 4 + ain[0] and p.seq[-1] == bout[1] * 4 + bout[0]
        assert p.seq[p.cut] == aout[1] * 4 + aout[0]
        assert p.seq[p.cut + 1] == bin_[1] * 4 + bin_[0]
        for r in cb.STRIP_RIGHT[H]:
            assert_tour(H, r, cb.strip_piece(H, "right", r).seq, False)
        for w in cb.STRIP_LEFT_CLOSED[H]:
            assert cb.strip_piece(H, "left_closed", w).seq.size == H * w
        for w in cb.STRIP_LEFT_OPEN[H]:
            if w:
                assert cb.strip_piece(H, "left_open", w).cut >= 0


def test_parts_cover_every_length():
    for d in range(5, 500):
        parts, odd = C._parts(d)
        assert sum(parts) == d
        assert all(p in (6, 8, 10) for k, p in enumerate(parts) if k != odd)
        if d % 2:
            assert parts[odd] in (5, 7, 9)
        else:
            assert odd == -1


# -------------------------------------------------------------------- huge
@pytest.mark.parametrize("n", [1000, pytest.param(2000, marks=pytest.mark.slow)])
def test_huge_closed_tours_validate(n):
    path = construct_closed(n, n, start=n * n // 2 + 7)
    assert path[0] == n * n // 2 + 7
    assert_tour(n, n, path, True)


@pytest.mark.slow
def test_huge_open_and_rectangular_tours_validate():
    assert_tour(1999, 1999, construct_open(1999, 1999)[0], False)
    assert_tour(2000, 1999, construct_closed(2000, 1999), True)
    assert_tour(3, 1_000_000, construct_closed(3, 1_000_000), True)
    assert_tour(4, 1_000_001, construct_open(4, 1_000_001)[0], False)
