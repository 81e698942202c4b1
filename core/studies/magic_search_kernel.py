"""A search for knight's tours whose lines add up to given totals: semi-magic tours, among
the open paths, the closed tours, or the closed tours the half turn keeps.

Arrays in, arrays out (numba only; :mod:`knightgui_core.studies.magic_search` checks them).

Move j puts number j+1 on ``path[j]``. In the half-turn mode (``HALF_TURN``) a closed tour of
N squares that the half turn ``opp`` maps onto itself visits ``opp(s)`` exactly N/2 steps
after ``s``, so the search builds half a tour and places two numbers a move: ``j+1`` on
``path[j]`` and ``j+1+N/2`` on ``opp(path[j])``; the tour closes when ``path[N/2-1]`` is a
knight's move from ``opp(path[0])``. Every line (a row, a column, or any set of squares the
caller gives, with its total) is checked at every node: the numbers not yet placed are known
exactly, and a knight's numbers follow its square's colour (number 1 on the start's colour
is odd), so a line with ``c0`` free squares for even numbers and ``c1`` for odd ones can
still reach its total only between the sums of the smallest and of the largest ``c0`` even
and ``c1`` odd numbers left. A free square left with too few neighbours among the free
squares and the path's ends (two for a closed tour; for an open path one, and only one
square may have just one) ends the branch; children are tried fewest onward moves first.

The search is resumable: ``st`` (start index, depth) with ``path``, ``order``, ``cnt`` and
``pos`` hold where it stopped, so a caller can run it a node budget at a time.
"""
from __future__ import annotations

import numpy as np

from ..system.jit import njit

NODES, FOUND, STARTS_DONE = 0, 1, 2
OPEN, CLOSED, HALF_TURN = 0, 1, 2
BIG = 1 << 40
#: columns of the neighbour table (a knight's eight moves, -1 pads); a constant so that
#: numba unrolls the inner loops (a third of the open search's time, measured)
MOVES = 8


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
def _put(u: int, number: int, sign: int, line_of: np.ndarray, npar: np.ndarray,
         lsum: np.ndarray, lfree: np.ndarray) -> None:
    """Add (``sign`` 1) or take back (-1) ``number`` on square ``u`` in its lines."""
    for j in range(line_of.shape[1]):
        li = line_of[u, j]
        if li >= 0:
            lsum[li] += sign * number
            lfree[li, npar[u]] -= sign


@njit
def _degrees_ok(nbr: np.ndarray, visited: np.ndarray, e0: int, e1: int, e2: int,
                e3: int, need: int) -> bool:
    """Every free square keeps ``need`` (2: closed) neighbours among the free squares and
    the ends ``e0..e3``; with ``need`` 1 (open), at most one square keeps only one."""
    n = nbr.shape[0]
    ones = 0
    for w in range(n):
        if visited[w]:
            continue
        deg = 0
        for t in range(MOVES):
            v = nbr[w, t]
            if v >= 0 and (not visited[v] or v == e0 or v == e1 or v == e2 or v == e3):
                deg += 1
        if deg < need:
            return False
        if deg == 1:
            ones += 1
            if ones > 1:
                return False
    return True


@njit
def _children(nbr: np.ndarray, visited: np.ndarray, s: int, order: np.ndarray,
              cnt: np.ndarray, d: int) -> None:
    """The free neighbours of ``s`` into ``order[d]``, fewest free onward moves first."""
    c = 0
    keys = np.empty(MOVES, np.int64)
    for t in range(MOVES):
        u = nbr[s, t]
        if u < 0 or visited[u]:
            continue
        deg = 0
        for t2 in range(MOVES):
            v = nbr[u, t2]
            if v >= 0 and not visited[v]:
                deg += 1
        j = c
        while j > 0 and keys[j - 1] > deg:
            keys[j] = keys[j - 1]
            order[d, j] = order[d, j - 1]
            j -= 1
        keys[j] = deg
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
def _move(u: int, j: int, sign: int, paired: bool, half: int, opp: np.ndarray,
          visited: np.ndarray, line_of: np.ndarray, npar: np.ndarray, lsum: np.ndarray,
          lfree: np.ndarray) -> None:
    """Make (``sign`` 1) or take back (-1) move j on square u: number j+1 there, and
    j+1+half on ``opp[u]`` when ``paired``."""
    visited[u] = 1 if sign > 0 else 0
    _put(u, j + 1, sign, line_of, npar, lsum, lfree)
    if paired:
        visited[opp[u]] = 1 if sign > 0 else 0
        _put(opp[u], j + 1 + half, sign, line_of, npar, lsum, lfree)


@njit
def _fits(nbr: np.ndarray, opp: np.ndarray, visited: np.ndarray, path: np.ndarray, u: int,
          j: int, mode: int, levels: int) -> bool:
    """After move j on u: the closing move at the last level, else the degree cut."""
    s0 = path[0]
    if mode == HALF_TURN:
        if j == levels - 1:
            return _adjacent(nbr, u, opp[s0])
        return _degrees_ok(nbr, visited, u, opp[u], s0, opp[s0], 2)
    if mode == CLOSED:
        if j == levels - 1:
            return _adjacent(nbr, u, s0)
        return _degrees_ok(nbr, visited, u, s0, u, s0, 2)
    if j == levels - 1:
        return True
    return _open_degrees_ok(nbr, visited, u)


@njit
def _open_degrees_ok(nbr: np.ndarray, visited: np.ndarray, end: int) -> bool:
    """:func:`_degrees_ok` for an open path (one end, ``need`` 1), with one comparison
    a neighbour instead of four."""
    n = nbr.shape[0]
    ones = 0
    for w in range(n):
        if visited[w]:
            continue
        deg = 0
        for t in range(MOVES):
            v = nbr[w, t]
            if v >= 0 and (not visited[v] or v == end):
                deg += 1
        if deg == 0:
            return False
        if deg == 1:
            ones += 1
            if ones > 1:
                return False
    return True


@njit
def magic_search(nbr: np.ndarray, opp: np.ndarray, colour: np.ndarray, line_of: np.ndarray,
                 totals: np.ndarray, starts: np.ndarray, mode: int, st: np.ndarray,
                 path: np.ndarray, order: np.ndarray, cnt: np.ndarray, pos: np.ndarray,
                 counters: np.ndarray, found: np.ndarray, node_limit: int) -> int:
    """Run the search (``mode`` OPEN, CLOSED or HALF_TURN) from ``st`` on. Returns 0 when
    every start is exhausted, 1 when ``found`` is full (``counters[FOUND]`` tours, each N
    squares in number order), -1 when ``node_limit`` nodes (> 0) were spent in this call;
    ``st`` is where to resume. Arrays of the wrong size, a square out of range or a half
    turn that is not one return 0 with nothing searched."""
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
        for t in range(nbr.shape[1]):
            if nbr[s, t] >= n:
                return 0
        for j in range(line_of.shape[1]):
            if line_of[s, j] >= nl:
                return 0
    for i in range(starts.shape[0]):
        if starts[i] < 0 or starts[i] >= n:
            return 0
    lo, hi = _parity_tables(n, levels)
    visited = np.zeros(n, np.uint8)
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
            _move(u, j, 1, paired, half, opp, visited, line_of, npar, lsum, lfree)
    while True:
        if d < 0:                                # begin the next start
            if st[0] >= starts.shape[0]:
                st[1] = -1
                return 0
            s0 = starts[st[0]]
            visited[:] = 0
            lsum[:] = 0
            lfree[:, :] = 0
            for s in range(n):
                npar[s] = 1 if colour[s] == colour[s0] else 0
                for j in range(line_of.shape[1]):
                    if line_of[s, j] >= 0:
                        lfree[line_of[s, j], npar[s]] += 1
            _move(s0, 0, 1, paired, half, opp, visited, line_of, npar, lsum, lfree)
            path[0] = s0
            if _lines_ok(1, lsum, lfree, totals, lo, hi) and (
                    levels == 1 or _fits(nbr, opp, visited, path, s0, 0, mode, levels)):
                d = 0
                if levels > 1:
                    _children(nbr, visited, s0, order, cnt, 0)
                    pos[0] = 0
            else:
                st[0] += 1
                counters[STARTS_DONE] += 1
            continue
        if d == levels - 1:                      # a whole tour: keep it, then go on
            k = counters[FOUND]
            if k < found.shape[0]:
                for j in range(levels):
                    found[k, j] = path[j]
                    if paired:
                        found[k, j + half] = opp[path[j]]
            counters[FOUND] += 1
            _move(path[d], d, -1, paired, half, opp, visited, line_of, npar, lsum, lfree)
            d -= 1
            if d < 0:
                st[0] += 1
                counters[STARTS_DONE] += 1
            if counters[FOUND] >= found.shape[0]:
                st[1] = d
                return 1
            continue
        if pos[d] >= cnt[d]:                     # every child tried: back up
            _move(path[d], d, -1, paired, half, opp, visited, line_of, npar, lsum, lfree)
            d -= 1
            if d < 0:
                st[0] += 1
                counters[STARTS_DONE] += 1
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
        _move(u, j, 1, paired, half, opp, visited, line_of, npar, lsum, lfree)
        if _lines_ok(j + 1, lsum, lfree, totals, lo, hi) and _fits(
                nbr, opp, visited, path, u, j, mode, levels):
            d = j
            path[d] = u
            if d < levels - 1:
                _children(nbr, visited, u, order, cnt, d)
                pos[d] = 0
            continue
        _move(u, j, -1, paired, half, opp, visited, line_of, npar, lsum, lfree)
