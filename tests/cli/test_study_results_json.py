"""The typed results of the tie-break and move-order studies (``FirstFailure``,
``RuleSummary``, ``SideRate``, ``OrdersSummary``) give the JSON the dict results gave: the
expected objects are built here by hand from the result arrays, key order included."""
import json

import numpy as np
import pytest

from knightgui.cli import run
from knightgui_core.board.squares import Board
from knightgui_core.studies.orders import OrdersSummary, run_orders
from knightgui_core.studies.tiebreaks import (
    FirstFailure,
    RuleSummary,
    SideRate,
    run_tiebreaks,
    wilson_interval,
)

pytest.importorskip("distributed")

TIE_ARGS = dict(n_max=20, rules=["random", "lookahead"], starts="corner", trials=4)


def last_json(capsys, *argv):
    code = run(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out.strip().splitlines()[-1])


def per_rule_by_hand(res):
    """``per_rule`` of the JSON, from the counts alone (the dicts the study used to return)."""
    low, high = wilson_interval(res.completed, res.tried)
    out = {}
    for r, rule in enumerate(res.rules):
        t, c = int(res.tried[r].sum()), int(res.completed[r].sum())
        bad = [int(n) for i, n in enumerate(res.sizes) if res.completed[r, i] < res.tried[r, i]]
        ff = None
        if bad:
            n = bad[0]
            i = int(np.flatnonzero(res.sizes == n)[0])
            s = int(res.first_fail[r, i])
            ff = {"n": n, "start": Board(n, n).name(s) if s >= 0 else None, "square": s,
                  "visited": int(res.fail_len[r, i]), "squares": n * n,
                  "seed": int(res.fail_seed[r, i])}
        by_n = {}
        for i, n in enumerate(res.sizes):
            tn, cn = int(res.tried[r, i]), int(res.completed[r, i])
            if tn == 0:
                continue
            by_n[str(int(n))] = {"success_rate": cn / tn, "trials": int(res.trials[r]),
                                 "walks": tn, "completed": cn,
                                 "ci95": [round(float(low[r, i]), 6), round(float(high[r, i]), 6)]}
            if rule == "random" and int(n) in res.exact_random:
                by_n[str(int(n))]["exact"] = float(res.exact_random[int(n)])
        out[rule] = {"walks": t, "completed": c, "success_rate": c / t if t else None,
                     "trials": int(res.trials[r]), "left_out": int(res.left_out[r].sum()),
                     "first_failing_n": bad[0] if bad else None, "first_failure": ff,
                     "failing_n": bad, "by_n": by_n}
    return out


def test_tie_breaks_json_is_what_the_dicts_gave(capsys):
    d = last_json(capsys, "study", "tie-breaks", "--max", "20", "--rules", "random,lookahead",
                  "--starts", "corner", "--trials", "4", "--json")
    res = run_tiebreaks(**TIE_ARGS)
    want = per_rule_by_hand(res)
    # the run has what the types carry: a failure, exact values and sizes without them
    assert want["lookahead"]["first_failure"] is not None
    assert "exact" in want["random"]["by_n"]["9"] and "exact" not in want["random"]["by_n"]["10"]
    assert json.dumps(d["per_rule"]) == json.dumps(want)
    assert json.dumps(res.to_dict()["per_rule"]) == json.dumps(want)
    assert list(d) == ["study", "rules", "n_min", "n_max", "starts", "order", "seed", "seconds",
                       "complete", "first_failing_n", "left_out", "per_rule", "tasks"]
    # the typed values behind it
    s = res.summary()
    assert list(s) == list(res.rules) and all(isinstance(v, RuleSummary) for v in s.values())
    ff = s["lookahead"].first_failure
    assert isinstance(ff, FirstFailure) and ff == res.first_failure("lookahead")
    assert ff.n == d["first_failing_n"]["lookahead"] and ff.start == "a1"
    assert s["lookahead"].failing_n == tuple(want["lookahead"]["failing_n"])
    by_n = res.by_n("random")
    assert list(by_n) == list(range(5, 21)) and all(isinstance(v, SideRate) for v in by_n.values())
    assert by_n[9].exact == res.exact_random[9] and by_n[10].exact is None
    assert isinstance(by_n[9].ci95, tuple) and len(by_n[9].ci95) == 2
    with pytest.raises(AttributeError):
        ff.n = 3        # frozen


def test_move_orders_json_is_what_the_dict_gave(capsys):
    d = last_json(capsys, "study", "move-orders", "--size", "5", "--json")
    res = run_orders(5, "first")
    failed = res.lengths < 25
    closed, walks, bad = int(res.closed.sum()), int(res.lengths.size), int(failed.sum())
    per_order = failed.sum(axis=1)
    want = {"orders": 40320, "walks": walks, "failed_walks": bad,
            "orders_with_failure": int((per_order > 0).sum()),
            "max_failures_per_order": int(per_order.max()), "closed_walks": closed,
            "closed_share_of_complete": round(closed / (walks - bad), 6),
            "seconds": round(res.seconds, 4), "rows": 5, "cols": 5, "tie": "first",
            "complete": True}
    s = res.summary()
    assert isinstance(s, OrdersSummary) and s.failed_walks == bad > 0
    assert json.dumps(s.to_dict()) == json.dumps(want)
    got = res.to_json_dict()
    assert json.dumps({k: got[k] for k in want}) == json.dumps(want)
    assert list(got) == [*want, "distribution", "failures_per_start", "worst_orders"]
    assert list(d) == ["study", *got, "tasks"] and d["study"] == "move-orders"
    assert {k: v for k, v in d.items() if k not in ("study", "seconds", "tasks")} == \
        {k: v for k, v in got.items() if k != "seconds"}
