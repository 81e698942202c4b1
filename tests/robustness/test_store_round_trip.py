"""Every study reads back every row it wrote (real SQLite files in tmp folders): for each
study the runner has, at several task splits, a run then a re-run with the same store —
the re-run computes nothing, takes every task from the store and gives the same figures;
and the figures do not depend on the split (counts exactly; probabilities, sums of the
same terms in another order, to rounding)."""
from __future__ import annotations

import functools
import itertools
import math
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from knightgui_core.run.store import ResultStore
from knightgui_core.studies import all_tours, count_study, symmetric_count, tiebreaks
from knightgui_core.studies import phadke as P
from knightgui_core.studies.magic import census as magic_census
from knightgui_core.studies.orders import runner as orders_runner
from knightgui_core.studies.phadke import runner as phadke_runner

pytestmark = pytest.mark.timeout(180)

#: each worker thread's transposition table in these runs, a size of its own each run (a
#: thread keeps its table from task to task while the size stays the same): every run starts
#: with empty tables, so that where its tasks stop does not depend on the runs before it
TABLES = itertools.count(16 << 20, 1 << 12)


def _count(rows: int, cols: int, starts: str, must_split: bool | None = None,
           **kw) -> Callable[[ResultStore], tuple]:
    """The count run; ``must_split`` (default: when a budget is given) asserts that its
    tasks split into more than one round."""
    split = "budget" in kw if must_split is None else must_split

    def go(st: ResultStore) -> tuple:
        options = count_study.CountOptions(table_bytes=next(TABLES), **kw)
        r = count_study.run_count(rows, cols, starts, store=st, options=options)
        assert not r.cancelled
        if split:
            assert r.rounds > 1                       # the tasks did split
        return r.tasks, {"totals": r.totals, "per_start": r.per_start,
                         "lengths": r.dead_end_lengths}
    return go


def _phadke(chunk: int) -> Callable[[ResultStore], tuple]:
    def go(st: ResultStore) -> tuple:
        res, report = phadke_runner.run_study(P.algorithms("strict"), store=st, chunk=chunk)
        return report.tasks_json(), {"counts": res.counts}
    return go


def _orders(n: int, tie: str, subset: int | None = None) -> Callable[[ResultStore], tuple]:
    def go(st: ResultStore) -> tuple:
        orders = None if subset is None else orders_runner.all_orders()[::subset]
        res, report = orders_runner.run_study(n, tie, orders=orders, store=st)
        return report.tasks_json(), {"lengths": res.lengths.tolist(),
                                     "closed": res.closed.tolist()}
    return go


def _tiebreaks(n_max: int, **kw) -> Callable[[ResultStore], tuple]:
    def go(st: ResultStore) -> tuple:
        r = tiebreaks.run_tiebreaks(n_max, store=st, **kw)
        assert r.complete
        return None, {"completed": np.asarray(r.completed).tolist(),
                      "tried": np.asarray(r.tried).tolist(),
                      "first_fail": np.asarray(r.first_fail).tolist()}
    return go


def _all_tours(rows: int, cols: int) -> Callable[[ResultStore], tuple]:
    def go(st: ResultStore) -> tuple:
        r = all_tours.run_all_tours(rows, cols, store=st)
        return r.tasks, {"per_start": r.per_start}
    return go


def _census(size: int, mode: str) -> Callable[[ResultStore], tuple]:
    def go(st: ResultStore) -> tuple:
        r = magic_census.run_census(size, mode, store=st)
        assert r.complete
        return r.tasks, {"numbered": r.numbered, "classes": r.classes, "nodes": r.nodes,
                         "tours": r.tours}
    return go


def _symmetric(n: int, symmetry: str) -> Callable[[ResultStore], tuple]:
    def go(st: ResultStore) -> tuple:
        r = symmetric_count.run_symmetric(n, n, symmetry, store=st)
        return r.tasks, {"paths": r.paths, "closed": r.closed, "parts": r.parts}
    return go


#: study -> {split: the run}; the runs of one study differ only in how the work is cut
STUDIES: dict[str, dict[str, Callable[[ResultStore], tuple]]] = {
    "count 6x6": {
        "whole starts": _count(6, 6, "all"),
        "2 ties down": _count(6, 6, "all", split_depth=2),
        "50 moves a task": _count(6, 6, "all", budget=50),
        "300 moves a task": _count(6, 6, "all", budget=300),
        "no fold, 400 moves": _count(6, 6, "all", budget=400, fold=False),
    },
    "count 8x8 d4": {                   # the interleaved count hands back many subtrees
        "whole": _count(8, 8, "d4", fold=False),
        "65536 moves a task": _count(8, 8, "d4", budget=65536, fold=False),
        "70000 moves, folded": _count(8, 8, "d4", budget=70000),
    },
    "count per start": {
        "whole": _count(7, 7, "a1,c3,d4"),
        "1000 moves a task": _count(7, 7, "a1,c3,d4", budget=1000),
    },
    "count lengths": {
        "whole": _count(6, 6, "a1,b3", lengths=True),
        "60 moves a task": _count(6, 6, "a1,b3", lengths=True, budget=60),
        "1 tie down, 100 moves": _count(6, 6, "a1,b3", lengths=True, split_depth=1,
                                        budget=100),
    },
    "phadke strict": {f"{c} a task": _phadke(c) for c in (512, 64, 9)},
    "move orders 5x5 first": {"slices": _orders(5, "first")},
    "move orders 5x5 last, a subset": {"slices": _orders(5, "last", subset=7)},
    "tie-breaks": {
        "corner": _tiebreaks(12, n_min=5, rules=["first", "random"]),
    },
    "tie-breaks sampled": {
        "sample": _tiebreaks(9, n_min=5, rules=["first", "squirrel"], starts="sample",
                             sample=5, seed=3),
    },
    "all tours 4x5": {"per start": _all_tours(4, 5)},
    "semimagic census 6x6 half-turn": {"per start": _census(6, "half-turn")},
    "symmetric tours 6x6": {"parts": _symmetric(6, "half-turn")},
}
CASES = [(s, split) for s, splits in STUDIES.items() for split in splits]


def _close(a: Any, b: Any) -> bool:
    """Equal, floats to rounding (1e-12 relative)."""
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and math.isclose(
            a, b, rel_tol=1e-12, abs_tol=1e-15)
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(
            _close(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return isinstance(b, (list, tuple)) and len(a) == len(b) and all(
            _close(x, y) for x, y in zip(a, b))
    return a == b


@functools.cache
def _reference(study: str) -> Any:
    """The figures of the study's first split, run into a store of its own."""
    with tempfile.TemporaryDirectory() as folder, ResultStore(Path(folder) / "r.sqlite") as st:
        return next(iter(STUDIES[study].values()))(st)[1]


@pytest.mark.parametrize("study,split", CASES)
def test_a_rerun_reads_every_row_back_with_the_same_figures(tmp_path, study, split):
    go = STUDIES[study][split]
    path = tmp_path / "s.sqlite"
    with ResultStore(path) as st:
        tasks, first = go(st)
        rows = st.count()
    assert rows > 0
    with ResultStore(path) as st:
        assert st.verify() == rows                     # every row passes its study's shape
        again_tasks, again = go(st)
        assert st.count() == rows                      # nothing computed, nothing added
    if tasks is not None:
        assert tasks["computed"] == tasks["total"] and tasks["from_store"] == 0
        assert again_tasks == {"total": tasks["total"], "from_store": tasks["total"],
                               "computed": 0}
    assert again == first                              # read back: the same, to the bit
    if study == "count 8x8 d4" and "65536" in split:
        with ResultStore(path) as st:                  # the interleaved count's many subtrees
            assert max(len(g) for r in st.rows() for g in r["result"]["next"]) > 7 * 64
    # another split of the same study: the same figures
    assert _close(first, _reference(study)), (study, split)


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(budget=st.integers(20, 4000), depth=st.integers(0, 2), fold=st.booleans(),
       lengths=st.booleans(), starts=st.sampled_from(["all", "a1", "a1,b3,c3", "corners"]))
def test_any_split_of_a_count_reads_back_to_the_figures_of_the_whole(tmp_path_factory, budget,
                                                                      depth, fold, lengths,
                                                                      starts):
    go = _count(6, 6, starts, must_split=False, budget=budget, split_depth=depth, fold=fold,
                lengths=lengths)
    path = tmp_path_factory.mktemp("split") / "s.sqlite"
    with ResultStore(path) as s:
        tasks, first = go(s)
    with ResultStore(path) as s:
        again_tasks, again = go(s)
    assert again_tasks == {"total": tasks["total"], "from_store": tasks["total"],
                           "computed": 0}
    assert again == first
    whole = _whole_count(starts, lengths)
    assert _close(first, whole), (budget, depth, fold, lengths, starts)


@functools.cache
def _whole_count(starts: str, lengths: bool) -> Any:
    """A 6×6 count's figures, each start one task, no store."""
    r = count_study.run_count(6, 6, starts,
                              options=count_study.CountOptions(lengths=lengths, table_bytes=next(TABLES)))
    return {"totals": r.totals, "per_start": r.per_start, "lengths": r.dead_end_lengths}
