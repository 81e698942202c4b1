"""Counting the paths of a quotient board: one square of each orbit of a symmetry.

A tour that a board symmetry maps onto itself is fixed by one piece of it (the reasoning is in
:mod:`knightgui_core.tietree.alltours.symmetric_tours`): a path through exactly one square of
each orbit that ends where its images can join it. This kernel counts such paths by a dynamic
program over (the knight's *square*, the orbits not yet visited): the square, since which
image of an orbit the path stands on decides where its lift can close. It is the search of
:mod:`knightgui_core.tietree.alltours.alltours_kernel` on the orbits (a table of finished
states in the layout of :mod:`knightgui_core.tietree.counting.memo_kernel`), with its cuts on
the *orbit* graph (two orbits adjacent when a square of one is a move from a square of the
other):

* with two or more orbits left, an orbit with no unvisited neighbour orbit is dead;
* an orbit with one unvisited neighbour orbit must be the last one unless it is the next one,
  so two of them that the knight cannot step onto now kill the state, and so does one that
  cannot end the path (``endorb``: the orbits holding a square of positive end weight);
* a knight with no unvisited neighbour orbit is stuck.

A finished path adds ``endw[last square]``: the ways its lift closes (0: it cannot end there).
The orbits' degrees follow move by move (``alltours_kernel._leave`` and ``_rejoin``).

The arguments are three records (``N`` squares, at most 128; ``L`` orbits, at most 64): the
part to count (:class:`Quotient`), the search's state (:class:`OrbitSearch`, kept between
calls: a call stops after ``budget`` expansions and the next goes on) and the table
(:class:`OrbitTable`; word 3 of an entry holds a state's count). ``out`` int64[3] gets the
weighted paths (once finished), the table hits and the states expanded in this call.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...system.jit import njit, trailing_zeros
from ..counting.memo_kernel import KEY_BITS, _bucket, _find, _slot_for
from ..enumeration.bitboard_kernel import popcount
from .alltours_kernel import _leave, _rejoin

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
#: a marker in the key word, so that no entry of another search can match one of these
_TAG = np.uint64(1 << 19)


class Quotient(NamedTuple):
    """One part of a symmetric count: the board, its orbits, and the path wanted."""

    #: int32[N, 8]: the squares a move away (-1: none), the board's neighbour table
    neighbours: np.ndarray
    #: int64[N]: the orbit of each square, 0..L-1
    orbit: np.ndarray
    #: uint64[L]: the orbits adjacent to each orbit, one bit an orbit (no self bit)
    orbit_adjacency: np.ndarray
    #: the square the path starts on (np.int64)
    start: np.int64
    #: the orbits the path visits, one bit an orbit (np.uint64)
    todo: np.uint64
    #: int64[N]: the ways a path ending on each square closes (0: it cannot end there)
    end_weight: np.ndarray
    #: the orbits holding a square of positive end weight (np.uint64)
    end_orbits: np.uint64


class OrbitSearch(NamedTuple):
    """The depth-first search's state between calls, level ``k`` of the stack the ``k``-th
    square of the path (all zero at first)."""

    #: int64[L + 1]: the square at each level
    square: np.ndarray
    #: uint64[L + 1]: the orbits still unvisited at each level
    unvisited: np.ndarray
    #: int64[L + 1]: the moves of each level not tried yet (tried from the last down)
    onward: np.ndarray
    #: int64[L + 1]: the weighted paths found below each level so far
    paths: np.ndarray
    #: int64[L]: each unvisited orbit's unvisited neighbour orbits
    degree: np.ndarray
    #: int64[2]: how many unvisited orbits have degree 0 and degree 1
    low_degree: np.ndarray
    #: int64[4]: level, "the level is new", "started", "finished"
    status: np.ndarray


class OrbitTable(NamedTuple):
    """The table of finished states."""

    #: uint64[C, 8]: the entries (``buckets`` 0: no table, then any small array)
    entries: np.ndarray
    #: buckets in use (np.int64)
    buckets: np.int64
    #: states with fewer orbits left than this are walked, not looked up (np.int64)
    memo_min: np.int64


@njit
def count_orbit_paths(part: Quotient, search: OrbitSearch, table: OrbitTable, budget: int,
                      out: np.ndarray) -> None:
    """The paths from ``part.start`` through one square of each orbit of ``part.todo``, each
    weighted by ``part.end_weight`` of its last square: ``out[0]`` their sum once
    ``search.status[3]`` is 1, ``out[1]`` table hits, ``out[2]`` states expanded in this call
    (at most ``budget``). States with ``table.memo_min`` orbits left or more use the table."""
    nbr, orb, oadj, start, free0, endw, endorb = part
    q, free, pend, acc, deg, cnt, st = search
    tab, nbuckets, memo_min = table
    nsq = nbr.shape[0]
    norb = oadj.shape[0]
    for i in range(3):
        out[i] = 0
    if start < 0 or start >= nsq or norb > 64 or st[3] != 0:
        return
    for s in range(nsq):                                # never trust the input
        if orb[s] < 0 or orb[s] >= norb:
            return
        for t in range(8):
            if nbr[s, t] >= nsq:
                return
    left0 = popcount(free0)
    if st[2] == 0:
        cnt[0] = 0
        cnt[1] = 0
        for u in range(norb):
            deg[u] = 0
            if (free0 >> np.uint64(u)) & _ONE:
                d = popcount(oadj[u] & free0)
                deg[u] = d
                if d <= 1:
                    cnt[d] += 1
        q[0] = start
        free[0] = free0
        st[0] = 0
        st[1] = 1
        st[2] = 1
    k = st[0]
    fresh = st[1] != 0
    while True:
        if fresh and out[2] >= budget:                   # stop here, go on next call
            st[0] = k
            st[1] = 1
            return
        if fresh:
            fresh = False
            g = free[k]
            cur = q[k]
            acc[k] = 0
            pend[k] = 0
            if g == 0:                                   # every orbit visited
                acc[k] = endw[cur]
            elif (g & (g - _ONE)) == 0:                  # one orbit left: step onto it
                s = 0
                for t in range(8):
                    w = nbr[cur, t]
                    if w >= 0 and (g >> np.uint64(orb[w])) & _ONE:
                        s += endw[w]
                acc[k] = s
            else:
                nb = oadj[orb[cur]] & g
                dead = cnt[0] > 0 or cnt[1] > 2 or nb == 0
                if not dead and cnt[1] > 0:
                    # orbits of degree 1 the knight cannot step onto now must come last
                    m = g & ~nb
                    last = 0
                    while m and not dead:
                        u = np.int64(trailing_zeros(m))
                        m &= m - _ONE
                        if deg[u] == 1:
                            last += 1
                            if last > 1 or not ((endorb >> np.uint64(u)) & _ONE):
                                dead = True
                if not dead:
                    hit = False
                    if nbuckets > 0 and left0 - k >= memo_min:
                        w2 = np.uint64(cur) | _TAG
                        s = _find(tab, _bucket(g, _ZERO, w2, nbuckets), g, _ZERO, w2)
                        if s >= 0:
                            acc[k] = np.int64(tab[s, 3])
                            out[1] += 1
                            hit = True
                    if not hit:
                        out[2] += 1
                        pend[k] = 8
        # next move of level k, or close it
        moved = False
        while pend[k] > 0:
            pend[k] -= 1
            w = nbr[q[k], pend[k]]
            if w < 0:
                continue
            o = np.uint64(orb[w])
            if not ((free[k] >> o) & _ONE):
                continue
            q[k + 1] = w
            nf = free[k] & ~(_ONE << o)
            free[k + 1] = nf
            _leave(oadj, deg, cnt, orb[w], nf)
            k += 1
            fresh = True
            moved = True
            break
        if moved:
            continue
        # level k is finished: keep it, add it to its parent
        if nbuckets > 0 and left0 - k >= memo_min and free[k] != 0:
            g = free[k]
            w2 = np.uint64(q[k]) | _TAG
            s, _ev = _slot_for(tab, _bucket(g, _ZERO, w2, nbuckets), g, _ZERO, w2)
            tab[s, 0] = g
            tab[s, 1] = _ZERO
            tab[s, 2] = w2 | (np.uint64(min(acc[k], (1 << 40) - 1)) << np.uint64(KEY_BITS))
            tab[s, 3] = np.uint64(acc[k])
        if k == 0:
            out[0] = acc[0]
            st[3] = 1
            return
        acc[k - 1] += acc[k]
        _rejoin(oadj, deg, cnt, orb[q[k]], free[k])
        k -= 1
