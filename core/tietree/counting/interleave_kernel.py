"""The table's count with several subtrees walked in turn, so no lookup is waited for.

A lookup of the transposition table is a trip to memory: a random read of a table far
larger than the processor's caches takes a few hundred nanoseconds, and the search of
:mod:`~knightgui_core.tietree.counting.memo_kernel` reads its answer at the next event, only
a fraction of that later. Here ``S`` searches (*contexts*), each on a subtree of its own, share one loop and
one table: a context that sends a lookup hands over to the next one, and reads its answer
when its turn comes back, after the other ``S - 1`` have each walked to their next lookup
(on 10×10 from d1, with 8 contexts, 4,000 cycles later on the median). A hit then costs no
walk at all, a miss only the read.

The search is the count loop's (``count_kernel.count_loop`` with the table's visitor: strict
rule, open tours, every tie followed, the same window and entries), and it gives the same
counts; it is kept as a loop of its own, not a visitor of ``count_loop``, because the switch
between contexts must cost next to nothing (four numbers saved and loaded): written as
``count_loop`` returning at every lookup to a driver, a switch costs more than the lookup it
hides. Eight contexts are faster than one search (``memo_run``) on the same table
(``bench/table.py``). Lengths of dead ends are not kept here (the wrapper uses ``memo_run``
for them).

**Nothing waited for, nothing counted.** A store, too, goes through memory: a finished node's
entry waits in a ring of :data:`RING` while its bucket is fetched, and goes in when the ring
comes round (a lookup that meets it still in the ring misses, and walks: the counts stay
exact). The loop runs without numba's reference counts (``_nrt=False``; it allocates
nothing), and every helper it calls is inlined in source (``rule_kernel``'s copies,
``find_key``, ``slot_for_key``), so its machine code is the same whatever numba's cache held
when it was compiled. Reference counts' atomic instructions would otherwise be a large share
of the loop's time (``bench/table.py`` times it).

**Layout.** The contexts' rows lie one after another in the same arrays, context ``s`` at
offset ``o = s * (N + 1)``: number ``k`` of context ``s`` is row ``o + k`` of ``path``,
``free``, ``pend``, ``ntied``, ``ai``, ``af``, ``fw0`` (row ``o`` of ``ai``/``af`` holds
its subtree's totals), so the rule's helpers (``forced``, ``pop_into``, ``step``) run
unchanged on absolute rows; ``ties[o + i]`` holds the *relative* number of its i-th open tie,
so a context's slice of the arrays is a ``count_kernel`` state (``memo_fold`` and the
wrapper's work-left listing read it as such).

Arrays (``N`` squares, ``S`` contexts, ``R = S * (N + 1)`` rows):

* ``path`` int32[R], ``free`` uint64[R, 2], ``pend`` uint64[R, 2], ``ntied`` int8[R],
  ``ties`` int32[R], ``ai`` int64[R, 3], ``af`` float64[R, 2], ``fw0`` int64[R].
* ``cx`` int64[CX_SIZE, S]: each context's saved state (slots ``CX_*``); ``cw`` float64[S]
  the weight of its subtree (the product of ``1 / width`` over the ties of its prefix).
* ``prefs`` int8[P, D], ``plen`` int64[P]: the subtrees to count, in order;
  ``nextp`` int64[1]: the next one to start.
* ``tot_i`` int64[TOT_SIZE], ``tot_f`` float64[2]: what the finished subtrees counted (slots
  ``TOT_*``; probabilities weighted).
* ``cfg``, ``tab``, ``tabf``: the table's (:mod:`~knightgui_core.tietree.counting.memo_kernel`).
* ``stb`` int64[count_kernel.ST_SIZE]: scratch for ``count_begin``.
* ``ring`` uint64[RING, 8] (``ringf`` its float64 view), ``rb`` int64[RING]: the stores in
  flight, entries in the table's layout, and their buckets (empty between calls).
"""
from __future__ import annotations

import numpy as np

from ...system.jit import njit
from ...system.prefetch_kernel import prefetch_row
from . import count_kernel as _ck
from .bucket_kernel import _KEY_MASK, KEY_BITS, WAYS, _top_bucket, bucket_shift, find_key, slot_for_key
from .count_kernel import count_begin
from .memo_kernel import CF_BUCKETS, CF_EVICTED, CF_MAX, CF_MIN, _key, add_entry, write_entry
from .rule_kernel import forced
from .rule_kernel import pop_into_inlined as pop_into
from .rule_kernel import step_inlined as step

DONE, BUDGET = _ck.DONE, _ck.BUDGET
PH_RUN, PH_LEAF = _ck.PH_RUN, _ck.PH_LEAF
# a context's saved state: its number (absolute row), phase, open ties, forward moves in its
# subtree, the tie whose lookup is in flight (absolute row, -1: none) and its bucket, whether
# it runs a subtree (1) or is idle (0), the index of that subtree in ``prefs``
CX_K, CX_PHASE, CX_NTIE, CX_FWD, CX_PK, CX_PB, CX_LIVE, CX_PREFIX = range(8)
CX_SIZE = 8
# totals: tours, closed, dead ends, forward moves, lookups, hits, new entries
TOT_TOURS, TOT_CLOSED, TOT_DEAD, TOT_FORWARD, TOT_PROBES, TOT_HITS, TOT_NEW = range(7)
TOT_SIZE = 7
#: stores in flight (a power of two): a finished node's entry waits in a ring of this many
#: while its bucket is fetched, and goes into the table when the ring comes round to it
RING = 8


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
def many_begin(att: np.ndarray, mtype: np.ndarray, n: int, start: int, prefs: np.ndarray,
               plen: np.ndarray, nextp: np.ndarray, path: np.ndarray, free: np.ndarray,
               pend: np.ndarray, ntied: np.ndarray, ties: np.ndarray, ai: np.ndarray,
               af: np.ndarray, cx: np.ndarray, cw: np.ndarray, stb: np.ndarray, s: int) -> bool:
    """Context ``s`` takes the next subtree of ``prefs`` (False, and the context idle, when
    none is left). The prefixes were checked by the wrapper."""
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
def many_run(att: np.ndarray, mtype: np.ndarray, close: np.ndarray, n: int, start: int,
             prefs: np.ndarray, plen: np.ndarray, nextp: np.ndarray, cfg: np.ndarray,
             tab: np.ndarray, tabf: np.ndarray, path: np.ndarray, free: np.ndarray,
             pend: np.ndarray, ntied: np.ndarray, ties: np.ndarray, ai: np.ndarray,
             af: np.ndarray, fw0: np.ndarray, cx: np.ndarray, cw: np.ndarray, stb: np.ndarray,
             tot_i: np.ndarray, tot_f: np.ndarray, ring: np.ndarray, ringf: np.ndarray,
             rb: np.ndarray, max_steps: int) -> int:
    """Walk the contexts in turn (each set up by :func:`many_begin`; a finished one takes the
    next subtree) until every subtree is counted (DONE) or ``max_steps`` forward moves are
    made (BUDGET, at a hand-over: every live context then has just opened a tie and sent its
    lookup, or is idle; call again to go on). Every store has reached the table when it
    returns (the wrapper may double the table between calls)."""
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
                    if nq >= RING and _put(cfg, tab, ring, rb, j) == 2:
                        tot_i[TOT_NEW] += 1
                    nq += 1
                    w2 = _key(path, kk, start)
                    rb[j] = _top_bucket(free[kk, 0], free[kk, 1], w2, shift)
                    prefetch_row(tab, rb[j])
                    prefetch_row(tab, rb[j] + 1)
                    write_entry(ring, ringf, j, free[kk, 0], free[kk, 1], w2, fwd - fw0[kk],
                                ai[kk, 0], ai[kk, 1], ai[kk, 2], p, pc)
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
                if many_begin(att, mtype, n, start, prefs, plen, nextp, path, free, pend,
                              ntied, ties, ai, af, cx, cw, stb, s):
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
        if _put(cfg, tab, ring, rb, i & (RING - 1)) == 2:
            tot_i[TOT_NEW] += 1
    tot_i[TOT_FORWARD] += moves
    return event
