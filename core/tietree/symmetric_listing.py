"""The symmetric tours of a board, a block at a time: what the window's every-tour mode steps
through when a symmetry is chosen.

:class:`SymmetricLister` has the shape of :class:`knightgui_core.tietree.all_tours_list.
AllToursLister` (``n``, ``found``, ``nodes``, ``done``, ``block``), so the window keeps and
steps through its tours as it does every path from a start. On boards of at most
:data:`LIST_MAX` squares it lists them (the quotient's plain search,
:func:`knightgui_core.tietree.symmetric_tours.symmetric_tours`: 6×6 has 78 closed tours a
half turn keeps, listed at once); on bigger ones it only counts them with the kernel (8×8:
2,432,932 in about 20 s) and lists none — a list of millions of tours is no use to step
through, and the plain search has no table to reach them quickly.

>>> lister = SymmetricLister(Board(6, 6), "quarter-turn", closed=True)
>>> len(lister.block(100)), lister.found, lister.done, lister.listed
(10, 10, True, True)
"""
from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..board.squares import Board
from .symmetric_tours import count_plan, plan, symmetric_tours

__all__ = ["SymmetricLister", "LIST_MAX"]

#: the largest board whose symmetric tours are listed (bigger ones are counted only)
LIST_MAX = 36


class SymmetricLister:
    """The tours of ``board`` that ``symmetry`` maps onto themselves (closed tours, or open
    paths), in blocks; ``reason`` says why there are none when the symmetry allows none,
    ``listed`` whether they are listed or only counted. Raises
    :class:`knightgui_core.tietree.subtrees.CountError` (one sentence) for what the count
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

    @property
    def done(self) -> bool:
        """Every tour has been listed (or counted)."""
        return self._done

    def block(self, want: int, budget: int = 0) -> np.ndarray:
        """int32[m, N]: the next ``m <= want`` tours (none once :attr:`done`; on a board
        over :data:`LIST_MAX` squares the first call counts them all and lists none).
        ``budget`` is taken for the shape of the all-tours lister and not used."""
        want = int(want)
        if want < 1:
            raise ValueError("ask for at least one tour")
        empty = np.zeros((0, self.n), dtype=np.int32)
        if self._done:
            return empty
        if self._tours is None:
            self.found = count_plan(self.plan)
            self._done = True
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
