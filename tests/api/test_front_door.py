"""The front door (``knightgui_core.solve`` … ``study_*``): its answers against published
figures and against the plain implementations of ``plain.py``, its results' ``to_dict()``
as JSON, and its errors. Every figure asserted here was first read off the command line
(the command is named beside it)."""
import json
from itertools import islice

import pytest
from plain import every_path, warnsdorff_tree

import knightgui_core as kg
from knightgui_core import Board


def test_the_package_exports_the_front_door_and_the_errors():
    for name in kg.__all__:
        assert getattr(kg, name) is not None, name
    from knightgui_core.board.squares import Board as EngineBoard
    from knightgui_core.system import errors
    assert kg.Board is EngineBoard
    assert kg.InputError is errors.InputError and kg.ResourceError is errors.ResourceError
    assert issubclass(kg.BoardError, kg.InputError) and issubclass(kg.InputError, ValueError)


# --------------------------------------------------------------------------- solve
@pytest.mark.parametrize("tie", ["phadke", "first", "center-far", "pohl"])
def test_solve_gives_a_tour_from_the_start_asked(tie):
    r = kg.solve(Board(8, 8), start="c3", tie=tie)
    assert r.found and r.start == "c3"
    path = [int(s) for s in r.tour.path]
    assert path[0] == Board(8, 8).parse("c3") and sorted(path) == list(range(64))
    assert all(Board(8, 8).is_knight_move(a, b) for a, b in zip(path, path[1:]))


def test_solve_closed_and_on_a_cylinder():
    r = kg.solve(Board(6, 6), closed=True)
    assert r.found and r.tour.is_closed_path
    cyl = Board(5, 5, topology="cylinder")
    r = kg.solve(cyl, start="a1")
    assert r.found and r.tour.board == cyl


def test_solve_answers_no_tour_with_the_proof_and_refuses_bad_input():
    r = kg.solve(Board(4, 4))
    assert not r.found and r.tour is None and "4×4" in r.message
    assert r.to_dict()["valid"] is False and r.to_dict()["path"] == []
    with pytest.raises(kg.InputError):
        kg.solve(Board(8, 8), start="z9")
    with pytest.raises(kg.InputError):
        kg.solve(Board(8, 8), tie="no-such-rule")
    with pytest.raises(kg.InputError, match="Board"):
        kg.solve((8, 8))


def test_solve_to_dict_is_json_with_the_path_in_col_row_pairs():
    r = kg.solve(Board(5, 6), start="a1")
    d = json.loads(json.dumps(r.to_dict()))
    assert d["valid"] and d["rows"] == 5 and d["cols"] == 6 and d["start"] == "a1"
    assert d["path"][0] == [0, 0] and len(d["path"]) == 30


# --------------------------------------------------------------- warnsdorff_tours
def test_phadke_a8_to_c7_has_14258_closed_tours():
    # knightgui enumerate --rows 8 --cols 8 --start a8 --end c7: 14,258 solutions
    tours = kg.warnsdorff_tours(Board(8, 8), "a8", end="c7")
    first = list(islice(tours, 5))
    assert all(t.closed and t.is_closed_path for t in first)
    assert all(int(t.path[0]) == Board(8, 8).parse("a8") for t in first)
    assert all(int(t.path[-1]) == Board(8, 8).parse("c7") for t in first)
    c = tours.count()
    assert (c.solutions, c.exhausted) == (14258, True)
    assert list(tours) == []                         # spent


@pytest.mark.parametrize("rows,cols,start", [(5, 5, "a1"), (6, 6, "a1"), (6, 6, "c3"),
                                             (5, 6, "b2")])
def test_warnsdorff_tours_are_the_plain_tie_trees_tours(rows, cols, start):
    b = Board(rows, cols)
    got = {tuple(int(s) for s in t.path) for t in kg.warnsdorff_tours(b, start)}
    want = warnsdorff_tree(rows, cols, b.parse(start))["tours"]
    assert got == want and got


def test_the_iterator_stops_when_the_reader_does():
    tours = kg.warnsdorff_tours(Board(8, 8), "a1")
    assert len(list(islice(tours, 3))) == 3
    assert next(tours).board == Board(8, 8)


# --------------------------------------------------------- count_warnsdorff_tours
def test_the_8x8_count_and_knuths_odds():
    # knightgui study count --size 8: 7,894,584 tours, 1,188,384 closed over 64 starts
    c = kg.count_warnsdorff_tours(Board(8, 8))
    assert (c.tours, c.closed, c.dead_ends, len(c.starts)) == (7894584, 1188384, 761520, 64)
    # Knuth, TAOCP Pre-Fascicle 8A: the random-tie walk completes 97.9 % of the time
    assert round(100 * c.p_success, 1) == 97.9
    assert c.p_success == pytest.approx(0.979074335016, abs=1e-12)   # docs/counts.md


def test_the_6x6_count_is_the_plain_tie_tree_per_start():
    b = Board(6, 6)
    c = kg.count_warnsdorff_tours(b)
    for sq in range(36):
        want = warnsdorff_tree(6, 6, sq)
        got = c.per_start[b.name(sq)]
        assert (got["tours"], got["closed"], got["dead_ends"]) == \
            (len(want["tours"]), want["closed"], want["dead_ends"])
        assert got["p_success"] == pytest.approx(float(want["p_success"]), abs=1e-12)
        assert got["p_closed"] == pytest.approx(float(want["p_closed"]), abs=1e-12)
    assert round(100 * c.p_success, 1) == 97.2                         # Knuth's 6×6 figure


# ------------------------------------------------------------------- count_tours
def test_every_tour_of_6x6():
    # knightgui study count --size 6 --all-tours: 6,637,920 directed paths, 9,862 closed
    c = kg.count_tours(Board(6, 6))
    assert (c.directed_paths, c.undirected_paths, c.closed_tours) == (6637920, 3318960, 9862)
    assert c.method == "visited" and c.method_reason


@pytest.mark.parametrize("rows,cols", [(3, 4), (4, 5), (3, 7)])
@pytest.mark.parametrize("method", ["visited", "frontier"])
def test_every_tour_is_the_plain_searchs(rows, cols, method):
    paths, closed = every_path(rows, cols)
    c = kg.count_tours(Board(rows, cols), method=method)
    assert (c.directed_paths, c.closed_tours, c.method) == (paths, closed, method)
    t = kg.count_tours(Board(cols, rows), method=method)          # the board turned
    assert (t.directed_paths, t.closed_tours) == (paths, closed)


def test_closed_tours_alone_by_the_frontier():
    c = kg.count_tours(Board(6, 6), closed=True, method="frontier")
    assert (c.closed_tours, c.directed_paths) == (9862, None)
    with pytest.raises(kg.InputError):
        kg.count_tours(Board(6, 6, leaper="camel"), method="frontier")


# ------------------------------------------------------------------------ studies
def test_phadke_strict():
    # knightgui study phadke --family strict: 53 runs, 989,931 solutions (the paper's)
    s = kg.study_phadke("strict")
    assert (s.algorithms, s.solutions, s.paper_solutions) == (53, 989931, 989931)
    assert (s.full_board, s.paper_full_board) == (5732056, 5732056)
    with pytest.raises(kg.InputError):
        kg.study_phadke("stric")


def test_move_orders_5x5():
    # knightgui study move-orders --size 5
    s = kg.study_move_orders(Board(5, 5))
    assert (s.orders, s.walks, s.failed_walks, s.orders_with_failure, s.closed_walks) == \
        (40320, 1008000, 631680, 40320, 0)
    with pytest.raises(kg.InputError):
        kg.study_move_orders(Board(5, 5, topology="torus"))


def test_tie_breaks_5_to_8():
    # knightgui study tie-breaks --min 5 --max 8 --rules phadke,first
    s = kg.study_tie_breaks(8, rules=["phadke", "first"])
    assert s.rules == ("phadke", "first")
    assert s.success_rate == {"phadke": 1.0, "first": 1.0}
    assert s.first_failing_n == {"phadke": None, "first": None}


def test_symmetric_6x6():
    # knightgui study count --all-tours --size 6 --symmetry half-turn: 78 closed tours;
    # Jelliss: 17 kept by the half turn alone (4 images each), 5 by the quarter turn (2)
    s = kg.study_symmetric(Board(6, 6), "half-turn")
    assert (s.closed_tours, s.open_paths) == (17 * 4 + 5 * 2, 0)


def test_uncrossed():
    # knightgui study uncrossed --rows 6 --cols 6: 17 moves (OEIS A003192); 5×5 cycle: 8
    s = kg.study_uncrossed(Board(6, 6))
    assert (s.length, s.count, s.total, len(s.path)) == (17, 1, 8, 18)
    b = Board(6, 6)
    sq = [b.parse(n) for n in s.path]
    assert all(b.is_knight_move(a, c) for a, c in zip(sq, sq[1:]))
    assert kg.study_uncrossed(Board(5, 5), cycle=True).length == 8


def test_semimagic_6x6_half_turn_is_proved_empty():
    # knightgui study semimagic --size 6 --symmetry half-turn: proved none
    s = kg.study_semimagic(6, symmetry="half-turn")
    assert (s.status, s.tours) == ("none", ())
    assert s.to_dict()["proved_none"] is True
    with pytest.raises(kg.InputError):
        kg.study_semimagic(17)


def test_results_are_frozen_and_to_dict_copies():
    s = kg.study_symmetric(Board(6, 6), "half-turn")
    with pytest.raises(AttributeError):
        s.closed_tours = 0
    d = s.to_dict()
    d["undirected_closed_tours"] = -1
    assert s.to_dict()["undirected_closed_tours"] == 78
