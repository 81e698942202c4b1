"""The semi-magic census study (core/studies/magic/census.py): 6×6 half-turn exhausted on the
runner and read back from the store on a rerun, and the gathering counts numbered tours,
classes up to symmetry and reversal, and closed tours."""
from __future__ import annotations

import numpy as np
import pytest
from test_semimagic_search import HALF_TURN_C1

from knightgui_core.run.runner import RunReport, run_tasks
from knightgui_core.run.store import ResultStore
from knightgui_core.studies.magic.census import census_tasks, class_key, run_census
from knightgui_core.studies.magic.search import MagicSearchError


def test_six_by_six_half_turn_census_runs_and_resumes_from_the_store(tmp_path):
    path = tmp_path / "census.sqlite"
    with ResultStore(path) as store:
        first = run_census(6, "half-turn", runner=lambda ts: run_tasks(
            ts, store=store, scheduler="threads"))
    assert first.complete and first.numbered == first.classes == first.closed_tours == 0
    assert first.tasks == {"total": 6, "from_store": 0, "computed": 6} and first.nodes > 0
    with ResultStore(path) as store:
        again = run_census(6, "half-turn", runner=lambda ts: run_tasks(
            ts, store=store, scheduler="threads"))
    assert again.tasks == {"total": 6, "from_store": 6, "computed": 0}
    assert again.nodes == first.nodes and again.complete


def test_the_gathering_counts_classes_and_closed_tours():
    tour = HALF_TURN_C1 + [63 - v for v in HALF_TURN_C1]
    g = np.arange(64).reshape(8, 8)
    mirror = [int(g[:, ::-1].ravel()[s]) for s in tour]    # its mirror image, numbered alike
    later = tour[5:] + tour[:5]                            # the same cycle from another square
    tasks = census_tasks(8, "half-turn")
    results = {t.key: {"tours": [], "nodes": 1} for t in tasks}
    results[tasks[0].key] = {"tours": [tour, tour[::-1], later], "nodes": 7}
    results[tasks[1].key] = {"tours": [mirror], "nodes": 5}
    report = RunReport(results=results, total=len(tasks), computed=len(tasks))
    r = run_census(8, "half-turn", runner=lambda ts: report)
    assert r.complete and r.numbered == 4 and r.nodes == 7 + 5 + 8
    assert r.classes == 2 and r.closed_tours == 1          # tour ~ reversed ~ mirror; later apart
    assert class_key(8, tour) == class_key(8, mirror) == class_key(8, tour[::-1])
    assert class_key(8, later) != class_key(8, tour)


def test_a_cancelled_run_is_not_complete_and_a_bad_mode_is_refused():
    tasks = census_tasks(6, "half-turn")
    part = RunReport(results={}, total=len(tasks), cancelled=True)
    r = run_census(6, "half-turn", runner=lambda ts: part)
    assert not r.complete and r.numbered == 0 and r.tasks["total"] == 6
    with pytest.raises(MagicSearchError, match="mode"):
        census_tasks(8, "spiral")
