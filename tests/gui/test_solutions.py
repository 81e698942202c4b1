"""The packed store of found solutions gives back exactly what the engine produced."""
from __future__ import annotations

import numpy as np

from knightgui_core.enumerate import Enumerator
from knightgui.solutions import SolutionStore, pack


def test_store_round_trips_paths_options_and_branches():
    sols = Enumerator(8, 8, start="a8", end="c7").first(300)
    en = Enumerator(8, 8, start="a8", end="c7")
    store = SolutionStore()
    store.extend(pack(*en.block(7)))                          # runs of uneven sizes
    store.extend([pack(*en.block(0)), pack(*en.block(100)), pack(*en.block(193))])
    assert len(store) == 300
    for i in (0, 1, 2, 6, 7, 57, 106, 107, 299):
        s = sols[i]
        np.testing.assert_array_equal(store.path(i), s.path)
        np.testing.assert_array_equal(store.mo(i), s.mo)
        assert store.branch(i) == s.branch and store.index(i) == s.index == i + 1
    assert store.nbytes() < 300 * 400                      # compact: well under 400 B each


def test_block_gives_the_solutions_first_gives_up_to_the_end():
    a = Enumerator(6, 6, start="a1", end="b3")
    total = a.count()["solutions"]
    b = Enumerator(6, 6, start="a1", end="b3")
    got = []
    while True:
        first, paths, mo, branches = b.block(1000)
        assert first == len(got) + 1
        got.extend(zip(paths, mo, branches))
        if len(paths) < 1000:
            break
    sols = Enumerator(6, 6, start="a1", end="b3").first(total + 5)
    assert len(got) == len(sols) == total and b.exhausted
    for (p, m, br), s in zip(got, sols):
        assert (p == s.path).all() and (m == s.mo).all() and br == s.branch


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
    assert sum(len(b) for b in got) == 50 and done[0].solutions == 14_258 and done[0].exhausted
    assert w.stop(5000)
