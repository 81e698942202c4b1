"""Warnsdorff walks over a neighbour table: every board and piece (a cylinder, a torus, any
(a, b)-leaper), every tie rule of :mod:`knightgui_core.walks.walk_kernel`.

They read the neighbour table ``nbr`` int32[N, 8]
(:attr:`knightgui_core.board.squares.Board.neighbours`), so wrapping edges and other leaps
cost nothing extra; on the knight's plane they choose what the padded kernels choose (same
keys, same random draws: tests/core/test_table_walk.py). The keys are those of
:func:`~knightgui_core.walks.walk_loop_kernel.keyed_walk`; the centre rules take the centre
in the board's coordinates whatever its edges.

The loops are :mod:`knightgui_core.walks.walk_loop_kernel`'s; the backtracking search over
the same keys is :mod:`knightgui_core.walks.table_backtrack_kernel`. numba only; the wrapper
(:func:`knightgui_core.walks.solve.solve`) builds the table and checks the start.
"""
from __future__ import annotations

import numpy as np

from ..board.tie_rule import TieRule
from ..system.jit import njit, specialise
from ..system.rng_kernel import new_state
from .walk_kernel import SALT
from .walk_loop_kernel import WalkSquares, keyed_walk, move_keys, ordered_walk, tie_break


@njit(inline="always")
def nxt_in_order(L: tuple[np.ndarray, np.ndarray], q: int, i: int) -> int:
    """The table's ``i``-th neighbour of ``q`` in a priority order: ``L`` is ``(nbr, prio)``."""
    return L[0][q, L[1][i]]


# the ordered walk of walk_loop_kernel, its candidates in priority order
_ordered_in = specialise(ordered_walk, "ordered_walk_in_order", nxt=nxt_in_order)


@njit
def table_outlets(nbr: np.ndarray, free: np.ndarray, outlets: np.ndarray) -> None:
    """``outlets[s]`` (int32[N]) = number of free neighbours of each square (``free``
    uint8[N], 1 free)."""
    for s in range(nbr.shape[0]):
        n = 0
        for t in range(8):
            u = nbr[s, t]
            if u >= 0 and free[u]:
                n += 1
        outlets[s] = n


@njit
def table_greedy_walk(nbr: np.ndarray, cols: int, start: int, tie: int,
                      order_pos: np.ndarray, seed: int, score: np.ndarray, path: np.ndarray,
                      ties: np.ndarray) -> int:
    """One Warnsdorff walk from ``start`` without backtracking on the board of ``nbr``
    (int32[N, 8], ``N`` a multiple of ``cols``).

    Fills ``path[:m]`` (int32[N]) and ``ties[:m]`` (uint8[N], 1 where the move was chosen
    among candidates tied on outlets) and returns ``m``, the squares visited (``N`` on
    success). ``tie``, ``order_pos`` (int64[8]), ``seed`` and ``score`` (int8[N] or int8[0])
    as in :func:`knightgui_core.walks.walk_kernel.greedy_walk`.
    """
    n = nbr.shape[0]
    rows = n // cols
    base = tie & 0xFF
    sec_t = move_keys(tie, order_pos)
    if base <= TieRule.LAST and score.shape[0] == 0:
        # one byte a square, its outlets or 100 once visited
        cnt = np.empty(n, dtype=np.int8)
        for s in range(n):
            k = 0
            for t in range(8):
                if nbr[s, t] >= 0:
                    k += 1
            cnt[s] = k
        return _ordered_in((nbr, np.argsort(sec_t)), cnt, start, n, path, ties)
    free = np.ones(n, dtype=np.uint8)
    outlets = np.empty(n, dtype=np.int32)
    table_outlets(nbr, free, outlets)
    rule = tie_break(tie, order_pos, rows, cols, new_state(seed, SALT))
    return keyed_walk((nbr, np.int64(cols)), WalkSquares(free, outlets, score), rule, start, n,
                      path, ties)
