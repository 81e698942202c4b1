"""One cell of the frontier count on boards of at most 7 rows, a state one 64-bit word.

The step :mod:`.count`'s docstring describes, written on the word itself: the window's 15
cells and the new one are the 16 nibbles of a local word, each successor is made and put in
canonical form with shifts and masks, nothing copied into arrays. A stored key is that
window shifted by one cell (15 nibbles, bits 0-59), the path ends placed in bits 60-61 and
bit 63 set, so no state is the word 0 (an empty slot).

A table is one ``uint64[C, 1 + m]`` array: column 0 the key, columns 1..m the residues of
its count (``mods[j]``; 0 stands for 2^64), so a slot's key and count share a cache line.
Slot ``C · (h >> 32) >> 32`` of the key's hash ``h`` comes first (any ``C`` below 2^32),
then the next ones, :data:`PROBE_MOST` at most: rows in the order of their slots (a
table's, or a slice file's) into a table too small for them make one long run at once,
which every insert would walk; the table is grown instead.

The output may be split by hash (its low 32 bits): each thread keeps only the successors
of its own part, in a table of its own. Successors wait in a small buffer; the slots of a
batch are read before any is written, so the batch's cache misses overlap.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..system.jit import njit, trailing_zeros

#: the widest window a word holds (15 nibbles and the ends)
WORD_WINDOW = 15
_FRESH = np.uint64(15)        # a new piece's label before renumbering (at most 8 pieces: 3..10)
_MUL0 = np.uint64(0x9E3779B97F4A7C15)
_MUL1 = np.uint64(0xBF58476D1CE4E5B9)
_LOW32 = np.uint64(0xFFFFFFFF)
_F = np.uint64(15)
_BATCH = 64
_MOST = 11                     # successors of one state at most
#: the most slots an insert looks at before the table is grown instead (docstring above)
PROBE_MOST = 1 << 11
_ONES = np.uint64(0x1111111111111111)
_SEVENS = np.uint64(0x7777777777777777)
_EIGHTS = np.uint64(0x8888888888888888)
_BODY = (np.uint64(1) << np.uint64(60)) - np.uint64(1)   # the window's 15 nibbles


class CellStep(NamedTuple):
    """One cell of the board as its step reads it, for either key layout:

    * ``earlier``: int64[4], the window positions of the new cell's neighbours read before
      it (-1: none);
    * ``unread``: uint8[window + 1], each position's knight neighbours still unread after
      this cell (0 retires it, as position 0 always);
    * ``may_end``: uint8[window + 1], 0 where a cell may not be an end of the path, 1 may,
      2 must (a path from a given start, up to the cell where it retires: a retired nibble
      is 0 like a full one's);
    * ``window``: the cells a state holds (``2k + 1`` on a board ``k`` rows high);
    * ``open_mode``: 0 for the cycles only, 1 for the open paths too;
    * ``finish``: 1 when boards end with this cell (their tours are added up), else 0;
    * ``carry``: 0 at the last cell (nothing carried on), 2 at a column's last cell when a
      state and its mirror image are kept as one, else 1 (:func:`.word.carry_code`).

    Every number is a Python ``int`` (typed int64), so the step has one signature."""

    earlier: np.ndarray
    unread: np.ndarray
    may_end: np.ndarray
    window: int
    open_mode: int
    finish: int
    carry: int


class Successors(NamedTuple):
    """Where one thread's step of a cell puts what it makes: ``buffers`` uint64[parts, B,
    width], a buffer of rows (key words, then residues) per share of the hash;
    ``filled`` int64[parts], the rows each buffer holds; ``totals`` uint64[2, m], the
    residues of the boards finished (cycles, then undirected paths)."""

    buffers: np.ndarray
    filled: np.ndarray
    totals: np.ndarray


@njit(inline="always")
def _hash(key: np.uint64) -> np.uint64:
    h = key * _MUL0
    h ^= h >> np.uint64(29)
    h *= _MUL1
    h ^= h >> np.uint64(32)
    return h


@njit(inline="always")
def _get(w: np.uint64, p: np.int64) -> np.uint64:
    return (w >> np.uint64(4 * p)) & _F


@njit(inline="always")
def _set(w: np.uint64, p: np.int64, x: np.uint64) -> np.uint64:
    sh = np.uint64(4 * p)
    return (w & ~(_F << sh)) | (x << sh)


@njit(inline="always")
def _find(w: np.uint64, n: np.int64, x: np.uint64) -> np.int64:
    """The lowest position among 0..n whose nibble is ``x`` (not 0), or -1."""
    z = w ^ (x * _ONES)
    hit = ~(((z & _SEVENS) + _SEVENS) | z) & _EIGHTS          # the high bit of each 0 nibble
    if n < 15:
        hit &= (np.uint64(1) << np.uint64(4 * n + 4)) - np.uint64(1)
    if hit == 0:
        return np.int64(-1)
    p = np.int64(0)
    if hit & _LOW32 == 0:
        p += 8
        hit >>= np.uint64(32)
    if hit & np.uint64(0xFFFF) == 0:
        p += 4
        hit >>= np.uint64(16)
    if hit & np.uint64(0xFF) == 0:
        p += 2
        hit >>= np.uint64(8)
    if hit & _F == 0:
        p += 1
    return p


@njit(inline="always")
def _retire(w: np.uint64, n: np.int64, t: np.int64, open_mode: np.int64, ok_end: np.int64,
            e: np.int64, pth: np.int64) -> tuple[np.uint64, np.int64, np.int64, bool]:
    """Cell ``t`` leaves: the new word, ends placed, paths closed, and whether the state
    lives (``ok_end``: 0 the cell may not be an end of the path, 1 it may, 2 it must)."""
    x = _get(w, t)
    if x == 0:
        return w, e, pth, ok_end != 2
    w = _set(w, t, np.uint64(0))
    if x == 1 or open_mode == 0 or ok_end == 0 or e >= 2:
        return w, e, pth, False
    if x == 2:
        return w, e + 1, pth + 1, True
    u = _find(w, n, x)
    if u < 0:
        return w, e, pth, False
    return _set(w, u, np.uint64(2)), e + 1, pth, True


@njit(inline="always")
def _attach(w: np.uint64, p: np.int64, q: np.int64) -> np.uint64:
    """A move from ``p`` to ``q`` (which has none yet)."""
    xp = _get(w, p)
    if xp == 1:
        return _set(_set(w, p, _FRESH), q, _FRESH)
    return _set(_set(w, q, xp), p, np.uint64(0))


@njit(inline="always")
def _join(w: np.uint64, n: np.int64, a: np.int64, b: np.int64, open_mode: np.int64,
          e: np.int64) -> tuple[np.uint64, np.int64, np.int64, bool]:
    """The new cell ``n`` (EMPTY in ``w``) takes moves to ``a`` and ``b`` (-1: none): the
    new word, paths and cycles closed (1 each at most), and whether the state lives."""
    if a < 0:
        return w, np.int64(0), np.int64(0), True
    if b < 0:
        return _attach(w, a, n), np.int64(0), np.int64(0), True
    xa = _get(w, a)
    xb = _get(w, b)
    w = _set(w, n, np.uint64(0))
    if xa == 1:
        return _attach(w, b, a), np.int64(0), np.int64(0), True
    if xb == 1:
        return _attach(w, a, b), np.int64(0), np.int64(0), True
    w = _set(_set(w, a, np.uint64(0)), b, np.uint64(0))
    if xa == xb:
        if xa == 2:
            return w, np.int64(1), np.int64(0), True
        if open_mode != 0 and e > 0:
            return w, np.int64(0), np.int64(0), False
        return w, np.int64(0), np.int64(1), True
    u = _find(w, n, xb if xa == 2 else xa) if (xa == 2 or xb == 2) else _find(w, n, xb)
    if u < 0:
        return w, np.int64(0), np.int64(0), False
    return _set(w, u, np.uint64(2) if (xa == 2 or xb == 2) else xa), np.int64(0), \
        np.int64(0), True


@njit(inline="always")
def _relabel(rest: np.uint64, ren: np.uint64, nxt: np.uint64
             ) -> tuple[np.uint64, np.uint64, np.uint64]:
    """Renumbers the labels (nibbles of 3 or more) of ``rest`` through ``ren`` (nibble
    ``x``: the new label of ``x``, 0 for none yet), a new label ``nxt`` for each label met
    first: from ``ren`` 0 and ``nxt`` 3, the pieces numbered 3, 4, … in the order their ends
    appear (the canonical labels). Only the label nibbles are visited, without branches."""
    out = rest
    lab = ((rest >> np.uint64(3)) | (rest >> np.uint64(2))
           | ((rest >> np.uint64(1)) & rest)) & _ONES
    while lab != 0:
        sh = np.uint64(trailing_zeros(lab))
        x = (rest >> sh) & _F
        xs = x << np.uint64(2)
        y = (ren >> xs) & _F
        fresh = np.uint64(y == 0) * nxt
        ren |= fresh << xs
        nxt += np.uint64(fresh != 0)
        out ^= (x ^ (y | fresh)) << sh
        lab &= lab - np.uint64(1)
    return out, ren, nxt


@njit(inline="always")
def _mirror_canon(key: np.uint64, k: np.int64) -> np.uint64:
    """The smaller of a stored key taken at a column's end and its top-bottom mirror image
    (rows r and k - 1 - r swapped), pieces relabelled: one key for the pair. Positions 1..k
    hold the column before, k + 1..2k the column just read, both mirrored in place; the
    oldest cell (position 0) and the ends (bits 60-63) stay as they are. A state that
    cannot be finished may be dropped a few cells before or after its image: it adds nothing."""
    body = key & _BODY
    mir = body & _F
    for r in range(k):
        mir |= _get(body, 1 + r) << np.uint64(4 * (k - r))
        mir |= _get(body, k + 1 + r) << np.uint64(4 * (2 * k - r))
    other = _relabel(mir, np.uint64(0), np.uint64(3))[0] | (key & ~_BODY)
    return other if other < key else key


@njit
def _absorb(rows: np.ndarray, count: np.int64, ttab: np.ndarray, mods: np.ndarray,
            io: np.ndarray, limit: np.int64, most: np.int64) -> np.int64:
    """Adds ``rows[io[0]:count]`` (key 0: none) into ``ttab`` (``io[1]`` states), in batches
    whose slots are read before any is written. Returns the states held; -1 when the next
    batch might pass ``limit`` or a key finds neither itself nor a free slot in ``most``
    slots (``io``: the row to go on from and the states), -2 when no slot is free at all."""
    cap = ttab.shape[0]
    capu = np.uint64(cap)
    probes = min(cap, max(np.int64(1), most))
    m1 = ttab.shape[1]
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
            h = _hash(rows[j, 0])
            s = np.int64(((h >> np.uint64(32)) * capu) >> np.uint64(32))
            slot[j - i] = s
            seen ^= ttab[s, 0]
        slot[_BATCH] = np.int64(seen & np.uint64(1))
        for j in range(i, end):
            k = rows[j, 0]
            if k == 0:
                continue
            s = slot[j - i]
            for _ in range(probes):
                got = ttab[s, 0]
                if got == 0:
                    for c in range(m1):
                        ttab[s, c] = rows[j, c]
                    filled += 1
                    break
                if got == k:
                    for c in range(1, m1):
                        v = ttab[s, c] + rows[j, c]
                        if mods[c - 1] != 0 and v >= mods[c - 1]:
                            v -= mods[c - 1]
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
def word_absorb(rows: np.ndarray, count: int, ttab: np.ndarray, mods: np.ndarray,
                io: np.ndarray) -> int:
    """Adds the states ``rows[io[0]:count]`` into the table ``ttab`` (``io[1]``: the states
    it holds). Returns the states held; -1 when it might pass 4/5 full or a key would look
    at more than :data:`PROBE_MOST` slots (``io`` then says where to go on from once the
    caller has moved ``ttab`` into a bigger table, :func:`word_regrow`); -2 when the arrays
    do not fit each other."""
    cap = ttab.shape[0]
    if (rows.shape[1] != mods.shape[0] + 1 or ttab.shape[1] != rows.shape[1] or cap < 16
            or cap >= (1 << 32) or count < 0 or count > rows.shape[0] or io.shape[0] != 2
            or io[0] < 0 or io[1] < 0):
        return -2
    return _absorb(rows, np.int64(count), ttab, mods, io, np.int64((cap // 5) * 4),
                   np.int64(PROBE_MOST))


@njit
def word_regrow(tab: np.ndarray, ttab: np.ndarray, mods: np.ndarray) -> int:
    """Moves every state of ``tab`` into the empty, bigger ``ttab``; the states moved, -2
    when the arrays do not fit each other or ``ttab`` has too few slots."""
    cap = ttab.shape[0]
    if (tab.shape[1] != mods.shape[0] + 1 or ttab.shape[1] != tab.shape[1] or cap < 16
            or cap >= (1 << 32)):
        return -2
    io = np.zeros(2, np.int64)
    got = _absorb(tab, np.int64(tab.shape[0]), ttab, mods, io, np.int64(cap), np.int64(cap))
    return got if got >= 0 else -2


@njit
def word_expand(tab: np.ndarray, hi: int, mods: np.ndarray, cell: CellStep,
                out: Successors, io: np.ndarray) -> int:
    """Reads ``cell`` (:class:`CellStep`) for the states in slots ``io[0]`` to ``hi`` of
    ``tab``: each successor goes with its state's count into the buffer of its share of the
    hash (``out.buffers[p, out.filled[p]]``; when ``cell.carry``) and, when
    ``cell.finish``, the boards that end here are added into ``out.totals[0]`` (cycles)
    and ``out.totals[1]`` (undirected paths). Stops before a state whose successors might
    not fit its buffer (``io[0]``: where to go on from). ``carry`` 2 (a column's last
    cell): a state and its mirror image one key (:func:`_mirror_canon`), their counts
    summed by the caller. Returns the states read; -2 when the arrays do not fit each
    other."""
    nb, rem, endok = cell.earlier, cell.unread, cell.may_end
    open_mode, finish, carry = cell.open_mode, cell.finish, cell.carry
    buf, fill, total = out.buffers, out.filled, out.totals
    n = np.int64(cell.window)
    m = mods.shape[0]
    parts = buf.shape[0]
    room = buf.shape[1] - _MOST
    if (n < 1 or n > WORD_WINDOW or nb.shape[0] != 4 or rem.shape[0] != n + 1
            or endok.shape[0] != n + 1 or tab.shape[1] != m + 1 or buf.shape[2] != m + 1
            or parts < 1 or room < 1 or fill.shape[0] != parts or total.shape[0] != 2
            or total.shape[1] != m or io.shape[0] != 2 or io[0] < 0 or hi > tab.shape[0]):
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
    half = (n - 1) // 2           # the rows: the window is two columns and a cell
    partsu = np.uint64(parts)
    top = np.uint64(1) << np.uint64(63)
    # the cells a rem of 1 leaves one move short if they have none
    one = np.zeros(n + 1, np.int64)
    none = np.int64(0)
    # the cells that leave with this one: the oldest, and those with no unread neighbour
    ret = np.zeros(n + 1, np.int64)
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
    while s < hi:
        k = tab[s, 0]
        if k == 0:
            s += 1
            continue
        full = False
        for p in range(parts):
            if fill[p] > room:
                full = True
        if full:
            break
        read += 1
        cur = k & _BODY
        ends0 = np.int64((k >> np.uint64(60)) & np.uint64(3))
        na = 0
        for q in range(4):
            if nb[q] >= 0 and _get(cur, nb[q]) != 0:
                avail[na] = nb[q]
                na += 1
        base = _set(cur, n, np.uint64(1))
        for ia in range(-1, na):
            for ib in range(ia + 1, na + 1):
                if ia < 0 and ib < na:
                    continue
                w, pth, cyc, live = _join(base, n, avail[ia] if ia >= 0 else -1,
                                          avail[ib] if ib < na else -1, open_mode, ends0)
                if not live:
                    continue
                e = ends0
                for j in range(nret):
                    t = ret[j]
                    w, e, pth, live = _retire(w, n, t, open_mode, np.int64(endok[t]), e, pth)
                    if not live:
                        break
                if not live:
                    continue
                if finish != 0:
                    f, fe, fp, fl = w, e, pth, True
                    t = np.int64(1)
                    while fl and t <= n:
                        if rem[t] != 0:        # those without retired above already
                            f, fe, fp, fl = _retire(f, n, t, open_mode, np.int64(endok[t]),
                                                    fe, fp)
                        t += 1
                    if fl and fp + cyc == 1:
                        row = 0 if (cyc == 1 and fe == 0) else (1 if fp == 1 else -1)
                        if row >= 0:
                            for j in range(m):
                                v = total[row, j] + tab[s, j + 1]
                                if mods[j] != 0 and v >= mods[j]:
                                    v -= mods[j]
                                total[row, j] = v
                if carry == 0 or pth + cyc > 0:
                    continue
                short = np.int64(0)
                for j in range(none):
                    t = one[j]
                    if _get(w, t) == 1:
                        short += 1 if endok[t] != 0 else 4
                if short > 0 and (open_mode == 0 or short > 2 - e):
                    continue
                key = (_relabel(w >> np.uint64(4), np.uint64(0), np.uint64(3))[0]
                       | (np.uint64(e) << np.uint64(60)) | top)
                if carry == 2:
                    key = _mirror_canon(key, half)
                p = 0
                if parts > 1:
                    p = np.int64(((_hash(key) & _LOW32) * partsu) >> np.uint64(32))
                f0 = fill[p]
                buf[p, f0, 0] = key
                for j in range(m):
                    buf[p, f0, j + 1] = tab[s, j + 1]
                fill[p] = f0 + 1
        s += 1
    io[0] = s
    return read
