"""The tie rules of the literature against their sources' figures, and the kernels against
plain-Python readings of each rule."""
import json

import numpy as np
import pytest

from knightgui_core.board.rules import RANDOM_RULES, SQUIRREL_RULES, TIE_HELP, TIE_RULES, parse_order
from knightgui_core.board.squares import MOVES, Board
from knightgui_core.board.tie_rule import TieRule
from knightgui_core.studies import published
from knightgui_core.studies.tiebreaks import run_tiebreaks, wilson_interval
from knightgui_core.walks.solve import SolveError, solve
from knightgui_core.walks.squirrel import SquirrelError, plan, squirrel_walk
from knightgui_core.walks.walk_kernel import CENTRES, METRICS, greedy_walk, roth_code

NO_SCORE = np.zeros(0, dtype=np.int8)


def kernel_path(n, start, code, order="12345678", seed=0):
    path = np.empty(n * n, dtype=np.int32)
    ties = np.empty(n * n, dtype=np.uint8)
    m = greedy_walk(n, n, start, code, parse_order(order).positions(), seed, NO_SCORE, path,
                    ties)
    return path[:m].tolist()


def reference_path(n, start, key, order="12345678"):
    """Warnsdorff by the book: fewest exits, then ``key(board, visited, square)``, then the
    move order; exits and keys recomputed from scratch at every step."""
    b = Board(n, n)
    pos = parse_order(order).positions()
    visited = {start}
    path = [start]

    def exits(sq):
        return sum(1 for t in range(8) if (c := b.neighbours[sq, t]) >= 0 and c not in visited)

    while True:
        q = path[-1]
        cands = [(exits(int(s)), key(b, visited, int(s)), int(pos[t]), int(s))
                 for t in range(8) if (s := b.neighbours[q, t]) >= 0 and int(s) not in visited]
        if not cands:
            return path
        nxt = min(cands)[3]
        visited.add(nxt)
        path.append(nxt)


def pohl_key(b, visited, s):
    """Ganzfried's reading of Pohl: the sum of the exits its unvisited neighbours would have."""
    total = 0
    for t in range(8):
        u = int(b.neighbours[s, t])
        if u >= 0 and u not in visited:
            total += sum(1 for k in range(8) if (w := int(b.neighbours[u, k])) >= 0
                         and w not in visited and w != s)
    return total


def centre_key(centre, metric):
    def key(b, visited, s):
        c, r = b.coords(s)
        off = {"exact": 1, "one-based": 2, "far": 0}[centre]
        dx, dy = abs(2 * c - (b.cols - off)), abs(2 * r - (b.rows - off))
        d = {"euclid": dx * dx + dy * dy, "manhattan": dx + dy, "chebyshev": max(dx, dy)}[metric]
        return -d
    return key


@pytest.mark.parametrize("order", ["12345678", "56781234", "83726154"])
def test_pohl_kernel_is_the_sum_rule(order):
    for n in (5, 6, 8, 11, 17):
        for start in (0, n - 1, n * n // 2, 3):
            assert kernel_path(n, start, int(TieRule.POHL), order) == \
                reference_path(n, start, pohl_key, order), (n, start)


@pytest.mark.parametrize("centre", range(len(CENTRES)))
@pytest.mark.parametrize("metric", range(len(METRICS)))
def test_centre_readings_match_their_definition(centre, metric):
    key = centre_key(CENTRES[centre], METRICS[metric])
    for n in (6, 7, 10, 13):
        for start in (0, n * n - 1, n + 2):
            assert kernel_path(n, start, roth_code(False, centre, metric), "36451287") == \
                reference_path(n, start, key, "36451287"), (n, start)
    assert roth_code(False) == int(TieRule.CENTER_FAR)


@pytest.mark.parametrize("centre,metric", [(0, 0), (1, 1), (2, 2), (0, 2)])
def test_the_centre_rules_fast_walk_agrees_with_the_general_loop(centre, metric):
    """The centre rule without dashes has its own walk (the distance computed only at a
    tie); a dash table that overrides nothing (-1 everywhere) sends the same walk through
    the general loop: both must give the same path, on square and oblong boards."""
    order = parse_order("36451287").positions()
    for rows, cols in ((9, 9), (40, 40), (33, 41), (120, 97)):
        for start in (0, cols - 1, rows * cols // 2 + 3):
            got = []
            for score in (NO_SCORE, np.full(rows * cols, -1, dtype=np.int8)):
                path = np.empty(rows * cols, dtype=np.int32)
                ties = np.empty(rows * cols, dtype=np.uint8)
                m = greedy_walk(rows, cols, start, roth_code(False, centre, metric), order, 0,
                                score, path, ties)
                got.append((path[:m].tolist(), ties[:m].tolist()))
            assert got[0] == got[1], (rows, cols, start)


def test_pohl_and_lookahead_are_different_rules():
    assert "Pohl" in TIE_HELP["pohl"] and "not Pohl" in TIE_HELP["lookahead"]
    differ = [n for n in range(5, 40)
              if solve(n, n, tie="pohl", method="greedy").path.tolist()
              != solve(n, n, tie="lookahead", method="greedy").path.tolist()]
    assert differ


def test_ganzfried_fixed_order_fails_at_the_published_sizes():
    fig = next(f for f in published.FIGURES if f.key == "ganzfried-fixed")
    res = run_tiebreaks(fig.up_to, rules=["first"], order=fig.order)
    assert res.failing_n("first") == list(fig.failing_n) == [41, 52, 59, 60, 66, 74]


def test_blog_order_fails_first_at_77_from_its_corner():
    fig = next(f for f in published.FIGURES if f.key == "blog-77")
    for n in range(5, 77):
        assert solve(n, n, start=(0, n - 1), tie="first", order=fig.order, method="greedy").ok
    assert not solve(77, 77, start=(0, 76), tie="first", order=fig.order, method="greedy").ok


def test_random_ties_match_squirrel_and_ganzfried_within_the_interval():
    fig = next(f for f in published.FIGURES if f.key == "squirrel-random")
    for n, rate in fig.rates:
        res = run_tiebreaks(n, n_min=n, rules=["random"], trials=400)
        low, high = res.interval()
        assert low[0, 0] <= rate <= high[0, 0], (n, res.success_rate()[0, 0], rate)
        assert res.trials[0] == 400 and res.tried[0, 0] == 400


def test_squirrel_unsplit_fails_where_the_mod_16_split_matters():
    fails = [n for n in range(5, 61) if len(squirrel_walk(n, 0, "squirrel-unsplit")[0]) < n * n]
    assert fails == [29, 45]          # both ≡ 13 (mod 16)


def test_squirrel_plan_maps_the_paper_onto_the_board():
    p = plan(8, "a1")
    assert p.orders[0] == "34261578" and p.start == 0 and p.switch[-1] == -1
    assert MOVES[p.prios[0][0]] == (1, 2)      # order 34261578 begins with move 3 = (+1, +2)
    q = plan(8, "h8")
    assert MOVES[q.prios[0][0]] == (-1, -2) and q.start == 63
    with pytest.raises(SquirrelError):
        plan(8, "d4")
    with pytest.raises(SquirrelError):
        plan(4, "a1")


def test_squirrel_in_solve_refuses_what_it_does_not_cover():
    for kw, why in (({"rows": 8, "cols": 9}, "n×n"), ({"rows": 8, "cols": 8, "start": "d4"},
                                                       "corner"),
                    ({"rows": 8, "cols": 8, "dashes": {"h8": "full"}}, "dashes")):
        res = solve(tie="squirrel", method="greedy", **kw)
        assert not res.ok and why in res.message
    with pytest.raises(SolveError, match="greedy"):
        solve(8, 8, tie="squirrel", method="backtrack")
    res = solve(8, 9, tie="squirrel")                     # auto goes on without it
    assert res.ok and "first" in res.method


def test_every_rule_has_help_naming_it():
    assert set(TIE_HELP) == set(TIE_RULES)
    assert set(SQUIRREL_RULES) < set(TIE_RULES) and set(RANDOM_RULES) < set(TIE_RULES)


def test_wilson_interval_known_values():
    low, high = wilson_interval(np.array([0, 5, 10]), np.array([10, 10, 10]))
    assert np.allclose(low, [0.0, 0.2366, 0.7225], atol=1e-4)
    assert np.allclose(high, [0.2775, 0.7634, 1.0], atol=1e-4)
    low, high = wilson_interval(np.array([0]), np.array([0]))
    assert np.isnan(low[0]) and np.isnan(high[0])


def test_study_json_has_failing_n_by_n_and_trials():
    res = run_tiebreaks(30, rules=["random", "first", "squirrel"], starts="corners",
                        trials=5, seed=2)
    d = json.loads(json.dumps(res.to_dict()))
    rnd = d["per_rule"]["random"]
    assert rnd["trials"] == 5 and d["per_rule"]["first"]["trials"] == 1
    assert rnd["by_n"]["30"]["walks"] == 20 and rnd["by_n"]["30"]["trials"] == 5
    for v in rnd["by_n"].values():
        lo, hi = v["ci95"]
        assert lo <= v["success_rate"] <= hi
    assert rnd["failing_n"] == [int(n) for n, v in rnd["by_n"].items()
                                if v["completed"] < v["walks"]]
    assert d["tasks"]["total"] == d["tasks"]["computed"] > 0
    # the trials are the seeds seed, seed+1, ...: five one-seed runs add up to the same counts
    r = res.rules.index("random")
    singles = [run_tiebreaks(30, rules=["random"], starts="corners", seed=s) for s in range(2, 7)]
    assert (sum(x.completed[0] for x in singles) == res.completed[r]).all()
    assert (sum(x.tried[0] for x in singles) == res.tried[r]).all()
    ff = res.first_failure("random")
    if ff is not None:
        assert 2 <= ff.seed <= 6
