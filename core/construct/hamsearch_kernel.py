"""Small-board Hamiltonian path search with required edges (numba).

Used by :mod:`knightgui_core.construct.blocks` to build the base tours of the block construction: boards
of at most a few hundred squares, where a Warnsdorff-ordered depth-first search with an
explicit stack finds a path in a few hundred nodes.

Problem solved by :func:`ham_search`: a Hamiltonian path of a graph given by a neighbour
table (usually the knight moves of a small board, flat local index ``y * w + x``) that

* starts at ``start``;
* ends at ``end`` when ``end >= 0`` (the end is *reserved*: it can only be the last square);
  a closed tour is searched as a path from a corner to the corner's other neighbour;
* contains every required edge: ``req[s] >= 0`` names the square that must be next to ``s``
  on the path (each square has at most one required partner; the relation is symmetric).

Pruning: an unvisited square left with no unvisited neighbour can only be the final square;
two of them, or one when more than one step is left, is a dead end. Candidates are ranked by
outlets (unvisited neighbours, Warnsdorff), ties by a seeded xorshift generator, so a given
seed always gives the same path.
"""
from __future__ import annotations

import numpy as np

from ..system.jit import njit
from ..system.rng_kernel import xorshift64

_DX = np.array([2, 1, -1, -2, -2, -1, 1, 2], dtype=np.int64)
_DY = np.array([-1, -2, -2, -1, 1, 2, 2, 1], dtype=np.int64)


@njit
def local_neighbours(h: int, w: int) -> np.ndarray:
    """``int32[h*w, 8]`` neighbour table of an ``h`` × ``w`` board, -1 off the board."""
    nb = np.full((h * w, 8), -1, dtype=np.int32)
    for y in range(h):
        for x in range(w):
            for t in range(8):
                xx = x + _DX[t]
                yy = y + _DY[t]
                if 0 <= xx < w and 0 <= yy < h:
                    nb[y * w + x, t] = yy * w + xx
    return nb


@njit
def _candidates(depth, n, path, nb, visited, outlets, req, end, rng, cand):
    """Fill ``cand[depth, :]`` with the ranked next squares; return how many."""
    cur = path[depth]
    prev = path[depth - 1] if depth > 0 else -1
    last_step = depth + 1 == n - 1
    # an end that can no longer be reached from anywhere but here
    if end >= 0 and not last_step and outlets[end] == 0:
        return 0
    r = req[cur]
    if r >= 0 and r != prev:
        if visited[r] or (r == end and not last_step):
            return 0
        cand[depth, 0] = r
        return 1
    stranded = -1
    for t in range(nb.shape[1]):
        u = nb[cur, t]
        if u < 0 or visited[u] or u == end:
            continue
        if outlets[u] == 0:
            if stranded >= 0:
                return 0
            stranded = u
    if stranded >= 0:
        if not last_step:
            return 0
        cand[depth, 0] = stranded
        return 1
    k = nb.shape[1]
    keys = np.empty(k, dtype=np.int64)
    m = 0
    for t in range(k):
        u = nb[cur, t]
        if u < 0 or visited[u]:
            continue
        if u == end and not last_step:
            continue
        ru = req[u]
        if ru >= 0 and ru != cur and visited[ru]:
            continue
        key = (np.int64(outlets[u]) << 32) | np.int64(xorshift64(rng) >> np.uint64(40))
        j = m
        while j > 0 and keys[j - 1] > key:
            keys[j] = keys[j - 1]
            cand[depth, j] = cand[depth, j - 1]
            j -= 1
        keys[j] = key
        cand[depth, j] = u
        m += 1
    return m


@njit
def ham_search(nb: np.ndarray, start: int, end: int, req: np.ndarray, node_budget: int, seed: int,
               path: np.ndarray) -> int:
    """Depth-first search for a Hamiltonian path (see the module docstring).

    ``nb``: int32[n, k] neighbour table of the graph (-1 = none; usually the knight moves of
    a small board from :func:`local_neighbours`, sometimes plus a virtual edge).
    ``req``: int32[n] required partner or -1. ``path``: int32[n], filled on success.
    Returns ``n`` on success, 0 when the whole tree was searched without success, -1 when
    ``node_budget`` forward moves were spent.
    """
    n = nb.shape[0]
    k = nb.shape[1]
    visited = np.zeros(n, dtype=np.uint8)
    outlets = np.zeros(n, dtype=np.int32)
    for s in range(n):
        for t in range(k):
            if nb[s, t] >= 0:
                outlets[s] += 1
    cand = np.empty((n, k), dtype=np.int32)
    ncand = np.zeros(n, dtype=np.int32)
    idx = np.zeros(n, dtype=np.int32)
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed) * np.uint64(2654435761) + np.uint64(88172645463325252)
    path[0] = start
    visited[start] = 1
    for t in range(k):
        if nb[start, t] >= 0:
            outlets[nb[start, t]] -= 1
    if n == 1:
        return 1
    depth = 0
    ncand[0] = _candidates(0, n, path, nb, visited, outlets, req, end, rng, cand)
    idx[0] = 0
    nodes = 0
    while True:
        if idx[depth] < ncand[depth]:
            v = cand[depth, idx[depth]]
            idx[depth] += 1
            nodes += 1
            if nodes > node_budget:
                return -1
            depth += 1
            path[depth] = v
            visited[v] = 1
            for t in range(k):
                if nb[v, t] >= 0:
                    outlets[nb[v, t]] -= 1
            if depth == n - 1:
                return n
            ncand[depth] = _candidates(depth, n, path, nb, visited, outlets, req, end, rng,
                                       cand)
            idx[depth] = 0
        else:
            if depth == 0:
                return 0
            v = path[depth]
            visited[v] = 0
            for t in range(k):
                if nb[v, t] >= 0:
                    outlets[nb[v, t]] += 1
            depth -= 1
