"""Tie-break study: batch walks agree with solve(), counts, start sets, progress/cancel, CSV."""
import csv
import io

import numpy as np
import pytest

from knightgui_core.board.rules import SQUIRREL_RULES, TIE_RULES
from knightgui_core.studies.tiebreaks import (
    CONSTRUCTION,
    TieBreakError,
    construction_available,
    run_tiebreaks,
    start_squares,
    tour_starts,
    walk,
)
from knightgui_core.walks.solve import solve


def greedy_ok(n, start, rule, seed=0, order="12345678"):
    res = solve(n, n, start=(int(start) % n, int(start) // n), closed=False, tie=rule, order=order, seed=seed,
                method="greedy")
    return res.ok, len(res.path)


@pytest.mark.parametrize("rule", TIE_RULES)
def test_batch_agrees_with_solve_greedy(rule):
    kind = "corners" if rule in SQUIRREL_RULES else "sample"
    res = run_tiebreaks(16, n_min=5, rules=[rule], starts=kind, sample=6, seed=3,
                        order="36451287")
    for i, n in enumerate(res.sizes):
        drawn = start_squares(int(n), kind, 6, 3)
        starts = drawn[tour_starts(int(n), drawn)]
        oks = [greedy_ok(int(n), s, rule, seed=3, order="36451287") for s in starts]
        assert res.tried[0, i] == len(starts)
        assert res.left_out[0, i] == len(drawn) - len(starts)
        assert res.completed[0, i] == sum(ok for ok, _ in oks)
        failed = [(s, m) for s, (ok, m) in zip(starts, oks) if not ok]
        if failed:
            assert res.first_fail[0, i] == failed[0][0]
            assert res.fail_len[0, i] == failed[0][1]
        else:
            assert res.first_fail[0, i] == -1


def test_first_failing_n_is_the_smallest_failing_size():
    res = run_tiebreaks(40, rules=["lookahead", "first"], starts="corner")
    for rule in ("lookahead", "first"):
        expected = next((n for n in range(5, 41) if not greedy_ok(n, 0, rule)[0]), None)
        assert res.first_failing_n(rule) == expected
        ff = res.first_failure(rule)
        if expected is not None:
            assert ff is not None and ff.n == expected and ff.start == "a1"
            assert ff.visited == greedy_ok(expected, 0, rule)[1] < expected ** 2
    # the plain corner walk is known to fail somewhere below 40 with the lookahead rule
    assert res.first_failing_n("lookahead") is not None


def test_success_rates_and_summary():
    res = run_tiebreaks(12, rules=["phadke", "random"], starts="all", seed=1)
    rate = res.success_rate()
    assert rate.shape == (2, 8)
    assert ((0 <= rate) & (rate <= 1)).all()
    # 5×5: only the 13 squares of the corners' colour start an open tour; 12 are left out
    assert (res.tried[:, 0] == 13).all() and (res.left_out[:, 0] == 12).all()
    assert (res.tried[:, -1] == 144).all() and (res.left_out[:, -1] == 0).all()
    s = res.summary()
    assert s["phadke"].walks == int(res.tried[0].sum())
    assert s["phadke"].completed == int(res.completed[0].sum())
    assert s["phadke"].left_out == int(res.left_out[0].sum()) > 0
    assert "left_out" in res.to_dict()["notes"]


def test_random_rule_is_reproducible_with_its_seed():
    a = run_tiebreaks(30, rules=["random"], starts="corners", seed=7)
    b = run_tiebreaks(30, rules=["random"], starts="corners", seed=7)
    assert (a.completed == b.completed).all() and (a.fail_len == b.fail_len).all()


def test_start_sets():
    assert start_squares(8, "corner").tolist() == [0]
    assert start_squares(8, "corners").tolist() == [0, 7, 56, 63]
    assert start_squares(6, "all").tolist() == list(range(36))
    s1, s2 = start_squares(20, "sample", 10, 5), start_squares(20, "sample", 10, 5)
    assert (s1 == s2).all() and len(set(s1.tolist())) == 10 and s1.max() < 400
    assert len(start_squares(5, "sample", 100)) == 25
    with pytest.raises(TieBreakError):
        start_squares(5, "middle")


@pytest.mark.parametrize("kwargs", [
    {"n_max": 2001}, {"n_max": 10, "trials": 0}, {"n_max": 10, "n_min": 11}, {"n_max": 10, "rules": ["nope"]},
    {"n_max": 10, "starts": "edge"}, {"n_max": 10, "order": "1234"},
    {"n_max": 10, "rules": ["first", "first"]}, {"n_max": 10, "seed": -1},
])
def test_bad_parameters(kwargs):
    with pytest.raises(TieBreakError):
        run_tiebreaks(**kwargs)


def test_progress_and_cancel():
    seen = []
    res = run_tiebreaks(60, rules=["first", "phadke"], progress=lambda d, t: seen.append((d, t)))
    assert res.complete and seen[-1][0] == seen[-1][1]
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    calls = []
    res = run_tiebreaks(60, rules=["first", "phadke"], cancel=lambda: len(calls.append(1) or
                                                                            calls) > 1)
    assert not res.complete
    # one task a rule, run side by side on the pool: whichever ends first is taken, then the
    # cancel stops the run: at most one rule's walks are in the result, which one is a race
    assert (res.tried.sum(axis=1) > 0).sum() <= 1


def test_csv(tmp_path):
    res = run_tiebreaks(20, rules=["first", "lookahead"])
    p = res.save_csv(tmp_path / "tb.csv")
    rows = list(csv.DictReader(io.StringIO(p.read_text(encoding="utf-8"))))
    assert len(rows) == 2 * 16
    assert {r["rule"] for r in rows} == {"first", "lookahead"}
    bad = [r for r in rows if int(r["completed"]) < int(r["starts"])]
    for r in bad:
        assert r["first_failed_start"] == "a1" and int(r["visited"]) < int(r["n"]) ** 2
    assert res.to_dict()["first_failing_n"]["lookahead"] == min(
        (int(r["n"]) for r in bad if r["rule"] == "lookahead"), default=None)


def test_walk_replays_a_failure_and_a_success():
    res = run_tiebreaks(20, rules=["lookahead"])
    ff = res.first_failure("lookahead")
    assert ff is not None and ff.start is not None
    w = walk("lookahead", ff.n, ff.start)
    assert not w.complete and len(w.path) == ff.visited and w.tour is None
    w = walk("first", 8, "a1")
    assert w.complete and w.tour is not None and len(w.path) == 64


@pytest.mark.skipif(not construction_available(), reason="knightgui_core.construct.huge not present yet")
def test_construction_row_always_succeeds_from_the_corner():
    res = run_tiebreaks(30, rules=[CONSTRUCTION, "first"])
    assert res.rules[0] == CONSTRUCTION
    r = res.rules.index(CONSTRUCTION)
    assert (res.completed[r] == res.tried[r]).all()
    assert np.all(res.tried[r] == 1)


def test_the_random_rule_is_shown_against_its_exact_success():
    """The random rule's success rate from a corner estimates a probability the count study
    knows exactly (n ≤ 9): both are reported, and the estimate's interval holds the value."""
    from knightgui_core.studies.tiebreaks import exact_corner_success
    res = run_tiebreaks(10, n_min=5, rules=["random", "phadke"], trials=300, seed=3)
    assert sorted(res.exact_random) == [5, 6, 7, 8, 9]
    assert abs(res.exact_random[8] - 0.979578494) < 1e-9          # the count study's a1
    assert res.exact_random == exact_corner_success([5, 6, 7, 8, 9])
    by_n = res.by_n("random")
    for n, p in res.exact_random.items():
        lo, hi = by_n[n].ci95
        assert by_n[n].exact == p and lo - 1e-9 <= p <= hi + 1e-9, (n, p, lo, hi)
        assert by_n[n].to_dict()["exact"] == p
    assert by_n[10].exact is None and "exact" not in by_n[10].to_dict()
    assert all(r["exact_success"] == "" for r in res.table() if r["rule"] == "phadke")
    assert run_tiebreaks(8, rules=["random"], starts="all").exact_random == {}
