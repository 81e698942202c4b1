"""One walk on a board, complete or stuck: :class:`Walk`, the one type for the concept.

A study that replays a single walk (the tie-break study's failing walk, the move-order
analysis's walk of one order) hands back a :class:`Walk`; the window shows it on the board,
and the command line prints it. A complete walk is also a tour (:attr:`Walk.tour`).

>>> from knightgui_core.board.squares import Board
>>> w = Walk(Board(5, 5), np.array([0, 7], dtype=np.int32), "stuck on c2")
>>> w.complete, w.end, len(w)
(False, 'c2', 2)
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from ..board.squares import Board
from ..board.tour import Tour

__all__ = ["Walk"]


@dataclass(frozen=True)
class Walk:
    """``board``; ``path``: int32 flat squares in visiting order (the whole board when
    complete); ``message``: one sentence saying how the walk went; ``method``: what made it
    (the rule, the order), kept in the tour's metadata."""

    board: Board
    path: np.ndarray
    message: str = ""
    method: Mapping[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return int(len(self.path))

    @property
    def complete(self) -> bool:
        """Whether the walk visited every square."""
        return len(self.path) == self.board.size

    @property
    def closed(self) -> bool:
        """Whether it is complete and its last square is a move from its first."""
        return (self.complete and self.board.size > 1
                and self.board.is_knight_move(int(self.path[-1]), int(self.path[0])))

    @property
    def end(self) -> str:
        """The name of the last square visited."""
        return self.board.name(int(self.path[-1]))

    @cached_property
    def tour(self) -> Tour | None:
        """The walk as a validated :class:`Tour` when it is complete, else None."""
        if not self.complete:
            return None
        return Tour(self.board, self.path, self.closed, dict(self.method))
