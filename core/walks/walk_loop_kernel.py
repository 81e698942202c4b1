"""The greedy Warnsdorff walk, written once for every board layout.

A layout is how a kernel finds the squares around a square: small jitted functions and the
data ``L`` they read (a tuple), which the loops below call by name. The ones defined here
are the neighbour table's; another layout gets its own inlined copy of each loop from
:func:`knightgui_core.system.jit.specialise` with the names bound to its functions:

* ``nxt(L, q, t)``: the square reached from ``q`` by move-type index ``t`` (0..7), or −1;
* ``cand_rc(L, s, r, c, t)``: the board row and column of ``s``, reached by move type ``t``
  from row ``r``, column ``c``;
* ``start_rc(L, s)``: the board row and column of the walk's first square ``s``;
* ``track(L, s, r, c, t)``: the row and column the keyed walk carries to ``s`` (a layout
  that finds them from ``s`` alone carries nothing);
* ``sq(L, s)`` and ``bsq(L, s, r, c)``: the board's flat index of ``s`` (without and with the
  carried row and column);
* ``arrive(L, q)``: what the layout does when the ordered walk stands on ``q`` (nothing, but
  Squirrel and Cull's phases change their order there: :mod:`knightgui_core.walks.phased_kernel`).

Two layouts use them: the neighbour table ``nbr`` int32[N, 8], every board and piece
(:mod:`knightgui_core.walks.table_walk_kernel`, ``L = (nbr, cols)``), and the knight's padded
plane (:mod:`knightgui_core.walks.walk_kernel`, no [N, 8] table). The backtracking search
ranks with the same :func:`rule_key`. A tie rule chooses by :func:`move_keys`,
:func:`rule_key` (its three cases also spelled in :func:`keyed_walk`'s loop) and the
comparison in :func:`keyed_walk`. numba only; the loops trust their callers' arrays.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..board.tie_rule import TieRule
from ..system.jit import njit
from ..system.rng_kernel import xorshift64


class WalkSquares(NamedTuple):
    """The squares a walk may still visit, indexed by its layout's squares: ``unvisited``
    uint8 (1 while unvisited), ``onward`` the unvisited neighbours of each square (int8 on
    the padded plane, int32 on the table), ``override`` int8 the dash override of
    ``onward`` (-1 none), or int8[0] when the walk has no dashes."""

    unvisited: np.ndarray
    onward: np.ndarray
    override: np.ndarray


class TieBreak(NamedTuple):
    """How a tie rule orders the candidates tied on onward moves (:func:`tie_break`):
    ``rule`` the ``tie`` code (a :class:`TieRule` in the low 8 bits, a centre rule's centre
    and distance above them), ``move_key`` int64[8] the rule's key of each move-type index
    (:func:`move_keys`), ``centre_x2`` and ``centre_y2`` the centre in doubled coordinates
    and ``metric`` the distance code (:func:`centre_of`), ``rng`` uint64[1] the random
    rules' xorshift state."""

    rule: int
    move_key: np.ndarray
    centre_x2: int
    centre_y2: int
    metric: int
    rng: np.ndarray


@njit(inline="always")
def nxt(L: tuple[np.ndarray, int], q: int, t: int) -> int:
    """The table layout's neighbour: ``L`` is ``(nbr, cols)``, ``nbr`` int32[N, 8]."""
    return L[0][q, t]


@njit(inline="always")
def cand_rc(L: tuple[np.ndarray, int], s: int, r: int, c: int, t: int) -> tuple[int, int]:
    """The table layout's row and column of square ``s``."""
    return s // L[1], s % L[1]


@njit(inline="always")
def start_rc(L: tuple[np.ndarray, int], s: int) -> tuple[int, int]:
    """The table layout's row and column of the start ``s`` (carried by nothing)."""
    return s // L[1], s % L[1]


@njit(inline="always")
def track(L: tuple[np.ndarray, int], s: int, r: int, c: int, t: int) -> tuple[int, int]:
    """The table layout carries no row and column (a square is its own index)."""
    return r, c


@njit(inline="always")
def sq(L: tuple[np.ndarray, int], s: int) -> int:
    """The table layout's flat index of ``s``: the square itself."""
    return s


@njit(inline="always")
def bsq(L: tuple[np.ndarray, int], s: int, r: int, c: int) -> int:
    """The table layout's flat index of ``s``: the square itself."""
    return s


@njit(inline="always")
def arrive(L: tuple[np.ndarray, int], q: int) -> None:
    """What a layout does when :func:`ordered_walk` stands on ``q``, before it chooses the
    next move: nothing here (the phased walk changes its move order there)."""
    return None


@njit(inline="always")
def centre_key(c: int, r: int, cx2: int, cy2: int, metric: int) -> int:
    """Rule key of the centre rules for the square at column ``c``, row ``r`` (smaller is
    better: farther from the centre ``(cx2 / 2, cy2 / 2)``, doubled coordinates)."""
    dx = abs(2 * c - cx2)
    dy = abs(2 * r - cy2)
    if metric == 1:
        return -(dx + dy)
    if metric == 2:
        return -max(dx, dy)
    return -(dx * dx + dy * dy)


@njit
def move_keys(tie: int, order_pos: np.ndarray) -> np.ndarray:
    """``sec_t`` int64[8]: the rule's key of each move-type index (phadke: the highest type
    first; last: the order reversed; the others: the order)."""
    base = tie & 0xFF
    sec_t = np.empty(8, dtype=np.int64)
    for t in range(8):
        if base == TieRule.PHADKE:
            sec_t[t] = 7 - t
        elif base == TieRule.LAST:
            sec_t[t] = 7 - order_pos[t]
        else:
            sec_t[t] = order_pos[t]
    return sec_t


@njit
def centre_of(tie: int, rows: int, cols: int) -> tuple[int, int, int]:
    """``(cx2, cy2, metric)``: the centre in doubled coordinates and the distance code of a
    centre rule's ``tie``."""
    mode = (tie >> 8) & 0xF
    metric = (tie >> 12) & 0xF
    cx2 = cols - 1 if mode == 0 else (cols - 2 if mode == 1 else cols)
    cy2 = rows - 1 if mode == 0 else (rows - 2 if mode == 1 else rows)
    return cx2, cy2, metric


@njit
def tie_break(tie: int, order_pos: np.ndarray, rows: int, cols: int,
              rng: np.ndarray) -> TieBreak:
    """The :class:`TieBreak` of the rule ``tie`` with the move order ``order_pos`` (int64[8],
    the position of each move-type index) on a ``rows`` × ``cols`` board, drawing from
    ``rng``."""
    cx2, cy2, metric = centre_of(tie, rows, cols)
    return TieBreak(tie, move_keys(tie, order_pos), cx2, cy2, metric, rng)


@njit(inline="always")
def is_randomised(base: int) -> bool:
    """Whether the rule ``base`` draws random bits for each candidate."""
    return (base == TieRule.RANDOM or base == TieRule.POHL_RANDOM
            or base == TieRule.CENTER_FAR_RANDOM)


@njit(inline="always")
def onward_key(L: tuple[np.ndarray, int], s: int, free: np.ndarray, outlets: np.ndarray,
               base: int) -> int:
    """The look-ahead and Pohl rules' key of candidate ``s``: the fewest onward outlets of
    its free neighbours (look-ahead) or their sum (the others), ``s`` counted as visited."""
    la = np.int64(15)
    total = np.int64(0)
    for u in range(8):
        s2 = nxt(L, s, u)
        if s2 >= 0 and free[s2]:
            v = np.int64(outlets[s2]) - 1      # s will be visited by then
            total += v
            if v < la:
                la = v
    return la if base == TieRule.LOOKAHEAD else total


@njit(inline="always")
def rule_key(L: tuple[np.ndarray, int], s: int, r: int, c: int, t: int, free: np.ndarray,
             outlets: np.ndarray, base: int, cx2: int, cy2: int, metric: int) -> int:
    """The rule key of candidate ``s``, reached by move type ``t`` from row ``r``, column
    ``c`` (the walker's square, already visited): 0 for the order and random rules, the
    centre key for Roth's, :func:`onward_key` for the others. :func:`keyed_walk` spells
    the same three cases in its loop (see there why)."""
    if base <= TieRule.RANDOM:
        return np.int64(0)
    if base == TieRule.CENTER_FAR or base == TieRule.CENTER_FAR_RANDOM:
        sr, sc = cand_rc(L, s, r, c, t)
        return np.int64(centre_key(np.int64(sc), np.int64(sr), cx2, cy2, metric))
    return onward_key(L, s, free, outlets, base)


@njit
def ordered_walk(L: tuple[np.ndarray, int], cnt: np.ndarray, q: int, n: int,
                 path: np.ndarray, ties: np.ndarray) -> int:
    """The walk of the fixed-priority rules (phadke, first, last) without dash overrides:
    ``nxt(L, q, i)`` gives the candidates in priority order and the first with the fewest
    outlets wins. ``cnt`` is one byte a square, its outlets, or 100 once visited (or off the
    board), so a candidate costs one load. ``q`` the start (in ``L``'s squares), ``n`` the
    board's squares. Returns the number of squares visited."""
    cnt[q] = 100
    for i in range(8):
        u = nxt(L, q, i)
        if u >= 0:
            cnt[u] -= 1
    path[0] = sq(L, q)
    arrive(L, q)
    ties[0] = 0
    m = 1
    while m < n:
        best = -1
        bo = 100
        nb = 0
        for i in range(8):
            s = nxt(L, q, i)
            if s < 0:
                continue
            o = cnt[s]
            if o < bo:
                bo = o
                best = s
                nb = 1
            elif o == bo:
                nb += 1
        if bo >= 64:
            break
        ties[m] = 1 if nb > 1 else 0
        q = best
        cnt[q] = 100
        for i in range(8):
            u = nxt(L, q, i)
            if u >= 0:
                cnt[u] -= 1
        path[m] = sq(L, q)
        arrive(L, q)
        m += 1
    return m


@njit(inline="always")
def visit(L: tuple[np.ndarray, int], q: int, free: np.ndarray, outlets: np.ndarray,
          on: int) -> None:
    """Mark ``q`` visited (``on`` 1) or free again (``on`` 0) and move its neighbours'
    outlets down or up by one."""
    free[q] = 1 - on
    delta = -1 if on else 1
    for t in range(8):
        u = nxt(L, q, t)
        if u >= 0:
            outlets[u] += delta


@njit
def keyed_walk(L: tuple[np.ndarray, int], squares: WalkSquares, rule: TieBreak, q: int,
               n: int, path: np.ndarray, ties: np.ndarray) -> int:
    """The walk of every tie rule, with dash overrides: a candidate ``s`` reached by
    move-type index ``t`` is ranked by (its onward moves, or its override when that is
    ``>= 0``, :func:`rule_key`, the rule's ``move_key[t]`` plus ``random 24 bits × 8`` for
    the random rules), smallest first. ``squares`` are indexed by ``L``'s squares; ``q`` the
    start, ``n`` the board's squares. Returns the number of squares visited.

    The rule key is chosen in the loop, case by case as in :func:`rule_key`, with only
    :func:`onward_key` called: the loop calling :func:`rule_key` whole (inlined all the same)
    takes 1.3–1.7× as long for the centre rules on the padded 1000×1000 plane."""
    free, outlets, score = squares
    tie, sec_t, cx2, cy2, metric, rng = rule
    base = tie & 0xFF
    randomised = is_randomised(base)
    centred = base == TieRule.CENTER_FAR or base == TieRule.CENTER_FAR_RANDOM
    have_score = score.shape[0] > 0
    visit(L, q, free, outlets, 1)
    path[0] = sq(L, q)
    qr, qc = start_rc(L, q)
    ties[0] = 0
    m = 1
    while m < n:
        best = -1
        bk1 = np.int64(0)
        bk2 = np.int64(0)
        bo = np.int64(99)
        nbest = 0
        bt = 0
        for t in range(8):
            s = nxt(L, q, t)
            if s < 0 or free[s] == 0:
                continue
            o = np.int64(outlets[s])
            if have_score and score[s] >= 0:
                o = np.int64(score[s])
            if o > bo:
                continue
            k2 = sec_t[t]
            if randomised:
                k2 += np.int64(xorshift64(rng) >> np.uint64(40)) * 8
            if base <= TieRule.RANDOM:
                k1 = np.int64(0)
            elif centred:
                sr, sc = cand_rc(L, s, qr, qc, t)
                k1 = np.int64(centre_key(np.int64(sc), np.int64(sr), cx2, cy2, metric))
            else:
                k1 = onward_key(L, s, free, outlets, base)
            if o < bo:
                bo = o
                nbest = 1
            else:
                nbest += 1
                if k1 > bk1 or (k1 == bk1 and k2 >= bk2):
                    continue
            bk1 = k1
            bk2 = k2
            best = s
            bt = t
        if best < 0:
            break
        ties[m] = 1 if nbest > 1 else 0
        qr, qc = track(L, best, qr, qc, bt)
        q = best
        visit(L, q, free, outlets, 1)
        path[m] = bsq(L, q, qr, qc)
        m += 1
    return m
