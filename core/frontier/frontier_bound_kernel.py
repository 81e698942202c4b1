"""A rigorous bound on the frontier count's totals: the spanning subgraphs of a ``k`` × ``n``
knight's graph in which every cell has degree 1 or 2 and at most two cells degree 1,
counted exactly column by column.

Every Hamiltonian path is such a subgraph with exactly two cells of degree 1, every
Hamiltonian cycle one with none; connectivity is not followed, so a state is only the
degree so far (0, 1, 2: two bits) of each of the last ``2k + 1`` cells and how many cells of
degree 1 have been finished (0..2). A cell is finished at the step of its last neighbour
(``retire``): degree 0 drops the state, degree 1 adds an end, and its two bits become 0 so
that states that differ only there merge.

A table is ``uint64[C, 1 + words]``, a row the key and its count (one cache line). A key:
the digit of cell ``j`` after the step of cell ``i`` in bits ``2 (i - j)`` (the newest cell
in bits 0-1), the ends in bits 56-57, bit 63 set (0 marks an empty slot). A count is
``words`` 64-bit words, least significant first, added with carry; a carry out of the top
word stops the count (the caller falls back to another bound).
"""
from __future__ import annotations

import numpy as np

from ..system.jit import njit

_MUL0 = np.uint64(0x9E3779B97F4A7C15)
_MUL1 = np.uint64(0xBF58476D1CE4E5B9)
_FLAG = np.uint64(1) << np.uint64(63)
_ENDS = np.uint64(56)
_THREE = np.uint64(3)


@njit(inline="always")
def _slot(key: np.uint64, mask: np.uint64) -> np.int64:
    h = key * _MUL0
    h ^= h >> np.uint64(29)
    h *= _MUL1
    h ^= h >> np.uint64(32)
    return np.int64(h & mask)


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
def _put(tab: np.ndarray, key: np.uint64, src: np.ndarray, s: np.int64,
         words: np.int64) -> np.int64:
    """Adds the count ``src[s, 1:]`` to ``key`` in the table (a row: the key, then its
    count); the slot's index if the key is new, -1 if it was there, -2 on overflow (the
    table must have a free slot)."""
    mask = np.uint64(tab.shape[0] - 1)
    p = _slot(key, mask)
    while True:
        k = tab[p, 0]
        if k == key:
            return np.int64(-2) if _add_into(tab, p, src, s, words) else np.int64(-1)
        if k == 0:
            tab[p, 0] = key
            for w in range(1, words + 1):
                tab[p, w] = src[s, w]
            return p
        p = (p + 1) & np.int64(mask)


@njit
def _grown(tab: np.ndarray, words: np.int64) -> np.ndarray:
    out = np.zeros((tab.shape[0] * 2, words + 1), np.uint64)
    for p in range(tab.shape[0]):
        if tab[p, 0] != 0:
            _put(out, tab[p, 0], tab, np.int64(p), words)
    return out


@njit
def relaxed_count(back: np.ndarray, retire: np.ndarray, k: int, words: int, most: int,
                  max_ends: int, totals: np.ndarray, io: np.ndarray) -> int:
    """Counts, for every length ``c + 1`` of the board ``k`` rows high, the subgraphs with
    all degrees 1 or 2 and no cell (``totals[c, 0]``) or exactly two cells (``totals[c, 1]``)
    of degree 1, each a ``words``-word integer. ``back[i]``: how far back (``i - j``) each
    earlier neighbour ``j`` of cell ``i`` is (-1: none; int64[N, 4]); ``retire[j]``: the
    cell at whose step ``j`` has no neighbour left (int64[N]). ``most``: the most states a
    table may hold; ``max_ends``: 2, or 0 to count the 2-factors alone (far fewer states;
    ``totals[c, 1]`` stays 0). ``io`` (int64[2]) gets the most states met and the states read, summed.
    Returns the columns counted (all of them, or those before a count passed ``words``
    words or the states passed ``most``); -1 when the arrays do not fit each other."""
    n = back.shape[0]
    if (k < 1 or k > 13 or words < 1 or most < 1 or n % max(k, 1) != 0
            or (max_ends != 0 and max_ends != 2)
            or back.shape[1] != 4 or retire.shape[0] != n or io.shape[0] != 2
            or totals.shape[0] != n // max(k, 1) or totals.shape[1] != 2
            or totals.shape[2] != words):
        return -1
    for i in range(n):
        if retire[i] < i or retire[i] > i + 2 * k + 1 or retire[i] >= n:
            return -1
        for q in range(4):
            d = back[i, q]
            if d != -1 and (d < 1 or d > 2 * k + 1 or d > i):
                return -1
    body = (np.uint64(1) << np.uint64(2 * (2 * k + 1))) - np.uint64(1)
    w64 = np.int64(words)
    tab = np.zeros((16, w64 + 1), np.uint64)
    one = np.zeros((1, w64 + 1), np.uint64)
    one[0, 1] = 1
    _put(tab, _FLAG, one, np.int64(0), w64)
    io[0] = 1
    io[1] = 0
    states = np.int64(1)
    for i in range(n):
        filled = np.int64(0)
        cap = np.int64(16)
        while cap < 2 * states + 16:
            cap *= 2
        nt = np.zeros((cap, w64 + 1), np.uint64)
        ds = np.zeros(4, np.int64)
        nq = 0
        for q in range(4):
            if back[i, q] != -1:
                ds[nq] = back[i, q]
                nq += 1
        for p in range(tab.shape[0]):
            key = tab[p, 0]
            if key == 0:
                continue
            io[1] += 1
            ends0 = np.int64((key >> _ENDS) & _THREE)
            base = (key & body) << np.uint64(2)
            for sub in range(1 << nq):
                deg = 0
                w = base
                ok = True
                for q in range(nq):
                    if (sub >> q) & 1:
                        deg += 1
                        sh = np.uint64(2 * ds[q])
                        if (w >> sh) & _THREE >= np.uint64(2):
                            ok = False
                        w += np.uint64(1) << sh
                if not ok or deg > 2:
                    continue
                w |= np.uint64(deg)
                ends = ends0
                for q in range(nq + 1):
                    d = ds[q] if q < nq else np.int64(0)
                    if retire[i - d] != i:
                        continue
                    sh = np.uint64(2 * d)
                    x = (w >> sh) & _THREE
                    if x == np.uint64(0):
                        ok = False
                    elif x == np.uint64(1):
                        ends += 1
                    w &= ~(_THREE << sh)
                if not ok or ends > max_ends:
                    continue
                if 2 * (filled + 1) > cap:
                    nt = _grown(nt, w64)
                    cap *= 2
                got = _put(nt, (w & body) | (np.uint64(ends) << _ENDS) | _FLAG,
                           tab, np.int64(p), w64)
                if got == -2:
                    return i // k
                if got >= 0:
                    filled += 1
                    if filled > most:
                        return i // k
        tab = nt
        states = filled
        io[0] = max(io[0], filled)
        if i % k == k - 1:
            c = i // k
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
                        t = totals[c, e, v] + tab[p, v + 1]
                        c1 = np.uint64(1) if t < tab[p, v + 1] else np.uint64(0)
                        u = t + carry
                        carry = c1 | (np.uint64(1) if u < t else np.uint64(0))
                        totals[c, e, v] = u
                    if carry != np.uint64(0):
                        return c
    return n // k
