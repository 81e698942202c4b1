"""Listing every knight's path from a start, a block at a time (the all-tours stepping).

The search of :mod:`knightgui_core.tietree.alltours.alltours_kernel` without its table (a
table adds up counts; a list needs each path): a depth-first search over the unvisited
squares with the same two cuts and degree bookkeeping, that stops after ``want`` paths or
``budget`` expanded nodes and resumes there on the next call. Paths come in the order of the
squares' indices at each level, the same on every run. Its push step is a deliberate copy of
the count's: sharing it through ``inline="always"`` broke the bundle's ahead-of-time build, and
a plain call cost the count a quarter of its speed (``tests/core/test_all_tours_list.py``
holds the copies to the count and a plain search).

Arrays (``N`` squares, at most 128): ``att`` uint64[N, 2], the knight attack masks; the
search's state between calls is a :class:`ListSearch`; ``paths`` int32[want, N] gets this
call's paths from row 0, and ``out`` int64[2] the paths written and the nodes expanded.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...system.jit import njit, trailing_zeros
from ..counting.rule_kernel import popcount2
from .alltours_kernel import _dead, _visit

_ONE = np.uint64(1)


class ListSearch(NamedTuple):
    """The lister's search between calls (``N`` squares), each level ``k`` of the stack a
    square of the path."""

    #: int32[N + 1]: the square at each level
    square: np.ndarray
    #: uint64[N + 1, 2]: the squares still unvisited at each level (two words)
    unvisited: np.ndarray
    #: uint64[N + 1, 2]: the moves of each level not taken yet
    onward: np.ndarray
    #: int64[N]: each unvisited square's unvisited neighbours
    degree: np.ndarray
    #: int64[2]: how many unvisited squares have degree 0 and degree 1
    low_degree: np.ndarray
    #: int64[4]: level, "the level is new", "started", "finished" (all 0 at first)
    status: np.ndarray


@njit
def list_all(att: np.ndarray, n: int, start: int, search: ListSearch, paths: np.ndarray,
             want: int, budget: int, out: np.ndarray) -> None:
    """Write up to ``want`` more paths of the knight from ``start`` through all ``n``
    squares into ``paths``; stop early after ``budget`` node expansions. ``search.status[3]``
    becomes 1 when every path has been listed."""
    q, free, pend, deg, cnt, st = search
    out[0] = 0
    out[1] = 0
    if st[3] != 0:
        return
    if st[2] == 0:
        f0 = np.uint64(0)
        f1 = np.uint64(0)
        for s in range(n):
            if s != start:
                if s < 64:
                    f0 |= _ONE << np.uint64(s)
                else:
                    f1 |= _ONE << np.uint64(s - 64)
        cnt[0] = 0
        cnt[1] = 0
        for u in range(n):
            deg[u] = 0
            if u != start:
                deg[u] = popcount2(att[u, 0] & f0, att[u, 1] & f1)
                if deg[u] <= 1:
                    cnt[deg[u]] += 1
        q[0] = start
        free[0, 0] = f0
        free[0, 1] = f1
        st[0] = 0
        st[1] = 1
        st[2] = 1
    k = st[0]
    fresh = st[1]
    got = np.int64(0)
    nodes = np.int64(0)
    while True:
        if fresh:
            fresh = np.int64(0)
            g0 = free[k, 0]
            g1 = free[k, 1]
            cur = q[k]
            pend[k, 0] = 0
            pend[k, 1] = 0
            if g0 == 0 and g1 == 0:
                for i in range(n):
                    paths[got, i] = q[i]
                got += 1
            elif not _dead(att, deg, cnt, cur, g0, g1):
                nodes += 1
                pend[k, 0] = att[cur, 0] & g0
                pend[k, 1] = att[cur, 1] & g1
            if got >= want or nodes >= budget:
                break
        p0 = pend[k, 0]
        p1 = pend[k, 1]
        if p0 != 0 or p1 != 0:
            if p0:
                c = np.int64(trailing_zeros(p0))
                pend[k, 0] = p0 & (p0 - _ONE)
            else:
                c = np.int64(64) + np.int64(trailing_zeros(p1))
                pend[k, 1] = p1 & (p1 - _ONE)
            q[k + 1] = c
            if c < 64:
                free[k + 1, 0] = free[k, 0] & ~(_ONE << np.uint64(c))
                free[k + 1, 1] = free[k, 1]
            else:
                free[k + 1, 0] = free[k, 0]
                free[k + 1, 1] = free[k, 1] & ~(_ONE << np.uint64(c - 64))
            _visit(att, deg, cnt, c, free[k + 1, 0], free[k + 1, 1], -1)
            k += 1
            fresh = np.int64(1)
            continue
        if k == 0:
            st[3] = 1
            break
        _visit(att, deg, cnt, q[k], free[k, 0], free[k, 1], 1)
        k -= 1
    st[0] = k
    st[1] = fresh
    out[0] = got
    out[1] = nodes
