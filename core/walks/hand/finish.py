"""A tour by hand: let the rule finish it. :func:`finish_by_rule` goes on from the path
played by the solver's backtracking search (:mod:`knightgui_core.walks.table_backtrack_kernel`,
begun from the path: it never takes back a square the player played). A position that
:func:`~knightgui_core.walks.hand.verdict.quick_verdict` finds lost is answered at once.

>>> from knightgui_core.board.squares import Board
>>> b = Board(6, 6)
>>> f = finish_by_rule(b, [b.parse(s) for s in ("a1", "b3", "c1")], "first")
>>> f.found, len(f.finish), f.dead_ends
(True, 33, 0)
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...board.rules import DEFAULT_ORDER, parse_order
from ...board.squares import Board, SquareSpec
from ...board.tie_rule import TieRule
from ...system.control import CancelLike, raise_if_cancelled
from ...system.errors import InputError
from .. import table_backtrack_kernel as _k
from .verdict import PlayError, play_path, quick_verdict

__all__ = ["RuleFinish", "finish_by_rule", "play_rule", "FINISH_MAX"]

#: the largest board the search takes (about 300 bytes of state a square)
FINISH_MAX = 1_000_000
#: forward moves between two looks at ``cancel``
CHUNK_MOVES = 50_000


@dataclass(frozen=True)
class RuleFinish:
    """What :func:`finish_by_rule` did. ``found``: ``finish`` holds the squares after the
    path's last square that complete the tour (closed: the last one a move from the first
    square); ``exhausted``: the search went through every branch, so no finish exists (when
    not ``found``); ``nodes``: forward moves made; ``dead_ends``: squares where the walk was
    stuck and went back; ``message``: one sentence."""

    found: bool
    finish: tuple[int, ...] | None
    exhausted: bool
    nodes: int
    dead_ends: int
    message: str


def play_rule(tie_rule: TieRule | str, order: object) -> tuple[TieRule, np.ndarray]:
    """The tie rule and the move order (its positions, int64[8]) a tour by hand is finished
    or hinted with; :class:`PlayError` for a name or an order that is none."""
    try:
        return TieRule.parse(tie_rule), parse_order(order).positions()
    except InputError as e:
        raise PlayError(str(e)) from None


def rule_task(board: Board, p: np.ndarray, rule: TieRule, pos: np.ndarray, seed: int,
              closed: bool = False) -> _k.SearchTask:
    """The backtracking search's task for a checked path ``p`` on ``board``: a tour from its
    first square by ``rule`` and the move order ``pos``, the random rules seeded by the low 48
    bits of ``seed``, no dashes (built here for the finish and the hint alike, so the kernels
    see one set of field types)."""
    return _k.SearchTask(board.neighbours, board.cols, int(p[0]), bool(closed), int(rule), pos,
                         int(seed) & 0xFFFFFFFFFFFF, np.zeros(0, dtype=np.int8))


def finish_by_rule(board: Board, path: Sequence[SquareSpec] | np.ndarray,
                   tie_rule: TieRule | str = TieRule.PHADKE, node_budget: int = 1_000_000,
                   *, closed: bool = False, order: object = DEFAULT_ORDER, seed: int = 0,
                   cancel: CancelLike = None) -> RuleFinish:
    """The rule's walk from the end of ``path`` (checked by
    :func:`~knightgui_core.walks.hand.verdict.play_path`), backtracking when stuck, within
    ``node_budget`` forward moves. ``tie_rule``: a :class:`TieRule` or its name (not
    Squirrel and Cull's switching orders); ``order``: the move order; ``seed``: the random
    rules' seed; ``closed``: the finish must end a move from the path's first square;
    ``cancel`` is asked every :data:`CHUNK_MOVES` moves (raises
    :class:`~knightgui_core.system.errors.Cancelled`). :class:`PlayError` for bad input."""
    p = play_path(board, path)
    rule, pos = play_rule(tie_rule, order)
    if rule.switching:
        raise PlayError("Squirrel and Cull's rules switch move orders by where the walk began; "
                        "choose another tie rule to finish a path")
    if board.size > FINISH_MAX:
        raise PlayError(f"finishing by the rule takes boards of at most {FINISH_MAX:,} "
                        f"squares, not {board.size:,}")
    if isinstance(node_budget, bool) or not isinstance(node_budget, (int, np.integer)) \
            or node_budget < 0:
        raise PlayError(f"the node budget must be a whole number ≥ 0, not {node_budget!r:.30}")
    verdict = quick_verdict(board, p)
    if verdict.lost or (closed and verdict.closed_lost):
        why = next(r for r in verdict.reasons if closed or not r.closed_only)
        return RuleFinish(False, None, True, 0, 0, f"no {'closed tour' if closed else 'tour'} "
                          f"finishes this path: {why.sentence}")
    n = board.size
    task = rule_task(board, p, rule, pos, seed, closed)
    search = _k.search_arrays(n)
    walk, st = search.path, search.state
    _k.backtrack_begin_from(task, np.ascontiguousarray(p, dtype=np.int32), search)
    while not (st[_k.BT_FOUND] or st[_k.BT_OVER]):
        raise_if_cancelled(cancel, "finishing by the rule")
        _k.backtrack_run(task, int(node_budget), CHUNK_MOVES, search)
    nodes, dead = int(st[_k.BT_NODES]), int(st[_k.BT_DEAD])
    kind = "closed tour" if closed else "tour"
    if st[_k.BT_FOUND]:
        finish = tuple(int(s) for s in walk[len(p):n])
        how = "the rule's walk" if dead == 0 else f"the rule with {dead:,} dead ends undone"
        return RuleFinish(True, finish, False, nodes, dead,
                          f"{how} finished the {kind} in {len(finish):,} moves")
    exhausted = nodes < node_budget
    message = (f"no {kind} finishes this path: the search went through every branch "
               f"({nodes:,} moves)" if exhausted else
               f"no {kind} found within {node_budget:,} moves (deepest: "
               f"{int(st[_k.BT_BEST]):,} of {n:,} squares)")
    return RuleFinish(False, None, exhausted, nodes, dead, message)
