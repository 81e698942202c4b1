"""The line-sum search (core/studies/magic/search.py): on 6×6 it finds exactly the numbered
half-turn tours that a plain filter of the listed tours finds, the closed and open modes find
a given tour again from its sums, budgets and cancels stop it where it can resume, and bad
input is refused."""
from __future__ import annotations

import threading

import numpy as np
import pytest
from test_magic import BEVERLEY, DUDENEY, tour_of

from knightgui_core.board.magic import line_sums
from knightgui_core.board.squares import Board
from knightgui_core.board.tour import Tour
from knightgui_core.studies.magic import search as magic_search
from knightgui_core.studies.magic.search import MagicSearchError, search_magic, start_squares
from knightgui_core.tietree.alltours.symmetric_listing import symmetric_tours
from knightgui_core.tietree.alltours.symmetric_tours import plan


def sums(rows: int, cols: int, tour) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The row and column sums of ``tour`` numbered from its first square."""
    g = np.zeros(rows * cols, np.int64)
    g[np.asarray(tour)] = np.arange(1, rows * cols + 1)
    s = line_sums(g.reshape(rows, cols))
    return s.rows, s.cols


@pytest.fixture(scope="module")
def six_tours() -> list[list[int]]:
    tours = list(symmetric_tours(plan(Board(6, 6), "half-turn", True)))
    assert len(tours) == 78              # the listing's own figure for 6×6
    return tours


@pytest.mark.parametrize("pick", [0, 17, 40])
def test_half_turn_search_equals_a_filter_of_the_listed_tours(six_tours, pick):
    rs, cs = sums(6, 6, six_tours[pick])
    want = set()
    for t in six_tours:                  # every start, both directions
        for seq in (t, t[::-1]):
            for o in range(36):
                num = seq[o:] + seq[:o]
                if sums(6, 6, num) == (rs, cs):
                    want.add(tuple(num))
    r = search_magic(6, 6, "half-turn", limit=1000, starts=range(36), totals=(rs, cs))
    assert r.status == "none" and r.starts_done == 36 and r.nodes > 0
    assert {tuple(t) for t in r.tours} == want and tuple(six_tours[pick]) in want


def test_six_by_six_has_no_semi_magic_half_turn_tour():
    r = search_magic(6, 6, "half-turn", limit=10, starts=range(36))
    assert r.status == "none" and r.tours == [] and r.starts_done == 36


@pytest.mark.parametrize("mode", ["closed", "open"])
def test_closed_and_open_modes_find_a_tour_again_from_its_sums(six_tours, mode):
    t = six_tours[17]
    rs, cs = sums(6, 6, t)
    r = search_magic(6, 6, mode, limit=1000, starts=[t[0]], totals=(rs, cs))
    assert r.status == "none" and tuple(t) in {tuple(x) for x in r.tours}
    for x in r.tours:                    # each re-checked: a tour with those sums
        tour = Tour(Board(6, 6), np.asarray(x))
        assert sums(6, 6, x) == (rs, cs) and x[0] == t[0]
        assert tour.is_closed_path or mode == "open"


# the semi-magic tour the half-turn search finds first from c1 (docs/structure.md)
HALF_TURN_C1 = [2, 8, 25, 19, 4, 14, 31, 21, 36, 46, 63, 53, 47, 30, 15, 5, 11, 1, 18, 35, 20, 37,
                54, 60, 50, 56, 41, 24, 34, 40, 57, 51]


@pytest.mark.parametrize("printed, mode", [(BEVERLEY, "open"), (DUDENEY, "closed")])
def test_below_a_published_tours_opening_its_tour_is_the_only_one(printed, mode):
    path = [int(v) for v in tour_of(printed).path]
    r = search_magic(8, 8, mode, prefix=path[:24], limit=10)
    assert r.status == "none" and r.tours == [path] and r.starts_done == 1


def test_below_an_opening_the_half_turn_tour_is_found_again():
    r = search_magic(8, 8, "half-turn", prefix=HALF_TURN_C1[:12], limit=10)
    assert r.status == "none" and len(r.tours) >= 1
    whole = HALF_TURN_C1 + [63 - v for v in HALF_TURN_C1]
    assert whole in r.tours and all(t[:12] == HALF_TURN_C1[:12] for t in r.tours)


def test_a_budget_stops_the_search_and_a_cancel_too(monkeypatch):
    r = search_magic(8, 8, "half-turn", node_limit=5000)
    assert r.status == "budget" and r.nodes == 5000 and r.tours == []
    monkeypatch.setattr(magic_search, "CHUNK", 1000)
    ev = threading.Event()
    ev.set()
    r = search_magic(8, 8, "open", cancel=ev)
    assert r.status == "cancelled" and r.nodes == 1000


def test_the_search_resumes_where_a_chunk_stopped(six_tours, monkeypatch):
    rs, cs = sums(6, 6, six_tours[40])
    whole = search_magic(6, 6, "open", limit=1000, starts=[0, 7], totals=(rs, cs))
    monkeypatch.setattr(magic_search, "CHUNK", 777)      # hundreds of calls, each resumed
    pieces = search_magic(6, 6, "open", limit=1000, starts=[0, 7], totals=(rs, cs))
    assert whole.nodes > 100 * 777
    assert (pieces.status, pieces.nodes, pieces.tours) == (whole.status, whole.nodes,
                                                           whole.tours)


def test_start_squares_are_one_of_each_orbit():
    assert start_squares(8, 8) == [0, 1, 2, 3, 9, 10, 11, 18, 19, 27]
    assert len(start_squares(6, 8)) == 12        # 48 squares, 4 symmetries, no fixed square


@pytest.mark.parametrize("kwargs, said", [
    (dict(rows=5, cols=5), "centre square"),
    (dict(rows=3, cols=4, mode="open"), "whole total"),
    (dict(rows=8, cols=8, mode="twisted"), "mode must be"),
    (dict(rows=8, cols=8, limit=0), "limit"),
    (dict(rows=8, cols=8, seconds=-1), "seconds"),
    (dict(rows=8, cols=8, starts=[64]), "start square"),
    (dict(rows=6, cols=6, totals=([1] * 6, [1] * 5)), "one total per"),
    (dict(rows=6, cols=6, nested=True), "nested"),
    (dict(rows=8, cols=8, prefix=[0, 10, 0]), "different squares"),
    (dict(rows=8, cols=8, prefix=[0, 63]), "no two opposite"),
    (dict(rows=8, cols=8, mode="open", prefix=[0, 1]), "knight's path"),
    (dict(rows=8, cols=8, prefix=[0], starts=[0]), "not both"),
])
def test_bad_input_is_refused(kwargs, said):
    with pytest.raises(MagicSearchError, match=said):
        search_magic(**kwargs)


def _class_key(tour: list[int]) -> tuple[int, ...]:
    """A numbered 8×8 tour up to the board's 8 symmetries and reversed numbering."""
    g = np.arange(64).reshape(8, 8)
    keys = []
    for im in (g, g[::-1, ::-1], g[::-1, :], g[:, ::-1], g.T, g.T[::-1, ::-1], g.T[::-1, :],
               g.T[:, ::-1]):
        p = np.empty(64, np.int64)
        p[g.ravel()] = im.ravel()
        m = [int(p[s]) for s in tour]
        keys += [tuple(m), tuple(m[::-1])]
    return min(keys)


@pytest.mark.slow
def test_every_semi_magic_half_turn_tour_of_8x8():
    # about 16 minutes on 2 shared cores (docs/structure.md): 40 numbered tours from the 10
    # start squares, 17 up to symmetry and reversal, none magic
    r = search_magic(8, 8, "half-turn", limit=1000)
    assert r.status == "none" and r.starts_done == 10 and len(r.tours) == 40
    assert len({_class_key(t) for t in r.tours}) == 17
    for t in r.tours:
        s = line_sums(Tour(Board(8, 8), np.asarray(t)).numbers())
        assert s.kind == "semi-magic" and set(s.rows) == set(s.cols) == {260}


# The questions the first prefix search (open paths only, now folded into this one) was
# asked: an opening completed, an opening without completion proved, 5×5 from its corner,
# a budget.

@pytest.mark.parametrize("given", [32, 24])
def test_open_mode_completes_an_opening_of_beverleys_tour(given):
    opening = [int(v) for v in tour_of(BEVERLEY).path[:given]]
    r = search_magic(8, 8, "open", prefix=opening, node_limit=5_000_000)
    assert r.status == "found" and len(r.tours) == 1 and r.tours[0][:given] == opening
    s = line_sums(Tour(Board(8, 8), np.asarray(r.tours[0])).numbers())   # a knight's tour
    assert s.kind in ("semi-magic", "magic") and s.rows == (260,) * 8 and s.cols == (260,) * 8


def test_open_mode_proves_an_opening_has_no_semi_magic_completion():
    # Beverley's first 23 squares, then another 24th square: no semi-magic tour goes on
    path = [int(v) for v in tour_of(BEVERLEY).path]
    b = Board(8, 8)
    alt = [u for u in range(64) if b.is_knight_move(path[22], u) and u not in path[:23]
           and u != path[23]]
    assert alt
    r = search_magic(8, 8, "open", prefix=path[:23] + alt[:1], node_limit=50_000_000)
    assert r.status == "none" and r.tours == [] and r.starts_done == 1 and r.nodes > 0


def test_open_mode_five_by_five_has_no_semi_magic_tour_from_its_corner():
    r = search_magic(5, 5, "open", prefix=[0])
    assert r.status == "none" and r.tours == [] and r.nodes > 0
    assert search_magic(5, 5, "open", starts=[0]).nodes == r.nodes   # the same search


def test_open_mode_keeps_its_budget_and_refuses_bad_input():
    r = search_magic(8, 8, "open", prefix=[0], node_limit=1000)
    assert r.status == "budget" and r.nodes == 1000 and r.tours == []
    for kwargs, said in ((dict(rows=3, cols=4), "whole total"),
                         (dict(rows=8, cols=8, prefix=[64]), "prefix"),
                         (dict(rows=0, cols=8), "rows")):
        with pytest.raises(MagicSearchError, match=said):
            search_magic(mode="open", **kwargs)


def test_the_kernel_refuses_a_neighbour_table_that_is_not_a_graph(monkeypatch):
    # the free-neighbour counts are kept from both sides of each move: a one-way or a
    # repeated neighbour would corrupt them, so the kernel searches nothing
    good = magic_search.knight_table(5, 5)
    assert search_magic(5, 5, "open", starts=[0]).nodes == 1478
    one_way = good.copy()
    one_way[0, 0] = -1                   # 0 no longer sees its first neighbour; it sees 0
    repeated = good.copy()
    repeated[0, 2] = repeated[0, 0]      # the corner has two moves: slot 2 was a pad
    for table in (one_way, repeated):
        monkeypatch.setattr(magic_search, "knight_table", lambda r, c, t=table: t)
        r = search_magic(5, 5, "open", starts=[0])
        assert (r.status, r.nodes, r.starts_done) == ("none", 0, 0)
