"""Does this board have a tour? What is known, and where nothing is, a bounded search.

:func:`existence_answer` first asks :func:`knightgui_core.board.existence.known_answer` (the
theorems); where none decides, it lists every path
(:class:`knightgui_core.tietree.alltours.all_tours_list.AllToursLister`, at most 128 squares)
until it finds a tour (closed: the last square a move from the first), runs out of paths
("none exists") or has expanded ``budget`` nodes ("gave up after N nodes").
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...board.existence import known_answer
from ...board.squares import Board
from ..counting.subtrees import MAX_SQUARES
from .all_tours_list import AllToursLister

__all__ = ["ExistenceAnswer", "existence_answer", "SEARCH_BUDGET"]

#: nodes the search may expand before it gives up
SEARCH_BUDGET = 20_000_000


@dataclass(frozen=True)
class ExistenceAnswer:
    """``answer``: ``"yes"``, ``"no"``, ``"not known"`` (the search gave up or the board is
    too large to search); ``why`` one sentence; ``tour`` the tour found (flat squares) or
    None; ``nodes`` the search's expansions (0: a theorem answered)."""

    answer: str
    why: str
    tour: np.ndarray | None = None
    nodes: int = 0


def existence_answer(board: Board, closed: bool = False,
                     budget: int = SEARCH_BUDGET) -> ExistenceAnswer:
    """What is known about a tour of ``board``, or what a search of at most ``budget``
    nodes finds (see the module docstring)."""
    known, why = known_answer(board, closed)
    if known is not None:
        return ExistenceAnswer("yes" if known else "no", why)
    kind = "closed" if closed else "open"
    if board.size > MAX_SQUARES:
        return ExistenceAnswer("not known", f"{why}; not searched here: the search takes boards "
                                            f"of at most {MAX_SQUARES} squares")
    nodes = 0
    starts = range(1) if closed else range(board.size)     # a closed tour passes square 0
    for s in starts:
        lister = AllToursLister(board.rows, board.cols, s, board=board)
        while not lister.done:
            left = budget - nodes - lister.nodes
            if left <= 0:
                return ExistenceAnswer("not known", f"no rule decides and the search gave up "
                                                    f"after {budget:,} nodes", None, budget)
            block = lister.block(4096, left)
            for p in block:
                if not closed or board.is_knight_move(int(p[-1]), int(p[0])):
                    article = "an" if kind == "open" else "a"
                    return ExistenceAnswer("yes", f"{article} {kind} tour was found by search",
                                           p.copy(), nodes + lister.nodes)
        nodes += lister.nodes
    return ExistenceAnswer("no", f"no {kind} tour of {board.describe()}: the search went "
                                 f"through every path ({nodes:,} nodes)", None, nodes)
