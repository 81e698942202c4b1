"""The tie-break study on the Dask runner: the same counts as the in-process thread pool,
finished tasks taken from a result store, stable task keys."""
import json

import numpy as np
import pytest

from knightgui_core.studies.tiebreaks import plan_study, run_tiebreaks, runner_tasks

pytest.importorskip("distributed")

KW = dict(rules=["first", "random", "squirrel", "pohl"], starts="corners", trials=3, seed=5)


def same_counts(a, b):
    for name in ("tried", "completed", "left_out", "first_fail", "fail_len", "fail_seed",
                 "trials"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


def test_runner_gives_the_thread_pool_counts_and_reuses_the_store(tmp_path):
    from knightgui_core.run.store import ResultStore
    local = run_tiebreaks(60, **KW)
    with ResultStore(tmp_path / "tb.sqlite") as store:
        first = run_tiebreaks(60, store=store, scheduler="threads", **KW)
        again = run_tiebreaks(60, store=store, scheduler="threads", **KW)
        short = run_tiebreaks(200, store=store, scheduler="threads", **KW)
        longer = run_tiebreaks(250, store=store, scheduler="threads", **KW)
    same_counts(local, first)
    same_counts(first, again)
    assert first.tasks["computed"] == first.tasks["total"] > 0
    assert again.tasks == {"total": first.tasks["total"], "from_store": first.tasks["total"],
                           "computed": 0}
    assert json.dumps(again.to_dict()) == json.dumps(
        dict(first.to_dict(), seconds=again.to_dict()["seconds"],
             tasks=again.to_dict()["tasks"]))
    # the blocks of sizes below 200 are the same tasks: only the rest is computed
    assert 0 < longer.tasks["computed"] < longer.tasks["total"]
    assert longer.tasks["from_store"] >= short.tasks["total"] - 6   # 6 rule-trials: one clipped block each
    assert np.array_equal(longer.completed[:, :196], short.completed)


def test_task_keys_are_stable_and_name_their_parameters():
    a = [t.key for t in runner_tasks(plan_study(200, **KW))]
    b = [t.key for t in runner_tasks(plan_study(200, **KW))]
    assert a == b and len(set(a)) == len(a)
    c = [t.key for t in runner_tasks(plan_study(200, **dict(KW, seed=6)))]
    # seed 6 (trials 6, 7, 8) against seed 5 (5, 6, 7): the deterministic rules' tasks and
    # the random rule's trials 6 and 7 are shared, trial 5 is not
    assert set(a) & set(c) == {k for k in a if "/random/" not in k or "/t5/" not in k}
    assert any("/random/" in k for k in a)
    assert all(k.startswith("tiebreaks/v1/") for k in a)
