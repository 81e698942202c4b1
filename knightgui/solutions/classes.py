"""Which of the kept solutions are new tours, and what an old one is the same as (Qt-free).

:class:`TourClasses` gives each kept solution the first solution of its *class*: the same
tour up to the board's turns and mirrors, read backwards, or, closed, started elsewhere on
its cycle (:mod:`knightgui_core.board.canonical`); a solution is *new* when it is the first
of its class. Solutions are classified lazily, in blocks of :data:`BLOCK`, only as far as a
question needs, keyed by the whole canonical form.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from knightgui_core.board.canonical import canonical_rows, relation
from knightgui_core.board.squares import Board

__all__ = ["TourClasses", "BLOCK"]

#: solutions classified at once at most (8×8: about 3 µs each for the canonical form, a few
#: more to rebuild the path from the kept runs)
BLOCK = 4096
#: solutions classified ahead when a step needs one more (about 1 ms on 8×8)
STEP_AHEAD = 256


class TourClasses:
    """The class of each of the solutions ``0 … count() - 1`` of one run, in order.

    ``path(i)`` returns solution ``i`` (0-based), ``count()`` how many are kept now (it may
    grow), ``number(i)`` the number shown for it (default ``i + 1``), ``paths(lo, hi)``
    (optional) solutions ``lo … hi - 1`` as the rows of one array."""

    def __init__(self, board: Board, path: Callable[[int], np.ndarray],
                 count: Callable[[], int], number: Callable[[int], int] | None = None,
                 paths: Callable[[int, int], np.ndarray] | None = None, block: int = BLOCK):
        self.board = board
        self.block = max(1, int(block))
        self._path = path
        self._paths = paths or (lambda lo, hi: np.stack([np.asarray(path(i))
                                                         for i in range(lo, hi)]))
        self._count = count
        self._number = number if number is not None else (lambda i: i + 1)
        self._first = np.zeros(0, dtype=np.int64)   # first solution of each one's class
        self._done = 0
        self._seen: dict[bytes, int] = {}

    @property
    def classified(self) -> int:
        """How many solutions (from the first) have their class."""
        return self._done

    @property
    def classes(self) -> int:
        """Different tours among the classified solutions."""
        return len(self._seen)

    def _grow(self, upto: int) -> None:
        """Classify solutions until ``upto`` (exclusive) or the last kept one."""
        upto = min(int(upto), int(self._count()))
        while self._done < upto:
            lo = self._done
            # a step needs a few more, a jump up to a whole block a pass
            hi = min(lo + self.block, max(upto, lo + STEP_AHEAD), int(self._count()))
            forms = canonical_rows(self.board, self._paths(lo, hi))
            first = np.empty(hi - lo, dtype=np.int64)
            for k, row in enumerate(forms):
                first[k] = self._seen.setdefault(row.tobytes(), lo + k)
            self._first = np.concatenate([self._first, first])
            self._done = hi

    def _check(self, i: int) -> int:
        i = int(i)
        if not 0 <= i < int(self._count()):
            raise IndexError(f"solution {i + 1} is not kept ({self._count()} kept)")
        return i

    def within_reach(self, i: int, reach: int = 200_000) -> bool:
        """Whether solution ``i`` is at most ``reach`` solutions past the classified ones
        (asking costs that many canonical forms at most)."""
        return int(i) < self._done + int(reach)

    def first_of(self, i: int) -> int:
        """The first solution (0-based) of the class of solution ``i``."""
        i = self._check(i)
        if i == 0:
            return 0                 # the first is always new: nothing to compare yet
        self._grow(i + 1)
        return int(self._first[i])

    def is_new(self, i: int) -> bool:
        """Whether solution ``i`` is the first of its class."""
        return self.first_of(i) == int(i)

    def next_new(self, i: int) -> int | None:
        """The first new tour after solution ``i`` (``i = -1`` for the very first), or None
        when every later kept solution repeats an earlier tour."""
        j = int(i) + 1
        while j < int(self._count()):
            self._grow(j + 1)
            hits = np.flatnonzero(self._first[j:self._done] == np.arange(j, self._done))
            if hits.size:
                return j + int(hits[0])
            j = self._done
        return None

    def previous_new(self, i: int) -> int | None:
        """The last new tour before solution ``i``, or None."""
        i = min(int(i), int(self._count()))
        self._grow(i)
        hits = np.flatnonzero(self._first[:i] == np.arange(i))
        return int(hits[-1]) if hits.size else None

    def last_new(self) -> int | None:
        """The last new tour among the solutions kept (all classified), or None."""
        return self.previous_new(int(self._count()))

    def describe(self, i: int) -> str | None:
        """What solution ``i`` is when it repeats an earlier tour ("solution 3 reversed",
        "the same cycle as solution 5"), or None when it is new."""
        first = self.first_of(i)
        if first == int(i):
            return None
        how = relation(self.board, np.asarray(self._path(first)), np.asarray(self._path(i)))
        n = self._number(first)
        if how is None or how == "the same tour":   # None cannot happen for one class
            return f"the same tour as solution {n:,}"
        if how.startswith("the same cycle"):
            rest = how[len("the same cycle"):].strip()
            return f"the same cycle as solution {n:,}" + (f", {rest}" if rest else "")
        return f"solution {n:,} {how}"
