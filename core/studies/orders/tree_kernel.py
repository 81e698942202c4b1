"""numba kernels for the move-order analysis's shared walks (docs/spec.md §7): every order's
walk from each start, each distinct walk made once for all the orders that make it.

The walks run on the padded board of :mod:`knightgui_core.studies.orders.walk_kernel` (its
``FRAME``, ``LIMIT`` and outlet table). A set of orders is never listed while the walks run:
a group of orders is a *word* of constraints, byte y holding the move types (bit t: type
t + 1) that must come before type y + 1 in the order, a transitive relation; the group is
every order that keeps it. A tie branches the word, and only when a walk ends are its orders
listed, by their lexicographic rank (:func:`_emit`), so the cost is the tie tree plus one
write per order and start, not a pass over the group at every tie (a quarter of the time of
splitting the list of orders at each tie on 8×8, ``bench/orders.py``).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...system.jit import njit
from .walk_kernel import FRAME, LIMIT, _closed_end


class OrderGroup(NamedTuple):
    """A set of orders as the walks read it (``studies.orders.walks.OrderSet``).

    word    int      the constraints every order of the set keeps (0: none)
    rlo     int      the lowest rank of the set: ``row_of[i]`` is the order of rank rlo + i
    row_of  int32[m] the output column of the order of lexicographic rank ``rlo + i`` (-1: not
                     in the set; the ranks of the set lie in rlo .. rlo + m - 1)
    """

    word: int
    rlo: int
    row_of: np.ndarray


class PaddedBoard(NamedTuple):
    """The board the walks run on, as ``studies.orders.walk_kernel.orders_chunk`` takes it.

    onward   int32[P]  each padded square's onward moves (``outlets0``; ``FRAME`` off the board)
    moves    int32[8]  the padded-index step of move types 1..8
    squares  int       the squares of the board (a walk that visits them all is complete)
    """

    onward: np.ndarray
    moves: np.ndarray
    squares: int


class TailTable(NamedTuple):
    """The last four places of an order (``studies.orders.walks.tail_table``): pattern p's
    ranks among the 24 orders of four types are ``ranks[offsets[p]:offsets[p + 1]]``
    (``offsets`` int32[4097], ``ranks`` int8[t])."""

    offsets: np.ndarray
    ranks: np.ndarray


class ByStart(NamedTuple):
    """What the walks write, a row per start and a column per order of the set.

    lengths  int16[starts, m]  the squares each walk visits
    closed   uint8[starts, m]  1 when the walk is complete and ends a knight move from its start
    """

    lengths: np.ndarray
    closed: np.ndarray


class TieBranches(NamedTuple):
    """Scratch of :func:`orders_tree`, for ``squares`` squares and ``P`` padded ones.

    onward_at_tie  int32[squares + 1, P]      the onward counts at each open tie
    stack          int64[8 * (squares + 1), 4]  the branches still to walk: (word, tie level,
                                              square entered, squares visited)
    """

    onward_at_tie: np.ndarray
    stack: np.ndarray


class RankSearch(NamedTuple):
    """Scratch of :func:`_emit`'s search over the first four places of an order: ``before``
    int64[8] (byte t of the word), per depth the next type to try (``cand``), the type
    chosen (``chosen``) and the rank reached (``acc``) int64[9], and ``rest`` int64[4] the
    four types left."""

    before: np.ndarray
    cand: np.ndarray
    chosen: np.ndarray
    acc: np.ndarray
    rest: np.ndarray


@njit
def order_codes(orders: np.ndarray, ranks: np.ndarray, words: np.ndarray) -> int:
    """For each order (``int8[k, 8]``, move types 1..8) its lexicographic rank (its row in
    ``studies.orders.all_orders``) into ``ranks`` int64[k] and its word of constraints (byte
    y: the types before type y, 0-based, see :func:`orders_tree`) into ``words`` int64[k].
    Returns the number of rows that are not an order (their rank and word are -1), or -1
    when the shapes do not fit."""
    k = orders.shape[0]
    if orders.shape[1] != 8 or ranks.shape[0] != k or words.shape[0] != k:
        return -1
    bad = 0
    for i in range(k):
        seen = np.int64(0)
        word = np.int64(0)
        rank = np.int64(0)
        for p in range(8):
            t = np.int64(orders[i, p]) - 1
            if not 0 <= t < 8 or (seen >> t) & 1:
                rank = np.int64(-1)
                word = np.int64(-1)
                bad += 1
                break
            word |= seen << (8 * t)
            smaller = t
            for u in range(t):
                smaller -= (seen >> u) & 1
            rank = rank * (8 - p) + smaller      # the factorial number system, by Horner
            seen |= np.int64(1) << t
        ranks[i] = rank
        words[i] = word
    return bad


@njit(inline="always")
def _before(word: int, a: int, b: int) -> int:
    """``word`` (byte y: the move types that come before type y in the order, a transitive
    relation) with type ``a`` put before type ``b`` and everything that follows from it, or -1
    when ``word`` already puts ``b`` before ``a``."""
    pa = (word >> (8 * a)) & 0xFF
    if (pa >> b) & 1:
        return np.int64(-1)
    add = pa | (1 << a)
    out = word
    for z in range(8):
        if z == b or ((word >> (8 * z)) >> b) & 1:
            out |= add << (8 * z)
    return out


@njit
def _emit(word: int, orders: OrderGroup, length: int, closed: int, col: int,
          tail: TailTable, out: ByStart, scratch: RankSearch) -> None:
    """Write ``length`` and ``closed`` in column ``col`` for every order that keeps ``word``
    (every order of the set whose walk this was). The orders are the linear extensions of
    ``word``, listed by a depth-first search over the first four places of the order (the
    lexicographic rank grows as it goes: ``acc``); the last four come from the tail table
    (:class:`TailTable`: for each pattern of constraints among four types, the ranks of
    their orders that keep it), so the search never goes below depth 4."""
    rlo = orders.rlo
    row_of = orders.row_of
    toff = tail.offsets
    tflat = tail.ranks
    len_by_start = out.lengths
    closed_by_start = out.closed
    pre = scratch.before
    cand = scratch.cand
    chosen = scratch.chosen
    acc = scratch.acc
    rest = scratch.rest
    rhi = rlo + row_of.shape[0]
    for t in range(8):
        pre[t] = (word >> (8 * t)) & 0xFF
    depth = np.int64(0)
    used = np.int64(0)
    cand[0] = 0
    acc[0] = 0
    while depth >= 0:
        if depth == 4:
            nr = 0
            for t in range(8):
                if not (used >> t) & 1:
                    rest[nr] = t
                    nr += 1
            pat = np.int64(0)
            for i in range(4):
                p = pre[rest[i]]
                jj = 0
                for j in range(4):
                    if j != i:
                        if (p >> rest[j]) & 1:
                            pat |= np.int64(1) << (3 * i + jj)
                        jj += 1
            for e in range(toff[pat], toff[pat + 1]):
                rank = acc[4] + tflat[e]
                if rlo <= rank < rhi:
                    r = row_of[rank - rlo]
                    if r >= 0:
                        len_by_start[col, r] = length
                        closed_by_start[col, r] = closed
            depth -= 1
            used &= ~(np.int64(1) << chosen[depth])
            continue
        t = cand[depth]
        while t < 8 and (((used >> t) & 1) or (pre[t] & ~used) != 0):
            t += 1
        if t == 8:
            depth -= 1
            if depth >= 0:
                used &= ~(np.int64(1) << chosen[depth])
            continue
        cand[depth] = t + 1
        smaller = 0
        for u in range(t):
            if not (used >> u) & 1:
                smaller += 1
        block = np.int64(1)
        for f in range(2, 8 - depth):
            block *= f
        a = acc[depth] + smaller * block
        if a >= rhi or a + block <= rlo:
            continue      # no order of the set begins so
        chosen[depth] = t
        used |= np.int64(1) << t
        acc[depth + 1] = a
        cand[depth + 1] = 0
        depth += 1


@njit
def orders_tree(orders: OrderGroup, last: int, board: PaddedBoard, starts: np.ndarray,
                start_rows: np.ndarray, tail: TailTable, scratch: TieBranches,
                out: ByStart) -> int:
    """Every order's walk from each start, sharing the walks: orders that resolve every tie
    they meet the same way make the same walk, so the walk is made once for all of them.

    A tie among the move types D branches the word (see the module docstring) once for each
    type w of D that can still win: ``last`` = 0 puts w before the rest of D, 1 after them;
    a w the word already forbids is not walked. A finished walk writes its orders
    (:func:`_emit`).

    orders      the set of orders, its word the constraints they all keep
    last        int          0: ties go to the first tied move in the order; 1: the last
    board       the padded board and its squares
    starts      int64[s]     padded indices of the start squares
    start_rows  int64[s]     the row of ``out`` each start fills
    tail        the tail table of :func:`_emit`
    scratch     room for the open ties and the branches still to walk
    out         the squares visited by each walk, and whether it closes
    Returns the number of distinct walks made, or -1 (nothing written) when the arguments do
    not fit together.
    """
    word0 = orders.word
    rlo = orders.rlo
    row_of = orders.row_of
    outlets0 = board.onward
    offsets = board.moves
    squares = board.squares
    toff = tail.offsets
    tflat = tail.ranks
    snap = scratch.onward_at_tie
    stack = scratch.stack
    len_by_start = out.lengths
    closed_by_start = out.closed
    size = outlets0.shape[0]
    on_board = 0
    for p in range(size):
        if outlets0[p] < FRAME:
            on_board += 1
            for t in range(8):
                if not 0 <= p + offsets[t] < size:
                    return -1
    rows = len_by_start.shape[1]
    if (offsets.shape[0] != 8 or not 0 <= last <= 1 or squares < on_board or squares > 32767
            or snap.shape[0] < squares + 1 or snap.shape[1] != size
            or stack.shape[0] < 8 * (squares + 1) or stack.shape[1] < 4
            or closed_by_start.shape[0] != len_by_start.shape[0]
            or closed_by_start.shape[1] != rows or starts.shape[0] != start_rows.shape[0]
            or rlo < 0 or rlo + row_of.shape[0] > 40320 or toff.shape[0] != 4097
            or toff[0] != 0 or toff[4096] > tflat.shape[0]):
        return -1
    for i in range(4096):
        if toff[i + 1] < toff[i]:
            return -1
    for e in range(tflat.shape[0]):
        if not 0 <= tflat[e] < 24:
            return -1
    for i in range(row_of.shape[0]):
        if not -1 <= row_of[i] < rows:
            return -1
    for i in range(starts.shape[0]):
        if not (0 <= starts[i] < size and outlets0[starts[i]] < FRAME
                and 0 <= start_rows[i] < len_by_start.shape[0]):
            return -1
    walks = np.int64(0)
    work = np.empty(size, dtype=np.int32)
    tl = np.zeros(8, dtype=np.int64)
    ranking = RankSearch(np.zeros(8, dtype=np.int64), np.zeros(9, dtype=np.int64),
                         np.zeros(9, dtype=np.int64), np.zeros(9, dtype=np.int64),
                         np.zeros(4, dtype=np.int64))
    for si in range(starts.shape[0]):
        start = starts[si]
        col = start_rows[si]
        for t in range(size):
            snap[0, t] = outlets0[t]
        snap[0, start] = FRAME
        stack[0, 0] = word0
        stack[0, 1] = 0
        stack[0, 2] = -1
        stack[0, 3] = 1
        sp = np.int64(1)
        while sp > 0:
            sp -= 1
            word = stack[sp, 0]
            lvl = stack[sp, 1]
            q = stack[sp, 2]
            n = stack[sp, 3]
            for t in range(size):
                work[t] = snap[lvl, t]
            if q >= 0:
                work[q] = FRAME
            else:
                q = start
            while True:
                mn = np.int64(LIMIT)
                for t in range(8):
                    c = q + offsets[t]
                    d = np.int64(work[c]) - 1
                    work[c] = d
                    if d < mn:
                        mn = d
                if mn >= LIMIT:
                    walks += 1
                    closed = np.int64(0)
                    if n == squares:
                        closed = np.int64(_closed_end(q, start, offsets))
                    _emit(word, orders, n, closed, col, tail, out, ranking)
                    break
                nt = 0
                for t in range(8):
                    if work[q + offsets[t]] == mn:
                        tl[nt] = t
                        nt += 1
                if nt > 1:
                    # a tie: one branch per type that can still win it
                    wins = 0
                    first = np.int64(0)
                    first_word = word
                    for j in range(nt):
                        w = tl[j]
                        nw = word
                        for jj in range(nt):
                            if jj != j and nw >= 0:
                                nw = _before(nw, tl[jj], w) if last else _before(nw, w, tl[jj])
                        if nw < 0:
                            continue
                        if wins == 0:
                            first = w
                            first_word = nw
                        else:
                            if wins == 1:
                                for t in range(size):
                                    snap[lvl + 1, t] = work[t]
                                stack[sp, 0] = first_word
                                stack[sp, 1] = lvl + 1
                                stack[sp, 2] = q + offsets[first]
                                stack[sp, 3] = n + 1
                                sp += 1
                            stack[sp, 0] = nw
                            stack[sp, 1] = lvl + 1
                            stack[sp, 2] = q + offsets[w]
                            stack[sp, 3] = n + 1
                            sp += 1
                        wins += 1
                    if wins != 1:
                        break           # walked by the branches (none: a word no order keeps)
                    tl[0] = first       # only one of them can win: no branch
                    word = first_word
                q = q + offsets[tl[0]]
                work[q] = FRAME
                n += 1
    return walks
