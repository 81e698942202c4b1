"""The semi-magic tour search (core/studies/semimagic.py): it completes a published tour's
opening into a semi-magic tour, proves that odd boards have none, and keeps its budget."""
from __future__ import annotations

import pytest
from test_magic import BEVERLEY, tour_of

from knightgui_core.board.magic import line_sums
from knightgui_core.board.squares import Board
from knightgui_core.board.tour import Tour
from knightgui_core.studies.semimagic import SemiMagicError, find_semimagic


@pytest.mark.parametrize("given", [32, 24])
def test_an_opening_of_beverleys_tour_is_completed_into_a_semi_magic_tour(given):
    opening = [int(v) for v in tour_of(BEVERLEY).path[:given]]
    r = find_semimagic(8, 8, prefix=opening, node_limit=5_000_000)
    assert r.status == "found" and r.path[:given] == opening
    t = Tour(Board(8, 8), r.path)                       # a knight's tour
    s = line_sums(t.numbers())
    assert s.kind in ("semi-magic", "magic") and s.rows == (260,) * 8 and s.cols == (260,) * 8


def test_an_opening_with_no_semi_magic_completion_is_proved_so():
    # Beverley's first 23 squares, then a different 24th: the search says "none" or finds
    # another tour, and a tour it finds is semi-magic
    path = [int(v) for v in tour_of(BEVERLEY).path]
    b = Board(8, 8)
    alt = [u for u in range(64) if b.is_knight_move(path[22], u) and u not in path[:23]
           and u != path[23]]
    assert alt
    r = find_semimagic(8, 8, prefix=path[:23] + alt[:1], node_limit=50_000_000)
    assert r.status in ("none", "found")
    if r.status == "found":
        assert line_sums(Tour(b, r.path).numbers()).kind != "none"


def test_five_by_five_has_no_semi_magic_tour_from_its_corner():
    r = find_semimagic(5, 5, prefix=[0])
    assert r.status == "none" and r.nodes > 0


def test_the_budget_is_kept_and_bad_input_refused():
    r = find_semimagic(8, 8, prefix=[0], node_limit=1000)
    assert r.status == "budget" and r.nodes == 1001
    with pytest.raises(SemiMagicError, match="whole total"):
        find_semimagic(3, 4)
    with pytest.raises(SemiMagicError, match="prefix"):
        find_semimagic(8, 8, prefix=[64])
    with pytest.raises(SemiMagicError, match="rows"):
        find_semimagic(0, 8)
