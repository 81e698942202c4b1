"""The table's count with several subtrees walked in turn, so no lookup is waited for.

A lookup of a table far larger than the caches takes a few hundred nanoseconds, and
:mod:`~knightgui_core.tietree.counting.memo_kernel` reads its answer only a fraction of that
later. Here ``S`` searches (*contexts*), each on a subtree of its own, share one loop and one
table: a context that sends a lookup hands over to the next, and reads the answer when its
turn comes back (on 10×10 from d1 with 8 contexts, 4,000 cycles later on the median).

The search is ``count_kernel.count_loop`` with the table's visitor (the same rule, window,
entries and counts), kept as a loop of its own because a switch between contexts must cost
next to nothing (four numbers saved and loaded): as ``count_loop`` returning to a driver at
every lookup, a switch costs more than the lookup it hides. Eight contexts beat one search
(``memo_run``) on the same table (``bench/table.py``). Dead-end lengths are not kept here.

**Nothing waited for.** A finished node's entry waits in a ring of :data:`RING` while its
bucket is fetched, and goes in when the ring comes round (a lookup meeting it still there
misses and walks: the counts stay exact). The loop runs without reference counts
(``_nrt=False``; it allocates nothing) and its helpers are inlined in source, so its machine
code does not depend on numba's cache (``bench/table.py`` times it).

**Layout.** Context ``s`` owns rows ``o .. o + N`` (``o = s * (N + 1)``) of ``path``, ``free``,
``pend``, ``ntied`` and the tie sums (row ``o``: its subtree's totals), so the rule's helpers
run unchanged on absolute rows; ``ties[o + i]`` holds the *relative* number of its i-th open
tie, so a context's slice is a ``count_kernel`` state (``memo_fold`` and the wrapper read it so).

The records (``N`` squares, ``S`` contexts, ``R = S * (N + 1)`` rows): :class:`Start`,
:class:`Subtrees`, the table (``memo_kernel.Table``), :class:`Stacks`, the tie sums
(``memo_kernel.TieSums`` over ``R`` rows, length columns untouched), :class:`Contexts`,
:class:`Totals` and :class:`Ring`.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...system.jit import njit
from ...system.prefetch_kernel import prefetch_row
from . import count_kernel as _ck
from .bucket_kernel import _KEY_MASK, KEY_BITS, WAYS, _top_bucket, bucket_shift, find_key, slot_for_key
from .count_kernel import count_begin
from .memo_kernel import (
    CF_BUCKETS,
    CF_EVICTED,
    CF_MAX,
    CF_MIN,
    Entry,
    Table,
    TieSums,
    _key,
    add_entry,
    write_entry,
)
from .rule_kernel import forced
from .rule_kernel import pop_into_inlined as pop_into
from .rule_kernel import step_inlined as step

DONE, BUDGET = _ck.DONE, _ck.BUDGET
PH_RUN, PH_LEAF = _ck.PH_RUN, _ck.PH_LEAF
# a context's saved state: its number (absolute row), phase, open ties, forward moves in its
# subtree, the tie whose lookup is in flight (absolute row, -1: none) and its bucket, whether
# it runs a subtree (1) or is idle (0), the index of that subtree in ``Subtrees.prefixes``
CX_K, CX_PHASE, CX_NTIE, CX_FWD, CX_PK, CX_PB, CX_LIVE, CX_PREFIX = range(8)
CX_SIZE = 8
# totals: tours, closed, dead ends, forward moves, lookups, hits, new entries
TOT_TOURS, TOT_CLOSED, TOT_DEAD, TOT_FORWARD, TOT_PROBES, TOT_HITS, TOT_NEW = range(7)
TOT_SIZE = 7
#: stores in flight (a power of two): a finished node's entry waits in a ring of this many
#: while its bucket is fetched, and goes into the table when the ring comes round to it
RING = 8


class Start(NamedTuple):
    """The board and the start square every subtree is counted from."""

    #: uint64[N, 2]: the knight attack mask of each square
    attacks: np.ndarray
    #: int8[N, N]: the move type (1..8) of each knight step, 0 elsewhere
    move_type: np.ndarray
    #: uint64[2]: the squares a knight move from the start (a tour ending there is closed)
    closing: np.ndarray
    squares: int
    start: int


class Subtrees(NamedTuple):
    """The subtrees to count, in order, each named by its prefix."""

    #: int8[P, D]: the prefixes (move types taken at the first ties), padded
    prefixes: np.ndarray
    #: int64[P]: the length of each
    lengths: np.ndarray
    #: int64[1]: the next one to start
    next: np.ndarray


class Stacks(NamedTuple):
    """The contexts' count states, one after another (rows ``o .. o + N`` of context ``s``,
    ``o = s * (N + 1)``), each as :mod:`~knightgui_core.tietree.counting.count_kernel` keeps
    one."""

    #: int32[R]: the square of each number
    path: np.ndarray
    #: uint64[R, 2]: the unvisited squares once each number stands
    unvisited: np.ndarray
    #: uint64[R, 2]: the tied options of each number not taken yet
    onward: np.ndarray
    #: int8[R]: how many options were tied at each number
    tie_width: np.ndarray
    #: int32[R]: the relative numbers of each context's open ties, ascending
    ties: np.ndarray
    #: int64[count_kernel.ST_SIZE]: scratch for ``count_begin``
    scratch: np.ndarray


class Contexts(NamedTuple):
    """Each context's saved state between turns."""

    #: int64[CX_SIZE, S]: the slots ``CX_*``
    saved: np.ndarray
    #: float64[S]: the weight of its subtree (the product of ``1 / width`` over its prefix's ties)
    weight: np.ndarray


class Totals(NamedTuple):
    """What the finished subtrees counted."""

    #: int64[TOT_SIZE]: the slots ``TOT_*``
    counts: np.ndarray
    #: float64[2]: P(tour), P(closed tour), weighted
    chances: np.ndarray


class Ring(NamedTuple):
    """The stores in flight (empty between calls)."""

    #: uint64[RING, 8]: entries in the table's layout
    entries: np.ndarray
    #: float64[RING, 8]: the same memory as floats
    entries_f: np.ndarray
    #: int64[RING]: the bucket of each
    buckets: np.ndarray


@njit(inline="always")
def _put(cfg: np.ndarray, tab: np.ndarray, ring: np.ndarray, rb: np.ndarray, j: int) -> int:
    """The entry waiting in row ``j`` of the ring into its bucket ``rb[j]`` (memo_kernel's
    store: its own entry, an empty one, else the cheapest subtree's). Returns 2 when the
    entry it took was empty."""
    s, ev = slot_for_key(tab, rb[j], WAYS, (ring[j, 0], ring[j, 1], ring[j, 2] & _KEY_MASK),
                         KEY_BITS)
    if ev == 1:
        cfg[CF_EVICTED] += 1
    for x in range(8):
        tab[s, x] = ring[j, x]
    return ev


@njit
def many_begin(board: Start, subtrees: Subtrees, stacks: Stacks, sums: TieSums,
               contexts: Contexts, s: int) -> bool:
    """Context ``s`` takes the next subtree of ``subtrees`` (False, and the context idle,
    when none is left). The prefixes were checked by the wrapper."""
    att, mtype, _close, n, start = board
    prefs, plen, nextp = subtrees
    path, free, pend, ntied, ties, stb = stacks
    ai, af = sums.counts, sums.chances
    cx, cw = contexts
    p = nextp[0]
    if p >= prefs.shape[0]:
        cx[CX_LIVE, s] = 0
        return False
    nextp[0] = p + 1
    o = s * (n + 1)
    e = o + n + 1
    count_begin(att, mtype, n, start, prefs[p, :plen[p]], path[o:e], free[o:e], pend[o:e],
                ntied[o:e], ties[o:e], stb)
    root = stb[_ck.ST_K]
    w = 1.0
    for j in range(1, root):
        if ntied[o + j] >= 2:
            w /= np.float64(ntied[o + j])
    cw[s] = w
    for j in range(3):
        ai[o, j] = 0
    af[o, 0] = 0.0
    af[o, 1] = 0.0
    cx[CX_K, s] = o + root
    cx[CX_PHASE, s] = PH_RUN
    cx[CX_NTIE, s] = 0
    cx[CX_FWD, s] = 0
    cx[CX_PK, s] = -1
    cx[CX_LIVE, s] = 1
    cx[CX_PREFIX, s] = p
    return True


@njit(_nrt=False)
def many_run(board: Start, subtrees: Subtrees, table: Table, stacks: Stacks, sums: TieSums,
             contexts: Contexts, totals: Totals, ring: Ring, max_steps: int) -> int:
    """Walk the contexts in turn (each set up by :func:`many_begin`; a finished one takes the
    next subtree) until every subtree is counted (DONE) or ``max_steps`` forward moves are
    made (BUDGET, at a hand-over: every live context then has just opened a tie and sent its
    lookup, or is idle; call again to go on). Every store has reached the table when it
    returns (the wrapper may double the table between calls)."""
    att, _mtype, close, n, start = board
    cfg, tab, tabf = table.config, table.entries, table.entries_f
    path, free, pend, ntied, ties, _stb = stacks
    ai, af, fw0 = sums.counts, sums.chances, sums.opened_at
    cx, cw = contexts
    tot_i, tot_f = totals
    ring_e, ring_f, rb = ring
    one = np.uint64(1)
    nctx = cx.shape[1]
    lo = cfg[CF_MIN]
    hi = cfg[CF_MAX]
    use = cfg[CF_BUCKETS] > 0
    shift = bucket_shift(cfg[CF_BUCKETS]) if use else np.uint64(0)
    nq = 0
    live = 0
    for s in range(nctx):
        live += cx[CX_LIVE, s]
    moves = 0
    s = 0
    while s < nctx and cx[CX_LIVE, s] == 0:
        s += 1
    if s == nctx:
        return DONE
    o = s * (n + 1)
    k = cx[CX_K, s]
    phase = cx[CX_PHASE, s]
    ntie = cx[CX_NTIE, s]
    fwd = cx[CX_FWD, s]
    event = np.int64(DONE)
    while True:
        hand_over = False
        if phase == PH_RUN:
            k0 = k
            k, t0, t1, nt = forced(att, path, free, ntied, k, o + n)
            moves += k - k0
            fwd += k - k0
            phase = np.int64(PH_LEAF)
            top = o + ties[o + ntie - 1] if ntie > 0 else o
            if k == o + n:
                q = path[k]
                if q < 64:
                    closed = (close[0] >> np.uint64(q)) & one
                else:
                    closed = (close[1] >> np.uint64(q - 64)) & one
                ai[top, 0] += 1
                af[top, 0] += 1.0
                if closed:
                    ai[top, 1] += 1
                    af[top, 1] += 1.0
                continue
            if nt == 0:
                ai[top, 2] += 1
                continue
            # a tie: opened with every option still to take
            ties[o + ntie] = k - o
            ntie += 1
            pend[k, 0] = t0
            pend[k, 1] = t1
            for j in range(3):
                ai[k, j] = 0
            af[k, 0] = 0.0
            af[k, 1] = 0.0
            fw0[k] = fwd
            rem = o + n - k
            if use and lo <= rem and rem <= hi:
                tot_i[TOT_PROBES] += 1
                b = _top_bucket(free[k, 0], free[k, 1], _key(path, k, start), shift)
                prefetch_row(tab, b)
                prefetch_row(tab, b + 1)
                cx[CX_PK, s] = k
                cx[CX_PB, s] = b
                hand_over = True
        else:
            kp = cx[CX_PK, s]
            if kp >= 0:
                # the answer to this context's lookup: a hit replaces the tie just opened
                cx[CX_PK, s] = -1
                e = find_key(tab, cx[CX_PB, s], WAYS,
                             (free[kp, 0], free[kp, 1], _key(path, kp, start)), KEY_BITS)
                if e >= 0:
                    tot_i[TOT_HITS] += 1
                    ntie -= 1
                    add_entry(ai, af, o + ties[o + ntie - 1] if ntie > 0 else o, tab, tabf, e)
            while ntie > 0:
                kk = o + ties[o + ntie - 1]
                if pend[kk, 0] != 0 or pend[kk, 1] != 0:
                    break
                ntie -= 1
                parent = o + ties[o + ntie - 1] if ntie > 0 else o
                width = np.float64(ntied[kk])
                p = af[kk, 0] / width
                pc = af[kk, 1] / width
                rem = o + n - kk
                if use and lo <= rem and rem <= hi:
                    # the entry waits in the ring while its bucket comes; the oldest goes in
                    j = nq & (RING - 1)
                    if nq >= RING and _put(cfg, tab, ring_e, rb, j) == 2:
                        tot_i[TOT_NEW] += 1
                    nq += 1
                    w2 = _key(path, kk, start)
                    rb[j] = _top_bucket(free[kk, 0], free[kk, 1], w2, shift)
                    prefetch_row(tab, rb[j])
                    prefetch_row(tab, rb[j] + 1)
                    write_entry(ring_e, ring_f, j, Entry(free[kk, 0], free[kk, 1], w2,
                                                         fwd - fw0[kk], ai[kk, 0], ai[kk, 1],
                                                         ai[kk, 2], p, pc))
                for j in range(3):
                    ai[parent, j] += ai[kk, j]
                af[parent, 0] += p
                af[parent, 1] += pc
            if ntie > 0:
                k = o + ties[o + ntie - 1]
                c = pop_into(pend, k, pend[k, 0], pend[k, 1])
                step(path, free, k, c)
                k += 1
                moves += 1
                fwd += 1
                phase = np.int64(PH_RUN)
            else:
                # this context's subtree is counted: its totals out, the next subtree in
                w = cw[s]
                for j in range(3):
                    tot_i[j] += ai[o, j]
                tot_f[0] += w * af[o, 0]
                tot_f[1] += w * af[o, 1]
                if many_begin(board, subtrees, stacks, sums, contexts, s):
                    k = cx[CX_K, s]
                    phase = np.int64(PH_RUN)
                    ntie = 0
                    fwd = 0
                else:
                    live -= 1
                    hand_over = True
        if hand_over:
            cx[CX_K, s] = k
            cx[CX_PHASE, s] = phase
            cx[CX_NTIE, s] = ntie
            cx[CX_FWD, s] = fwd
            if live == 0:
                break
            if moves >= max_steps:
                event = np.int64(BUDGET)
                break
            s += 1
            if s == nctx:
                s = 0
            while cx[CX_LIVE, s] == 0:
                s += 1
                if s == nctx:
                    s = 0
            o = s * (n + 1)
            k = cx[CX_K, s]
            phase = cx[CX_PHASE, s]
            ntie = cx[CX_NTIE, s]
            fwd = cx[CX_FWD, s]
    for i in range(max(0, nq - RING), nq):
        if _put(cfg, tab, ring_e, rb, i & (RING - 1)) == 2:
            tot_i[TOT_NEW] += 1
    tot_i[TOT_FORWARD] += moves
    return event
