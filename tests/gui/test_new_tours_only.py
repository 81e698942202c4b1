"""Stepping through new tours only, and what a repeated tour is said to be (issue 26 item 3)."""
from __future__ import annotations

import numpy as np

from knightgui_core.board.canonical import canonical_id, relation
from knightgui_core.board.squares import Board

from gui_helpers import open_exhaustive, wait_until


def _enumerate_open(window, qtbot, size=6, start="a1"):
    open_exhaustive(window, size, start)
    window.solve()
    wait_until(qtbot, lambda: not window.results.running, timeout=120)


def test_new_tours_only_skips_every_repeat_and_names_the_repeats(window, qtbot):
    _enumerate_open(window, qtbot)
    r = window.results
    b = Board(6, 6)
    assert r.exhausted and len(r.store) == r.found > 2
    paths = [r.store.path(i) for i in range(len(r.store))]
    ids = [canonical_id(b, p) for p in paths]
    first = {}
    for i, k in enumerate(ids):
        first.setdefault(k, i)
    assert len(first) < len(ids)               # a1 lies on a diagonal: mirror pairs repeat
    # every solution, one by one: a repeat says which earlier solution it is, and how
    r.first()
    for i in range(len(paths)):
        if i:
            assert r.next()
        same = r.tour.method.get("same_as")
        if first[ids[i]] == i:
            assert same == "a new tour"
        else:
            j = first[ids[i]]
            assert same is not None and f"solution {j + 1}" in same
            how = relation(b, paths[j], paths[i])
            assert how is not None and how.split(",")[0] in same
            assert same in window.counter.identity.text()
    # new tours only: exactly the first of each class, forwards and back
    r.set_new_only(True)
    r.first()
    seen = [r.current]
    while r.next():
        seen.append(r.current)
    assert seen == sorted(first.values())
    assert "no new tour after" in window.statusBar().currentMessage()
    back = [r.current]
    while r.previous():
        back.append(r.current)
    assert back[::-1] == seen
    r.set_new_only(False)
    r.first()
    assert r.next() and r.current == 1


def test_a_new_run_forgets_the_classes_of_the_last(window, qtbot):
    _enumerate_open(window, qtbot)
    first_run = window.results.classes
    _enumerate_open(window, qtbot, start="c3")
    assert window.results.classes is not first_run
    assert window.results.tour.method.get("same_as") == "a new tour"
    np.testing.assert_array_equal(window.view.path, window.results.store.path(0))


def test_last_with_new_tours_only_lands_on_the_last_new_tour(window, qtbot):
    """Issue 35: with new tours only, Last showed solution 137,300 of the a8 open tours,
    which its own Tour id calls a repeat of solution 10,428."""
    _enumerate_open(window, qtbot, 8, "a8")
    r = window.results
    assert r.exhausted and len(r.store) == r.found == 137_300
    r.set_new_only(True)
    assert r.last()
    last_new = r.current
    assert r.tour.method.get("same_as") == "a new tour"
    assert "a new tour" in window.counter.identity.text()
    assert last_new < 137_299 and r.classes.next_new(last_new) is None
    assert r.same_as(137_299) == "solution 10,428 reflected in the other diagonal"
    assert not r.next() and r.current == last_new             # nothing new after it
    r.set_new_only(False)
    assert r.last() and r.current == 137_299                  # every solution: the last one
