"""Every knight's path from a start, one block at a time: what ``knightgui enumerate
--all-tours`` lists and what the window steps through in its all-tours mode.

:class:`AllToursLister` keeps the search of
:func:`knightgui_core.tietree.alltours.alltours_list_kernel.list_all` between calls: blocks of
any size, the same order on every run, flat memory (6×6 from a1: 524,486 paths in about a
second). Boards of at most 128 squares.

>>> lister = AllToursLister(5, 5, "a1")
>>> len(lister.block(1000)), lister.done
(304, True)
"""
from __future__ import annotations

import numpy as np

from ...board.squares import Board
from ..counting.subtrees import MAX_SQUARES, CountBoard, CountError
from .alltours_list_kernel import ListSearch, list_all

__all__ = ["AllToursLister"]


class AllToursLister:
    """The paths of the knight from ``start`` through every square of a ``rows`` × ``cols``
    board, in blocks (:meth:`block`); ``found`` so far, ``done`` when every one is listed,
    ``nodes`` expanded. Raises :class:`knightgui_core.tietree.counting.subtrees.CountError` (one
    sentence) for a board of more than 128 squares or a start off the board."""

    def __init__(self, rows: int, cols: int, start: int | str, board: Board | None = None):
        if int(rows) * int(cols) > MAX_SQUARES:
            raise CountError(f"every tour is listed on boards of at most {MAX_SQUARES} squares "
                             f"({rows}×{cols} has {int(rows) * int(cols)})")
        self._cb = cb = CountBoard(rows, cols, board)
        self.board = cb.board
        self.start = cb.square(start)
        n = self.n = cb.n
        self._search = ListSearch(square=np.zeros(n + 1, dtype=np.int32),
                                  unvisited=np.zeros((n + 1, 2), dtype=np.uint64),
                                  onward=np.zeros((n + 1, 2), dtype=np.uint64),
                                  degree=np.zeros(n, dtype=np.int64),
                                  low_degree=np.zeros(2, dtype=np.int64),
                                  status=np.zeros(4, dtype=np.int64))
        self._out = np.zeros(2, dtype=np.int64)
        self.found = 0
        self.nodes = 0

    @property
    def done(self) -> bool:
        """Every path has been listed."""
        return bool(self._search.status[3])

    def block(self, want: int, budget: int = 1 << 22) -> np.ndarray:
        """int32[m, N]: the next ``m <= want`` paths (fewer when the search ends or has
        expanded ``budget`` nodes in this call, so a caller can check for cancel between
        calls; 0 rows once :attr:`done`)."""
        want = int(want)
        if want < 1:
            raise ValueError("ask for at least one path")
        paths = np.empty((want, self.n), dtype=np.int32)
        list_all(self._cb.att, self.n, self.start, self._search, paths, np.int64(want),
                 np.int64(max(1, int(budget))), self._out)
        got = int(self._out[0])
        self.found += got
        self.nodes += int(self._out[1])
        return paths[:got]

    def first(self, k: int) -> np.ndarray:
        """The first ``k`` paths (or every one, if fewer), from where the listing stands."""
        parts = []
        left = int(k)
        while left > 0 and not self.done:
            p = self.block(left)
            parts.append(p)
            left -= len(p)
        return np.concatenate(parts) if parts else np.zeros((0, self.n), dtype=np.int32)
