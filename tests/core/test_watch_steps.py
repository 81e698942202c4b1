"""take_steps (board/watch_step.py): the one loop behind both watched searches' ``steps(n)``."""
from __future__ import annotations

from knightgui_core.board.squares import Board
from knightgui_core.board.watch_step import WatchStep, take_steps
from knightgui_core.tietree.enumeration.enumerator import Enumerator
from knightgui_core.tietree.enumeration.watch import SearchWatch
from knightgui_core.walks.backtrack_watch import BacktrackWatch


def _step(number: int, solution: int | None = None, done: bool = False) -> WatchStep:
    return WatchStep(number=number, square=0, rivals=(), backed_up_to=None, dead_end=False,
                     solution=solution, done=done, solutions=0, dead_ends=0, forward_moves=0)


def _feed(script: list[WatchStep]):
    it = iter(script)
    return lambda: next(it)


def test_it_stops_at_n_at_done_and_on_request_at_a_solution():
    script = [_step(1), _step(2, solution=1), _step(3), _step(4, done=True), _step(5)]
    assert [s.number for s in take_steps(_feed(script), 2)] == [1, 2]
    assert [s.number for s in take_steps(_feed(script), 10)] == [1, 2, 3, 4]
    assert [s.number for s in take_steps(_feed(script), 10, until_solution=True)] == [1, 2]
    assert take_steps(_feed(script), 0) == []


def test_the_backtracking_watch_ends_its_steps_at_its_tour():
    w = BacktrackWatch(Board(5, 5), 0)
    steps = w.steps(10_000)
    assert steps[-1].solution and not any(s.solution or s.done for s in steps[:-1])
    assert w.found and len(w.path()) == 25


def test_the_enumeration_watch_goes_on_past_a_solution():
    steps = SearchWatch(Enumerator(5, 5, start="a1")).steps(100_000)
    assert steps[-1].done and sum(1 for s in steps if s.solution) >= 2
