"""The longest uncrossed knight's path or cycle: a branch-and-bound depth-first search.

Arrays in, counters out (numba only; :mod:`knightgui_core.studies.uncrossed` builds and checks
the arrays). The board's moves are numbered edges; ``cross[e]`` is the bitset of the edges
whose segment crosses edge ``e``'s. A path keeps, per depth, the bitset of the edges that its
moves so far cross (``blocked``): a move along a blocked edge would cross the path.

Bounds, at every node: the squares the path could still take are the unvisited squares
reachable from its end through unblocked edges (a flood); a path of d moves can grow by at
most that many, and, the knight's graph being two-coloured, by at most ``min(2a, 2b + 1)``
where a squares of the other colour and b of the end's own colour are reachable. A node
whose bound is below the best length found is cut; one whose bound equals it is searched,
so that every longest path is found and counted (``out`` keeps up to its capacity of them).

A path is searched from each start of ``starts`` in turn; a cycle only from its lowest
square ``s`` (the wrapper passes every square), through squares above ``s``, closing with a
move back to ``s`` that crosses nothing; it is recorded in one direction only.
"""
from __future__ import annotations

import numpy as np

from ...system.jit import njit, specialise
from ...walks.flood_kernel import flood

NODES, BEST, FOUND, KEPT = 0, 1, 2, 3


@njit(inline="always")
def _open_move(s: int, t: int, u: int,
               ctx: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, int,
                          np.ndarray]) -> int:
    """The bound's visitor of the flood: a move through an unblocked edge takes an unvisited
    square above ``lowest`` not yet marked with ``stamp``; one to ``lowest`` raises
    ``back[0]``. ``ctx`` is ``(eid, blocked, visited, mark, stamp, lowest, back)``."""
    eid, blocked, visited, mark, stamp, lowest, back = ctx
    e = eid[s, t]
    if (blocked[e >> 6] >> np.uint64(e & 63)) & np.uint64(1):
        return 0
    if u == lowest:
        back[0] = 1
        return 0
    if visited[u] or u < lowest or mark[u] == stamp:
        return 0
    mark[u] = stamp
    return 1


# the flood of walks/flood_kernel.py through the unblocked edges
_flood_open = specialise(flood, "flood_open", reach=_open_move)


@njit(_nrt=False)
def _flood(end: int, lowest: int, nbr: np.ndarray, eid: np.ndarray, blocked: np.ndarray,
           visited: np.ndarray, colour: np.ndarray, mark: np.ndarray, queue: np.ndarray,
           stamp: int, back: np.ndarray) -> tuple[int, int, int, int, bool]:
    """Unvisited squares above ``lowest`` reachable from ``end`` through unblocked edges,
    counted by colour (the end's colour, the other); how many of each colour are *leaves*
    (one unblocked move at most to the end, the others or ``lowest``: a path can only stop
    there, a cycle cannot use them); and whether square ``lowest`` is one unblocked move from
    the end or from one of them (a cycle can still close). ``back`` is one int8 of scratch.

    The flood is :func:`knightgui_core.walks.flood_kernel.flood` with :func:`_open_move` as
    its visitor, written in here; this kernel allocates nothing and is compiled without
    numba's reference counts (``_nrt=False``), which cost the visitor's arrays a count up and
    down at every move (7×7 paths: 1.6-1.8 times the CPU time)."""
    own, other = 0, 0
    back[0] = 0
    mark[end] = stamp
    tail = _flood_open(nbr, end, queue, (eid, blocked, visited, mark, stamp, lowest, back))
    # a reached square with one usable move left can only be the path's last: of those,
    # at most one counts (leaves), by colour
    leaves_own, leaves_other = 0, 0
    for i in range(1, tail):
        s = queue[i]
        deg = 0
        for t in range(8):
            u = nbr[s, t]
            if u < 0 or (u != lowest and mark[u] != stamp):
                continue
            e = eid[s, t]
            if (blocked[e >> 6] >> np.uint64(e & 63)) & np.uint64(1):
                continue
            deg += 1
        if colour[s] == colour[end]:
            own += 1
            if deg <= 1:
                leaves_own += 1
        else:
            other += 1
            if deg <= 1:
                leaves_other += 1
    return own, other, leaves_own, leaves_other, back[0] != 0


@njit
def _grow(own: int, other: int) -> int:
    """The most squares a path can add from its end with ``own`` squares of the end's colour
    and ``other`` of the other colour to take (the colours alternate, the other first)."""
    return min(own + other, min(2 * other, 2 * own + 1))


@njit
def uncrossed_search(nbr: np.ndarray, eid: np.ndarray, cross: np.ndarray, colour: np.ndarray,
                     start: int, cycle: bool, counters: np.ndarray, out: np.ndarray,
                     node_limit: int, stop: np.ndarray) -> bool:
    """Search every uncrossed path (``cycle`` false) from ``start``, or every uncrossed cycle
    whose lowest square is ``start``, at least as long as ``counters[BEST]``; raise
    ``counters[BEST]`` when a longer one is found (the kept ones are then dropped), count the
    longest ones in ``counters[FOUND]`` and keep up to ``out.shape[0]`` of them in ``out``
    (row k: the squares, then -1), ``counters[KEPT]`` of them. ``counters[NODES]`` counts
    the nodes. Returns False if ``node_limit`` nodes (0: none) ran out first, or ``stop[0]``
    was set (read every 4,096 nodes): the search is then incomplete."""
    n = nbr.shape[0]
    w = cross.shape[1]
    path = np.empty(n + 1, np.int64)
    nxt = np.zeros(n + 1, np.int64)
    blocked = np.zeros((n + 1, w), np.uint64)
    visited = np.zeros(n, np.uint8)
    mark = np.zeros(n, np.int64)
    queue = np.empty(n, np.int64)
    closes = np.zeros(1, np.int8)            # the flood's: can the cycle still close
    stamp = 0
    path[0] = start
    visited[start] = 1
    d = 0
    while d >= 0:
        if nxt[d] == 0:                         # a new node: record it and bound it
            counters[NODES] += 1
            if node_limit > 0 and counters[NODES] > node_limit:
                return False
            if (counters[NODES] & 4095) == 0 and stop[0] != 0:
                return False
            end = path[d]
            lowest = start if cycle else -1
            stamp += 1
            own, other, lo, lt, back = _flood(end, lowest, nbr, eid, blocked[d], visited,
                                              colour, mark, queue, stamp, closes)
            grow = _grow(own - lo, other - lt)
            if not cycle:                       # one leaf at most, the path's last square
                if lo > 0:
                    grow = max(grow, _grow(own - lo + 1, other - lt))
                if lt > 0:
                    grow = max(grow, _grow(own - lo, other - lt + 1))
            if cycle:
                if d >= 3 and path[1] < path[d]:
                    for t in range(8):          # the closing move, if it crosses nothing
                        if nbr[end, t] == start:
                            e = eid[end, t]
                            if not ((blocked[d, e >> 6] >> np.uint64(e & 63)) & np.uint64(1)):
                                _record(path, d + 1, d + 1, counters, out)
                # a longer cycle needs more squares and a way back to the start; even
                bound = d + 1 + grow if back or d == 0 else 0
                bound -= bound & 1
            else:
                if d >= 1:
                    _record(path, d, d + 1, counters, out)
                bound = d + grow
            if bound < counters[BEST] or grow == 0:
                nxt[d] = 8                      # nothing as long below: cut
        if nxt[d] >= 8:
            visited[path[d]] = 0
            nxt[d] = 0
            d -= 1
            continue
        t = nxt[d]
        nxt[d] += 1
        s = path[d]
        u = nbr[s, t]
        if u < 0 or visited[u] or (cycle and u <= start):
            continue
        e = eid[s, t]
        if (blocked[d, e >> 6] >> np.uint64(e & 63)) & np.uint64(1):
            continue
        for k in range(w):
            blocked[d + 1, k] = blocked[d, k] | cross[e, k]
        d += 1
        path[d] = u
        nxt[d] = 0
        visited[u] = 1
    return True


@njit
def _record(path: np.ndarray, length: int, squares: int, counters: np.ndarray,
            out: np.ndarray) -> None:
    """A path (or cycle) of ``length`` moves through ``path[:squares]`` ends here: a new
    best drops the kept ones; a tie is counted and kept while ``out`` has room."""
    if length < counters[BEST]:
        return
    if length > counters[BEST]:
        counters[BEST] = length
        counters[FOUND] = 0
        counters[KEPT] = 0
    counters[FOUND] += 1
    k = counters[KEPT]
    if k < out.shape[0]:
        for i in range(out.shape[1]):
            out[k, i] = path[i] if i < squares else -1
        counters[KEPT] = k + 1
