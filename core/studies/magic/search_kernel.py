"""A search for knight's tours whose lines add up to given totals: semi-magic tours, among
the open paths, the closed tours, or the closed tours the half turn keeps.

Arrays in, arrays out (numba only; :mod:`knightgui_core.studies.magic.search` checks them).

Move j puts number j+1 on ``path[j]``; in the half-turn mode (``HALF_TURN``) also j+1+N/2 on
``opp(path[j])``, as such a tour visits ``opp(s)`` N/2 steps after ``s``, and the tour closes
when ``path[N/2-1]`` is a knight's move from ``opp(path[0])``. Every line (a row, a column or
any set of squares with its total) is checked at every node: a knight's numbers follow its
square's colour, so a line with ``c0`` free squares for even numbers and ``c1`` for odd ones
can reach its total only between the sums of the smallest and of the largest such numbers
left. A free square left with too few neighbours among the free squares and the path's ends
(two for a closed tour; one for an open path, and only one square may have just one) ends
the branch; children are tried fewest onward moves first.

A move's numbers go into their lines and are checked before it takes its square; every
square's free neighbours (and how many free squares have none or one) are counted as squares
are taken, so the degree cut and the children's order read counts instead of scanning the
board (twice the nodes a second on 8×8, docs/structure.md). :class:`SearchState` holds where
the search stopped, so a caller runs it a node budget at a time.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...system.jit import njit

NODES, FOUND, STARTS_DONE = 0, 1, 2
OPEN, CLOSED, HALF_TURN = 0, 1, 2
BIG = 1 << 40
#: columns of the neighbour table (a knight's eight moves, -1 pads); a constant so that
#: numba unrolls the inner loops (a third of the open search's time, measured)
MOVES = 8


class KnightBoard(NamedTuple):
    """The board of N squares as the search reads it.

    neighbours  int64[N, MOVES]  each square's knight neighbours packed to the front, -1 pads
    opposite    int64[N]         the square the half turn maps each square to
    colour      int64[N]         each square's colour, 0 or 1
    """

    neighbours: np.ndarray
    opposite: np.ndarray
    colour: np.ndarray


class Lines(NamedTuple):
    """The lines whose numbers must add up: ``line_of`` int64[N, k] the lines each square
    lies on (-1: fewer than k), ``totals`` int64[L] each line's total."""

    line_of: np.ndarray
    totals: np.ndarray


class SearchState(NamedTuple):
    """Where the search stopped, for ``levels`` moves (N, or N/2 in the half-turn mode).

    at           int64[2]              the start (its index in the starts) and the depth
                                       reached (-1: begin that start afresh)
    path         int64[levels]         the square of each move made
    children     int64[levels, MOVES]  at each depth, the children in the order tried
    child_count  int64[levels]         how many children each depth has
    next_child   int64[levels]         the next child to try at each depth
    """

    at: np.ndarray
    path: np.ndarray
    children: np.ndarray
    child_count: np.ndarray
    next_child: np.ndarray


@njit
def _parity_tables(n: int, levels: int) -> tuple[np.ndarray, np.ndarray]:
    """``lo[a, p, c]`` / ``hi[a, p, c]``: the sum of the ``c`` smallest / largest numbers of
    parity ``p`` left once moves 1..a are made (``BIG`` / ``-BIG`` where too few). With
    ``levels`` = n/2 (half-turn) move a placed a and a + n/2, else a alone."""
    half = levels
    lo = np.full((levels + 1, 2, n + 1), BIG, np.int64)
    hi = np.full((levels + 1, 2, n + 1), -BIG, np.int64)
    vals = np.empty(n, np.int64)
    for a in range(levels + 1):
        for p in range(2):
            m = 0
            for v in range(a + 1, half + 1):
                if v % 2 == p:
                    vals[m] = v
                    m += 1
            for v in range(a + 1 + half, n + 1 if half < n else 0):
                if v % 2 == p:
                    vals[m] = v
                    m += 1
            lo[a, p, 0] = 0
            hi[a, p, 0] = 0
            s_lo = 0
            s_hi = 0
            for c in range(1, m + 1):
                s_lo += vals[c - 1]
                s_hi += vals[m - c]
                lo[a, p, c] = s_lo
                hi[a, p, c] = s_hi
    return lo, hi


@njit
def _lines_ok(a: int, lsum: np.ndarray, lfree: np.ndarray, totals: np.ndarray,
              lo: np.ndarray, hi: np.ndarray) -> bool:
    """Whether every line can still reach its total with the numbers left after pair a."""
    for i in range(totals.shape[0]):
        c0 = lfree[i, 0]
        c1 = lfree[i, 1]
        if c0 < 0 or c1 < 0 or c0 >= lo.shape[2] or c1 >= lo.shape[2]:
            return False
        s = lsum[i]
        if s + lo[a, 0, c0] + lo[a, 1, c1] > totals[i]:
            return False
        if s + hi[a, 0, c0] + hi[a, 1, c1] < totals[i]:
            return False
    return True


@njit
def _degrees_init(nbr: np.ndarray, visited: np.ndarray, fdeg: np.ndarray,
                  low: np.ndarray) -> None:
    """``fdeg[w]``: the free neighbours of each square; ``low[0]`` / ``low[1]``: how many
    free squares have none / one."""
    low[0] = 0
    low[1] = 0
    for w in range(nbr.shape[0]):
        f = 0
        for t in range(MOVES):
            v = nbr[w, t]
            if v >= 0 and not visited[v]:
                f += 1
        fdeg[w] = f
        if not visited[w] and f < 2:
            low[f] += 1


@njit
def _occupy(u: int, sign: int, paired: bool, opp: np.ndarray, nbr: np.ndarray,
            visited: np.ndarray, fdeg: np.ndarray, low: np.ndarray) -> None:
    """Take square u (``sign`` 1), and ``opp[u]`` when ``paired``, or free them again (-1,
    in the reverse order), keeping :func:`_degrees_init`'s counts exact. A leaf, as
    :func:`_number`, :func:`_degrees_ok` and :func:`_closes`: numba increfs the arrays a
    kernel hands on to another, a third of the search's time through one helper."""
    opp_first = paired and sign < 0
    for k in range(2 if paired else 1):
        w = opp[u] if (k == 0) == opp_first else u
        f = fdeg[w]                              # w itself: not its own neighbour
        if f < 2:
            low[f] -= sign
        visited[w] = 1 if sign > 0 else 0
        for t in range(MOVES):
            v = nbr[w, t]
            if v < 0:
                continue
            f = fdeg[v]
            if not visited[v]:
                if f < 2:
                    low[f] -= 1                  # v leaves its class ...
                if f - sign < 2:
                    low[f - sign] += 1           # ... for its new one
            fdeg[v] = f - sign


@njit
def _number(u: int, j: int, sign: int, paired: bool, half: int, opp: np.ndarray,
            line_of: np.ndarray, npar: np.ndarray, lsum: np.ndarray,
            lfree: np.ndarray) -> None:
    """Put (``sign`` 1) or take back (-1) move j's numbers in their lines: j+1 on u, and
    j+1+half on ``opp[u]`` when ``paired``."""
    for k in range(2 if paired else 1):
        w = u if k == 0 else opp[u]
        number = j + 1 + (half if k else 0)
        for i in range(line_of.shape[1]):
            li = line_of[w, i]
            if li >= 0:
                lsum[li] += sign * number
                lfree[li, npar[w]] -= sign


@njit
def _closes(nbr: np.ndarray, opp: np.ndarray, s0: int, u: int, mode: int) -> bool:
    """At the last level, after a move on u: whether the tour closes (open paths always)."""
    closes = mode == OPEN
    target = opp[s0] if mode == HALF_TURN else s0
    for t in range(MOVES):
        closes = closes or nbr[u, t] == target
    return closes


@njit
def _degrees_ok(nbr: np.ndarray, opp: np.ndarray, visited: np.ndarray, fdeg: np.ndarray,
                low: np.ndarray, bonus: np.ndarray, s0: int, u: int, mode: int) -> bool:
    """After a move on u (from start s0), the degree cut: every free square keeps two
    neighbours among the free squares and the path's ends (u and s0, with their opposites
    in the half-turn mode), or for an open path one, and only one square may keep just one.
    :func:`_degrees_init`'s counts, corrected on the ends' free neighbours only (``bonus``:
    zeros, scratch); apart from :func:`_closes` so that numba keeps no reference counts."""
    ends = 1 if mode == OPEN else (2 if mode == CLOSED else 4)
    zeros = low[0]
    ones = low[1]
    for p in range(2):                           # count each end's touch, then correct
        for i in range(ends):
            e = u if i == 0 else (s0 if i == 1 else (opp[u] if i == 2 else opp[s0]))
            if (i > 0 and e == u) or (i > 1 and e == s0) or (i > 2 and e == opp[u]):
                continue
            for t in range(MOVES):
                w = nbr[e, t]
                if w < 0 or visited[w]:
                    continue
                if p == 0:
                    bonus[w] += 1
                elif bonus[w] > 0:
                    f = fdeg[w]
                    if f < 2:
                        if f == 0:
                            zeros -= 1
                        else:
                            ones -= 1
                    f += bonus[w]
                    bonus[w] = 0
                    if f < 2:
                        if f == 0:
                            zeros += 1
                        else:
                            ones += 1
    return zeros == 0 and (ones == 0 or (mode == OPEN and ones == 1))


@njit
def _children(nbr: np.ndarray, visited: np.ndarray, fdeg: np.ndarray, s: int,
              order: np.ndarray, cnt: np.ndarray, d: int) -> None:
    """The free neighbours of ``s`` into ``order[d]``, fewest free onward moves first."""
    c = 0
    for t in range(MOVES):
        u = nbr[s, t]
        if u < 0 or visited[u]:
            continue
        deg = fdeg[u]
        j = c
        while j > 0 and fdeg[order[d, j - 1]] > deg:
            order[d, j] = order[d, j - 1]
            j -= 1
        order[d, j] = u
        c += 1
    cnt[d] = c


@njit
def _adjacent(nbr: np.ndarray, a: int, b: int) -> bool:
    for t in range(MOVES):
        if nbr[a, t] == b:
            return True
    return False


@njit
def magic_search(board: KnightBoard, lines: Lines, starts: np.ndarray, mode: int,
                 state: SearchState, counters: np.ndarray, found: np.ndarray,
                 node_limit: int) -> int:
    """Run the search (``mode`` OPEN, CLOSED or HALF_TURN) from ``st`` on. Returns 0 when
    every start is exhausted, 1 when ``found`` is full (``counters[FOUND]`` tours, each N
    squares in number order), -1 when ``node_limit`` nodes (> 0) were spent in this call;
    ``state`` is where to resume (``starts`` int64: the start squares, in turn;
    ``counters`` int64[3]: nodes, tours, starts exhausted, added to). Arrays of the wrong
    size, a square out of range, a neighbour table that is not a simple undirected graph
    (the free-neighbour counts are kept from both sides of each move) or a half turn that is
    not one return 0 with nothing searched."""
    nbr = board.neighbours
    opp = board.opposite
    colour = board.colour
    line_of = lines.line_of
    totals = lines.totals
    st = state.at
    path = state.path
    order = state.children
    cnt = state.child_count
    pos = state.next_child
    n = nbr.shape[0]
    paired = mode == HALF_TURN
    half = n // 2
    levels = half if paired else n
    nl = totals.shape[0]
    if (n < 1 or (paired and n % 2) or mode < 0 or mode > 2 or opp.shape[0] != n
            or colour.shape[0] != n or line_of.shape[0] != n or path.shape[0] < levels
            or order.shape[0] < levels or order.shape[1] < MOVES or nbr.shape[1] != MOVES
            or cnt.shape[0] < levels or pos.shape[0] < levels or counters.shape[0] < 3
            or found.shape[1] != n or st.shape[0] < 2 or st[1] >= levels or st[0] < 0):
        return 0
    for s in range(n):
        o = opp[s]
        if paired and (o < 0 or o >= n or o == s or opp[o] != s):
            return 0
        for t in range(MOVES):
            v = nbr[s, t]
            if v >= n or v == s or (v >= 0 and not _adjacent(nbr, v, s)):
                return 0
            for t2 in range(t):
                if v >= 0 and nbr[s, t2] == v:
                    return 0
        for j in range(line_of.shape[1]):
            if line_of[s, j] >= nl:
                return 0
    for i in range(starts.shape[0]):
        if starts[i] < 0 or starts[i] >= n:
            return 0
    lo, hi = _parity_tables(n, levels)
    visited = np.zeros(n, np.uint8)
    fdeg = np.zeros(n, np.int64)
    low = np.zeros(2, np.int64)
    bonus = np.zeros(n, np.int64)
    _degrees_init(nbr, visited, fdeg, low)
    npar = np.zeros(n, np.int64)
    lsum = np.zeros(nl, np.int64)
    lfree = np.zeros((nl, 2), np.int64)
    used = 0
    d = st[1]
    if d >= 0:                                   # resume: rebuild the state from the path
        if st[0] >= starts.shape[0] or path[0] != starts[st[0]]:
            return 0
        for s in range(n):
            npar[s] = 1 if colour[s] == colour[path[0]] else 0
            for j in range(line_of.shape[1]):
                if line_of[s, j] >= 0:
                    lfree[line_of[s, j], npar[s]] += 1
        for j in range(d + 1):
            u = path[j]
            if u < 0 or u >= n or visited[u] or (paired and visited[opp[u]]):
                return 0
            _occupy(u, 1, paired, opp, nbr, visited, fdeg, low)
            _number(u, j, 1, paired, half, opp, line_of, npar, lsum, lfree)
    while True:
        if d < 0:                                # begin the next start
            if st[0] >= starts.shape[0]:
                st[1] = -1
                return 0
            s0 = starts[st[0]]
            visited[:] = 0
            _degrees_init(nbr, visited, fdeg, low)
            lsum[:] = 0
            lfree[:, :] = 0
            for s in range(n):
                npar[s] = 1 if colour[s] == colour[s0] else 0
                for j in range(line_of.shape[1]):
                    if line_of[s, j] >= 0:
                        lfree[line_of[s, j], npar[s]] += 1
            _occupy(s0, 1, paired, opp, nbr, visited, fdeg, low)
            _number(s0, 0, 1, paired, half, opp, line_of, npar, lsum, lfree)
            path[0] = s0
            if _lines_ok(1, lsum, lfree, totals, lo, hi) and (
                    levels == 1 or _degrees_ok(nbr, opp, visited, fdeg, low, bonus, s0, s0, mode)):
                d = 0
                if levels > 1:
                    _children(nbr, visited, fdeg, s0, order, cnt, 0)
                    pos[0] = 0
            else:
                st[0] += 1
                counters[STARTS_DONE] += 1
            continue
        full = d == levels - 1
        if full:                                 # a whole tour: keep it, then go on
            k = counters[FOUND]
            if k < found.shape[0]:
                for j in range(levels):
                    found[k, j] = path[j]
                    if paired:
                        found[k, j + half] = opp[path[j]]
            counters[FOUND] += 1
        if full or pos[d] >= cnt[d]:             # every child tried: back up
            _occupy(path[d], -1, paired, opp, nbr, visited, fdeg, low)
            _number(path[d], d, -1, paired, half, opp, line_of, npar, lsum, lfree)
            d -= 1
            if d < 0:
                st[0] += 1
                counters[STARTS_DONE] += 1
            if full and counters[FOUND] >= found.shape[0]:
                st[1] = d
                return 1
            continue
        if node_limit > 0 and used >= node_limit:
            st[1] = d
            return -1
        u = order[d, pos[d]]
        pos[d] += 1
        if u < 0 or u >= n or visited[u]:
            continue
        used += 1
        counters[NODES] += 1
        j = d + 1
        _number(u, j, 1, paired, half, opp, line_of, npar, lsum, lfree)
        if _lines_ok(j + 1, lsum, lfree, totals, lo, hi):
            _occupy(u, 1, paired, opp, nbr, visited, fdeg, low)
            if (_closes(nbr, opp, path[0], u, mode) if j == levels - 1 else
                    _degrees_ok(nbr, opp, visited, fdeg, low, bonus, path[0], u, mode)):
                d = j
                path[d] = u
                if d < levels - 1:
                    _children(nbr, visited, fdeg, u, order, cnt, d)
                    pos[d] = 0
                continue
            _occupy(u, -1, paired, opp, nbr, visited, fdeg, low)
        _number(u, j, -1, paired, half, opp, line_of, npar, lsum, lfree)
