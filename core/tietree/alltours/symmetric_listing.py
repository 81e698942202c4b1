"""The symmetric tours of a board, a block at a time: what the window's every-tour mode steps
through when a symmetry is chosen.

:class:`SymmetricLister` has the shape of
:class:`knightgui_core.tietree.alltours.all_tours_list.AllToursLister` (``n``, ``found``,
``nodes``, ``done``, ``block``). On boards of at most :data:`LIST_MAX` squares it lists them
(:func:`symmetric_tours`, the quotient's plain search: 6×6 has 78 closed tours a half turn
keeps); on bigger ones it only counts them with the kernel, a budget of states a call
(8×8: 2,432,932 in about 20 s): millions of tours are no use to step through, and the plain
search has no table to reach them quickly.

>>> lister = SymmetricLister(Board(6, 6), "quarter-turn", closed=True)
>>> len(lister.block(100)), lister.found, lister.done, lister.listed
(10, 10, True, True)
"""
from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ...board.squares import Board
from .symmetric_tours import Part, PartCounter, Plan, plan

__all__ = ["SymmetricLister", "LIST_MAX", "symmetric_tours"]

#: the largest board whose symmetric tours are listed (bigger ones are counted only)
LIST_MAX = 36
#: the table of a count (bigger boards)
COUNT_TABLE_BYTES = 128 << 20


def _half_paths(p: Plan, part: Part, adj: list[list[int]]) -> Iterator[list[int]]:
    """Every path of a part with a positive end weight (a plain search, no table)."""
    orbit = p.orbit
    path = [part.start]
    todo = part.todo

    def rec() -> Iterator[list[int]]:
        nonlocal todo
        if todo == 0:
            if part.endw[path[-1]]:
                yield list(path)
            return
        for t in adj[path[-1]]:
            bit = 1 << int(orbit[t])
            if todo & bit:
                todo &= ~bit
                path.append(t)
                yield from rec()
                path.pop()
                todo |= bit
    yield from rec()


def _lift(p: Plan, part: Part, half: list[int]) -> Iterator[list[int]]:
    """The tours of the board whose piece is ``half``, each met once over the whole search
    (of the two halves or two directions that give the same tour, the one whose second
    square is the smaller)."""
    perm = [int(x) for x in p.perm]
    nbr = p.board.neighbours
    if part.kind == "turn":
        order = 4 if p.symmetry == "quarter-turn" else 2
        for j in ([1, 3] if order == 4 else [1]):
            img = half[0]
            for _ in range(j):
                img = perm[img]
            if img not in nbr[half[-1]]:
                continue
            tour, cur = [], list(half)
            for _ in range(order):
                tour += cur
                for _ in range(j):
                    cur = [perm[s] for s in cur]
            if tour[1] < tour[-1]:
                yield tour
    elif part.kind == "moves":
        yield half + [perm[s] for s in reversed(half)]
    elif part.kind == "squares":
        g = next(s for s in range(p.board.size) if perm[s] == s and s != half[0])
        tour = half + [g] + [perm[s] for s in reversed(half[1:])]
        if tour[1] < tour[-1]:
            yield tour
    elif part.kind == "open-square":
        mirror = [perm[s] for s in half]
        if len(half) == 1 or half[1] < mirror[1]:
            yield mirror[:0:-1] + half
    else:
        yield [perm[s] for s in reversed(half)] + half


def symmetric_tours(p: Plan, limit: int | None = None) -> Iterator[list[int]]:
    """The plan's symmetric tours as lists of squares (closed: the cycle from a start; open:
    the path), each once, by a plain search of the quotient (small boards: no table)."""
    adj = [[int(t) for t in p.board.neighbours[s] if t >= 0] for s in range(p.board.size)]
    got = 0
    for part in p.parts:
        for half in _half_paths(p, part, adj):
            for tour in _lift(p, part, half):
                yield tour
                got += 1
                if limit is not None and got >= limit:
                    return


class SymmetricLister:
    """The tours of ``board`` that ``symmetry`` maps onto themselves (closed tours, or open
    paths), in blocks; ``reason`` says why there are none when the symmetry allows none,
    ``listed`` whether they are listed or only counted. Raises
    :class:`knightgui_core.tietree.counting.subtrees.CountError` (one sentence) for what the count
    does not take."""

    def __init__(self, board: Board, symmetry: str, closed: bool):
        self.plan = plan(board, symmetry, bool(closed))
        self.n = board.size
        self.found = 0
        self.nodes = 0
        self.reason = self.plan.reason
        self.listed = board.size <= LIST_MAX
        self._tours: Iterator[list[int]] | None = (symmetric_tours(self.plan) if self.listed
                                                  else None)
        self._done = False
        self._part = 0                              # the part being counted, and its count
        self._counter: PartCounter | None = None
        self._nodes_before = 0

    @property
    def done(self) -> bool:
        """Every tour has been listed (or counted)."""
        return self._done

    def block(self, want: int, budget: int = 0) -> np.ndarray:
        """int32[m, N]: the next ``m <= want`` tours (none once :attr:`done`; on a board
        over :data:`LIST_MAX` squares the first call counts them all and lists none).
        ``budget``: the states the count may expand in this call (its default: a million)."""
        want = int(want)
        if want < 1:
            raise ValueError("ask for at least one tour")
        empty = np.zeros((0, self.n), dtype=np.int32)
        if self._done:
            return empty
        if self._tours is None:
            self._count(int(budget) if budget else 1 << 20)
            return empty
        rows: list[list[int]] = []
        for tour in self._tours:
            rows.append(tour)
            if len(rows) >= want:
                break
        else:
            self._done = True
        self.found += len(rows)
        self.nodes += len(rows)
        return np.asarray(rows, dtype=np.int32).reshape(len(rows), self.n) if rows else empty

    def _count(self, budget: int) -> None:
        """One budget of the kernel's count, part after part."""
        p = self.plan
        if self._part >= len(p.parts):
            self._done = True
            return
        if self._counter is None:
            self._counter = PartCounter(p, p.parts[self._part], COUNT_TABLE_BYTES)
        finished = self._counter.step(budget)
        self.nodes = self._nodes_before + self._counter.nodes
        if finished:
            self.found += self._counter.paths // p.divisors[self._part]
            self._nodes_before = self.nodes
            self._counter = None
            self._part += 1
            self._done = self._part >= len(p.parts)
