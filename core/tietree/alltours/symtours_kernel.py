"""Counting the paths of a quotient board: one square of each orbit of a symmetry.

A tour that a board symmetry maps onto itself is fixed by one piece of it (the reasoning is in
:mod:`knightgui_core.tietree.alltours.symmetric_tours`): a path that visits exactly one square of each
orbit of the symmetry and ends where its images can join it. This kernel counts such paths by
a dynamic program over (the knight's *square*, the set of orbits not yet visited) — the square,
not only its orbit, because which image of an orbit the path stands on decides where its lift
can close. The search is the one of :mod:`knightgui_core.tietree.alltours.alltours_kernel` on the
orbits: a depth-first search whose finished states are kept in a table (the layout of
:mod:`knightgui_core.tietree.counting.memo_kernel`, the whole key in each entry, so a collision can only
miss), with cuts on the *orbit* graph (two orbits are adjacent when a square of one is a move
from a square of the other; the orbits next to a square are those next to any of its images,
since the symmetry maps moves onto moves):

* with two or more orbits left, an orbit with no unvisited neighbour orbit is dead: it could
  only be the next one and the last one at once;
* an orbit with one unvisited neighbour orbit must be the last one unless it is the next one,
  so two of them that the knight cannot step onto now kill the state, and so does one that
  cannot end the path (``endorb``: the orbits holding a square of positive end weight);
* a knight with no unvisited neighbour orbit is stuck.

A finished path adds ``endw[last square]``: the number of ways its lift closes (0 where it
cannot end). The degrees of the unvisited orbits are kept up to date move by move with the
all-tours kernel's ``_leave`` and ``_rejoin`` on the orbit adjacency masks.

Arrays (``N`` squares, at most 128; ``L`` orbits, at most 64):

* ``nbr``   int32[N, 8]   the squares a move away (-1: none), the board's neighbour table.
* ``orb``   int64[N]      the orbit of each square, 0..L-1.
* ``oadj``  uint64[L]     the orbits adjacent to each orbit, one bit an orbit (no self bit).
* ``endw``  int64[N]      the end weight of each square.
* ``q``     int64[L + 1], ``free`` uint64[L + 1], ``pend`` int64[L + 1], ``acc`` int64[L + 1]:
  the stack; ``deg`` int64[L], ``cnt`` int64[2]: orbit degrees, how many are 0 and 1.
* ``tab``   uint64[C, 8]  the table (``nbuckets`` 0: none); word 3 holds a state's count.
* ``st``    int64[4]      level, "the level is new", "started", "finished" (all 0 at first):
  the search stops after expanding ``budget`` states and goes on from there at the next call
  (the caller keeps every array between calls), so a caller can look at a cancel flag.
* ``out``   int64[3]      weighted paths (once finished), table hits and states expanded in
  this call.
"""
from __future__ import annotations

import numpy as np

from ...system.jit import njit, trailing_zeros
from ..counting.memo_kernel import KEY_BITS, _bucket, _find, _slot_for
from .alltours_kernel import _leave, _rejoin

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
#: a marker in the key word, so that no entry of another search can match one of these
_TAG = np.uint64(1 << 19)


@njit
def _bits(x: np.uint64) -> int:
    """Set bits of a word."""
    n = 0
    while x:
        x &= x - _ONE
        n += 1
    return n


@njit
def count_orbit_paths(nbr: np.ndarray, orb: np.ndarray, oadj: np.ndarray, start: int,
                      free0: np.uint64, endw: np.ndarray, endorb: np.uint64, q: np.ndarray,
                      free: np.ndarray, pend: np.ndarray, acc: np.ndarray, deg: np.ndarray,
                      cnt: np.ndarray, tab: np.ndarray, nbuckets: int, memo_min: int,
                      st: np.ndarray, budget: int, out: np.ndarray) -> None:
    """The paths from square ``start`` through one square of each orbit of ``free0`` (the
    orbit of ``start`` and any already visited not in it), each weighted by ``endw`` of its
    last square: ``out[0]`` their sum once ``st[3]`` is 1, ``out[1]`` table hits, ``out[2]``
    states expanded in this call, which stops after ``budget`` of them. States with at least
    ``memo_min`` orbits left are kept in and read from the table."""
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
    left0 = _bits(free0)
    if st[2] == 0:
        cnt[0] = 0
        cnt[1] = 0
        for u in range(norb):
            deg[u] = 0
            if (free0 >> np.uint64(u)) & _ONE:
                d = _bits(oadj[u] & free0)
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
