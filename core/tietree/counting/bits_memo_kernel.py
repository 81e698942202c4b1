"""Counting the tie tree of many algorithms on one board of at most 64 squares by its states
(a transposition table shared across algorithms): Phadke's study (dashes, a reserved end).

The rule and the three counts (solutions, dead ends, forward moves) of
:func:`knightgui_core.tietree.enumeration.bitboard_kernel.count_batch_bits`. What happens below
a node depends only on the knight's square ``q``, the unvisited squares ``free`` and the
candidates ``avail`` among them (``free`` without the reserved squares; ``popcount(avail)``
squares left), the dashed cells still candidates (``dash & avail``) and the squares where the
last free number may stand (``endm``): not on the start, the path, or dashes on visited cells.
So a tie node met again, by another path or another algorithm of the batch, adds the counts of
its subtree at once.

**Where it looks.** Only at tie nodes with ``cfg[CF_MIN] ..= cfg[CF_MAX]`` squares left.

**Exact.** An entry holds its whole key: a hash collision can only miss.

**Bounded.** ``tab`` has a fixed number of buckets of :data:`WAYS` entries; in a full bucket
the cheapest subtree's entry goes. One way (direct-mapped) is the fastest: most lookups miss,
and a miss reads every line of its bucket.

``tab`` uint64[C, 8], one 64-byte entry a row: ``free``, ``avail``, ``dash & avail``,
``endm``, ``q | 1 << 8 | cost << 16`` (0: empty; cost: forward moves of the subtree, capped),
solutions, dead ends, forward moves of the subtree.
"""
from __future__ import annotations

import numpy as np

from ...system.jit import njit, trailing_zeros
from ..enumeration.bitboard_kernel import popcount
from .bucket_kernel import _M1, _M2, _M3, find_key, fmix, slot_for_key

# configuration slots
CF_MIN, CF_MAX, CF_BUCKETS = 0, 1, 2
CF_SIZE = 3
# statistics slots
SS_PROBES, SS_HITS, SS_STORES, SS_NEW, SS_EVICTED, SS_FROM_TABLE = 0, 1, 2, 3, 4, 5
SS_SIZE = 6
#: entries per bucket (one: see "Bounded" above)
WAYS = 1
#: the key's bits in word 4 of an entry; the subtree's cost sits above them
KEY_BITS = 16
_COST_MAX = np.int64((1 << (64 - KEY_BITS)) - 1)

_M4 = np.uint64(0x27D4EB2F165667C5)


@njit
def _bits_bucket(w0: np.uint64, w1: np.uint64, w2: np.uint64, w3: np.uint64, w4: np.uint64,
                 nbuckets: int) -> int:
    """First entry of the bucket of a key (``nbuckets`` a power of two)."""
    h = fmix((w0 * _M1) ^ (w1 * _M2) ^ ((w2 ^ w4) * _M3) ^ (w3 * _M4))
    return np.int64(h & np.uint64(nbuckets - 1)) * WAYS


@njit
def count_batch_memo(att: np.ndarray, starts: np.ndarray, dash_masks: np.ndarray,
                     end_masks: np.ndarray, free0: np.ndarray, avail0: np.ndarray,
                     cfg: np.ndarray, tab: np.ndarray, stats: np.ndarray,
                     out: np.ndarray) -> None:
    """Count many algorithms on one board (at most 64 squares) to exhaustion, one after
    another, through the table ``tab`` (kept from call to call): ``out[i] = (solutions, dead
    ends, forward moves, 1)`` as ``count_batch_bits``. The arguments as
    :func:`knightgui_core.tietree.counting.bits_table.count_by_states` takes them, and
    ``cfg`` int64[CF_SIZE], ``tab`` uint64[buckets * WAYS, 8], ``stats`` int64[SS_SIZE]
    (added to), ``out`` int64[A, 4]."""
    n = att.shape[0]
    one = np.uint64(1)
    zero = np.uint64(0)
    lo = cfg[CF_MIN]
    hi = cfg[CF_MAX]
    nb = cfg[CF_BUCKETS]
    use = nb > 0
    # the open ties, innermost last: the knight's square, the unvisited squares, the
    # candidates, the tied squares not yet followed, whether the tie goes into the table,
    # and the counts when it was opened
    tq = np.zeros(n + 1, dtype=np.int64)
    tfree = np.zeros(n + 1, dtype=np.uint64)
    tavail = np.zeros(n + 1, dtype=np.uint64)
    tpend = np.zeros(n + 1, dtype=np.uint64)
    tkeep = np.zeros(n + 1, dtype=np.int64)
    at0 = np.zeros((n + 1, 3), dtype=np.int64)
    for a in range(starts.shape[0]):
        dash = dash_masks[a]
        endm = end_masks[a]
        sols = np.int64(0)
        dead = np.int64(0)
        fwd = np.int64(0)
        q = starts[a]
        free = free0[a]
        avail = avail0[a]
        ntie = 0
        while True:
            # ---- at a node: a leaf, a forced move, or a tie
            c = -1
            if avail == zero:
                if (endm >> np.uint64(q)) & one:
                    sols += 1
                else:
                    dead += 1
            else:
                cand = att[q] & avail
                if cand & (cand - one) == zero:
                    if cand == zero:
                        dead += 1
                    else:
                        c = np.int64(trailing_zeros(cand))      # one candidate: no scores
                else:
                    best = 99
                    tied = zero
                    while cand:
                        x = np.int64(trailing_zeros(cand))
                        bx = one << np.uint64(x)
                        cand ^= bx
                        sc = popcount(att[x] & free)
                        if dash & bx:
                            sc = 1
                        if sc < best:
                            best = sc
                            tied = bx
                        elif sc == best:
                            tied |= bx
                    if tied & (tied - one) == zero:
                        c = np.int64(trailing_zeros(tied))
                    else:
                        hit = False
                        kept = 0
                        rem = popcount(avail)
                        if use and lo <= rem and rem <= hi:
                            stats[SS_PROBES] += 1
                            w2 = dash & avail
                            w4 = np.uint64(q) | (one << np.uint64(8))
                            s = find_key(tab, _bits_bucket(free, avail, w2, endm, w4, nb),
                                         WAYS, (free, avail, w2, endm, w4), KEY_BITS)
                            if s >= 0:
                                stats[SS_HITS] += 1
                                sols += np.int64(tab[s, 5])
                                dead += np.int64(tab[s, 6])
                                fwd += np.int64(tab[s, 7])
                                stats[SS_FROM_TABLE] += np.int64(tab[s, 7])
                                hit = True
                            else:
                                kept = 1
                        if not hit:
                            tq[ntie] = q
                            tfree[ntie] = free
                            tavail[ntie] = avail
                            tkeep[ntie] = kept
                            at0[ntie, 0] = sols
                            at0[ntie, 1] = dead
                            at0[ntie, 2] = fwd
                            c = np.int64(trailing_zeros(tied))
                            tpend[ntie] = tied ^ (one << np.uint64(c))
                            ntie += 1
            if c < 0:
                # ---- back to the innermost tie with a square left, closing the finished ones
                while ntie > 0:
                    t = ntie - 1
                    if tpend[t] != zero:
                        break
                    ntie -= 1
                    if tkeep[t]:
                        w0 = tfree[t]
                        w1 = tavail[t]
                        w2 = dash & w1
                        w4 = np.uint64(tq[t]) | (one << np.uint64(8))
                        s, ev = slot_for_key(tab, _bits_bucket(w0, w1, w2, endm, w4, nb),
                                             WAYS, (w0, w1, w2, endm, w4), KEY_BITS)
                        stats[SS_STORES] += 1
                        if ev == 2:
                            stats[SS_NEW] += 1
                        elif ev == 1:
                            stats[SS_EVICTED] += 1
                        cost = min(fwd - at0[t, 2], _COST_MAX)
                        tab[s, 0] = w0
                        tab[s, 1] = w1
                        tab[s, 2] = w2
                        tab[s, 3] = endm
                        tab[s, 4] = w4 | (np.uint64(cost) << np.uint64(KEY_BITS))
                        tab[s, 5] = np.uint64(sols - at0[t, 0])
                        tab[s, 6] = np.uint64(dead - at0[t, 1])
                        tab[s, 7] = np.uint64(fwd - at0[t, 2])
                if ntie == 0:
                    break
                t = ntie - 1
                p = tpend[t]
                c = np.int64(trailing_zeros(p))
                tpend[t] = p ^ (one << np.uint64(c))
                q = tq[t]
                free = tfree[t]
                avail = tavail[t]
            # ---- the move to c
            b = ~(one << np.uint64(c))
            free &= b
            avail &= b
            q = c
            fwd += 1
        out[a, 0] = sols
        out[a, 1] = dead
        out[a, 2] = fwd
        out[a, 3] = 1
