"""One tour on another board or with another piece: a cylinder, a torus, any (a, b)-leaper
(docs/leapers.md). :func:`knightgui_core.walks.solve.solve` hands such boards here.

The methods are the knight's, over the board's neighbour table
(:mod:`knightgui_core.walks.table_walk_kernel`):

``greedy``     the rule's single walk;
``backtrack``  the Warnsdorff-ordered depth-first search within a node budget;
``auto``       the rule's walk first; a complete walk that should close and does not is
               closed by path reversals where it can; otherwise (boards up to
               :data:`BACKTRACK_MAX` squares) a pruned search from the start
               (:func:`knightgui_core.construct.hamsearch_kernel.ham_search`: Warnsdorff order,
               seeded ties, a square left without a way out ends the branch), then the
               rule's own backtracking search.

Refused with one sentence, as made for the knight near a plane board's edges: the
constructions, Phadke's corner dashes and Squirrel and Cull's switching orders. A board on
which :func:`knightgui_core.board.existence.known_answer` proves there is no tour is refused
at once.
"""
from __future__ import annotations

import numpy as np

from ..board.existence import known_answer
from ..board.squares import Board
from ..board.tie_rule import TieRule
from ..construct.hamsearch_kernel import ham_search
from .close_kernel import repair_closed
from .solve_result import NoTourError, SolveError, SolveResult, rule_failure, rule_walk, walk_result
from .table_backtrack_kernel import table_backtrack_walk
from .table_walk_kernel import table_greedy_walk

__all__ = ["solve_other", "close_by_reversals", "closed_by", "BACKTRACK_MAX", "WALK_MAX"]

#: auto: boards up to this many squares search by backtracking when the rule's walk fails;
#: an explicit backtracking search takes boards up to :data:`WALK_MAX` squares
BACKTRACK_MAX = 64 * 64
#: the table walks keep 32 bytes of neighbour table and 5 of state a square (backtracking
#: about 260 more): the largest board they take
WALK_MAX = 4_000_000
BACKTRACK_LIMIT = 1_000_000
#: a complete walk is closed by path reversals on boards up to this many squares
REPAIR_MAX = 300 * 300
#: auto: the pruned search's seeds and node budget per seed
SEARCH_SEEDS = 8
SEARCH_BUDGET = 250_000


def solve_other(board: Board, s: int, closed: bool, tie: TieRule, pos: np.ndarray, seed: int,
                method: str, budget: int, desc: str, dashed: bool) -> SolveResult:
    """A tour of ``board`` (not the knight on the plane) from square ``s`` by ``method``;
    ``tie`` the rule, ``pos`` int64[8] the move order's positions, ``seed`` the random
    rules' seed, ``budget`` the backtracking's node budget, ``desc`` the rule as the result
    names it, ``dashed`` whether corner dashes were asked. Raises :class:`SolveError` for
    what cannot run here (see the module docstring)."""
    where = board.describe()
    if dashed:
        raise SolveError(f"Phadke's corner dashes are for the knight on the plane, not the "
                         f"{where}")
    if tie.switching:
        raise SolveError(f"Squirrel and Cull's rules are for the knight on an n×n plane board, "
                         f"not the {where}: choose another tie rule")
    if method == "construct":
        raise SolveError(f"the constructions build knight's tours on the plane; on the {where} "
                         "use --method auto, greedy or backtrack")
    known, why = known_answer(board, closed)
    if known is False:
        raise NoTourError(why)
    if board.size > WALK_MAX:
        raise SolveError(f"the {where} has {board.size:,} squares: walks on other boards and "
                         f"pieces take at most {WALK_MAX:,}")
    if method == "backtrack" and board.size > BACKTRACK_LIMIT:
        raise SolveError(f"backtracking on the {where} takes at most {BACKTRACK_LIMIT:,} "
                         f"squares, not {board.size:,}")
    nbr = board.neighbours
    if method == "greedy":
        res = _greedy(board, nbr, s, tie, pos, seed, desc)
        if closed and res.ok and not board.is_knight_move(int(res.path[-1]), s):
            res.ok = False
            res.message = (f"the walk completed but does not close ({board.name(int(res.path[-1]))}"
                           f" is not a move from {board.name(s)})")
    elif method == "backtrack":
        res = backtrack_search(board, nbr, s, closed, tie, pos, seed, budget, desc)
    else:
        res = _auto(board, nbr, s, closed, tie, pos, seed, budget, desc)
    res.info["known"] = why
    return res


def _greedy(board: Board, nbr: np.ndarray, s: int, tie: TieRule, pos: np.ndarray, seed: int,
            desc: str) -> SolveResult:
    path = np.empty(board.size, dtype=np.int32)
    ties = np.empty(board.size, dtype=np.uint8)
    m = int(table_greedy_walk(nbr, board.cols, s, int(tie), pos, seed,
                              np.zeros(0, dtype=np.int8), path, ties))
    return walk_result(board, path, ties, m, desc, tie.label)


def backtrack_search(board: Board, nbr: np.ndarray, s: int, closed: bool, tie: TieRule | int,
                     pos: np.ndarray, seed: int, budget: int, desc: str,
                     score: np.ndarray | None = None) -> SolveResult:
    """The backtracking search of every board (the knight's plane too) from ``s`` over the
    neighbour table ``nbr``, within ``budget`` nodes; ``score`` the dash overrides (int8[N])
    or none. The result says whether the search went through every path (``info["proven"]``)
    when it finds no tour."""
    path = np.empty(board.size, dtype=np.int32)
    ties = np.zeros(board.size, dtype=np.uint8)
    stats = np.zeros(3, dtype=np.int64)
    over = np.zeros(0, dtype=np.int8) if score is None else score
    m = int(table_backtrack_walk(nbr, board.cols, s, bool(closed), int(tie), pos, seed, over,
                                 int(budget), path, ties, stats))
    ok = bool(stats[2])
    res = SolveResult(ok, None, path[:m].copy(), f"warnsdorff backtracking ({desc})", 0.0,
                      nodes=int(stats[0]), ties=ties[:m].copy())
    if ok:
        res.message = f"tour found by {res.method} after {int(stats[0]):,} nodes"
    else:
        res.stuck_at = int(path[m - 1]) if m else -1
        exhausted = int(stats[0]) < budget
        res.info["proven"] = exhausted
        kind = "closed tour" if closed else "tour"
        res.message = (f"no {kind} of the {board.describe()} starts on {board.long_name(s)}: "
                       f"the search went through every path ({int(stats[0]):,} nodes)"
                       if exhausted else
                       f"no {kind} found within {budget:,} nodes (deepest: {int(stats[1])} of "
                       f"{board.size} squares)")
    return res


def _auto(board: Board, nbr: np.ndarray, s: int, closed: bool, tie: TieRule, pos: np.ndarray,
          seed: int, budget: int, desc: str) -> SolveResult:
    walk = _greedy(board, nbr, s, tie, pos, seed, desc)
    closes = walk.ok and board.is_knight_move(int(walk.path[-1]), s)
    if walk.ok and (closes or not closed):
        return walk
    failure = rule_failure(board, walk, s, tie.label)
    res: SolveResult | None = None
    how = ""
    if closed and walk.ok and board.size <= REPAIR_MAX:
        res = close_by_reversals(board, walk, seed)
        how = closed_by(res)
    if res is None and board.size <= BACKTRACK_MAX:
        res = _pruned_search(board, nbr, s, closed, seed)
        how = f"tour by a pruned search from {board.long_name(s)}"
        if not res.ok and not res.info.get("proven"):
            res = backtrack_search(board, nbr, s, closed, tie, pos, seed, budget, desc)
            how = f"tour by backtracking after {res.nodes:,} nodes"
    if res is None:
        res = walk
        res.ok = False
        res.message = (f"{failure}; the board is too large ({board.size:,} squares) for the "
                       f"backtracking search (at most {BACKTRACK_MAX:,}), and the "
                       "constructions are the knight's on the plane")
    else:
        res.message = f"{failure}; {how if res.ok else res.message}"
    res.info["greedy_failure"] = failure
    res.info["rule_walk"] = rule_walk(walk, tie.label)
    return res


def closed_by(res: SolveResult | None) -> str:
    """How :func:`close_by_reversals` finished a tour ("closed by 12 path reversals"), or
    "" when it did not."""
    if res is None:
        return ""
    n = int(res.info.get("reversals", 0))
    return f"closed by {n:,} path reversal{'' if n == 1 else 's'}"


def close_by_reversals(board: Board, walk: SolveResult, seed: int) -> SolveResult | None:
    """The complete walk ``walk`` closed by path reversals
    (:func:`knightgui_core.walks.close_kernel.repair_closed`) and rotated to start where it
    did, or None when they do not close it; any board (the knight's plane too)."""
    stats = np.zeros(2, dtype=np.int64)
    ok, path = repair_closed(board.neighbours, walk.path, max_steps=20 * board.size,
                             seed=seed, cols=board.cols, stats=stats)
    if not ok:
        return None
    path = np.asarray(path, dtype=np.int32)
    k = int(np.flatnonzero(path == walk.path[0])[0])      # keep the start asked first
    res = SolveResult(True, None, np.roll(path, -k),
                      walk.method.replace("greedy", "greedy + rotations"), 0.0,
                      nodes=walk.nodes, ties=np.zeros(board.size, dtype=np.uint8))
    # each rotation reverses one stretch of the path: what finished the tour, whose moves
    # are no longer the rule's (its ties are the walk's, kept apart)
    res.info["reversals"] = int(stats[0])
    res.info["rule_ties"] = int(np.count_nonzero(walk.ties))
    res.message = f"closed tour found by {res.method}"
    return res


def _pruned_search(board: Board, nbr: np.ndarray, s: int, closed: bool,
                   seed: int) -> SolveResult:
    """An open tour from ``s`` by the pruned search, a few seeds (closed: one whose ends
    are a move apart, or that path reversals close). A search that covers its whole tree
    proves that no tour starts on ``s``."""
    req = np.full(board.size, -1, dtype=np.int32)
    path = np.empty(board.size, dtype=np.int32)
    nodes = 0
    for k in range(SEARCH_SEEDS):
        rc = int(ham_search(nbr, s, -1, req, SEARCH_BUDGET, seed + 1 + k, path))
        nodes += SEARCH_BUDGET if rc < 0 else 0
        if rc == 0:
            res = SolveResult(False, None, np.zeros(0, dtype=np.int32), "pruned search", 0.0,
                              nodes=nodes)
            res.info["proven"] = True
            res.message = (f"no tour of the {board.describe()} starts on {board.long_name(s)} "
                           "(the pruned search covered every path)")
            return res
        if rc != board.size:
            continue
        found = SolveResult(True, None, path.copy(), "pruned search", 0.0, nodes=nodes,
                            ties=np.zeros(board.size, dtype=np.uint8))
        if not closed or board.is_knight_move(int(path[-1]), s):
            return found
        repaired = close_by_reversals(board, found, seed)
        if repaired is not None:
            repaired.method = "pruned search + rotations"
            return repaired
    res = SolveResult(False, None, np.zeros(0, dtype=np.int32), "pruned search", 0.0,
                      nodes=nodes)
    res.message = f"the pruned search found no tour in {nodes:,} nodes"
    return res
