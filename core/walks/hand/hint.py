"""A tour by hand: the hint — which square Warnsdorff's rule would take next, and
which squares tie with it.

:func:`rule_hint` ranks the free moves from the path's last square as the rule's walk and
:func:`~knightgui_core.walks.hand.finish.finish_by_rule` rank them (the kernel's
``table_rank``): the first is the rule's choice, those with as few onward moves tie with it.

>>> from knightgui_core.board.squares import Board
>>> b = Board(8, 8)
>>> h = rule_hint(b, [b.parse("a1")], "first")
>>> b.name(h.choice), sorted(b.name(s) for s in h.ties)
('b3', ['b3', 'c2'])
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...board.rules import DEFAULT_ORDER
from ...board.squares import Board, SquareSpec
from ...board.tie_rule import TieRule
from .. import table_backtrack_kernel as _k
from .finish import FINISH_MAX, play_rule, rule_task
from .verdict import PlayError, play_path

__all__ = ["RuleHint", "rule_hint"]


@dataclass(frozen=True)
class RuleHint:
    """The rule's view of the next move. ``choice``: the square it takes (-1 when the piece
    has no free square to go to); ``ties``: every square with as few onward moves as the
    choice, the choice included, in the rule's order; ``ranked``: every free move as
    ``(square, onward moves)``, best first; ``rule``: the tie rule used (Squirrel and Cull's
    switching rules are ranked by Phadke's, ``note`` says so)."""

    choice: int
    ties: tuple[int, ...]
    ranked: tuple[tuple[int, int], ...]
    rule: TieRule
    note: str = ""


def rule_hint(board: Board, path: Sequence[SquareSpec] | np.ndarray,
              tie_rule: TieRule | str = TieRule.PHADKE, *, order: object = DEFAULT_ORDER,
              seed: int = 0) -> RuleHint:
    """The rule's choice from the end of ``path`` (checked by
    :func:`~knightgui_core.walks.hand.verdict.play_path`) and the squares tying with it.
    ``tie_rule``, ``order`` and ``seed`` as in
    :func:`~knightgui_core.walks.hand.finish.finish_by_rule`. :class:`PlayError` for bad
    input."""
    p = play_path(board, path)
    rule, pos = play_rule(tie_rule, order)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise PlayError(f"the seed must be a whole number ≥ 0, not {seed!r:.30}")
    if board.size > FINISH_MAX:
        raise PlayError(f"hints take boards of at most {FINISH_MAX:,} squares, "
                        f"not {board.size:,}")
    note = ""
    if rule.switching:
        note = ("Squirrel and Cull's rules switch move orders by where the walk began: "
                "the hint breaks ties by Phadke's rule")
        rule = TieRule.PHADKE
    n, k = board.size, len(p)
    if k >= n:
        return RuleHint(-1, (), (), rule, note)
    search = _k.search_arrays(n)
    _k.backtrack_begin_from(rule_task(board, p, rule, pos, int(seed)),
                            np.ascontiguousarray(p, dtype=np.int32), search)
    cand, key, ncand = search.candidates, search.keys, search.n_candidates
    m = int(ncand[k - 1])
    ranked = tuple((int(cand[k - 1, i]), int(key[k - 1, i, 0])) for i in range(m))
    if not ranked:
        return RuleHint(-1, (), (), rule, note)
    best = ranked[0][1]
    ties = tuple(s for s, o in ranked if o == best)
    return RuleHint(ranked[0][0], ties, ranked, rule, note)
