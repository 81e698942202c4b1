"""Watching the search one forward move at a time (core.tietree.enumeration.watch) gives exactly the
enumeration's solutions and counters, and a watch can be handed over mid-way."""
from __future__ import annotations

import numpy as np
import pytest

from knightgui_core.tietree.enumeration.enumerator import Enumerator
from knightgui_core.tietree.enumeration.watch import SearchWatch


def _all_solutions(en: Enumerator) -> list[np.ndarray]:
    out = []
    while (s := en.next_solution()) is not None:
        out.append(s.path)
    return out


@pytest.mark.parametrize("args", [dict(rows=6, cols=6, start="a1"),
                                  dict(rows=5, cols=5, start="c3"),
                                  dict(rows=6, cols=6, start="a1", end="b3"),
                                  dict(rows=5, cols=6, start="a1")])
def test_watching_to_the_end_finds_the_same_tours_and_counts(args):
    ref = Enumerator(**args)
    want = _all_solutions(ref)
    en = Enumerator(**args)
    w = SearchWatch(en)
    got, steps = [], 0
    prev_path = w.path()
    while True:
        s = w.step()
        if s.done:
            break
        steps += 1
        path = w.path()
        assert len(path) == s.number and path[-1] == s.square
        b = en.board
        assert b.is_knight_move(int(path[-2]), int(path[-1]))
        if s.backed_up_to is None:                 # straight on: one square more
            assert len(path) == len(prev_path) + 1
            np.testing.assert_array_equal(path[:-1], prev_path)
        else:                                      # backed up, then one move
            assert s.number == s.backed_up_to + 1 <= len(prev_path)
            np.testing.assert_array_equal(path[:-1], prev_path[:s.backed_up_to])
        for r in s.rivals:                         # tied with the square taken, from the same one
            assert b.is_knight_move(int(path[-2]), r) and r not in path
        if s.solution is not None:
            got.append(en.current_solution().path)
            assert s.solution == len(got)
        prev_path = path
    assert len(got) == len(want)
    for a, b_ in zip(got, want):
        np.testing.assert_array_equal(a, b_)
    assert (s.solutions, s.dead_ends, s.forward_moves) == (ref.solutions, ref.dead_ends,
                                                           ref.forward_moves)
    assert steps == ref.forward_moves
    assert w.step().done                           # stays done


def test_a_watch_handed_over_midway_finishes_with_the_same_results():
    ref = Enumerator(8, 8, start="a8", end="c7")
    want = [s.path for s in ref.first(40)]
    en = Enumerator(8, 8, start="a8", end="c7")
    w = SearchWatch(en)
    seen = []
    for _ in range(500):
        if w.step().solution:
            seen.append(en.current_solution().path)
    on = Enumerator(8, 8, start="a8", end="c7")
    on.set_state(w.state())                        # the watch is turned off: full speed
    rest = on.first(40 - len(seen))
    assert 0 < len(seen) < 40
    for a, b in zip(seen + [s.path for s in rest], want):
        np.testing.assert_array_equal(a, b)


def test_rivals_are_the_options_matrix_row():
    en = Enumerator(8, 8, start="a8", end="c7")
    w = SearchWatch(en)
    for _ in range(300):
        s = w.step()
        if s.rivals:
            row = w.options()[s.number - 1]
            assert len(s.rivals) == row[0]
