import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from knightgui_core.board.existence import why_no_tour, why_no_tour_from
from knightgui_core.board.rules import SQUIRREL_RULES, TIE_RULES, candidates_at, parse_order
from knightgui_core.board.squares import Board
from knightgui_core.board.tour import check_path
from knightgui_core.walks.solve import SolveError, solve

SEED004_ORDER = "67812345"   # the blog program's offsets, mapped to Phadke's move types


@pytest.mark.parametrize("tie", TIE_RULES)
def test_every_rule_gives_valid_open_tours_5_to_30(tie):
    for n in range(5, 31):
        for rows, cols in ((n, n), (n, n + 3), (n + 1, n)):
            res = solve(rows, cols, tie=tie, order="87654321", seed=n)
            assert res.ok, (rows, cols, res.message)
            assert check_path(Board(rows, cols), res.path) is None
            assert res.method


@pytest.mark.parametrize("tie", TIE_RULES)
def test_greedy_walks_are_valid_as_far_as_they_go(tie):
    for n in (5, 8, 13, 31):
        if tie in SQUIRREL_RULES:   # corners only: elsewhere the walk fails and says why
            off = solve(n, n, start=(n // 2, 1), tie=tie, method="greedy")
            assert not off.ok and "corner" in off.message
            res = solve(n, n, start=(n - 1, 0), tie=tie, method="greedy")
        else:
            res = solve(n, n, start=(n // 2, 1), tie=tie, method="greedy")
        b = Board(n, n)
        if res.ok:
            assert check_path(b, res.path) is None
        else:
            assert res.stuck_at == res.path[-1]
            assert len(set(res.path.tolist())) == len(res.path)
            assert not any(c for c, _ in candidates_at(b, res.path, len(res.path) + 1))


def test_greedy_failure_is_reported_where_it_happens():
    ok = solve(76, 76, start=(0, 75), tie="first", order=SEED004_ORDER, method="greedy")
    assert ok.ok
    bad = solve(77, 77, start=(0, 76), tie="first", order=SEED004_ORDER, method="greedy")
    assert not bad.ok and bad.tour is None
    assert bad.stuck_at == int(bad.path[-1])
    assert f"after {len(bad.path) - 1:,} moves" in bad.message
    assert Board(77, 77).name(bad.stuck_at) in bad.message


def test_auto_rescues_a_greedy_failure():
    res = solve(77, 77, start=(0, 76), tie="first", order=SEED004_ORDER)
    assert res.ok and "greedy_failure" in res.tour.method


def test_random_rule_is_reproducible_by_seed():
    a = solve(20, 20, tie="random", seed=7, method="greedy")
    b = solve(20, 20, tie="random", seed=7, method="greedy")
    c = solve(20, 20, tie="random", seed=8, method="greedy")
    assert np.array_equal(a.path, b.path)
    assert not np.array_equal(a.path, c.path)


def test_tie_rules_differ_and_ties_are_flagged():
    paths = {t: solve(12, 12, tie=t, method="greedy").path for t in ("phadke", "first", "last")}
    assert not np.array_equal(paths["phadke"], paths["first"])
    res = solve(8, 8, method="greedy")
    assert res.ties.any() and res.ties[0] == 0


def test_phadke_rule_takes_the_highest_tied_move_type():
    # From a8 on an empty board the first move of Phadke's worked example without the
    # reservation: b6 (type 2) and c7 (type 1) tie with 5 outlets... whichever: highest type
    b = Board(8, 8)
    res = solve(8, 8, start="a8", method="greedy")
    cands = candidates_at(b, res.path, 2)
    best = min(o for _, o in cands)
    tied = [s for s, o in cands if o == best]
    types = {int(np.flatnonzero(b.neighbours[b.parse("a8")] == s)[0]) + 1: s for s in tied}
    assert res.path[1] == types[max(types)]


def test_backtracking_finds_closed_tour_on_small_board():
    res = solve(6, 6, closed=True, method="backtrack")
    assert res.ok and res.tour.is_closed_path and res.nodes > 0


def test_backtracking_respects_node_budget():
    res = solve(7, 7, start="c1", method="backtrack", node_budget=10)
    assert not res.ok or res.nodes <= 10


@pytest.mark.parametrize("kwargs,msg", [
    (dict(rows=0, cols=8), "at least 1"), (dict(rows=8, cols=8, start="k1"), "off"),
    (dict(rows=8, cols=8, start="a9"), "off"), (dict(rows=8, cols=8, tie="best"), "unknown tie"),
    (dict(rows=8, cols=8, order="11234567"), "each of 1..8 once"), (dict(rows=4, cols=4), "no open tour"),
    (dict(rows=5, cols=5, closed=True), "odd"), (dict(rows=8, cols=8, method="magic"), "method"),
    (dict(rows=8, cols=8, seed=-1), "seed")])
def test_bad_input_raises_solve_error(kwargs, msg):
    with pytest.raises(SolveError, match=msg):
        solve(**kwargs)


def test_matrix_convention_orders_map_to_move_types():
    order = parse_order("<1,2><2,1><1,-2><2,-1><-1,2><-2,1><-1,-2><-2,-1>")
    assert order.digits == "12438756"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.integers(1, 24), cols=st.integers(1, 24), closed=st.booleans(),
       tie=st.sampled_from(TIE_RULES), seed=st.integers(0, 10**6), data=st.data())
def test_property_tours_are_valid_and_refusals_agree_with_existence(rows, cols, closed, tie,
                                                                    seed, data):
    start = (data.draw(st.integers(0, cols - 1)), data.draw(st.integers(0, rows - 1)))
    why = why_no_tour(rows, cols, closed)
    if why:
        with pytest.raises(SolveError):
            solve(rows, cols, start=start, closed=closed, tie=tie, seed=seed)
        return
    why = why_no_tour_from(rows, cols, closed, *start)
    if why:
        assert not solve(rows, cols, start=start, closed=closed, tie=tie, seed=seed,
                         method="greedy").ok
        with pytest.raises(SolveError, match="starts on"):
            solve(rows, cols, start=start, closed=closed, tie=tie, seed=seed)
        return
    res = solve(rows, cols, start=start, closed=closed, tie=tie, seed=seed)
    if not res.ok:      # only a search that covered every path may say no
        assert "covered every path" in res.message, res.message
        return
    assert check_path(Board(rows, cols), res.path, closed) is None
    assert res.path[0] == Board(rows, cols).parse(start)


def test_single_tour_dashes_use_the_dash_rules():
    plain = solve(8, 8, start="d4", method="greedy")
    dashed = solve(8, 8, start="d4", method="greedy", dashes={"a1": "full", "h8": "A"})
    assert dashed.ok and check_path(Board(8, 8), dashed.path) is None
    assert not np.array_equal(plain.path, dashed.path)
    with pytest.raises(SolveError, match="cannot be dashed"):
        solve(8, 8, start="b3", dashes={"a1": "full"})     # b3 is an approach cell of a1
    with pytest.raises(SolveError, match="not a corner"):
        solve(8, 8, start="d4", dashes={"c3": "full"})


# ------------------------------------------------------------------ auto: the rule first
def test_auto_walks_the_rule_first_and_says_where_it_failed():
    res = solve(100, 100)
    assert res.ok and res.method == "construction"
    assert res.message == ("Warnsdorff's rule (phadke) got stuck on cn1 (92,1) after 9,975 "
                           "moves; tour by construction")
    walk = res.tour.method["rule_walk"]
    assert walk == {"tie": "phadke", "completed": False, "moves": 9975,
                    "stuck_at": Board(100, 100).parse("92,1")}


def test_auto_gives_the_rules_own_tour_on_a_big_board():
    res = solve(1000, 1000, tie="center-far")       # above the old 500×500 cut-off
    assert res.ok and res.method.startswith("warnsdorff greedy (tie center-far")
    assert "rule_walk" not in res.info


def test_auto_closed_walks_the_rule_first_too():
    res = solve(400, 400, closed=True)
    assert res.ok and res.path[0] == 0
    assert res.message.startswith("Warnsdorff's rule (phadke) got stuck on ")
    assert res.message.endswith("; tour by construction")


def test_auto_backtracking_is_named_on_small_boards():
    res = solve(3, 21, start="j2")
    assert res.ok and res.path[0] == Board(3, 21).parse("j2")
    assert res.message.startswith("Warnsdorff's rule (phadke) got stuck on ")
    assert res.method in ("construction", "warnsdorff backtracking (tie phadke)")


@pytest.mark.parametrize("rows,cols,start", [(3, 21, "j2"), (3, 1401, "8,2"), (3, 1401, "1394,2"),
                                             (3, 23, "l2"), (21, 3, "2,10"), (1401, 3, "2,8")])
def test_auto_honours_thin_board_starts(rows, cols, start):
    res = solve(rows, cols, start=start)
    b = Board(rows, cols)
    assert res.ok, res.message
    assert res.path[0] == b.parse(start)
    assert check_path(b, res.path) is None


#: 3-row boards and squares from which no open tour starts (the search covers every path).
NO_TOUR_FROM = {(7, (3, 1)), (8, (2, 1)), (8, (5, 1))}


def test_every_start_of_3_row_strips_is_met_or_proven_impossible():
    from knightgui_core.construct.huge import construct_open
    for n in range(7, 48):
        for y in range(3):
            for x in range(n):
                if why_no_tour_from(3, n, False, x, y):
                    continue
                path, met = construct_open(3, n, start=y * n + x)
                assert met == ((n, (x, y)) not in NO_TOUR_FROM), (n, x, y)
                if met:
                    assert path[0] == y * n + x
    for n, (x, y) in NO_TOUR_FROM:
        res = solve(3, n, start=(x, y))
        assert not res.ok and res.tour is None
        assert "covered every path" in res.message


def test_start_rules_agree_with_exhaustive_search():
    from knightgui_core.construct.hamsearch_kernel import ham_search
    for rows, cols in ((4, 5), (5, 4), (4, 6), (5, 5), (3, 7)):
        b = Board(rows, cols)
        req = np.full(b.size, -1, dtype=np.int32)
        path = np.empty(b.size, dtype=np.int32)
        for sq in range(b.size):
            found = ham_search(b.neighbours, sq, -1, req, 10**9, 1, path) == b.size
            if why_no_tour_from(rows, cols, False, *b.coords(sq)):
                assert not found, (rows, cols, b.name(sq))
            if found:
                assert path[0] == sq


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.integers(3, 12), cols=st.integers(3, 40), closed=st.booleans(),
       method=st.sampled_from(("auto", "greedy", "backtrack", "construct")), data=st.data())
def test_property_a_success_always_starts_where_asked(rows, cols, closed, method, data):
    start = (data.draw(st.integers(0, cols - 1)), data.draw(st.integers(0, rows - 1)))
    try:
        res = solve(rows, cols, start=start, closed=closed, method=method, node_budget=20_000)
    except SolveError:
        assert why_no_tour(rows, cols, closed) or (
            method != "greedy" and why_no_tour_from(rows, cols, closed, *start))
        return
    if res.ok:
        assert int(res.path[0]) == Board(rows, cols).parse(start)
        assert check_path(Board(rows, cols), res.path, closed) is None
    else:
        assert res.tour is None and res.message
