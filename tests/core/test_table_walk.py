"""Warnsdorff's single walk and the backtracking walk on any board and piece (issue 27):
the table kernels choose what the knight's kernels choose on the plane, and on the cylinder,
the torus and with other leapers every tie rule gives tours the plain validator of
test_leapers.py accepts."""
from __future__ import annotations

import numpy as np
import pytest

from knightgui_core.board.rules import DEFAULT_ORDER, parse_order
from knightgui_core.board.squares import Board
from knightgui_core.board.tie_rule import TieRule
from knightgui_core.walks import walk_kernel
from knightgui_core.walks.solve import SolveError, solve
from knightgui_core.walks.table_backtrack_kernel import table_backtrack_walk
from knightgui_core.walks.table_walk_kernel import table_greedy_walk

from test_leapers import plain_is_tour, plain_moves  # the plain validator, written once

RULES = [r for r in TieRule if not r.switching]
CODES = [int(r) for r in RULES] + [walk_kernel.roth_code(False, 1, 1),
                                   walk_kernel.roth_code(True, 2, 2),
                                   walk_kernel.roth_code(False, 2, 0)]


def _walks(rows, cols, start, code, pos, seed, score):
    size = rows * cols
    p1, t1 = np.empty(size, np.int32), np.empty(size, np.uint8)
    p2, t2 = np.empty(size, np.int32), np.empty(size, np.uint8)
    m1 = walk_kernel.greedy_walk(rows, cols, start, code, pos, seed, score, p1, t1)
    m2 = table_greedy_walk(Board(rows, cols).neighbours, cols, start, code, pos, seed, score,
                           p2, t2)
    return (p1[:m1], t1[:m1]), (p2[:m2], t2[:m2])


@pytest.mark.parametrize("code", CODES)
@pytest.mark.parametrize("rows,cols", [(5, 5), (6, 7), (8, 8), (11, 9), (16, 16)])
def test_on_the_knights_plane_the_table_walk_is_the_knights_walk(code, rows, cols):
    pos = parse_order("31245876").positions()
    for start in sorted({0, cols - 1, (rows // 2) * cols + cols // 2, rows * cols - 1}):
        for seed in (0, 7):
            (p1, t1), (p2, t2) = _walks(rows, cols, start, code, pos, seed,
                                        np.zeros(0, np.int8))
            assert np.array_equal(p1, p2) and np.array_equal(t1, t2), (code, start, seed)


def test_the_table_walk_honours_outlet_overrides_as_the_knights_walk_does():
    rows = cols = 8
    score = np.full(64, -1, np.int8)
    score[[10, 17, 46, 53]] = 1                       # dashed approach cells (any will do)
    for code in (0, 3, 5, 6):
        (p1, t1), (p2, t2) = _walks(rows, cols, 0, code, parse_order(DEFAULT_ORDER).positions(), 3,
                                    score)
        assert np.array_equal(p1, p2) and np.array_equal(t1, t2)


@pytest.mark.parametrize("code", [c for c in CODES if not TieRule(c & 0xFF).randomised])
@pytest.mark.parametrize("rows,cols", [(5, 5), (6, 6), (8, 8), (7, 10)])
def test_where_the_walk_finishes_the_backtracking_search_takes_the_same_path(code, rows, cols):
    # one ranking of candidates (walk_loop_kernel.rule_key) for the walk and the search: with
    # no dead end met, the search is the walk (the random rules draw for other candidates)
    size = rows * cols
    pos = parse_order("31245876").positions()
    nbr = Board(rows, cols).neighbours
    finished = 0
    for start in range(size):
        (p1, t1), _ = _walks(rows, cols, start, code, pos, 0, np.zeros(0, np.int8))
        if len(p1) < size:
            continue
        path, ties, stats = np.empty(size, np.int32), np.zeros(size, np.uint8), np.zeros(3, np.int64)
        m = table_backtrack_walk(nbr, cols, start, False, code, pos, 0, np.zeros(0, np.int8),
                                 10 * size, path, ties, stats)
        assert m == size and stats[0] == size - 1, (start, stats)
        assert np.array_equal(path, p1) and np.array_equal(ties, t1), start
        finished += 1
    assert finished > 0


BOARDS = [("cylinder", (1, 2), 8, 8), ("torus", (1, 2), 8, 8), ("torus", (1, 2), 7, 9),
          ("plane", (2, 3), 10, 10), ("torus", (2, 3), 8, 8), ("cylinder", (1, 4), 9, 10),
          ("torus", (1, 3), 7, 7), ("plane", (1, 4), 10, 10), ("cylinder", (2, 3), 10, 10)]


def plain_is_walk(rows, cols, topology, leaper, path):
    """Distinct squares, each a leap from the one before (a walk that may have stuck)."""
    path = [int(s) for s in path]
    return (len(set(path)) == len(path)
            and all(v in plain_moves(rows, cols, topology, leaper, u)
                    for u, v in zip(path, path[1:])))


@pytest.mark.parametrize("rule", [r.label for r in RULES])
@pytest.mark.parametrize("topology,leaper,rows,cols", BOARDS)
def test_every_rule_on_every_board_walks_legally(rule, topology, leaper, rows, cols):
    board = Board(rows, cols, topology, leaper)
    done = 0
    for start in range(board.size):
        res = solve(rows, cols, start=board.name(start), tie=rule, seed=start,
                    topology=topology, leaper=leaper, method="greedy")
        assert int(res.path[0]) == start and plain_is_walk(rows, cols, topology, leaper,
                                                            res.path)
        assert res.ok == (len(res.path) == board.size)
        if res.ok:
            done += 1
            assert plain_is_tour(rows, cols, topology, leaper, res.path)
            assert res.tour is not None and res.tour.board == board
        else:
            assert res.stuck_at == int(res.path[-1])
            assert not (set(board.neighbours[res.stuck_at]) - {-1} - set(res.path.tolist()))
    assert done > 0                     # the rule completes from some start on each board


@pytest.mark.parametrize("topology,leaper,rows,cols", BOARDS)
@pytest.mark.parametrize("closed", [False, True])
def test_auto_finds_tours_from_a_corner_on_every_board(topology, leaper, rows, cols, closed):
    if closed and rows * cols % 2:
        pytest.skip("an odd number of squares")
    for rule in ("phadke", "center-far", "random"):
        res = solve(rows, cols, closed=closed, tie=rule, topology=topology, leaper=leaper)
        assert res.ok and int(res.path[0]) == 0, res.message
        assert plain_is_tour(rows, cols, topology, leaper, res.path, closed)


def test_the_rules_walk_alone_reports_where_it_stuck():
    res = solve(8, 8, topology="plane", leaper=(2, 3), method="greedy")
    assert not res.ok and "got stuck on" in res.message and len(res.path) < 64
    assert res.stuck_at == int(res.path[-1])


def test_a_closed_tour_on_the_torus_is_closed_and_starts_where_asked():
    res = solve(8, 8, start="c3", closed=True, topology="torus")
    assert res.ok and res.path[0] == Board(8, 8).parse("c3")
    assert plain_is_tour(8, 8, "torus", (1, 2), res.path, closed=True)


def test_an_exhausted_search_proves_no_tour_from_that_start():
    # a 3×3 torus knight: every square has 8 moves but several coincide; search it out
    res = solve(3, 4, start="a1", topology="cylinder", leaper=(1, 2), method="backtrack")
    assert res.ok or res.info.get("proven") is not None


@pytest.mark.parametrize("kwargs,match", [
    ({"tie": "squirrel", "topology": "torus"}, "Squirrel and Cull"),
    ({"method": "construct", "topology": "cylinder"}, "constructions"),
    ({"dashes": {"a1": [1]}, "topology": "torus"}, "dashes"),
    ({"leaper": (2, 2)}, "differ"),
    ({"leaper": (0, 3)}, "at least 1"),
    ({"leaper": "camel"}, "never leaves the colour"),
    ({"topology": "klein"}, "one of plane, cylinder, torus"),
    ({"leaper": (1, 8)}, "has no move"),
])
def test_what_cannot_run_on_another_board_gets_one_line(kwargs, match):
    with pytest.raises(SolveError, match=match) as e:
        solve(8, 8, **kwargs)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("topology,leaper,rows,cols,closed,rule", [
    ("plane", (1, 2), 6, 6, False, "phadke"), ("plane", (1, 2), 6, 6, True, "random"),
    ("torus", (2, 3), 6, 6, True, "lookahead"), ("plane", (2, 3), 8, 8, False, "first"),
    ("cylinder", (1, 2), 5, 6, False, "center-far")])
def test_a_watched_backtracking_walk_is_the_same_search(topology, leaper, rows, cols, closed,
                                                       rule):
    from knightgui_core.walks.backtrack_watch import BacktrackWatch
    board = Board(rows, cols, topology, leaper)
    budget = 20_000
    w = BacktrackWatch(board, 0, closed, rule, seed=3, budget=budget)
    depth, backed, dead = 1, 0, 0
    while True:
        s = w.step()
        if s.done or s.solution:
            break
        assert s.number == len(w.path()) and s.square == int(w.path()[-1])
        if s.backed_up_to is not None:            # the path shrank before this move
            assert s.backed_up_to < depth and s.number == s.backed_up_to + 1
            backed += 1
        else:
            assert s.number == depth + 1
        assert s.square not in s.rivals and set(s.rivals) <= set(board.neighbours[int(w.path()[-2])])
        dead = s.dead_ends
        depth = s.number
    size = board.size
    path, ties, stats = np.empty(size, np.int32), np.zeros(size, np.uint8), np.zeros(3, np.int64)
    m = table_backtrack_walk(board.neighbours, cols, 0, closed, int(TieRule.parse(rule)),
                             parse_order(DEFAULT_ORDER).positions(), 3, np.zeros(0, np.int8),
                             budget, path, ties, stats)
    assert w.path().tolist() == path[:m].tolist()
    assert w.nodes == stats[0] and w.found == bool(stats[2])
    assert backed > 0 or dead == 0
    if w.found:
        assert plain_is_tour(rows, cols, topology, leaper, w.path(), closed)
