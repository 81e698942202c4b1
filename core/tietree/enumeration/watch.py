"""Watching the search: Phadke's exhaustive enumeration one forward move at a time.

:class:`SearchWatch` drives an :class:`knightgui_core.tietree.enumeration.enumerator.Enumerator`
one forward move a call and says what the move did (:class:`WatchStep`), for the window to play
at a chosen speed; :meth:`SearchWatch.state` hands the search over to run on at full speed
from where the watch stands, so watching never changes the solutions. A step is one kernel
call (a few µs): 10,000 moves a second on any board the enumeration takes.
"""
from __future__ import annotations

import numpy as np

from ...board.watch_step import WatchStep, take_steps
from . import enumerate_kernel as _k
from .enumerator import Enumerator

__all__ = ["SearchWatch", "WatchStep"]


class SearchWatch:
    """One forward move of ``enumerator`` per :meth:`step`. The enumerator must not be
    advanced by anything else meanwhile."""

    def __init__(self, enumerator: Enumerator):
        self.en = enumerator
        self._e = enumerator.engine

    @property
    def number(self) -> int:
        """The move number the knight stands on."""
        return int(self._e.st[_k.ST_K])

    def path(self) -> np.ndarray:
        """int32[number]: the squares of the partial path, start first (a copy)."""
        return self._e.path[1:self.number + 1].copy()

    def options(self) -> np.ndarray:
        """int8[L + 1, 8]: the options matrix as it stands (row k: the move types tied at
        move k kept for later; column 0 their number) — a copy."""
        return self._e.mo.copy()

    def step(self) -> WatchStep:
        """Make one forward move and say what it did."""
        e, st = self._e, self._e.st
        before_k = int(st[_k.ST_K])
        before_dead = int(st[_k.ST_DEAD_ENDS])
        before_fwd = int(st[_k.ST_FORWARD])
        done_before = int(st[_k.ST_PHASE]) == _k.PH_DONE
        ev = _k.EXHAUSTED if done_before else e.advance(1, True)
        k = int(st[_k.ST_K])
        moved = int(st[_k.ST_FORWARD]) > before_fwd
        sols = int(st[_k.ST_SOLUTIONS])
        backed = k - 1 if moved and k <= before_k else None
        rivals: tuple[int, ...] = ()
        if moved and k >= 2:
            q = int(e.path[k - 1])
            row = e.mo[k - 1]
            rivals = tuple(int(e.nbr[q, int(t) - 1]) for t in row[1:int(row[0]) + 1])
        return WatchStep(number=k, square=int(e.path[k]), rivals=rivals, backed_up_to=backed,
                         dead_end=int(st[_k.ST_DEAD_ENDS]) > before_dead,
                         solution=sols if ev == _k.SOLUTION else None,
                         done=(not moved) and int(st[_k.ST_PHASE]) == _k.PH_DONE,
                         solutions=sols, dead_ends=int(st[_k.ST_DEAD_ENDS]),
                         forward_moves=int(st[_k.ST_FORWARD]))

    def steps(self, n: int) -> list[WatchStep]:
        """Up to ``n`` steps (fewer when the search ends)."""
        return take_steps(self.step, n)

    def state(self) -> dict:
        """The search as it stands (:meth:`Enumerator.get_state`), to continue elsewhere."""
        return self.en.get_state()
