"""The packed store of found solutions gives back exactly what the engine produced."""
from __future__ import annotations

import numpy as np

from core.enumerate import Enumerator
from knightgui.solutions import SolutionStore
from knightgui.worker import compact


def test_store_round_trips_paths_options_and_branches():
    sols = Enumerator(8, 8, start="a8", end="c7").first(300)
    store = SolutionStore()
    store.extend(compact(s, 64) for s in sols[:7])      # batches of uneven sizes
    store.extend(compact(s, 64) for s in sols[7:])
    assert len(store) == 300
    for i in (0, 1, 2, 57, 299):
        s = sols[i]
        np.testing.assert_array_equal(store.path(i), s.path)
        np.testing.assert_array_equal(store.mo(i), s.mo)
        assert store.branch(i) == s.branch and store.index(i) == s.index == i + 1
    assert store.nbytes() < 300 * 400                      # compact: well under 400 B each


def test_out_of_range_is_an_index_error():
    store = SolutionStore()
    try:
        store.path(0)
    except IndexError as e:
        assert "not stored" in str(e)
    else:
        raise AssertionError("expected IndexError")


def test_memory_budget_bounds_what_is_kept_while_counting_goes_on(qtbot, monkeypatch):
    import knightgui.worker as wk
    monkeypatch.setattr(wk, "KEEP_BYTES", 50 * (64 * 2 + 64))   # room for 50 8×8 paths
    w = wk.SolverThread()
    got, done = [], []
    w.solutionsFound.connect(lambda g, batch: got.extend(batch))
    w.finishedRun.connect(lambda g, st: done.append(st))
    w.submit(wk.Request(rows=8, cols=8, mode="exhaustive", start="a8", end="c7", closed=True))
    qtbot.waitUntil(lambda: bool(done), timeout=60_000)
    assert len(got) == 50 and done[0].solutions == 14_258 and done[0].exhausted
    assert w.stop(5000)
