"""A rigorous bound on the frontier count's totals: the spanning subgraphs of a ``k`` × ``n``
knight's graph in which every cell has degree 1 or 2 and at most two cells degree 1,
counted exactly cell by cell.

Connectivity is not followed (:mod:`.bound` says why the count still bounds the tours),
so a state is only the degree so far (0, 1, 2: two bits) of each of the last ``2k + 1``
cells and how many cells of degree 1 have been finished (0..2). A cell is finished at the
step of its last neighbour (``retire``): degree 0 drops the state, degree 1 adds an end,
and its two bits become 0 so that states that differ only there merge.

A table is ``uint64[C, 1 + words]`` (``C`` a power of two), a row the key and its count
(one cache line). A key: the digit of cell ``j`` after the step of cell ``i`` in bits
``2 (i - j)`` (the newest cell in bits 0-1), the ends in bits 56-57, bit 63 set (0 marks an
empty slot). A count is ``words`` 64-bit words, least significant first, added with carry.

The caller (:mod:`.bound`) reads a range of one table's slots a call (:func:`relaxed_step`),
so a call is short and a cancel is seen between calls.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..system.jit import njit
from ..system.prefetch_kernel import prefetch_row
from .word_kernel import _hash as _mix  # the frontier tables' own key hash

_FLAG = np.uint64(1) << np.uint64(63)
_ENDS = np.uint64(56)
_THREE = np.uint64(3)
#: successors of one state at most (no, one or two of at most four back edges)
_MOST_NEW = 11
#: states whose successors are made before any is added
_BATCH = 32


class RelaxedBoard(NamedTuple):
    """The board the relaxed count reads, and how: ``back`` int64[N, 4], how far back each
    earlier knight neighbour of a cell is (-1: none); ``retire`` int64[N], the cell at whose
    step each cell has no neighbour left; ``rows``, the column's height ``k``; ``words``, the
    64-bit words of a count; ``max_ends``, 2, or 0 for the 2-factors alone; ``most``, the
    states a step may hold before it stops. Every number is a Python ``int`` (typed int64),
    so each kernel has one signature."""

    back: np.ndarray
    retire: np.ndarray
    rows: int
    words: int
    max_ends: int
    most: int


@njit(inline="always")
def _add_into(dst: np.ndarray, d: np.int64, src: np.ndarray, s: np.int64,
              words: np.int64) -> bool:
    """dst[d, 1:] += src[s, 1:] over ``words`` words; True on a carry out of the top
    word."""
    carry = np.uint64(0)
    for w in range(1, words + 1):
        a = dst[d, w]
        b = src[s, w]
        t = a + b
        c1 = np.uint64(1) if t < a else np.uint64(0)
        u = t + carry
        c2 = np.uint64(1) if u < t else np.uint64(0)
        dst[d, w] = u
        carry = c1 | c2
    return carry != np.uint64(0)


@njit
def _put(tab: np.ndarray, key: np.uint64, h: np.uint64, src: np.ndarray, s: np.int64,
         words: np.int64) -> np.int64:
    """Adds the count ``src[s, 1:]`` to ``key`` (hash ``h``) in the table; 1 if the key is
    new, 0 if it was there, -2 on a carry out of the top word (the table must have a free
    slot)."""
    mask = np.int64(tab.shape[0] - 1)
    p = np.int64(h) & mask
    while True:
        k = tab[p, 0]
        if k == key:
            return np.int64(-2) if _add_into(tab, p, src, s, words) else np.int64(0)
        if k == 0:
            tab[p, 0] = key
            for w in range(1, words + 1):
                tab[p, w] = src[s, w]
            return np.int64(1)
        p = (p + 1) & mask


@njit(inline="always")
def _is_table(tab: np.ndarray, words: int) -> bool:
    c = tab.shape[0]
    return tab.shape[1] == words + 1 and c >= 16 and (c & (c - 1)) == 0


@njit(inline="always")
def _mirror(w: np.uint64, k: np.int64) -> np.uint64:
    """The key of the top-bottom mirror image at a column's end (positions 0..k-1 the
    column just read, k..2k-1 the one before, 2k finished): the same key when position 2k
    is not empty (never at a column's end)."""
    if (w >> np.uint64(4 * k)) & _THREE != np.uint64(0):
        return w
    out = w & ~((np.uint64(1) << np.uint64(4 * k)) - np.uint64(1))
    for d in range(k):
        x = (w >> np.uint64(2 * d)) & _THREE
        out |= x << np.uint64(2 * (k - 1 - d))
        y = (w >> np.uint64(2 * (k + d))) & _THREE
        out |= y << np.uint64(2 * (2 * k - 1 - d))
    return out


@njit
def relaxed_step(tab: np.ndarray, lo: int, hi: int, nt: np.ndarray, board: RelaxedBoard,
                 i: int, fold: int, io: np.ndarray) -> int:
    """Reads the slots ``io[0]`` ≥ ``lo`` up to ``hi`` of ``tab`` for cell ``i`` of
    ``board`` (:class:`RelaxedBoard`) and adds each successor into ``nt`` (``io[1]``: the
    states it holds, kept up to date; ``io[2]``: states read, summed). ``fold`` (1 at a
    column's last cell only): a key and its mirror image kept as one. Returns 0 when
    ``hi`` is reached (``io[0] = hi``), 1 when ``nt`` must grow first (``io[0]``: the slot
    to go on from), 2 on a count wider than ``board.words``, 3 when ``nt`` passed
    ``board.most`` states, -1 when the arrays do not fit."""
    back, retire = board.back, board.retire
    k, words, max_ends, most = board.rows, board.words, board.max_ends, board.most
    n = back.shape[0]
    if (k < 1 or k > 13 or words < 1 or words > 64 or n % k != 0 or i < 0 or i >= n
            or back.shape[1] != 4 or retire.shape[0] != n or io.shape[0] != 3
            or not _is_table(tab, words) or not _is_table(nt, words)
            or (max_ends != 0 and max_ends != 2)
            or not (0 <= lo <= io[0] <= hi <= tab.shape[0]) or most < 1
            or io[1] < 0 or (fold != 0 and (fold != 1 or i % k != k - 1))):
        return -1
    ds = np.zeros(4, np.int64)
    nq = np.int64(0)
    for q in range(4):
        d = back[i, q]
        if d != -1:
            if d < 1 or d > 2 * k + 1 or d > i:
                return -1
            ds[nq] = d
            nq += 1
    if retire[i] < i or retire[i] > i + 2 * k + 1:
        return -1
    # the cells finished at this step: among the back neighbours and the cell itself
    rpos = np.zeros(5, np.int64)
    nr = np.int64(0)
    for q in range(nq + 1):
        d = ds[q] if q < nq else np.int64(0)
        if retire[i - d] == i:
            rpos[nr] = d
            nr += 1
    # the subsets of back edges taken (at most two): the digits added, the digits that
    # must not be 2 already, the new cell's degree
    adds = np.zeros(16, np.uint64)
    highs = np.zeros(16, np.uint64)
    degs = np.zeros(16, np.uint64)
    ns = np.int64(0)
    for sub in range(1 << nq):
        deg = np.int64(0)
        plus = np.uint64(0)
        full = np.uint64(0)
        for q in range(nq):
            if (sub >> q) & 1:
                deg += 1
                plus += np.uint64(1) << np.uint64(2 * ds[q])
                full |= np.uint64(2) << np.uint64(2 * ds[q])
        if deg <= 2:
            adds[ns] = plus
            highs[ns] = full
            degs[ns] = np.uint64(deg)
            ns += 1
    body = (np.uint64(1) << np.uint64(2 * (2 * k + 1))) - np.uint64(1)
    cap = nt.shape[0]
    mask = np.uint64(cap - 1)
    w64 = np.int64(words)
    filled = io[1]
    p = io[0]
    # the successors of a batch of states are made first and their slots fetched into the
    # cache, then added: the table's cache misses overlap instead of following each other
    bk = np.empty(_BATCH * _MOST_NEW, np.uint64)
    bh = np.empty(_BATCH * _MOST_NEW, np.uint64)
    bs = np.empty(_BATCH * _MOST_NEW, np.int64)
    while p < hi:
        nb = np.int64(0)
        q = p
        while q < hi and nb <= (_BATCH - 1) * _MOST_NEW:
            key = tab[q, 0]
            if key == 0:
                q += 1
                continue
            if 2 * (filled + nb + _MOST_NEW) > cap:
                break
            io[2] += 1
            ends0 = np.int64((key >> _ENDS) & _THREE)
            base = (key & body) << np.uint64(2)
            for s in range(ns):
                if base & highs[s] != np.uint64(0):
                    continue
                w = (base + adds[s]) | degs[s]
                ends = ends0
                ok = True
                for r in range(nr):
                    sh = np.uint64(2 * rpos[r])
                    x = (w >> sh) & _THREE
                    if x == np.uint64(0):
                        ok = False
                    elif x == np.uint64(1):
                        ends += 1
                    w &= ~(_THREE << sh)
                if not ok or ends > max_ends:
                    continue
                w &= body
                if fold == 1:
                    m = _mirror(w, np.int64(k))
                    if m < w:
                        w = m
                nk = w | (np.uint64(ends) << _ENDS) | _FLAG
                h = _mix(nk)
                prefetch_row(nt, np.int64(h & mask))
                bk[nb] = nk
                bh[nb] = h
                bs[nb] = q
                nb += 1
            q += 1
        for b in range(nb):
            got = _put(nt, bk[b], bh[b], tab, bs[b], w64)
            if got == -2:
                io[0], io[1] = q, filled
                return 2
            filled += got
        p = q
        if filled > most:
            io[0], io[1] = p, filled
            return 3
        if p < hi and nb == 0 and tab[p, 0] != 0:
            io[0], io[1] = p, filled
            return 1
    io[0], io[1] = hi, filled
    return 0


@njit
def relaxed_totals(tab: np.ndarray, i: int, board: RelaxedBoard, totals: np.ndarray) -> int:
    """Adds to ``totals`` (uint64[2, words]: no ends, two ends) the boards that end with
    cell ``i`` (a column's last) of ``board`` among the states of ``tab``: every cell still
    open must have degree 1 or 2. 0, 1 on a total wider than ``board.words``, -1 when the
    arrays do not fit."""
    retire, k, words, max_ends = board.retire, board.rows, board.words, board.max_ends
    n = retire.shape[0]
    if (k < 1 or k > 13 or words < 1 or not _is_table(tab, words) or n % k != 0
            or i < 0 or i >= n or i % k != k - 1 or totals.shape[0] != 2
            or totals.shape[1] != words or (max_ends != 0 and max_ends != 2)):
        return -1
    w64 = np.int64(words)
    for p in range(tab.shape[0]):
        key = tab[p, 0]
        if key == 0:
            continue
        ends = np.int64((key >> _ENDS) & _THREE)
        ok = True
        for d in range(min(2 * k + 1, i + 1)):
            if retire[i - d] > i:
                x = (key >> np.uint64(2 * d)) & _THREE
                if x == np.uint64(0):
                    ok = False
                elif x == np.uint64(1):
                    ends += 1
        if ok and (ends == 0 or ends == 2) and ends <= max_ends:
            carry = np.uint64(0)
            e = ends // 2
            for v in range(w64):
                t = totals[e, v] + tab[p, v + 1]
                c1 = np.uint64(1) if t < tab[p, v + 1] else np.uint64(0)
                u = t + carry
                carry = c1 | (np.uint64(1) if u < t else np.uint64(0))
                totals[e, v] = u
            if carry != np.uint64(0):
                return 1
    return 0


@njit
def relaxed_regrow(tab: np.ndarray, out: np.ndarray, words: int) -> int:
    """Moves every state of ``tab`` into the empty table ``out``; the states moved, -1 when
    the arrays do not fit (``out`` smaller than twice the states, or not empty)."""
    if not _is_table(tab, words) or not _is_table(out, words):
        return -1
    filled = np.int64(0)
    for p in range(tab.shape[0]):
        if tab[p, 0] != 0:
            filled += 1
    if 2 * filled > out.shape[0]:
        return -1
    for p in range(out.shape[0]):
        if out[p, 0] != 0:
            return -1
    w64 = np.int64(words)
    for p in range(tab.shape[0]):
        key = tab[p, 0]
        if key != 0:
            _put(out, key, _mix(key), tab, np.int64(p), w64)
    return filled

