"""Counting Warnsdorff tours by the states of the tie tree (a transposition table).

The same search as :mod:`knightgui_core.tietree.count_kernel` (strict rule, no dashes, open
tours, every tie followed), but the rule's next move depends only on the knight's square and
the set of unvisited squares, so a *tie node* met again by another path (the same square,
the same unvisited set) has the same subtree below it. Its results are kept in a table the
first time and added at once the next times.

**Where it looks.** Only at tie nodes (a forced move leads to one state; two paths that meet
anywhere meet again at the next tie node or leaf below it), and only when the squares left
lie in the window ``cfg[CF_MIN] ..= cfg[CF_MAX]`` (tiny subtrees are cheaper to walk than
to look up).

**What a node keeps**: tours, closed tours (last square a knight move from the start), dead
ends, and, for a walk that picks uniformly at random among tied squares, the probability of
ending in a tour and in a closed tour from that node; with lengths on, dead ends and their
probability by squares visited when stuck (relative to the node, ``W`` of them).

**Exact.** An entry holds its whole key (both words of the unvisited set, the square, the
start square and a marker), so a hash collision can only miss, never add a wrong count.

**Bounded.** The table has a number of buckets of :data:`WAYS` entries; when a bucket is
full the entry whose subtree cost the fewest forward moves is replaced.

**One cache line an entry.** A lookup costs a trip to memory (the table is far bigger than
the caches), so an entry is 8 words, 64 bytes, aligned by the wrapper: a lookup reads one
bucket of two lines and a hit or a store touches nothing else (bench/table.py measured the
earlier layout, keys, counts and probabilities in three arrays, at 1.3–1.6× the time). The wrapper starts
small and doubles the table (:func:`memo_rehash`) while it is half full and under its limit,
so a small count touches few pages of memory.

Arrays (``N`` squares, ``C`` = buckets × WAYS entries):

* ``tab``   uint64[C, 8]  per entry: free word 0, free word 1, ``square | start << 8 |
  1 << 16 | cost << 20`` (0: empty; cost: forward moves the subtree took, capped), tours,
  closed, dead ends, and (through ``tabf``, a float64 view of the same memory) P(tour) and
  P(closed tour) from the node in words 6 and 7.
* ``tlen``  int64[C, W], ``tlp`` float64[C, W]: dead ends and their probability by squares
  visited after the node (index r: stuck at number k + r); shape (1, 1) when lengths are off.
* ``ai``    int64[N + 1, 3], ``af`` float64[N + 1, 2], ``al`` int64[N + 1, L], ``alp``
  float64[N + 1, L] (L = N + 1 with lengths, else 1): per open tie k, the sums over its
  children so far (probabilities not yet divided by the tie's width); row 0 is the task's
  root.
* ``fw0``   int64[N + 1]  forward moves when tie k was opened.
* ``cfg``   int64[CF_SIZE], ``st`` int64[ST_SIZE] as below; ``path``, ``free``, ``pend``,
  ``ntied``, ``ties`` as in :mod:`~knightgui_core.tietree.count_kernel` (``count_begin``
  prepares them).
"""
from __future__ import annotations

import numpy as np

from ..system.jit import njit
from .count_kernel import _low, _pop_into, _step, _tied

# events
DONE, BUDGET = 1, 2
# phases
PH_RUN, PH_LEAF = 0, 1
# scalar slots
(ST_K, ST_PHASE, ST_NTIE, ST_FORWARD, ST_ROOT, ST_N, ST_START, ST_PROBES, ST_HITS, ST_STORES,
 ST_EVICTED, ST_NEW) = range(12)
ST_SIZE = 12
# configuration slots
CF_MIN, CF_MAX, CF_LENS, CF_BUCKETS = range(4)
CF_SIZE = 4
#: entries per bucket
WAYS = 2
#: the key's bits in word 2 of an entry; the subtree's cost sits above them
KEY_BITS = 20
_KEY_MASK = np.uint64((1 << KEY_BITS) - 1)
_COST_MAX = np.int64((1 << (64 - KEY_BITS)) - 1)

_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xC2B2AE3D27D4EB4F)
_M3 = np.uint64(0x165667B19E3779F9)


@njit
def _bucket(w0: np.uint64, w1: np.uint64, w2: np.uint64, nbuckets: int) -> int:
    """First entry of the bucket of a key (``nbuckets`` a power of two)."""
    h = (w0 * _M1) ^ (w1 * _M2) ^ (w2 * _M3)
    h ^= h >> np.uint64(31)
    h *= _M1
    h ^= h >> np.uint64(29)
    return np.int64(h & np.uint64(nbuckets - 1)) * WAYS


@njit
def _find(tab: np.ndarray, base: int, w0: np.uint64, w1: np.uint64, w2: np.uint64) -> int:
    """The entry holding the key in the bucket at ``base``, or -1."""
    for i in range(WAYS):
        s = base + i
        if (tab[s, 2] & _KEY_MASK) == w2 and tab[s, 0] == w0 and tab[s, 1] == w1:
            return s
    return -1


@njit
def _slot_for(tab: np.ndarray, base: int, w0: np.uint64, w1: np.uint64,
              w2: np.uint64) -> tuple:
    """Where to store a key: its own entry, an empty one, else the cheapest subtree's.
    Returns (entry, 1 when an occupied entry of another key is replaced, 2 when the entry
    was empty, 0 when it held this key)."""
    cheapest = base
    for i in range(WAYS):
        s = base + i
        if tab[s, 2] == 0:
            return s, 2
        if (tab[s, 2] & _KEY_MASK) == w2 and tab[s, 0] == w0 and tab[s, 1] == w1:
            return s, 0
        if (tab[s, 2] >> np.uint64(KEY_BITS)) < (tab[cheapest, 2] >> np.uint64(KEY_BITS)):
            cheapest = s
    return cheapest, 1


@njit
def memo_run(att: np.ndarray, close: np.ndarray, path: np.ndarray, free: np.ndarray,
             pend: np.ndarray, ntied: np.ndarray, ties: np.ndarray, st: np.ndarray,
             cfg: np.ndarray, tab: np.ndarray, tabf: np.ndarray,
             tlen: np.ndarray, tlp: np.ndarray, ai: np.ndarray, af: np.ndarray,
             al: np.ndarray, alp: np.ndarray, fw0: np.ndarray, max_steps: int) -> int:
    """Run the subtree below ``st[ST_ROOT]`` (set up by ``count_begin``, then ``st`` copied
    into this kernel's slots by :func:`memo_start`) up to the first leaf after ``max_steps``
    forward moves. Returns DONE (the results are in row 0 of ``ai``/``af``/``al``/``alp``)
    or BUDGET (call again, or read the work left from ``pend``/``ties`` and the partial
    results with :func:`memo_fold`)."""
    one = np.uint64(1)
    k = st[ST_K]
    phase = st[ST_PHASE]
    ntie = st[ST_NTIE]
    fwd = st[ST_FORWARD]
    n = st[ST_N]
    start = st[ST_START]
    lens = cfg[CF_LENS] != 0
    lo = cfg[CF_MIN]
    hi = cfg[CF_MAX]
    nb = cfg[CF_BUCKETS]
    width = tlen.shape[1]
    use = nb > 0
    steps = 0
    event = np.int64(BUDGET)
    while True:
        if phase == PH_RUN:
            q = path[k]
            if k == n:
                top = ties[ntie - 1] if ntie > 0 else 0
                ai[top, 0] += 1
                af[top, 0] += 1.0
                if q < 64:
                    is_closed = (close[0] >> np.uint64(q)) & one
                else:
                    is_closed = (close[1] >> np.uint64(q - 64)) & one
                if is_closed:
                    ai[top, 1] += 1
                    af[top, 1] += 1.0
                phase = np.int64(PH_LEAF)
                continue
            t0, t1, nt = _tied(att, q, free[k, 0], free[k, 1])
            ntied[k] = nt
            if nt == 1:
                # a forced move: the fast path, nothing to keep
                c = _low(t0, t1)
                _step(path, free, k, c)
                k += 1
                steps += 1
                fwd += 1
                continue
            top = ties[ntie - 1] if ntie > 0 else 0
            if nt == 0:
                ai[top, 2] += 1
                if lens:
                    al[top, k] += 1
                    alp[top, k] += 1.0
                phase = np.int64(PH_LEAF)
                continue
            if nt >= 2:
                rem = n - k
                if use and lo <= rem and rem <= hi:
                    st[ST_PROBES] += 1
                    w0 = free[k, 0]
                    w1 = free[k, 1]
                    w2 = np.uint64(q) | (np.uint64(start) << np.uint64(8)) | (one << np.uint64(16))
                    s = _find(tab, _bucket(w0, w1, w2, nb), w0, w1, w2)
                    if s >= 0:
                        st[ST_HITS] += 1
                        ai[top, 0] += np.int64(tab[s, 3])
                        ai[top, 1] += np.int64(tab[s, 4])
                        ai[top, 2] += np.int64(tab[s, 5])
                        af[top, 0] += tabf[s, 6]
                        af[top, 1] += tabf[s, 7]
                        if lens:
                            for r in range(1, min(width, n - k + 1)):
                                al[top, k + r] += tlen[s, r]
                                alp[top, k + r] += tlp[s, r]
                        phase = np.int64(PH_LEAF)
                        continue
                # open the tie
                ai[k, 0] = 0
                ai[k, 1] = 0
                ai[k, 2] = 0
                af[k, 0] = 0.0
                af[k, 1] = 0.0
                if lens:
                    for j in range(k, n + 1):
                        al[k, j] = 0
                        alp[k, j] = 0.0
                fw0[k] = fwd
                ties[ntie] = k
                ntie += 1
            c = _pop_into(pend, k, t0, t1)
        else:
            # close every tie whose options are all done, innermost first
            while ntie > 0:
                kk = ties[ntie - 1]
                if pend[kk, 0] != 0 or pend[kk, 1] != 0:
                    break
                ntie -= 1
                parent = ties[ntie - 1] if ntie > 0 else 0
                width_k = np.float64(ntied[kk])
                p = af[kk, 0] / width_k
                pc = af[kk, 1] / width_k
                rem = n - kk
                if use and lo <= rem and rem <= hi:
                    q = path[kk]
                    w0 = free[kk, 0]
                    w1 = free[kk, 1]
                    w2 = np.uint64(q) | (np.uint64(start) << np.uint64(8)) | (one << np.uint64(16))
                    s, ev = _slot_for(tab, _bucket(w0, w1, w2, nb), w0, w1, w2)
                    st[ST_STORES] += 1
                    if ev == 1:
                        st[ST_EVICTED] += 1
                    elif ev == 2:
                        st[ST_NEW] += 1
                    cost = min(fwd - fw0[kk], _COST_MAX)
                    tab[s, 0] = w0
                    tab[s, 1] = w1
                    tab[s, 2] = w2 | (np.uint64(cost) << np.uint64(KEY_BITS))
                    tab[s, 3] = np.uint64(ai[kk, 0])
                    tab[s, 4] = np.uint64(ai[kk, 1])
                    tab[s, 5] = np.uint64(ai[kk, 2])
                    tabf[s, 6] = p
                    tabf[s, 7] = pc
                    if lens:
                        for r in range(width):
                            if kk + r <= n and r > 0:
                                tlen[s, r] = al[kk, kk + r]
                                tlp[s, r] = alp[kk, kk + r] / width_k
                            else:
                                tlen[s, r] = 0
                                tlp[s, r] = 0.0
                ai[parent, 0] += ai[kk, 0]
                ai[parent, 1] += ai[kk, 1]
                ai[parent, 2] += ai[kk, 2]
                af[parent, 0] += p
                af[parent, 1] += pc
                if lens:
                    for j in range(kk + 1, n + 1):
                        al[parent, j] += al[kk, j]
                        alp[parent, j] += alp[kk, j] / width_k
            if ntie == 0:
                event = np.int64(DONE)
                break
            if steps >= max_steps:
                break
            k = ties[ntie - 1]
            c = _pop_into(pend, k, pend[k, 0], pend[k, 1])
            phase = np.int64(PH_RUN)
        _step(path, free, k, c)
        k += 1
        steps += 1
        fwd += 1
    st[ST_K] = k
    st[ST_PHASE] = phase
    st[ST_NTIE] = ntie
    st[ST_FORWARD] = fwd
    return event


@njit
def memo_fold(n: int, ntie: int, ties: np.ndarray, ntied: np.ndarray, ai: np.ndarray,
              af: np.ndarray, al: np.ndarray, alp: np.ndarray, out_i: np.ndarray,
              out_f: np.ndarray, out_l: np.ndarray, out_lp: np.ndarray) -> None:
    """What a stopped :func:`memo_run` has counted so far, relative to its root: row 0 plus
    every open tie's sums, each probability divided by the widths of the ties above it and
    its own. ``out_i`` int64[3], ``out_f`` float64[2], ``out_l``/``out_lp`` of ``al``'s row
    shape."""
    for j in range(3):
        out_i[j] = ai[0, j]
    for j in range(2):
        out_f[j] = af[0, j]
    for j in range(al.shape[1]):
        out_l[j] = al[0, j]
        out_lp[j] = alp[0, j]
    w = 1.0
    for i in range(ntie):
        k = ties[i]
        w /= np.float64(ntied[k])
        for j in range(3):
            out_i[j] += ai[k, j]
        for j in range(2):
            out_f[j] += w * af[k, j]
        if al.shape[1] > 1:
            for j in range(k + 1, n + 1):
                out_l[j] += al[k, j]
                out_lp[j] += w * alp[k, j]


@njit
def memo_rehash(tab: np.ndarray, tlen: np.ndarray, tlp: np.ndarray, ntab: np.ndarray,
                nlen: np.ndarray, nlp: np.ndarray, nbuckets: int) -> int:
    """Move every entry of a table into a bigger one of ``nbuckets`` buckets (its arrays
    ``n*``, empty); returns the entries moved (a full bucket keeps its costliest ones)."""
    moved = 0
    lens = tlen.shape[0] == tab.shape[0] and nlen.shape[0] == ntab.shape[0]
    for s in range(tab.shape[0]):
        if tab[s, 2] == 0:
            continue
        w0 = tab[s, 0]
        w1 = tab[s, 1]
        w2 = tab[s, 2] & _KEY_MASK
        d, ev = _slot_for(ntab, _bucket(w0, w1, w2, nbuckets), w0, w1, w2)
        if ev == 1 and (ntab[d, 2] >> np.uint64(KEY_BITS)) >= (tab[s, 2] >> np.uint64(KEY_BITS)):
            continue
        if ev == 2:
            moved += 1
        for j in range(8):
            ntab[d, j] = tab[s, j]
        if lens:
            for j in range(tlen.shape[1]):
                nlen[d, j] = tlen[s, j]
                nlp[d, j] = tlp[s, j]
    return moved
