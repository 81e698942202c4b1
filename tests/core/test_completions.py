"""A tour by hand (issue 36): the exact count of a path's finishes against a plain recursive
search written here, on every topology and for a zebra; the budget, cancel, the first-finish
mode and the refusals."""
from __future__ import annotations

import random
import sys
import threading
import time

import numpy as np
import pytest

from knightgui_core.board.squares import Board
from knightgui_core.system.errors import Cancelled, InputError
from knightgui_core.walks.hand.completions import completions
from knightgui_core.walks.hand.verdict import PlayError, play_path, quick_verdict


def plain_count(board: Board, path: list[int]) -> tuple[int, int]:
    """(finishes, finishes ending a move from the first square), by trying every order."""
    nbr = [[int(u) for u in row if u >= 0] for row in board.neighbours]
    visited = [False] * board.size
    for s in path:
        visited[s] = True
    first = path[0]
    found = [0, 0]

    def walk(v: int, left: int) -> None:
        if left == 0:
            found[0] += 1
            found[1] += first in nbr[v]
            return
        for u in nbr[v]:
            if not visited[u]:
                visited[u] = True
                walk(u, left - 1)
                visited[u] = False

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, board.size + 100))
    try:
        walk(path[-1], board.size - len(path))
    finally:
        sys.setrecursionlimit(old)
    return found[0], found[1]


def warnsdorff_prefix(board: Board, rng: random.Random, length: int) -> list[int]:
    """A path of ``length`` squares by Warnsdorff's rule with random ties from a random
    start, or a shorter one where the walk got stuck."""
    nbr = [[int(u) for u in row if u >= 0] for row in board.neighbours]
    path = [rng.randrange(board.size)]
    seen = set(path)
    while len(path) < length:
        cands = [u for u in nbr[path[-1]] if u not in seen]
        if not cands:
            break
        deg = {u: sum(w not in seen for w in nbr[u]) for u in cands}
        low = min(deg.values())
        u = rng.choice([c for c in cands if deg[c] == low])
        path.append(u)
        seen.add(u)
    return path


def positions(board: Board, free: int, count: int, seed: int) -> list[list[int]]:
    """``count`` seeded Warnsdorff prefixes leaving exactly ``free`` squares."""
    rng = random.Random(seed)
    out: list[list[int]] = []
    while len(out) < count:
        p = warnsdorff_prefix(board, rng, board.size - free)
        if len(p) == board.size - free and p not in out:
            out.append(p)
    return out


def is_finish(board: Board, path: list[int], finish: tuple[int, ...]) -> bool:
    whole = list(path) + list(finish)
    return (sorted(whole) == list(range(board.size))
            and all(board.is_knight_move(a, b) for a, b in zip(whole, whole[1:])))


CASES = [  # rows, cols, topology, leaper, free squares, positions
    (5, 5, "plane", (1, 2), 14, 6),
    (6, 6, "plane", (1, 2), 16, 6),
    (6, 7, "plane", (1, 2), 17, 6),
    (7, 7, "plane", (1, 2), 17, 8),
    (8, 8, "plane", (1, 2), 20, 6),
    (8, 8, "cylinder", (1, 2), 14, 4),
    (6, 6, "torus", (1, 2), 13, 4),
    (10, 10, "torus", (2, 3), 14, 4),      # a zebra on 100 squares
]


@pytest.mark.parametrize("rows, cols, topology, leaper, free, count", CASES)
def test_the_counts_are_those_of_a_plain_search(rows, cols, topology, leaper, free, count):
    board = Board(rows, cols, topology, leaper)
    seed = 1000 * rows + cols + len(topology) + sum(leaper)
    for p in positions(board, free, count, seed=seed):
        want = plain_count(board, p)
        got = completions(board, p, budget_seconds=60)
        assert got.counted and got.reason == ""
        assert (got.open, got.closed) == want, (board.describe(), p)
        assert got.extendable is (want[0] > 0)
        if want[0]:
            assert got.example is not None and is_finish(board, p, got.example)
        else:
            assert got.example is None
        first = completions(board, p, count=False)          # stop at the first finish
        assert first.extendable is got.extendable
        if want[0]:
            assert first.open is None and "first finish" in first.reason
            assert first.example is not None and is_finish(board, p, first.example)
        else:
            assert (first.open, first.closed) == (0, 0)


def test_the_cases_meet_finishes_closed_ones_and_dead_positions():
    """The parametrised cases above are not vacuous: among their positions are some with
    finishes, some with closed finishes and some lost (by the plain search alone)."""
    totals = {"extendable": 0, "lost": 0, "closed": 0}
    for rows, cols, topology, leaper, free, count in CASES:
        board = Board(rows, cols, topology, leaper)
        seed = 1000 * rows + cols + len(topology) + sum(leaper)
        for p in positions(board, free, count, seed=seed):
            opened, closed = plain_count(board, p)
            totals["extendable"] += opened > 0
            totals["closed"] += closed > 0
            totals["lost"] += opened == 0
    assert totals["extendable"] >= 10 and totals["closed"] >= 5 and totals["lost"] >= 1


@pytest.mark.parametrize("board", [Board(8, 8), Board(10, 10, "torus", (2, 3))])
@pytest.mark.parametrize("entries", [2, 64])
def test_a_small_or_full_table_of_positions_counts_the_same(board, entries):
    for p in positions(board, 16, 3, seed=88):
        full = completions(board, p)
        small = completions(board, p, memo_entries=entries)
        assert (small.open, small.closed) == (full.open, full.closed)
        assert small.nodes >= full.nodes


@pytest.mark.parametrize("board", [Board(10, 10), Board(9, 12, "cylinder"),
                                   Board(10, 10, "torus", (2, 3))])
def test_with_more_than_64_free_squares_a_first_finish_is_found(board):
    got = completions(board, [0], 30.0, count=False)       # no table of positions
    assert got.extendable is True and is_finish(board, [0], got.example)
    assert got.open is None and got.reason


def test_a_path_that_covers_the_board():
    board = Board(5, 5)
    tour = positions(board, 0, 1, seed=3)[0]
    got = completions(board, tour)
    closes = int(board.is_knight_move(tour[-1], tour[0]))
    assert (got.extendable, got.open, got.closed, got.example) == (True, 1, closes, ())


def test_a_lost_position_is_answered_by_the_verdict_without_a_search():
    board = Board(8, 8)
    p = [board.parse(s) for s in "c2 a3 b1 d2 b3 d4".split()]     # a1 cut off
    got = completions(board, p)
    assert (got.extendable, got.open, got.closed, got.nodes) == (False, 0, 0, 0)
    assert got.verdict.lost and board.parse("a1") in got.verdict.marked


def test_past_the_budget_the_count_is_unknown_but_a_finish_is_shown():
    board = Board(8, 8)
    t0 = time.perf_counter()
    got = completions(board, [0], budget_seconds=0.3)
    took = time.perf_counter() - t0
    assert got.open is None and got.closed is None and not got.counted
    assert "within 0.3 s" in got.reason
    assert got.extendable is True and is_finish(board, [0], got.example)
    assert took < 3.0            # a chunk lasts about 10 ms; generous for a loaded machine


def test_cancel_stops_the_search_quickly():
    board = Board(8, 8)
    completions(board, [0], budget_seconds=0.05)           # kernels loaded
    ev = threading.Event()
    fired = []

    def fire():
        time.sleep(0.2)
        fired.append(time.perf_counter())
        ev.set()

    th = threading.Thread(target=fire)
    th.start()
    with pytest.raises(Cancelled):
        completions(board, [0], budget_seconds=60, cancel=ev)
    late = time.perf_counter() - fired[0]
    th.join()
    assert late < 0.5, late
    with pytest.raises(Cancelled):
        completions(board, [0], cancel=lambda: True)


@pytest.mark.parametrize("path, what", [
    ([], "empty"),
    (["a1", "b3", "a1"], "twice"),
    (["a1", "b2"], "not a move"),
    (["a1", "z9"], "off"),
    (["a1", "nope"], "not a square"),
    ([0, 64], "off"),
])
def test_paths_that_are_not_paths_are_refused(path, what):
    board = Board(8, 8)
    with pytest.raises(PlayError, match=what):
        completions(board, path)
    with pytest.raises(InputError):
        quick_verdict(board, path)


def test_other_refusals_and_an_array_path():
    board = Board(8, 8)
    with pytest.raises(PlayError, match="budget"):
        completions(board, [0], budget_seconds=0)
    with pytest.raises(PlayError, match="memo_entries"):
        completions(board, [0], memo_entries=1000)
    with pytest.raises(PlayError, match="at most"):
        completions(Board(101, 100), [0])
    with pytest.raises(PlayError, match="not a move of the zebra"):
        play_path(Board(8, 8, leaper=(2, 3)), ["a1", "b3"])
    p = play_path(board, np.array([0, 17, 2], dtype=np.int64))
    assert p.dtype == np.int32 and p.tolist() == [0, 17, 2]
    assert play_path(board, ["a1", (1, 2), "3,1"]).tolist() == [0, 17, 2]


def test_a_budget_spent_before_the_search_starts_still_searches(monkeypatch):
    """Loading the kernels on a busy machine can take the whole budget: the search still
    runs one chunk and shows a finish, instead of answering that nothing was searched."""
    from knightgui_core.walks.hand import completions as module
    setup = module._Search.__init__

    def slow_setup(self, *args):
        setup(self, *args)
        time.sleep(0.2)                         # past the budget before the first chunk

    monkeypatch.setattr(module._Search, "__init__", slow_setup)
    got = completions(Board(8, 8), [0], budget_seconds=0.05)
    assert got.nodes > 0
    assert got.extendable is True and is_finish(Board(8, 8), [0], got.example)
