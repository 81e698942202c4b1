"""A depth-first search for semi-magic knight's tours: numbered along the path, every row
adds to ``row_total`` and every column to ``col_total``.

Arrays in, counters out (numba only; :mod:`knightgui_core.studies.semimagic` checks the
arrays). Move k puts number k on its square; the numbers still to come are exactly
k+1..N, so a row with c squares left and sum s can still reach its total only if
``s + (k+1) + … + (k+c) ≤ total ≤ s + (N−c+1) + … + N`` — every row and every column is
checked at every node. A square left with no free neighbour (or with one, for two squares
or more: only one can be the last) cuts too. Children are tried fewest onward moves first
(Warnsdorff's order), so full tours come quickly and the sums do the pruning.
"""
from __future__ import annotations

import numpy as np

from ..system.jit import njit

NODES, FOUND = 0, 1


@njit
def _sums_ok(k: int, n: int, sums: np.ndarray, left: np.ndarray, total: int) -> bool:
    """Whether every line (``sums``, ``left`` squares each) can still reach ``total`` with
    numbers from k+1..n."""
    for i in range(sums.shape[0]):
        c = left[i]
        s = sums[i]
        if c == 0:
            if s != total:
                return False
            continue
        low = c * (2 * k + c + 1) // 2           # (k+1) + … + (k+c)
        high = c * (2 * n - c + 1) // 2          # (n-c+1) + … + n
        if s + low > total or s + high < total:
            return False
    return True


@njit
def _reachable_ok(nbr: np.ndarray, visited: np.ndarray, end: int) -> bool:
    """No free square is cut off, and at most one free square can only be a last one."""
    n = nbr.shape[0]
    ends = 0
    for u in range(n):
        if visited[u]:
            continue
        deg = 0
        for t in range(8):
            v = nbr[u, t]
            if v >= 0 and (not visited[v] or v == end):
                deg += 1
        if deg == 0:
            return False
        if deg == 1:
            ends += 1
            if ends > 1:
                return False
    return True


@njit
def semimagic_search(nbr: np.ndarray, row_of: np.ndarray, col_of: np.ndarray,
                     row_total: int, col_total: int, prefix: np.ndarray, counters: np.ndarray,
                     out: np.ndarray, node_limit: int) -> int:
    """Search the tours that begin with ``prefix`` (at least one square) for one whose rows
    add to ``row_total`` and columns to ``col_total``. Returns 1 with the tour in ``out``
    (``counters[FOUND]`` 1), 0 when there is none, -1 when ``node_limit`` nodes (0: no limit)
    ran out first. ``counters[NODES]`` counts the nodes. A prefix that is not a knight's
    path from distinct squares returns 0."""
    n = nbr.shape[0]
    rows = row_of.max() + 1
    cols = col_of.max() + 1
    rsum = np.zeros(rows, np.int64)
    rleft = np.zeros(rows, np.int64)
    csum = np.zeros(cols, np.int64)
    cleft = np.zeros(cols, np.int64)
    for s in range(n):
        rleft[row_of[s]] += 1
        cleft[col_of[s]] += 1
    visited = np.zeros(n, np.uint8)
    path = np.empty(n, np.int64)
    order = np.empty((n, 8), np.int64)
    count = np.zeros(n, np.int64)
    pos = np.zeros(n, np.int64)
    k0 = prefix.shape[0]
    for i in range(k0):                          # the prefix, checked
        s = prefix[i]
        if s < 0 or s >= n or visited[s]:
            return 0
        if i > 0:
            ok = False
            for t in range(8):
                if nbr[prefix[i - 1], t] == s:
                    ok = True
            if not ok:
                return 0
        visited[s] = 1
        path[i] = s
        rsum[row_of[s]] += i + 1
        rleft[row_of[s]] -= 1
        csum[col_of[s]] += i + 1
        cleft[col_of[s]] -= 1
    if not (_sums_ok(k0, n, rsum, rleft, row_total) and _sums_ok(k0, n, csum, cleft, col_total)):
        return 0
    d = k0 - 1                                   # path[0..d] placed; children of path[d]
    _children(nbr, visited, path[d], order[d], count, d)
    pos[d] = 0
    while d >= k0 - 1:
        if d == n - 1:
            counters[FOUND] = 1
            for i in range(n):
                out[i] = path[i]
            return 1
        if pos[d] >= count[d]:
            if d == k0 - 1:
                return 0
            s = path[d]                          # undo number d+1 on s
            visited[s] = 0
            rsum[row_of[s]] -= d + 1
            rleft[row_of[s]] += 1
            csum[col_of[s]] -= d + 1
            cleft[col_of[s]] += 1
            d -= 1
            continue
        u = order[d, pos[d]]
        pos[d] += 1
        counters[NODES] += 1
        if node_limit > 0 and counters[NODES] > node_limit:
            return -1
        k = d + 2                                # the number u gets
        visited[u] = 1
        rsum[row_of[u]] += k
        rleft[row_of[u]] -= 1
        csum[col_of[u]] += k
        cleft[col_of[u]] -= 1
        if (_sums_ok(k, n, rsum, rleft, row_total) and _sums_ok(k, n, csum, cleft, col_total)
                and (k == n or _reachable_ok(nbr, visited, u))):
            d += 1
            path[d] = u
            _children(nbr, visited, u, order[d], count, d)
            pos[d] = 0
            continue
        visited[u] = 0
        rsum[row_of[u]] -= k
        rleft[row_of[u]] += 1
        csum[col_of[u]] -= k
        cleft[col_of[u]] += 1
    return 0


@njit
def _children(nbr: np.ndarray, visited: np.ndarray, s: int, order: np.ndarray,
              count: np.ndarray, d: int) -> None:
    """The free neighbours of ``s`` into ``order``, fewest free onward moves first."""
    c = 0
    keys = np.empty(8, np.int64)
    for t in range(8):
        u = nbr[s, t]
        if u < 0 or visited[u]:
            continue
        deg = 0
        for t2 in range(8):
            v = nbr[u, t2]
            if v >= 0 and not visited[v]:
                deg += 1
        # insertion by onward degree
        j = c
        while j > 0 and keys[j - 1] > deg:
            keys[j] = keys[j - 1]
            order[j] = order[j - 1]
            j -= 1
        keys[j] = deg
        order[j] = u
        c += 1
    count[d] = c
