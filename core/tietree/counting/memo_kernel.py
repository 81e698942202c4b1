"""Counting Warnsdorff tours by the states of the tie tree (a transposition table).

The search of :mod:`knightgui_core.tietree.counting.count_kernel` (strict rule, no dashes, open
tours, every tie followed), whose next move depends only on the knight's square and the
unvisited squares: a *tie node* met again by another path has the same subtree, so its results
are kept the first time and added at once the next times.

**Where it looks.** Only at tie nodes (paths that meet anywhere meet again at the next tie node
or leaf), with the squares left in ``config[CF_MIN] ..= config[CF_MAX]`` (:class:`Table`).

**What a node keeps**: tours, closed tours, dead ends and, for a walk choosing uniformly among
tied squares, the probability of a tour and of a closed tour from it; with lengths on, dead
ends and their probability by squares visited when stuck (``W`` of them).

**Exact and bounded.** An entry holds its whole key (both words of the unvisited set, the
square, the start square and a marker): a collision can only miss. In a full bucket of
:data:`WAYS` entries the one whose subtree cost the fewest forward moves goes.

**One cache line an entry** (8 words, aligned by the wrapper): keys, counts and probabilities
in three arrays took 1.3–1.6× the time (bench/table.py).

**A lookup in flight.** At a tie node the search prefetches the key's bucket
(:mod:`~knightgui_core.system.prefetch_kernel`), opens the tie as if it missed and walks on;
the bucket is read at the next tie, leaf or close (:func:`_settle`). A hit cuts the search
back to its node (the open ties below lose their options, the loop closes them, and the kept
results go in place of the walk: the same sums in the same order). About 1.2× faster than
reading at once (``bench/table.py``).

**Doubling in place.** The wrapper maps the whole memory at once and doubles the table where it
lies (``config[CF_EVICTED]`` counts replaced entries; table.py's ``grow_if_full``). A key's
bucket is the top bits of its hash (:func:`_top_bucket`), so bucket ``b`` splits into ``2b``
and ``2b + 1`` and :func:`memo_rehash` reads and writes in order, with no second table.

**The loop** is :func:`~knightgui_core.tietree.counting.count_kernel.count_loop` with this
module's visitor (``memo_*``) bound by :func:`~knightgui_core.system.jit.specialise`. Besides
count_kernel's arrays (``path``, ``free``, ``pend``, ``ntied``, ``ties``, prepared by its
``count_begin``) and ``st`` int64[ST_SIZE] (slots below), the state is two records: the table
(:class:`Table`; an entry's words: free word 0, free word 1, ``square | start << 8 | 1 << 16 |
cost << 20`` (0: empty; cost: forward moves of the subtree, capped), tours, closed, dead ends,
then P(tour) and P(closed tour) as float64) and the open ties' sums (:class:`TieSums`).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...system.jit import njit, specialise
from ...system.prefetch_kernel import prefetch_row
from . import count_kernel as _ck
from .bucket_kernel import (  # noqa: F401 - the tables' bucket scan, used from here by others
    _COST_MAX,
    _KEY_MASK,
    _M1,
    _M2,
    _M3,
    KEY_BITS,
    WAYS,
    _bucket,
    _find,
    _slot_for,
    _top_bucket,
    bucket_shift,
    find_key,
    fmix,
    slot_for_key,
)
from .count_kernel import count_loop

# the count loop's events, phases and scalar slots, which the wrapper reads
DONE, BUDGET, PH_RUN, PH_LEAF = _ck.DONE, _ck.BUDGET, _ck.PH_RUN, _ck.PH_LEAF
ST_K, ST_PHASE, ST_NTIE, ST_FORWARD, ST_ROOT, ST_N = (_ck.ST_K, _ck.ST_PHASE, _ck.ST_NTIE,
                                                      _ck.ST_FORWARD, _ck.ST_ROOT, _ck.ST_N)

# scalar slots: the count loop's (count_kernel.ST_*), then the table's
ST_START, ST_PROBES, ST_HITS, ST_STORES, ST_EVICTED, ST_NEW = range(_ck.ST_SIZE, _ck.ST_SIZE + 6)
# the lookup in flight: its tie's number (0: none) and bucket; the tie a hit cuts back
# (0: none) and the entry found
ST_PK, ST_PB, ST_CUT, ST_CUTS = range(_ck.ST_SIZE + 6, _ck.ST_SIZE + 10)
ST_SIZE = _ck.ST_SIZE + 10
# configuration slots
CF_MIN, CF_MAX, CF_LENS, CF_BUCKETS, CF_EVICTED = range(5)
CF_SIZE = 5


class Table(NamedTuple):
    """The transposition table's arrays, as
    :class:`~knightgui_core.tietree.counting.table.TransTable` holds them (``C`` entries;
    ``W`` the lengths kept, 1 when lengths are off)."""

    #: int64[CF_SIZE]: the window, lengths on, the buckets, the entries replaced (``CF_*``)
    config: np.ndarray
    #: uint64[C, 8]: the entries, one cache line each
    entries: np.ndarray
    #: float64[C, 8]: the same memory as floats (words 6 and 7: P(tour), P(closed tour))
    entries_f: np.ndarray
    #: int64[C, W]: an entry's dead ends by squares visited after its node; (1, 1) when off
    dead_lengths: np.ndarray
    #: float64[C, W]: their probability
    dead_length_p: np.ndarray


class TieSums(NamedTuple):
    """Per open tie ``k`` (row 0: the task's root), the sums over its children so far,
    probabilities not yet divided by the tie's width (``L`` = N + 1 with lengths, else 1)."""

    #: int64[N + 1, 3]: tours, closed tours, dead ends
    counts: np.ndarray
    #: float64[N + 1, 2]: P(tour), P(closed tour)
    chances: np.ndarray
    #: int64[N + 1, L]: dead ends by the number they got stuck at
    dead_lengths: np.ndarray
    #: float64[N + 1, L]: their probability
    dead_length_p: np.ndarray
    #: int64[N + 1]: forward moves when tie ``k`` was opened
    opened_at: np.ndarray


class Entry(NamedTuple):
    """A finished node's results, as its entry keeps them."""

    #: the key: the unvisited squares (two words) and :func:`_key` (square, start, marker)
    free0: np.uint64
    free1: np.uint64
    key: np.uint64
    #: forward moves the subtree took (capped when stored)
    cost: int
    tours: int
    closed: int
    dead: int
    p_tour: float
    p_closed: float


# ---- the transposition table's visitor of count_kernel.count_loop (bound by specialise)

class Visit(NamedTuple):
    """The visitor's data (count_loop's ``V``): the table, the open ties' sums, and the
    count's own arrays a hit cuts back and a key is read from."""

    table: Table
    sums: TieSums
    #: count_kernel's ``pend``: the tied options not taken yet
    onward: np.ndarray
    #: the scalar slots ``ST_*``
    status: np.ndarray
    path: np.ndarray
    #: count_kernel's ``free``: the unvisited squares once number k stands
    unvisited: np.ndarray


class Window(NamedTuple):
    """What the visitor reads once per call (count_loop's ``P``)."""

    #: tie nodes with ``fewest ..= most`` squares left are looked up and stored
    fewest: int
    most: int
    #: the table has buckets
    on: bool
    #: its :func:`bucket_shift`
    shift: np.uint64
    #: dead ends by length are kept, ``width`` of them an entry
    lengths: bool
    width: int
    start: int
    squares: int


@njit(inline="always")
def memo_setup(V: Visit, st: np.ndarray) -> Window:
    """The window, the table's use and bucket shift, lengths on, their width, the start and
    the board's squares, read once per call."""
    cfg = V.table.config
    nb = cfg[CF_BUCKETS]
    return Window(cfg[CF_MIN], cfg[CF_MAX], nb > 0, bucket_shift(nb), cfg[CF_LENS] != 0,
                  V.table.dead_lengths.shape[1], st[ST_START], st[ST_N])


@njit(inline="always")
def memo_tour(V: Visit, P: Window, top: int, closed: bool) -> None:
    """A tour adds to the innermost open tie's sums (row 0: the root)."""
    counts = V.sums.counts
    chances = V.sums.chances
    counts[top, 0] += 1
    chances[top, 0] += 1.0
    if closed:
        counts[top, 1] += 1
        chances[top, 1] += 1.0
    if V.status[ST_PK] > 0:
        _settle(V, P, top)


@njit(inline="always")
def memo_dead(V: Visit, P: Window, top: int, k: int) -> None:
    """A dead end at number ``k`` (and its length, with lengths on)."""
    V.sums.counts[top, 2] += 1
    if P.lengths:
        V.sums.dead_lengths[top, k] += 1
        V.sums.dead_length_p[top, k] += 1.0
    if V.status[ST_PK] > 0:
        _settle(V, P, top)


@njit(inline="always")
def _key(path: np.ndarray, k: int, start: int) -> np.uint64:
    """Word 2 of the key of the node at number ``k``: its square, the start, a marker."""
    return (np.uint64(path[k]) | (np.uint64(start) << np.uint64(8))
            | (np.uint64(1) << np.uint64(16)))


@njit(inline="always")
def _settle(V: Visit, P: Window, top: int) -> None:
    """Read the lookup in flight (sent at the tie ``kp`` one event before). A miss is
    dropped; a hit cuts the search back: every open tie from ``kp`` to ``top`` loses its
    options left (``onward``), so the loop closes them next, and :func:`memo_close` adds
    the kept results at ``kp`` in place of what was walked below it."""
    onward, st, free = V.onward, V.status, V.unvisited
    kp = st[ST_PK]
    st[ST_PK] = 0
    s = _find(V.table.entries, st[ST_PB], free[kp, 0], free[kp, 1], _key(V.path, kp, P.start))
    if s >= 0:
        st[ST_HITS] += 1
        st[ST_CUT] = kp
        st[ST_CUTS] = s
        for j in range(kp, top + 1):
            onward[j, 0] = 0
            onward[j, 1] = 0


@njit(inline="always")
def _in_window(P: Window, k: int) -> bool:
    """The tie node at number ``k`` is looked up and stored (its squares left in the
    window, and the table has buckets)."""
    rem = P.squares - k
    return P.on and P.fewest <= rem and rem <= P.most


@njit(inline="always")
def memo_tie(V: Visit, P: Window, st: np.ndarray, path: np.ndarray, free: np.ndarray, k: int,
             top: int, fwd: int) -> bool:
    """A tie node: first the lookup in flight is read (a hit cuts the search back, and this
    node is not entered); then, in the window, this node's lookup is sent (its bucket
    prefetched) and the tie is opened (its sums zeroed) as if it missed; the answer is read
    at the next tie, leaf or close (:func:`_settle`), while the loop walks on."""
    sums = V.sums
    if st[ST_PK] > 0:
        _settle(V, P, top)
        if st[ST_CUT] > 0:
            return True
    if _in_window(P, k):
        st[ST_PROBES] += 1
        b = _top_bucket(free[k, 0], free[k, 1], _key(path, k, P.start), P.shift)
        prefetch_row(V.table.entries, b)
        prefetch_row(V.table.entries, b + 1)
        st[ST_PK] = k
        st[ST_PB] = b
    sums.counts[k, 0] = 0
    sums.counts[k, 1] = 0
    sums.counts[k, 2] = 0
    sums.chances[k, 0] = 0.0
    sums.chances[k, 1] = 0.0
    if P.lengths:
        for j in range(k, P.squares + 1):
            sums.dead_lengths[k, j] = 0
            sums.dead_length_p[k, j] = 0.0
    sums.opened_at[k] = fwd
    return False


@njit(inline="always")
def add_entry(counts: np.ndarray, chances: np.ndarray, row: int, entries: np.ndarray,
              entries_f: np.ndarray, s: int) -> None:
    """The kept results of entry ``s`` added to the sums of row ``row`` (a hit)."""
    counts[row, 0] += np.int64(entries[s, 3])
    counts[row, 1] += np.int64(entries[s, 4])
    counts[row, 2] += np.int64(entries[s, 5])
    chances[row, 0] += entries_f[s, 6]
    chances[row, 1] += entries_f[s, 7]


@njit(inline="always")
def store_entry(table: Table, shift: np.uint64, e: Entry) -> tuple:
    """Keep a finished node's results under its key: in its own entry, an empty one, else
    in place of the cheapest subtree of its bucket (counted in ``config[CF_EVICTED]``).
    Returns (entry, how: 1 replaced, 2 empty, 0 its own)."""
    s, ev = _slot_for(table.entries, _top_bucket(e.free0, e.free1, e.key, shift), e.free0,
                      e.free1, e.key)
    if ev == 1:
        table.config[CF_EVICTED] += 1
    write_entry(table.entries, table.entries_f, s, e)
    return s, ev


@njit(inline="always")
def write_entry(entries: np.ndarray, entries_f: np.ndarray, s: int, e: Entry) -> None:
    """Row ``s`` of ``entries`` (``entries_f`` its float64 view) set to ``e``."""
    entries[s, 0] = e.free0
    entries[s, 1] = e.free1
    entries[s, 2] = e.key | (np.uint64(min(e.cost, _COST_MAX)) << np.uint64(KEY_BITS))
    entries[s, 3] = np.uint64(e.tours)
    entries[s, 4] = np.uint64(e.closed)
    entries[s, 5] = np.uint64(e.dead)
    entries_f[s, 6] = e.p_tour
    entries_f[s, 7] = e.p_closed


@njit(inline="always")
def _cut_close(V: Visit, P: Window, st: np.ndarray, kk: int, parent: int) -> None:
    """The tie a hit cut back closes: the kept results go to the tie above (what was walked
    below it is dropped), as a hit at the node itself would have added them."""
    table, sums = V.table, V.sums
    s = st[ST_CUTS]
    st[ST_CUT] = 0
    add_entry(sums.counts, sums.chances, parent, table.entries, table.entries_f, s)
    if P.lengths:
        for r in range(1, min(P.width, P.squares - kk + 1)):
            sums.dead_lengths[parent, kk + r] += table.dead_lengths[s, r]
            sums.dead_length_p[parent, kk + r] += table.dead_length_p[s, r]


@njit(inline="always")
def memo_close(V: Visit, P: Window, st: np.ndarray, path: np.ndarray, free: np.ndarray,
               ntied: np.ndarray, kk: int, parent: int, fwd: int) -> None:
    """A finished tie in the window is stored; its sums go to the tie above, each
    probability divided by the tie's width."""
    table = V.table
    counts, chances, lens, lens_p, opened_at = V.sums
    n = P.squares
    cut = st[ST_CUT]
    if cut > 0 and kk >= cut:
        if kk == cut:
            _cut_close(V, P, st, kk, parent)
        return
    if st[ST_PK] == kk:
        st[ST_PK] = 0                   # its whole subtree is walked: no need to read it
    width_k = np.float64(ntied[kk])
    p = chances[kk, 0] / width_k
    pc = chances[kk, 1] / width_k
    if _in_window(P, kk):
        s, ev = store_entry(table, P.shift,
                            Entry(free[kk, 0], free[kk, 1], _key(path, kk, P.start),
                                  fwd - opened_at[kk], counts[kk, 0], counts[kk, 1],
                                  counts[kk, 2], p, pc))
        st[ST_STORES] += 1
        if ev == 1:
            st[ST_EVICTED] += 1
        elif ev == 2:
            st[ST_NEW] += 1
        if P.lengths:
            for r in range(P.width):
                if kk + r <= n and r > 0:
                    table.dead_lengths[s, r] = lens[kk, kk + r]
                    table.dead_length_p[s, r] = lens_p[kk, kk + r] / width_k
                else:
                    table.dead_lengths[s, r] = 0
                    table.dead_length_p[s, r] = 0.0
    counts[parent, 0] += counts[kk, 0]
    counts[parent, 1] += counts[kk, 1]
    counts[parent, 2] += counts[kk, 2]
    chances[parent, 0] += p
    chances[parent, 1] += pc
    if P.lengths:
        for j in range(kk + 1, n + 1):
            lens[parent, j] += lens[kk, j]
            lens_p[parent, j] += lens_p[kk, j] / width_k
    if st[ST_PK] > 0:
        _settle(V, P, parent)


# without reference counts (it allocates nothing): with them, ``V``'s arrays are counted up and
# down at every tie, about twice the loop's time (``bench/table.py``)
_memo_loop = specialise(count_loop, "memo_loop", refcounts=False, visit_setup=memo_setup,
                        visit_tour=memo_tour, visit_dead=memo_dead, visit_tie=memo_tie,
                        visit_close=memo_close)


@njit
def memo_run(att: np.ndarray, close: np.ndarray, path: np.ndarray, free: np.ndarray,
             pend: np.ndarray, ntied: np.ndarray, ties: np.ndarray, st: np.ndarray,
             table: Table, sums: TieSums, max_steps: int) -> int:
    """Run the subtree below ``st[ST_ROOT]`` (set up by ``count_begin``, ``st`` in this
    kernel's slots) up to the first leaf after ``max_steps`` forward moves. Returns DONE (the
    results in row 0 of ``sums``) or BUDGET (call again, or read the work left from
    ``pend``/``ties`` and the partial results with :func:`memo_fold`)."""
    return _memo_loop(att, close, path, free, pend, ntied, ties, st,
                      Visit(table, sums, pend, st, path, free), max_steps)


@njit
def memo_fold(n: int, ntie: int, ties: np.ndarray, ntied: np.ndarray, sums: TieSums,
              out_i: np.ndarray, out_f: np.ndarray, out_l: np.ndarray,
              out_lp: np.ndarray) -> None:
    """What a stopped :func:`memo_run` has counted so far, relative to its root: row 0 of
    ``sums`` plus every open tie's, each probability divided by the widths of the ties above
    it and its own. ``out_i`` int64[3] (tours, closed, dead ends), ``out_f`` float64[2],
    ``out_l``/``out_lp`` of the row shape of ``sums.dead_lengths``."""
    counts, chances, lens, lens_p, _opened_at = sums
    for j in range(3):
        out_i[j] = counts[0, j]
    for j in range(2):
        out_f[j] = chances[0, j]
    for j in range(lens.shape[1]):
        out_l[j] = lens[0, j]
        out_lp[j] = lens_p[0, j]
    w = 1.0
    for i in range(ntie):
        k = ties[i]
        w /= np.float64(ntied[k])
        for j in range(3):
            out_i[j] += counts[k, j]
        for j in range(2):
            out_f[j] += w * chances[k, j]
        if lens.shape[1] > 1:
            for j in range(k + 1, n + 1):
                out_l[j] += lens[k, j]
                out_lp[j] += w * lens_p[k, j]


@njit(inline="always")
def _copy_row(a: np.ndarray, i: int, b: np.ndarray, j: int) -> None:
    """Row ``i`` of ``a`` into row ``j`` of ``b``."""
    for x in range(a.shape[1]):
        b[j, x] = a[i, x]


@njit
def memo_rehash(tab: np.ndarray, tlen: np.ndarray, tlp: np.ndarray, nbuckets: int) -> int:
    """Double a table of ``nbuckets`` buckets in place: ``tab`` (and ``tlen``/``tlp`` with
    lengths) hold ``2 * nbuckets`` buckets, the second half empty. Bucket ``b`` splits into
    ``2b`` and ``2b + 1``, so from the last bucket down each moves to places already emptied,
    in order. Returns the entries in the table (none is lost)."""
    moved = 0
    shift = bucket_shift(2 * nbuckets)
    lens = tlen.shape[0] == tab.shape[0]
    width = tlen.shape[1]
    keep = np.empty((WAYS, 8), dtype=np.uint64)
    keep_l = np.empty((WAYS, width), dtype=np.int64)
    keep_p = np.empty((WAYS, width), dtype=np.float64)
    for b in range(nbuckets - 1, -1, -1):
        got = 0
        for i in range(WAYS):
            s = b * WAYS + i
            if tab[s, 2] != 0:
                _copy_row(tab, s, keep, got)
                if lens:
                    _copy_row(tlen, s, keep_l, got)
                    _copy_row(tlp, s, keep_p, got)
                got += 1
            tab[s, 2] = 0
        for g in range(got):
            w2 = keep[g, 2] & _KEY_MASK
            d, _ev = _slot_for(tab, _top_bucket(keep[g, 0], keep[g, 1], w2, shift),
                               keep[g, 0], keep[g, 1], w2)
            _copy_row(keep, g, tab, d)
            if lens:
                _copy_row(keep_l, g, tlen, d)
                _copy_row(keep_p, g, tlp, d)
            moved += 1
    return moved
