"""Watching the backtracking walk one forward move at a time.

:class:`BacktrackWatch` runs the kernel of the unwatched search
(:mod:`knightgui_core.walks.table_backtrack_kernel`, any board and piece) one forward move
per :meth:`step` and says what the move did (:class:`knightgui_core.board.watch_step.WatchStep`),
so a watched search ends on the same tour after the same number of nodes.
"""
from __future__ import annotations

import numpy as np

from ..board.rules import DEFAULT_ORDER, parse_order
from ..board.squares import Board
from ..board.tie_rule import TieRule
from ..board.watch_step import WatchStep, take_steps
from . import table_backtrack_kernel as _k
from .solve_result import SolveError

__all__ = ["BacktrackWatch"]

#: the whole-run budget of a watched search (nodes), as the solver's default
WATCH_BUDGET = 2_000_000


class BacktrackWatch:
    """The backtracking walk of ``board`` from ``start`` (flat square), one forward move per
    :meth:`step`. ``tie``: a tie rule name (not Squirrel and Cull's); ``order``: the move
    order; ``closed``: the last square must be a move from the start."""

    def __init__(self, board: Board, start: int, closed: bool = False, tie: TieRule | str = "phadke",
                 order: object = DEFAULT_ORDER, seed: int = 0, budget: int = WATCH_BUDGET):
        rule = TieRule.parse(tie)
        if rule.switching:
            raise SolveError("Squirrel and Cull's rules are greedy walks: nothing to watch "
                             "backtrack")
        if not 0 <= int(start) < board.size:
            raise SolveError(f"start square {start} is off the board")
        if board.size > 1_000_000:
            raise SolveError(f"watching the backtracking walk takes boards of at most "
                             f"1,000,000 squares, not {board.size:,}")
        self.board, self.start, self.closed = board, int(start), bool(closed)
        self._budget = int(budget)
        self._task = _k.SearchTask(board.neighbours, board.cols, self.start, self.closed,
                                   int(rule), parse_order(order).positions(),
                                   int(seed) & 0xFFFFFFFFFFFF, np.zeros(0, dtype=np.int8))
        self._search = a = _k.search_arrays(board.size)
        self._path, self._st = a.path, a.state
        _k.backtrack_begin(self._task, a)

    # ------------------------------------------------------------------ reading
    @property
    def number(self) -> int:
        """The move number the walker stands on (1 = the start)."""
        return int(self._st[_k.BT_DEPTH])

    @property
    def found(self) -> bool:
        """Whether the path is a tour."""
        return bool(self._st[_k.BT_FOUND])

    @property
    def over(self) -> bool:
        """Whether the search ended without a tour (tree exhausted or budget spent)."""
        return bool(self._st[_k.BT_OVER])

    @property
    def nodes(self) -> int:
        """Forward moves made so far."""
        return int(self._st[_k.BT_NODES])

    def path(self) -> np.ndarray:
        """int32[number]: the partial path, start first (a copy)."""
        return self._path[: self.number].copy()

    def options(self) -> None:
        """The backtracking walk keeps no options matrix (Phadke's enumeration does)."""
        return None

    # ------------------------------------------------------------------ moving
    def _run(self, moves: int) -> None:
        _k.backtrack_run(self._task, self._budget, int(moves), self._search)

    def step(self) -> WatchStep:
        """Make one forward move (backing up first when the walker is stuck) and say what
        it did."""
        st = self._st
        if self.found or self.over:
            return self._step(done=True, backed=None, dead=False)
        dead_before = int(st[_k.BT_DEAD])
        self._run(1)
        backed = int(st[_k.BT_LOW]) if st[_k.BT_BACKED] else None
        dead = int(st[_k.BT_DEAD]) > dead_before
        return self._step(done=self.over, backed=backed, dead=dead)

    def _step(self, done: bool, backed: int | None, dead: bool) -> WatchStep:
        k = self.number
        lvl = k - 2                                  # the level the last move was chosen at
        rivals: tuple[int, ...] = ()
        if k >= 2 and not done:
            a = self._search
            square, cand, keys = int(self._path[k - 1]), a.candidates[lvl], a.keys[lvl]
            rivals = tuple(int(cand[i]) for i in range(int(a.n_candidates[lvl]))
                           if int(cand[i]) != square
                           and keys[i, 0] == keys[int(a.next_try[lvl]) - 1, 0])
        st = self._st
        return WatchStep(number=k, square=int(self._path[k - 1]), rivals=rivals,
                         backed_up_to=backed, dead_end=dead,
                         solution=1 if self.found and not done else None,
                         done=done,
                         solutions=int(self.found), dead_ends=int(st[_k.BT_DEAD]),
                         forward_moves=int(st[_k.BT_NODES]))

    def steps(self, n: int) -> list[WatchStep]:
        """Up to ``n`` steps (fewer when the search ends, at its tour or without one)."""
        return take_steps(self.step, n, until_solution=True)

    def finish(self) -> None:
        """Run the rest of the search at full speed."""
        if not (self.found or self.over):
            self._run(1 << 62)
