"""Single-tour solver: one tour, fast (docs/spec.md §3). Picks a method and says which it used.

Methods
-------
``greedy``     one Warnsdorff walk with the chosen tie rule, no backtracking; reports where it
               got stuck and after how many moves.
``backtrack``  depth-first search over Warnsdorff-ordered candidates (explicit stack) with a
               node budget.
``construct``  the linear-time construction of :mod:`knightgui_core.construct.huge` (every board where a tour
               exists, up to millions of squares).
``auto``       the chosen rule's own walk first, at every size: its tour is the answer when it
               completes (and closes, for closed tours). Otherwise the result says where the
               rule failed and which method took over —
               open: backtracking on small boards, then the construction, then (when the
               construction cannot start on the square asked) a search from that square;
               closed: path reversals on moderate boards (:mod:`knightgui_core.walks.close_kernel`),
               else the construction.

Invariant: a result is a success only when its tour starts on the square asked (closed
tours are rotated to start there). A start from which no tour can exist is refused at once
(:func:`knightgui_core.board.existence.why_no_tour_from`).
"""
from __future__ import annotations

import time

import numpy as np

from ..board import dash as _dash
from ..board.existence import why_no_tour, why_no_tour_from
from ..board.rules import (
    DEFAULT_ORDER,
    METHODS,
    SQUIRREL_RULES,
    TIE_CODES,
    TIE_RULES,
    MoveOrder,
    RuleError,
    parse_order,
    parse_tie,
)
from ..board.squares import Board, BoardError, SquareSpec, parse_leaper
from ..board.tie_rule import TieRule
from ..board.tour import Tour
from ..construct.hamsearch_kernel import ham_search
from ..construct.huge import ConstructionError, construct_closed, construct_open, max_squares_for_memory
from . import squirrel as _squirrel
from . import walk_kernel as _walk
from .other_boards import backtrack_search, close_by_reversals, closed_by, solve_other
from .phased_kernel import phased_walk
from .solve_result import NoTourError, SolveError, SolveResult, rule_failure, rule_walk, walk_result

#: auto: boards up to this many squares try backtracking when greedy fails.
BACKTRACK_AUTO_MAX = 64 * 64
#: auto closed: boards up to this many squares try Warnsdorff + rotations first.
REPAIR_AUTO_MAX = 300 * 300
DEFAULT_NODE_BUDGET = 2_000_000
#: auto open: boards up to this many squares are searched from the start when the
#: construction cannot begin there (node budget :data:`START_SEARCH_BUDGET` per seed).
START_SEARCH_MAX = 1_000_000
START_SEARCH_BUDGET = 1_000_000
START_SEARCH_SEEDS = 4


def dash_scores(board: Board, dashes: dict | None, start: int, end: int | None) -> np.ndarray:
    """``int8[size]`` of outlet overrides for the dashed approach cells (−1 elsewhere), or an
    empty array when nothing is dashed. Free corners and states are checked by
    :func:`knightgui_core.board.dash.plan` (docs/spec.md §5)."""
    if not dashes:
        return np.zeros(0, dtype=np.int8)
    try:
        dashed = _dash.plan(board, start, end, dashes).dashed
    except ValueError as e:   # DashError, BoardError
        raise SolveError(f"dash: {e}") from None
    if not dashed:
        return np.zeros(0, dtype=np.int8)
    score = np.full(board.size, -1, dtype=np.int8)
    score[list(dashed)] = 1
    return score


def _describe(tie: str, order: MoveOrder) -> str:
    if tie in ("phadke", "random", "pohl-random", "center-far-random") or tie in SQUIRREL_RULES:
        return f"tie {tie}"
    return f"tie {tie}, order {order.digits}"


def solve(rows: int, cols: int, start: SquareSpec | None = None, closed: bool = False,
          tie: TieRule | str = "phadke", order: object = DEFAULT_ORDER, seed: int = 0, method: str = "auto",
          node_budget: int | None = None, dashes: dict | None = None,
          topology: str = "plane", leaper: object = (1, 2)) -> SolveResult:
    """Find one knight's tour. Raises :class:`SolveError` for bad input, and its kind
    :class:`NoTourError` for a board on which no tour of that kind exists or a start no
    tour can begin on: that is answered at once, without a search.

    ``topology`` (``plane``, ``cylinder``, ``torus``) and ``leaper`` (an (a, b) pair or a
    name) choose another board or piece: those walk over the board's neighbour table
    (:mod:`knightgui_core.walks.other_boards`)."""
    try:
        board = Board(rows, cols, topology, parse_leaper(leaper))
        tie_code = parse_tie(tie)
        tie = TIE_RULES[tie_code]
        move_order = parse_order(order)
        s = 0 if start is None else board.square(start)
    except (BoardError, RuleError) as e:
        raise SolveError(str(e)) from None
    if method not in METHODS:
        raise SolveError(f"unknown method '{method}' (choose one of: {', '.join(METHODS)})")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise SolveError(f"seed must be a whole number ≥ 0, got {seed!r}")
    if not board.is_classic:
        t0 = time.perf_counter()
        budget = DEFAULT_NODE_BUDGET if node_budget is None else int(node_budget)
        return _finish(board, s, closed, tie, move_order, seed, t0, solve_other(
            board, s, closed, tie_code, move_order.positions(), int(seed) & 0xFFFFFFFFFFFF,
            method, budget, _describe(tie, move_order), bool(dashes)))
    why = why_no_tour(board.rows, board.cols, closed)
    if why:
        raise NoTourError(why)
    why = why_no_tour_from(board.rows, board.cols, closed, *board.coords(s))
    if why and method != "greedy":      # the rule's walk alone may still be watched failing
        raise NoTourError(why)
    _check_memory(board)
    score = dash_scores(board, dashes, s, None)
    if tie in SQUIRREL_RULES and method == "backtrack":
        raise SolveError("the Squirrel rules are greedy walks: use --method greedy or auto")
    pos = move_order.positions()
    budget = DEFAULT_NODE_BUDGET if node_budget is None else int(node_budget)
    t0 = time.perf_counter()
    desc = _describe(tie, move_order)
    args = (board, s, tie_code, pos, int(seed) & 0xFFFFFFFFFFFF, score, tie)

    if method == "greedy":
        res = _greedy(*args, desc)
        if closed and res.ok and not _closes(board, res.path):
            res.ok = False
            res.message = (f"greedy walk completed but does not close "
                           f"({board.name(int(res.path[-1]))} is not a knight move from "
                           f"{board.name(s)})")
    elif method == "backtrack":
        res = _backtrack(*args, desc, closed, budget)
    elif method == "construct":
        res = _construct(board, s, closed)
    else:
        res = _auto(*args, desc, closed, budget)
    return _finish(board, s, closed, tie, move_order, seed, t0, res)


def _finish(board: Board, s: int, closed: bool, tie: str, move_order: MoveOrder, seed: int,
            t0: float, res: SolveResult) -> SolveResult:
    """Time the result, hold it to the start asked, and make its tour."""
    res.seconds = time.perf_counter() - t0
    _check_start(board, s, res)
    if res.ok:
        res.tour = Tour(board, res.path, closed,
                        {"method": res.method, "tie": tie, "order": move_order.digits,
                         "seed": int(seed), "start": board.name(s), **res.info})
    return res


def _check_memory(board: Board) -> None:
    if board.size <= 1_000_000:
        return
    limit = max_squares_for_memory()
    if board.size > limit:
        raise SolveError(f"a {board.rows}×{board.cols} board ({board.size:,} squares) does not "
                         f"fit in the memory available (limit about {limit:,} squares)")


def _check_start(board: Board, s: int, res: SolveResult) -> None:
    """The invariant: a tour that does not start on the square asked is not a success."""
    if res.ok and (len(res.path) == 0 or int(res.path[0]) != s):
        first = board.name(int(res.path[0])) if len(res.path) else "nowhere"
        res.ok = False
        res.message = (f"no tour from {board.long_name(s)} found ({res.method} gave one from "
                       f"{first}, which is not what was asked)")


def _closes(board: Board, path: np.ndarray) -> bool:
    return board.is_knight_move(int(path[-1]), int(path[0]))


def _squirrel_refusal(board: Board, s: int, score: np.ndarray) -> str | None:
    """Why Squirrel and Cull's walk cannot run here (None when it can)."""
    if board.rows != board.cols or board.rows < 5:
        return (f"Squirrel and Cull's algorithm is for n×n boards with n ≥ 5, not "
                f"{board.rows}×{board.cols}")
    if s not in board.corners:
        return f"Squirrel and Cull's algorithm starts in a corner, not on {board.name(s)}"
    if score.shape[0]:
        return "Squirrel and Cull's algorithm takes no corner dashes"
    return None


def _greedy(board, s, tie_code, pos, seed, score, tie, desc) -> SolveResult:
    path = np.empty(board.size, dtype=np.int32)
    ties = np.empty(board.size, dtype=np.uint8)
    if tie_code >= TIE_CODES["squirrel"]:
        why = _squirrel_refusal(board, s, score)
        if why:   # auto: go on with the other methods
            return SolveResult(False, None, np.array([s], dtype=np.int32),
                               f"warnsdorff greedy ({desc})", 0.0, stuck_at=s, message=why,
                               info={"failure": why})
        p = _squirrel.plan(board.rows, s, TIE_RULES[tie_code])
        m = phased_walk(board.rows, board.cols, p.start, p.prios, p.switch, path, ties)
    else:
        m = _walk.greedy_walk(board.rows, board.cols, s, int(tie_code), pos, seed, score, path,
                              ties)
    return walk_result(board, path, ties, m, desc, tie)


def _backtrack(board, s, tie_code, pos, seed, score, tie, desc, closed, budget) -> SolveResult:
    if tie_code >= TIE_CODES["squirrel"]:   # auto after a Squirrel walk: the plain order
        tie_code, desc = TIE_CODES["first"], "tie first"
    return backtrack_search(board, board.neighbours, s, closed, int(tie_code), pos, seed,
                            budget, desc, score)


def _construct(board: Board, s: int, closed: bool) -> SolveResult:
    try:
        if closed:
            path = construct_closed(board.rows, board.cols, start=s)
            honoured = True
        else:
            path, honoured = construct_open(board.rows, board.cols, start=s)
    except ConstructionError as e:
        raise SolveError(str(e)) from None
    res = SolveResult(True, None, np.asarray(path, dtype=np.int32), "construction", 0.0,
                      nodes=board.size, ties=np.zeros(board.size, dtype=np.uint8))
    res.info["start_honoured"] = bool(honoured)
    res.message = "tour built by the construction" + (
        "" if honoured else f" (it cannot start on {board.long_name(s)}; it starts on "
                            f"{board.name(int(res.path[0]))})")
    return res


def _search_from(board: Board, s: int) -> SolveResult:
    """Open tour from ``s`` by a Warnsdorff-ordered search with dead-square pruning
    (:func:`knightgui_core.construct.hamsearch_kernel.ham_search`), a few seeds with a node budget
    each. A search that exhausts its tree proves that no open tour starts on ``s``."""
    nb = board.neighbours
    req = np.full(board.size, -1, dtype=np.int32)
    path = np.empty(board.size, dtype=np.int32)
    nodes = 0
    for seed in range(1, START_SEARCH_SEEDS + 1):
        rc = int(ham_search(nb, s, -1, req, START_SEARCH_BUDGET, seed, path))
        if rc == board.size:
            res = SolveResult(True, None, path, "search from the start", 0.0,
                              nodes=nodes + START_SEARCH_BUDGET,
                              ties=np.zeros(board.size, dtype=np.uint8))
            res.message = f"tour found by a search from {board.long_name(s)}"
            return res
        if rc == 0:
            res = SolveResult(False, None, np.zeros(0, dtype=np.int32), "search from the start",
                              0.0, nodes=nodes)
            res.info["proven"] = True
            res.message = (f"no open tour of {board.rows}×{board.cols} starts on "
                           f"{board.long_name(s)} (the search from it covered every path)")
            return res
        nodes += START_SEARCH_BUDGET
    res = SolveResult(False, None, np.zeros(0, dtype=np.int32), "search from the start", 0.0,
                      nodes=nodes)
    res.message = (f"no tour from {board.long_name(s)} found: the construction cannot start "
                   f"there and a search from it gave up after {nodes:,} nodes")
    return res


def _auto(board, s, tie_code, pos, seed, score, tie, desc, closed, budget) -> SolveResult:
    """The rule's own walk first; when it fails, say where, and say which method took over."""
    walk = _greedy(board, s, tie_code, pos, seed, score, tie, desc)
    if walk.ok and (not closed or _closes(board, walk.path)):
        return walk
    failure = rule_failure(board, walk, s, f"{tie}", "knight move")
    res = None
    if closed:
        if walk.ok and board.size <= REPAIR_AUTO_MAX:
            res = close_by_reversals(board, walk, seed)
            how = closed_by(res)
        if res is None:
            res, how = _construct(board, s, True), "tour by construction"
    else:
        if board.size <= BACKTRACK_AUTO_MAX:
            res = _backtrack(board, s, tie_code, pos, seed, score, tie, desc, False, budget)
            how = f"tour by backtracking after {res.nodes:,} nodes"
            if not res.ok:
                res = None
        if res is None:
            res, how = _construct(board, s, False), "tour by construction"
            if int(res.path[0]) != s:
                res, how = _start_search(board, s, res)
    res.info["greedy_failure"] = failure
    res.info["rule_walk"] = rule_walk(walk, tie)
    if res.ok:
        res.message = f"{failure}; {how}"
    else:
        res.message = f"{failure}; {res.message}"
    return res


def _start_search(board: Board, s: int, built: SolveResult) -> tuple[SolveResult, str]:
    """The construction started elsewhere: search from the square asked."""
    if board.size > START_SEARCH_MAX:
        built.ok = False
        built.message = (f"the construction cannot start on {board.long_name(s)}, and the "
                         f"board is too large ({board.size:,} squares) for a search from it")
        return built, ""
    res = _search_from(board, s)
    return res, f"tour by a search from {board.long_name(s)} after {res.nodes:,} nodes " \
                "(the construction cannot start there)"
