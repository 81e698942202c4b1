"""The knight's greedy walk on the plane, every tie rule of docs/spec.md §3: the padded
layout (:func:`pad_nxt`, :func:`pad_rc`, :func:`pad_sq`) on which the loops of
:mod:`knightgui_core.walks.walk_loop_kernel` run (the neighbour-table walk of every other
board, and the backtracking search, run the same loops on the table).

numba only. Neighbours are computed arithmetically (no [N, 8] table), so a 1000×1000 walk
touches a few MB; visiting a square lowers its neighbours' outlet counts by one.

A candidate is ranked by its outlets (or the dash override), then by the rule's key
(smaller is better), compared lexicographically, so no key overflows on any board:

====  ============  ==========================================================
code  rule          secondary key
====  ============  ==========================================================
0     phadke        7 − move type index (highest type first)
1     first         position of the type in the order
2     last          7 − position in the order
3     random        random 24 bits, then position in the order
4     center-far    (max distance − squared distance from centre), then order
5     lookahead     fewest outlets among its own onward candidates, then order
6     pohl          smallest sum of onward exits of its unvisited neighbours,
                    then order (Ganzfried's reading of Pohl 1967)
7     pohl-random   the same sum, then random, then order
8     center-far-r  farthest from the centre, then random, then order
====  ============  ==========================================================

The centre rules (4, 8) read two more fields from the high bits of ``tie``
(:func:`roth_code`): bits 8–11 the centre (0 the exact centre, 1 the 1-based ``(n/2, n/2)``
of an even board, i.e. half a square towards a1, 2 half a square towards the far corner) and
bits 12–15 the distance (0 Euclidean, 1 Manhattan, 2 Chebyshev); the backtracking search
reads them too.
"""
from __future__ import annotations

import numpy as np

from ..board.tie_rule import TieRule
from ..system.jit import njit, specialise
from ..system.rng_kernel import new_state
from .walk_loop_kernel import (
    TieBreak,
    WalkSquares,
    centre_key,
    centre_of,
    keyed_walk,
    move_keys,
    onward_key,
    ordered_walk,
    visit,
)

CENTRES = ("exact", "one-based", "far")
METRICS = ("euclid", "manhattan", "chebyshev")


def roth_code(residual_random: bool, centre: int = 0, metric: int = 0) -> int:
    """The ``tie`` code of a centre rule with a centre and a distance of :data:`CENTRES` /
    :data:`METRICS` (indices); see the module docstring."""
    if not (0 <= centre < len(CENTRES) and 0 <= metric < len(METRICS)):
        raise ValueError(f"centre must be 0..{len(CENTRES) - 1}, metric 0..{len(METRICS) - 1}")
    base = TieRule.CENTER_FAR_RANDOM if residual_random else TieRule.CENTER_FAR
    return int(base) | (int(centre) << 8) | (int(metric) << 12)

DC = np.array([2, 1, -1, -2, -2, -1, 1, 2], dtype=np.int64)
DR = np.array([-1, -2, -2, -1, 1, 2, 2, 1], dtype=np.int64)
SALT = 0x2545F4914F6CDD1D


@njit
def _padded_state(rows, cols, score):
    """Board with a two-square frame: ``free[p]`` is 1 for on-board squares, ``outlets[p]``
    their outlet counts, ``pscore[p]`` the dash override (−1 none). Neighbours of ``p`` are
    ``p + off[t]`` with no bounds checks."""
    W = cols + 4
    H = rows + 4
    free = np.zeros(W * H, dtype=np.uint8)
    outlets = np.zeros(W * H, dtype=np.int8)
    pscore = np.full(W * H if score.shape[0] > 0 else 0, -1, dtype=np.int8)
    for r in range(rows):
        base = (r + 2) * W + 2
        for c in range(cols):
            free[base + c] = 1
            if score.shape[0] > 0:
                pscore[base + c] = score[r * cols + c]
    off = np.empty(8, dtype=np.int64)
    for t in range(8):
        off[t] = DR[t] * W + DC[t]
    for r in range(rows):
        base = (r + 2) * W + 2
        for c in range(cols):
            p = base + c
            n = 0
            for t in range(8):
                n += free[p + off[t]]
            outlets[p] = n
    return free, outlets, pscore, off


@njit
def _visit(q, cnt, off):
    """Mark the padded square ``q`` visited (its byte to 100) and take one outlet from each
    of its neighbours (``cnt`` the int8 padded board, ``off`` int64[8] neighbour offsets)."""
    cnt[q] = 100
    for t in range(8):
        cnt[q + off[t]] -= 1


@njit(inline="always")
def pad_nxt(L: tuple[np.ndarray, int], q: int, t: int) -> int:
    """The padded layout's neighbour: ``L`` is ``(off, cols)``, ``off`` int64[8] the offsets
    of the move types (in any order); the frame makes every neighbour an index."""
    return q + L[0][t]


@njit(inline="always")
def pad_cand_rc(L: tuple[np.ndarray, int], s: int, r: int, c: int, t: int) -> tuple[int, int]:
    """The row and column of the square reached from row ``r``, column ``c`` by move type
    ``t`` (no division)."""
    return r + DR[t], c + DC[t]


@njit(inline="always")
def pad_rc(L: tuple[np.ndarray, int], s: int) -> tuple[int, int]:
    """The board row and column of the padded square ``s`` (by division)."""
    W = L[1] + 4
    return s // W - 2, s % W - 2


@njit(inline="always")
def pad_bsq(L: tuple[np.ndarray, int], s: int, r: int, c: int) -> int:
    """The board's flat index of the carried row and column."""
    return r * L[1] + c


@njit(inline="always")
def pad_sq(L: tuple[np.ndarray, int], s: int) -> int:
    """The board's flat index of the padded square ``s``."""
    W = L[1] + 4
    return (s // W - 2) * L[1] + s % W - 2


# the walk loops of walk_loop_kernel on the padded layout, kept for speed and memory
# (bench/topology.py: 1000×1000 Phadke walk 10× and lookahead 2× the neighbour table's)
_pad_ordered = specialise(ordered_walk, "ordered_walk_padded", nxt=pad_nxt, sq=pad_sq)
_pad_keyed = specialise(
    keyed_walk, "keyed_walk_padded", nxt=pad_nxt, sq=pad_sq, start_rc=pad_rc,
    cand_rc=pad_cand_rc, track=pad_cand_rc, bsq=pad_bsq,
    visit=specialise(visit, "visit_padded", nxt=pad_nxt),
    onward_key=specialise(onward_key, "onward_key_padded", nxt=pad_nxt))


@njit
def _greedy_centre(rows, cols, start, sec_t, cnt, off, cx2, cy2, metric, path, ties):
    """The greedy walk for the centre rule with a fixed residual order and no dashes: the
    fewest outlets; among tied candidates the farthest from the centre, then the order. The
    distance is computed only when a tie is met, from a row and column followed move by
    move. ``cnt`` is one byte a square, its outlets or ≥ 64 once visited or off the board.
    Returns the number of squares visited.

    A copy of :func:`~knightgui_core.walks.walk_loop_kernel.keyed_walk` kept on purpose: the
    centre rule's walk on the biggest boards is held to 1.2× the prototype's
    (bench/solve.py); the keyed loop on the same padded board chooses the same squares but
    takes about 1.5× as long on 1000×1000 and 2000×2000."""
    size = rows * cols
    W = cols + 4
    q = (start // cols + 2) * W + start % cols + 2
    qr = np.int64(start // cols)
    qc = np.int64(start % cols)
    _visit(q, cnt, off)
    path[0] = start
    ties[0] = 0
    m = 1
    while m < size:
        bo = 64
        bt = -1
        nb = 0
        bk = np.int64(0)
        have_k = False
        for t in range(8):
            o = cnt[q + off[t]]
            if o > bo:
                continue
            if o < bo:
                bo = o
                bt = t
                nb = 1
                have_k = False
                continue
            nb += 1
            if not have_k:
                bk = centre_key(qc + DC[bt], qr + DR[bt], cx2, cy2, metric)
                have_k = True
            k = centre_key(qc + DC[t], qr + DR[t], cx2, cy2, metric)
            if k < bk or (k == bk and sec_t[t] < sec_t[bt]):
                bt = t
                bk = k
        if bt < 0:
            break
        ties[m] = 1 if nb > 1 else 0
        q += off[bt]
        qr += DR[bt]
        qc += DC[bt]
        _visit(q, cnt, off)
        path[m] = qr * cols + qc
        m += 1
    return m


@njit
def greedy_walk(rows: int, cols: int, start: int, tie: int, order_pos: np.ndarray, seed: int,
                score: np.ndarray, path: np.ndarray, ties: np.ndarray) -> int:
    """One Warnsdorff walk from ``start`` without backtracking.

    Fills ``path[:m]`` and ``ties[:m]`` (1 where the move was chosen among tied candidates)
    and returns ``m``, the number of squares visited (``rows * cols`` on success).
    Works on a padded board (see ``_padded_state``): about 30 ns a move.

    ``tie``: a :class:`TieRule` code; ``order_pos`` int64[8]: position of each move-type index in the
    move order; ``score`` int8[rows * cols] dash overrides (-1 none) or int8[0]; ``path``
    int32[rows * cols] and ``ties`` uint8[rows * cols] (outputs).
    """
    size = rows * cols
    W = cols + 4
    free, outlets, pscore, off = _padded_state(rows, cols, score)
    have_score = pscore.shape[0] > 0
    base = tie & 0xFF
    sec_t = move_keys(tie, order_pos)
    q = (start // cols + 2) * W + start % cols + 2
    if base <= TieRule.LAST and not have_score:
        # one byte a square: the outlet count, or 100 for a visited or off-board square;
        # the offsets in priority order, so the first of the fewest wins
        cnt = np.empty(outlets.shape[0], dtype=np.int8)
        for p in range(cnt.shape[0]):
            cnt[p] = outlets[p] if free[p] else 100
        return _pad_ordered((off[np.argsort(sec_t)], cols), cnt, q, size, path, ties)
    cx2, cy2, metric = centre_of(tie, rows, cols)
    if base == TieRule.CENTER_FAR and not have_score:
        # one byte a square: the outlet count, or ≥ 64 for a visited or off-board square
        # (a square loses at most 8 outlets, so 100 stays above 64)
        cnt = outlets
        for p in range(cnt.shape[0]):
            if free[p] == 0:
                cnt[p] = 100
        return _greedy_centre(rows, cols, start, sec_t, cnt, off, np.int64(cx2),
                              np.int64(cy2), metric, path, ties)
    rule = TieBreak(tie, sec_t, cx2, cy2, metric, new_state(seed, SALT))
    return _pad_keyed((off, cols), WalkSquares(free, outlets, pscore), rule, q, size, path,
                      ties)
