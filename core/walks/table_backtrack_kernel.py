"""The backtracking Warnsdorff search over a neighbour table: every board and piece, every
tie rule, candidates ranked with the keys of :mod:`knightgui_core.walks.table_walk_kernel`
(:func:`table_rank`), tried best first and taken back at a dead end, within a node budget.
The search is resumable (:func:`backtrack_begin`, then :func:`backtrack_run` for as many
forward moves as wanted), so the window can watch it one move at a time
(:mod:`knightgui_core.walks.backtrack_watch`); :func:`table_backtrack_walk` runs it whole.
:func:`backtrack_begin_from` starts it from a path already played (a tour by hand,
:mod:`knightgui_core.walks.hand.finish`): the search never takes back a square of that path.

The search's input is a :class:`SearchTask` and its state a :class:`SearchArrays`, both
built once by the caller; numba only.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..board.validate_kernel import _is_move
from ..system.jit import njit
from ..system.rng_kernel import new_state, xorshift64
from .table_walk_kernel import table_outlets
from .walk_kernel import SALT
from .walk_loop_kernel import TieBreak, WalkSquares, is_randomised, rule_key, tie_break, visit


@njit
def table_visit(q: int, nbr: np.ndarray, free: np.ndarray, outlets: np.ndarray,
                on: int) -> None:
    """Mark ``q`` visited (``on`` 1) or free again (``on`` 0) and move its neighbours'
    outlets down or up by one (:func:`~knightgui_core.walks.walk_loop_kernel.visit` on the
    table)."""
    visit((nbr, np.int64(0)), q, free, outlets, on)


@njit
def table_rank(q: int, nbr: np.ndarray, cols: int, squares: WalkSquares, rule: TieBreak,
               out_sq: np.ndarray, out_key: np.ndarray) -> int:
    """The unvisited neighbours of ``q`` on the board of ``nbr`` (``cols`` wide) sorted best
    first by (onward moves or their override, rule key, residual key); returns their number.
    ``out_sq`` int64[8] receives them, ``out_key`` int64[8, 3] their keys. Every candidate
    draws its random bits (the random rules), as the knight's backtracking kernel does."""
    free, outlets, score = squares
    tie, sec_t, cx2, cy2, metric, rng = rule
    base = tie & 0xFF
    randomised = is_randomised(base)
    have_score = score.shape[0] > 0
    n = 0
    for t in range(8):
        s = nbr[q, t]
        if s < 0 or free[s] == 0:
            continue
        o = np.int64(outlets[s])
        if have_score and score[s] >= 0:
            o = np.int64(score[s])
        k2 = sec_t[t]
        if randomised:
            k2 += np.int64(xorshift64(rng) >> np.uint64(40)) * 8
        k1 = rule_key((nbr, np.int64(cols)), s, 0, 0, t, free, outlets, base, cx2, cy2, metric)
        j = n
        while j > 0 and (out_key[j - 1, 0] > o or (out_key[j - 1, 0] == o and (
                out_key[j - 1, 1] > k1 or (out_key[j - 1, 1] == k1 and out_key[j - 1, 2] > k2)))):
            out_key[j, 0] = out_key[j - 1, 0]
            out_key[j, 1] = out_key[j - 1, 1]
            out_key[j, 2] = out_key[j - 1, 2]
            out_sq[j] = out_sq[j - 1]
            j -= 1
        out_key[j, 0] = o
        out_key[j, 1] = k1
        out_key[j, 2] = k2
        out_sq[j] = s
        n += 1
    return n


class SearchTask(NamedTuple):
    """What one backtracking search is asked: the board (``neighbours`` int32[N, 8] of
    :attr:`knightgui_core.board.squares.Board.neighbours`, ``cols`` its width), ``start``
    the tour's first square (the square a closed tour's last one must be a move from),
    ``closed`` (bool), the tie rule (``tie`` its code, ``order_pos`` int64[8] the position
    of each move-type index in the move order, ``seed`` the random rules' seed) and
    ``override`` int8[N] the dash overrides of the onward counts (-1 none), or int8[0]."""

    neighbours: np.ndarray
    cols: int
    start: int
    closed: bool
    tie: int
    order_pos: np.ndarray
    seed: int
    override: np.ndarray


class SearchArrays(NamedTuple):
    """The state of one resumable search of a board of ``N`` squares (:func:`search_arrays`):
    ``unvisited`` uint8[N] (1 while unvisited), ``onward`` int32[N] the unvisited
    neighbours of each square, ``rng`` uint64[1] the random rules' state; per level of the
    path (the square it stands on) ``candidates`` int64[N, 8] the squares to go on to, best
    first, ``keys`` int64[N, 8, 3] their keys (onward moves, rule key, residual key),
    ``n_candidates`` int64[N] their number and ``next_try`` int64[N] the next one to try;
    ``path`` int32[N], ``ties`` uint8[N] (1 where the move was chosen among candidates tied
    on onward moves) and ``state`` int64[BT_FIELDS] (the ``BT_`` fields)."""

    unvisited: np.ndarray
    onward: np.ndarray
    rng: np.ndarray
    candidates: np.ndarray
    keys: np.ndarray
    n_candidates: np.ndarray
    next_try: np.ndarray
    path: np.ndarray
    ties: np.ndarray
    state: np.ndarray


def search_arrays(n: int) -> SearchArrays:
    """Fresh :class:`SearchArrays` for a board of ``n`` squares (about 300 bytes a square)."""
    return SearchArrays(np.ones(n, dtype=np.uint8), np.empty(n, dtype=np.int32),
                        np.zeros(1, dtype=np.uint64), np.empty((n, 8), dtype=np.int64),
                        np.empty((n, 8, 3), dtype=np.int64), np.zeros(n, dtype=np.int64),
                        np.zeros(n, dtype=np.int64), np.empty(n, dtype=np.int32),
                        np.zeros(n, dtype=np.uint8), np.zeros(BT_FIELDS, dtype=np.int64))


#: fields of the backtracking search's state ``st`` (int64[BT_FIELDS]); ``BT_FLOOR`` is the
#: length of the path the search began from, which it never takes back
BT_DEPTH, BT_NODES, BT_BEST, BT_FOUND, BT_OVER, BT_BACKED, BT_DEAD, BT_LOW, BT_FLOOR = range(9)
BT_FIELDS = 9


@njit
def backtrack_begin(task: SearchTask, search: SearchArrays) -> None:
    """Start the backtracking search of ``task`` from ``task.start``: fill ``search`` (see
    :class:`SearchArrays`) for :func:`backtrack_run`."""
    prefix = np.empty(1, dtype=np.int32)
    prefix[0] = task.start
    backtrack_begin_from(task, prefix, search)


@njit
def backtrack_begin_from(task: SearchTask, prefix: np.ndarray, search: SearchArrays) -> None:
    """Start the backtracking search of ``task`` from the path ``prefix`` (int32[k],
    1 ≤ k ≤ N: distinct squares, each a move from the one before; the wrapper checks it):
    its squares are visited, the search goes on from its last square and never takes one of
    them back (``state[BT_FLOOR]`` = k). Fills ``search`` as :func:`backtrack_begin` does."""
    nbr, cols = task.neighbours, task.cols
    free, outlets, rng, cand, key, ncand, nxt, path, ties, st = search
    rng[0] = new_state(task.seed, SALT)[0]
    rule = tie_break(task.tie, task.order_pos, nbr.shape[0] // cols, cols, rng)
    squares = WalkSquares(free, outlets, task.override)
    for s in range(free.shape[0]):
        free[s] = 1
    table_outlets(nbr, free, outlets)
    for s in range(ncand.shape[0]):
        ncand[s] = 0
        nxt[s] = 0
    k = prefix.shape[0]
    for i in range(k):
        table_visit(prefix[i], nbr, free, outlets, 1)
        path[i] = prefix[i]
        ties[i] = 0
    last = prefix[k - 1]
    if k < free.shape[0]:
        ncand[k - 1] = table_rank(last, nbr, cols, squares, rule, cand[k - 1], key[k - 1])
    st[:] = 0
    st[BT_DEPTH] = st[BT_BEST] = st[BT_LOW] = st[BT_FLOOR] = k


@njit
def backtrack_run(task: SearchTask, node_budget: int, max_moves: int,
                  search: SearchArrays) -> None:
    """Go on with the search begun by :func:`backtrack_begin` for at most ``max_moves``
    forward moves (the watch makes one at a time), until a tour is found (``state[BT_FOUND]``
    1), the tree is exhausted or ``node_budget`` nodes are spent (``state[BT_OVER]`` 1). In
    ``state``, ``BT_BACKED`` counts the squares taken back in this call, ``BT_DEAD`` the dead
    ends met in all, ``BT_LOW`` the shortest the path became in this call."""
    nbr, cols, start, closed = task.neighbours, task.cols, task.start, task.closed
    free, outlets, rng, cand, key, ncand, nxt, path, ties, st = search
    size = nbr.shape[0]
    rule = tie_break(task.tie, task.order_pos, size // cols, cols, rng)
    squares = WalkSquares(free, outlets, task.override)
    depth = st[BT_DEPTH]
    nodes = st[BT_NODES]
    best = st[BT_BEST]
    st[BT_BACKED] = 0
    st[BT_LOW] = depth
    moves = 0
    if st[BT_FOUND] or st[BT_OVER]:
        return
    while True:
        if depth == size:
            if not closed:
                st[BT_FOUND] = 1
                break
            if _is_move(nbr, path[depth - 1], start):
                st[BT_FOUND] = 1
                break
            st[BT_DEAD] += 1
            if depth <= st[BT_FLOOR]:        # the path began full and does not close
                st[BT_OVER] = 1
                break
            depth -= 1
            st[BT_BACKED] += 1
            table_visit(path[depth], nbr, free, outlets, 0)
            continue
        if moves >= max_moves:
            break
        lvl = depth - 1
        if nxt[lvl] >= ncand[lvl] or nodes >= node_budget:
            if depth <= st[BT_FLOOR] or nodes >= node_budget:
                st[BT_OVER] = 1
                break
            if ncand[lvl] == 0:
                st[BT_DEAD] += 1             # a square with no way on
            depth -= 1
            st[BT_BACKED] += 1
            if depth < st[BT_LOW]:
                st[BT_LOW] = depth
            table_visit(path[depth], nbr, free, outlets, 0)
            continue
        i = nxt[lvl]
        nxt[lvl] += 1
        s = cand[lvl, i]
        ties[depth] = 1 if (ncand[lvl] > 1 and key[lvl, 0, 0] == key[lvl, 1, 0]) else 0
        table_visit(s, nbr, free, outlets, 1)
        path[depth] = s
        depth += 1
        nodes += 1
        moves += 1
        if depth > best:
            best = depth
        if depth < size:
            if closed and outlets[start] == 0:
                ncand[depth - 1] = 0
            else:
                ncand[depth - 1] = table_rank(s, nbr, cols, squares, rule, cand[depth - 1],
                                              key[depth - 1])
            nxt[depth - 1] = 0
    st[BT_DEPTH] = depth
    st[BT_NODES] = nodes
    st[BT_BEST] = best


@njit
def table_backtrack_walk(nbr: np.ndarray, cols: int, start: int, closed: bool, tie: int,
                         order_pos: np.ndarray, seed: int, score: np.ndarray,
                         node_budget: int, path: np.ndarray, ties: np.ndarray,
                         stats: np.ndarray) -> int:
    """Depth-first search over Warnsdorff-ordered candidates (:func:`table_rank`) on the
    board of ``nbr``, with an explicit stack and a node budget; returns the squares on the
    path. ``stats`` int64[3]: nodes expanded, deepest depth, 1 when ``path`` holds a tour
    (closed: its last square is a move from ``start``); the other arguments as in
    :func:`knightgui_core.walks.table_walk_kernel.table_greedy_walk`."""
    size = nbr.shape[0]
    task = SearchTask(nbr, cols, start, closed, tie, order_pos, seed, score)
    search = SearchArrays(np.ones(size, dtype=np.uint8), np.empty(size, dtype=np.int32),
                          np.zeros(1, dtype=np.uint64), np.empty((size, 8), dtype=np.int64),
                          np.empty((size, 8, 3), dtype=np.int64), np.zeros(size, dtype=np.int64),
                          np.zeros(size, dtype=np.int64), path, ties,
                          np.zeros(BT_FIELDS, dtype=np.int64))
    backtrack_begin(task, search)
    backtrack_run(task, node_budget, np.int64(1) << 62, search)
    st = search.state
    stats[0] = st[BT_NODES]
    stats[1] = st[BT_BEST]
    stats[2] = st[BT_FOUND]
    return st[BT_DEPTH]
