"""One cell of the frontier count on boards of 8 to 12 rows, a state two 64-bit words.

The step of :mod:`.word_kernel` (its docstring and :mod:`.count`'s say
what a state is) on a pair of words: window position ``p`` is nibble ``p % 16`` of ``lo``
(``p < 16``) or of ``hi``; a window of ``2k + 1`` cells and the new one take 26 nibbles at
most (12 rows). Successors are made with shifts and masks on the two words, the other end
of a piece is found by the zero-nibble test of both words, and the canonical renumbering
visits only the label nibbles, low word first.

A stored key is the window shifted by one cell: its first 16 nibbles are ``lo``, the next
ones ``hi``, whose bits 60-61 hold the path ends placed and bit 63 is set, so a used slot's
``hi`` is never 0. A table is one ``uint64[C, 2 + m]`` array: column 0 ``hi``, column 1
``lo``, columns 2.. the residues of the count (``mods[j]``; 0 stands for 2^64), key ``hi``
0 meaning an empty slot, as in the one-word table (:mod:`.word`'s table helpers
serve both). Twelve pieces at most fit 25 cells, labelled 3..14, so label 15 is free for
a new piece before the renumbering.

The batched insert and the expand loop are the one-word step's written again for a two-word
key, on purpose: one insert shared by both, with the number of key words as an argument,
makes the one-word step about 1.2× slower a state read (``bench/frontier.py``, 5×8 open).
"""
from __future__ import annotations

import numpy as np

from ..system.jit import njit
from .word_kernel import (
    _BATCH,
    _BODY,
    _F,
    _FRESH,
    _LOW32,
    _MOST,
    PROBE_MOST,
    CellStep,
    Successors,
    _find,
    _get,
    _hash,
    _relabel,
    _set,
)

#: the widest window the pair holds (12 rows: 25 cells, the new one the 26th nibble)
PAIR_WINDOW = 25
_MUL2 = np.uint64(0xC2B2AE3D27D4EB4F)


@njit(inline="always")
def _hash2(hi: np.uint64, lo: np.uint64) -> np.uint64:
    return _hash(hi ^ (lo * _MUL2))


@njit(inline="always")
def _get2(lo: np.uint64, hi: np.uint64, p: np.int64) -> np.uint64:
    return _get(lo, p) if p < 16 else _get(hi, p - 16)


@njit(inline="always")
def _set2(lo: np.uint64, hi: np.uint64, p: np.int64, x: np.uint64
          ) -> tuple[np.uint64, np.uint64]:
    if p < 16:
        return _set(lo, p, x), hi
    return lo, _set(hi, p - 16, x)


@njit(inline="always")
def _find2(lo: np.uint64, hi: np.uint64, n: np.int64, x: np.uint64) -> np.int64:
    """The lowest position among 0..n whose nibble is ``x`` (not 0), or -1."""
    u = _find(lo, min(n, np.int64(15)), x)
    if u >= 0 or n < 16:
        return u
    u = _find(hi, n - 16, x)
    return u + 16 if u >= 0 else u


@njit(inline="always")
def _retire2(lo: np.uint64, hi: np.uint64, n: np.int64, t: np.int64, open_mode: np.int64,
             ok_end: np.int64, e: np.int64, pth: np.int64
             ) -> tuple[np.uint64, np.uint64, np.int64, np.int64, bool]:
    """Cell ``t`` leaves: the new pair, ends placed, paths closed, and whether the state
    lives (``ok_end``: 0 the cell may not be an end of the path, 1 it may, 2 it must)."""
    x = _get2(lo, hi, t)
    if x == 0:
        return lo, hi, e, pth, ok_end != 2
    lo, hi = _set2(lo, hi, t, np.uint64(0))
    if x == 1 or open_mode == 0 or ok_end == 0 or e >= 2:
        return lo, hi, e, pth, False
    if x == 2:
        return lo, hi, e + 1, pth + 1, True
    u = _find2(lo, hi, n, x)
    if u < 0:
        return lo, hi, e, pth, False
    lo, hi = _set2(lo, hi, u, np.uint64(2))
    return lo, hi, e + 1, pth, True


@njit(inline="always")
def _attach2(lo: np.uint64, hi: np.uint64, p: np.int64, q: np.int64
             ) -> tuple[np.uint64, np.uint64]:
    """A move from ``p`` to ``q`` (which has none yet)."""
    xp = _get2(lo, hi, p)
    if xp == 1:
        lo, hi = _set2(lo, hi, p, _FRESH)
        return _set2(lo, hi, q, _FRESH)
    lo, hi = _set2(lo, hi, q, xp)
    return _set2(lo, hi, p, np.uint64(0))


@njit(inline="always")
def _join2(lo: np.uint64, hi: np.uint64, n: np.int64, a: np.int64, b: np.int64,
           open_mode: np.int64, e: np.int64
           ) -> tuple[np.uint64, np.uint64, np.int64, np.int64, bool]:
    """The new cell ``n`` (EMPTY) takes moves to ``a`` and ``b`` (-1: none): the new pair,
    paths and cycles closed (1 each at most), and whether the state lives."""
    zero = np.int64(0)
    if a < 0:
        return lo, hi, zero, zero, True
    if b < 0:
        lo, hi = _attach2(lo, hi, a, n)
        return lo, hi, zero, zero, True
    xa = _get2(lo, hi, a)
    xb = _get2(lo, hi, b)
    lo, hi = _set2(lo, hi, n, np.uint64(0))
    if xa == 1:
        lo, hi = _attach2(lo, hi, b, a)
        return lo, hi, zero, zero, True
    if xb == 1:
        lo, hi = _attach2(lo, hi, a, b)
        return lo, hi, zero, zero, True
    lo, hi = _set2(lo, hi, a, np.uint64(0))
    lo, hi = _set2(lo, hi, b, np.uint64(0))
    if xa == xb:
        if xa == 2:
            return lo, hi, np.int64(1), zero, True
        if open_mode != 0 and e > 0:
            return lo, hi, zero, zero, False
        return lo, hi, zero, np.int64(1), True
    to_end = xa == 2 or xb == 2
    u = _find2(lo, hi, n, (xb if xa == 2 else xa) if to_end else xb)
    if u < 0:
        return lo, hi, zero, zero, False
    lo, hi = _set2(lo, hi, u, np.uint64(2) if to_end else xa)
    return lo, hi, zero, zero, True


@njit(inline="always")
def _mirror_canon2(khi: np.uint64, klo: np.uint64, k: np.int64
                   ) -> tuple[np.uint64, np.uint64]:
    """:func:`.word_kernel._mirror_canon` on a two-word key: the smaller (``hi``
    first) of the key taken at a column's end and its top-bottom mirror image relabelled."""
    body = khi & _BODY
    mlo = klo & _F
    mhi = np.uint64(0)
    for r in range(k):
        mlo, mhi = _set2(mlo, mhi, k - r, _get2(klo, body, 1 + r))
        mlo, mhi = _set2(mlo, mhi, 2 * k - r, _get2(klo, body, k + 1 + r))
    rlo, ren, nxt = _relabel(mlo, np.uint64(0), np.uint64(3))
    rhi = _relabel(mhi, ren, nxt)[0] | (khi & ~_BODY)
    if rhi < khi or (rhi == khi and rlo < klo):
        return rhi, rlo
    return khi, klo


@njit
def _absorb2(rows: np.ndarray, count: np.int64, ttab: np.ndarray, mods: np.ndarray,
             io: np.ndarray, limit: np.int64, most: np.int64) -> np.int64:
    """:func:`.word_kernel._absorb` on two-word keys (``hi`` 0: no row), with its answers."""
    cap = ttab.shape[0]
    capu = np.uint64(cap)
    probes = min(cap, max(np.int64(1), most))
    m2 = ttab.shape[1]
    slot = np.zeros(_BATCH + 1, np.int64)
    filled = io[1]
    i = io[0]
    while i < count:
        end = min(count, i + _BATCH)
        if filled + (end - i) > limit:
            io[0], io[1] = i, filled
            return np.int64(-1)
        seen = np.uint64(0)
        for j in range(i, end):
            h = _hash2(rows[j, 0], rows[j, 1])
            s = np.int64(((h >> np.uint64(32)) * capu) >> np.uint64(32))
            slot[j - i] = s
            seen ^= ttab[s, 0]
        slot[_BATCH] = np.int64(seen & np.uint64(1))
        for j in range(i, end):
            k0 = rows[j, 0]
            if k0 == 0:
                continue
            k1 = rows[j, 1]
            s = slot[j - i]
            for _ in range(probes):
                got = ttab[s, 0]
                if got == 0:
                    for c in range(m2):
                        ttab[s, c] = rows[j, c]
                    filled += 1
                    break
                if got == k0 and ttab[s, 1] == k1:
                    for c in range(2, m2):
                        v = ttab[s, c] + rows[j, c]
                        if mods[c - 2] != 0 and v >= mods[c - 2]:
                            v -= mods[c - 2]
                        ttab[s, c] = v
                    break
                s += 1
                if s == cap:
                    s = 0
            else:
                if probes == cap:
                    return np.int64(-2)
                io[0], io[1] = j, filled
                return np.int64(-1)
        i = end
    io[0], io[1] = count, filled
    return filled


@njit
def pair_absorb(rows: np.ndarray, count: int, ttab: np.ndarray, mods: np.ndarray,
                io: np.ndarray) -> int:
    """:func:`.word_kernel.word_absorb` on two-word keys, with its answers (a bigger table
    made by :func:`pair_regrow`)."""
    cap = ttab.shape[0]
    if (rows.shape[1] != mods.shape[0] + 2 or ttab.shape[1] != rows.shape[1] or cap < 16
            or cap >= (1 << 32) or count < 0 or count > rows.shape[0] or io.shape[0] != 2
            or io[0] < 0 or io[1] < 0):
        return -2
    return _absorb2(rows, np.int64(count), ttab, mods, io, np.int64((cap // 5) * 4),
                    np.int64(PROBE_MOST))


@njit
def pair_regrow(tab: np.ndarray, ttab: np.ndarray, mods: np.ndarray) -> int:
    """Moves every state of ``tab`` into the empty, bigger ``ttab``; the states moved, -2
    when the arrays do not fit each other or ``ttab`` has too few slots."""
    cap = ttab.shape[0]
    if (tab.shape[1] != mods.shape[0] + 2 or ttab.shape[1] != tab.shape[1] or cap < 16
            or cap >= (1 << 32)):
        return -2
    io = np.zeros(2, np.int64)
    got = _absorb2(tab, np.int64(tab.shape[0]), ttab, mods, io, np.int64(cap), np.int64(cap))
    return got if got >= 0 else -2


@njit
def pair_expand(tab: np.ndarray, hi_slot: int, mods: np.ndarray, cell: CellStep,
                out: Successors, io: np.ndarray) -> int:
    """:func:`.word_kernel.word_expand` on two-word keys (the same :class:`CellStep` and
    :class:`Successors`), with its answers."""
    nb, rem, endok = cell.earlier, cell.unread, cell.may_end
    open_mode, finish, carry = cell.open_mode, cell.finish, cell.carry
    buf, fill, total = out.buffers, out.filled, out.totals
    n = np.int64(cell.window)
    m = mods.shape[0]
    parts = buf.shape[0]
    room = buf.shape[1] - _MOST
    if (n < 1 or n > PAIR_WINDOW or nb.shape[0] != 4 or rem.shape[0] != n + 1
            or endok.shape[0] != n + 1 or tab.shape[1] != m + 2 or buf.shape[2] != m + 2
            or parts < 1 or room < 1 or fill.shape[0] != parts or total.shape[0] != 2
            or total.shape[1] != m or io.shape[0] != 2 or io[0] < 0
            or hi_slot > tab.shape[0]):
        return -2
    for q in range(4):
        if nb[q] < -1 or nb[q] >= n:
            return -2
    for t in range(n + 1):
        if endok[t] > 2:
            return -2
    for p in range(parts):
        if fill[p] < 0 or fill[p] > buf.shape[1]:
            return -2
    avail = np.zeros(4, np.int64)
    half = (n - 1) // 2                      # the rows
    partsu = np.uint64(parts)
    top = np.uint64(1) << np.uint64(63)
    one = np.zeros(n + 1, np.int64)          # cells a rem of 1 leaves short if they have none
    none = np.int64(0)
    ret = np.zeros(n + 1, np.int64)          # cells that leave with this one: 0 and rem 0
    nret = np.int64(1)
    for t in range(1, n + 1):
        if rem[t] == 1:
            one[none] = t
            none += 1
        if rem[t] == 0:
            ret[nret] = t
            nret += 1
    read = np.int64(0)
    s = io[0]
    while s < hi_slot:
        k0 = tab[s, 0]
        if k0 == 0:
            s += 1
            continue
        full = False
        for p in range(parts):
            if fill[p] > room:
                full = True
        if full:
            break
        read += 1
        clo = tab[s, 1]
        chi = k0 & _BODY
        ends0 = np.int64((k0 >> np.uint64(60)) & np.uint64(3))
        na = 0
        for q in range(4):
            if nb[q] >= 0 and _get2(clo, chi, nb[q]) != 0:
                avail[na] = nb[q]
                na += 1
        blo, bhi = _set2(clo, chi, n, np.uint64(1))
        for ia in range(-1, na):
            for ib in range(ia + 1, na + 1):
                if ia < 0 and ib < na:
                    continue
                lo, hi, pth, cyc, live = _join2(blo, bhi, n, avail[ia] if ia >= 0 else -1,
                                                avail[ib] if ib < na else -1, open_mode, ends0)
                if not live:
                    continue
                e = ends0
                for j in range(nret):
                    t = ret[j]
                    lo, hi, e, pth, live = _retire2(lo, hi, n, t, open_mode,
                                                    np.int64(endok[t]), e, pth)
                    if not live:
                        break
                if not live:
                    continue
                if finish != 0:
                    flo, fhi, fe, fp, fl = lo, hi, e, pth, True
                    t = np.int64(1)
                    while fl and t <= n:
                        if rem[t] != 0:        # those without retired above already
                            flo, fhi, fe, fp, fl = _retire2(flo, fhi, n, t, open_mode,
                                                            np.int64(endok[t]), fe, fp)
                        t += 1
                    if fl and fp + cyc == 1:
                        row = 0 if (cyc == 1 and fe == 0) else (1 if fp == 1 else -1)
                        if row >= 0:
                            for j in range(m):
                                v = total[row, j] + tab[s, j + 2]
                                if mods[j] != 0 and v >= mods[j]:
                                    v -= mods[j]
                                total[row, j] = v
                if carry == 0 or pth + cyc > 0:
                    continue
                short = np.int64(0)
                for j in range(none):
                    t = one[j]
                    if _get2(lo, hi, t) == 1:
                        short += 1 if endok[t] != 0 else 4
                if short > 0 and (open_mode == 0 or short > 2 - e):
                    continue
                # canonical labels over the window shifted by one cell, low word first
                rlo, ren, nxt = _relabel((lo >> np.uint64(4)) | (hi << np.uint64(60)),
                                         np.uint64(0), np.uint64(3))
                rhi, ren, nxt = _relabel(hi >> np.uint64(4), ren, nxt)
                key = rhi | (np.uint64(e) << np.uint64(60)) | top
                if carry == 2:
                    key, rlo = _mirror_canon2(key, rlo, half)
                p = np.int64(0)
                if parts > 1:
                    p = np.int64(((_hash2(key, rlo) & _LOW32) * partsu) >> np.uint64(32))
                f0 = fill[p]
                buf[p, f0, 0] = key
                buf[p, f0, 1] = rlo
                for j in range(m):
                    buf[p, f0, j + 2] = tab[s, j + 2]
                fill[p] = f0 + 1
        s += 1
    io[0] = s
    return read
