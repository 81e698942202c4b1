"""What one frontier count reads cell by cell, whichever loop runs it (in memory,
``count._word_cells``, or through slices on disk, :func:`.spill.spilled_cells`): the board,
the residues' moduli, the tables' layout, what is counted and with what
(:class:`CountPlan`), and each cell's step made from it (:meth:`CountPlan.cell`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .word import Layout, carry_code
from .word_kernel import CellStep

__all__ = ["BoardSteps", "CountPlan"]


@dataclass(frozen=True)
class BoardSteps:
    """Every cell's step tables on the longest board, column by column: row ``i`` of each
    (``earlier`` int64[N, 4], ``unread`` and ``may_end`` uint8[N, W + 1]) is cell ``i``'s
    :class:`.word_kernel.CellStep` field of the same name."""

    earlier: np.ndarray
    unread: np.ndarray
    may_end: np.ndarray


@dataclass(frozen=True)
class CountPlan:
    """One count: the board ``rows`` high read over ``cols`` columns, the boards finished on
    the way (``lengths``), the residues' moduli (``mods``, 0 for 2^64), the tables'
    ``layout`` (:mod:`.word`, :mod:`.pair`), each cell's ``steps``, ``open_mode`` (0: the
    cycles only, 1: the open paths too), the shares of the hash a cell is read in
    (``threads``), the bytes a cell may use (``budget``) and the mirror ``fold``
    (:func:`.word.carry_code`)."""

    rows: int
    cols: int
    lengths: frozenset[int]
    mods: tuple[int, ...]
    layout: Layout
    steps: BoardSteps
    open_mode: int
    threads: int
    budget: int
    fold: bool

    @property
    def cells(self) -> int:
        """The cells of the longest board."""
        return self.rows * self.cols

    def finish(self, i: int) -> int:
        """1 when boards end with cell ``i`` (the last of a column that is a length asked
        for), else 0."""
        c, r = divmod(i, self.rows)
        return int(r == self.rows - 1 and c + 1 in self.lengths)

    def cell(self, i: int) -> CellStep:
        """Cell ``i``'s step (every number a Python ``int``: the kernels' one signature)."""
        s = self.steps
        return CellStep(s.earlier[i], s.unread[i], s.may_end[i], 2 * self.rows + 1,
                        int(self.open_mode), self.finish(i),
                        carry_code(i, self.rows, self.cells, self.fold))
