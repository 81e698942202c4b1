"""One cell of the frontier count: every state of the last cells turned into its successors.

The board is ``k`` rows high and is read column by column, each column top to bottom. When
cell ``i`` is read, its knight moves to cells read before it are decided (a move spans at
most two columns, so those cells are among the last ``W = 2k + 1``). A state describes the
window of the ``W`` cells before the new one, one 4-bit code a cell:

* ``0`` — nothing more can happen there: two moves chosen, retired, or no cell at all;
* ``1`` — no move chosen yet (degree 0);
* ``2`` — one move chosen, and the other end of its piece of path is an end of the whole
  path (open paths only);
* ``3, 4, …`` — one move chosen; the two ends of a piece of path carry the same number,
  numbered in the order they first occur in the window (the canonical form).

Slot ``s`` of the window sits in word ``s // 16`` at bit ``4 (s % 16)``; bits 60–61 of the
last word count the path ends already placed (0, 1, 2). A window of at most 15 cells (7 rows)
fits one word, and its tables keep one word a key.

A cell retires when its last later knight neighbour has been read (the caller says which,
``retire``): with degree 0 the state dies, with degree 1 the cell is an end of the path
(open paths: at most two) or the state dies (cycles). A piece that closes (a cycle, or a
path with both ends placed) ends the count: only the last cell of a board may do it, with
nothing else left open. A step may do both: add the finished boards to ``total`` (``finish``)
and keep the states for longer boards (``carry``).

Tables are open-addressing hash tables: keys ``uint64[C, 2]`` (or ``[C, 1]``), ``used`` ``uint8[C]`` and
counts ``uint64[C, m]``, one residue per modulus (``mods[j]``; 0 stands for 2^64, the
word's own wrap-around; every other modulus is below 2^63, so a sum of two residues fits).
"""
from __future__ import annotations

import numpy as np

from ..system.jit import njit

#: codes of the window's cells
DONE = 0
EMPTY = 1
TO_END = 2
FIRST_ID = 3
#: a fresh piece before the canonical renumbering
_FRESH = 16
#: the widest window the two words hold (16 + 12 slots; pieces numbered 3..15)
MAX_WINDOW = 28
#: the most successors one state has: no move, or one or two of at most four neighbours
_MOST_SUCCESSORS = 11
_ENDS_SHIFT = np.uint64(60)
_MASK4 = np.uint64(15)
_MUL0 = np.uint64(0x9E3779B97F4A7C15)
_MUL1 = np.uint64(0xC2B2AE3D27D4EB4F)


@njit
def _key_words_fit(keys: np.ndarray, tkeys: np.ndarray, n: int) -> bool:
    """Both tables hold keys of one word (a window of at most 15 cells, the ends counted in
    bits 60-61) or both of two."""
    nw = keys.shape[1]
    return tkeys.shape[1] == nw and (nw == 2 or (nw == 1 and n <= 15))


@njit
def _hash(k0: np.uint64, k1: np.uint64, mask: np.uint64) -> np.int64:
    h = k0 * _MUL0 ^ k1 * _MUL1
    h ^= h >> np.uint64(29)
    h *= _MUL0
    h ^= h >> np.uint64(32)
    return np.int64(h & mask)


@njit
def _other_end(w: np.ndarray, n: int, t: int, x: int) -> int:
    """The position other than ``t`` holding ``x`` among ``w[0..n]``, or -1."""
    for u in range(n + 1):
        if u != t and w[u] == x:
            return u
    return -1


@njit
def _retire(w: np.ndarray, n: int, t: int, open_mode: int, st: np.ndarray,
            endok: np.ndarray) -> bool:
    """Cell ``t`` leaves the window; False when the state dies. ``st``: ends placed, paths
    closed, cycles closed; ``endok[t]``: 0 when the cell may not be an end of the path."""
    x = w[t]
    w[t] = DONE
    if x == DONE:
        return True
    if x == EMPTY or open_mode == 0 or endok[t] == 0:
        return False
    if st[0] >= 2:
        return False
    st[0] += 1
    if x == TO_END:
        st[1] += 1
        return True
    u = _other_end(w, n, t, x)
    if u < 0:
        return False
    w[u] = TO_END
    return True


@njit
def _attach(w: np.ndarray, p: int, q: int) -> None:
    """A move from cell ``p`` to the cell ``q``, which has none yet: a fresh piece when
    ``p`` has none either, else ``p``'s piece grows to ``q`` and ``p`` is done."""
    if w[p] == EMPTY:
        w[p] = _FRESH
        w[q] = _FRESH
    else:
        w[q] = w[p]
        w[p] = DONE


@njit
def _join(w: np.ndarray, n: int, a: int, b: int, open_mode: int, st: np.ndarray) -> bool:
    """The new cell ``n`` takes its moves to ``a`` and ``b`` (-1: none); False when the
    state dies."""
    w[n] = EMPTY
    if a < 0:
        return True
    if b < 0:
        _attach(w, a, n)
        return True
    xa = w[a]
    xb = w[b]
    w[n] = DONE
    if xa == EMPTY:
        _attach(w, b, a)
        return True
    if xb == EMPTY:
        _attach(w, a, b)
        return True
    w[a] = DONE
    w[b] = DONE
    if xa == xb:
        if xa == TO_END:
            st[1] += 1                  # two pieces to the ends joined: a whole path
        elif open_mode != 0 and st[0] > 0:
            return False                # a cycle beside a path end
        else:
            st[2] += 1                  # a cycle
    elif xa == TO_END or xb == TO_END:
        u = _other_end(w, n, -1, xb if xa == TO_END else xa)
        if u < 0:
            return False
        w[u] = TO_END
    else:
        u = _other_end(w, n, -1, xb)
        if u < 0:
            return False
        w[u] = xa
    return True


@njit
def _insert(tkeys: np.ndarray, tused: np.ndarray, tcnt: np.ndarray, k0: np.uint64,
            k1: np.uint64, src: np.ndarray, mods: np.ndarray) -> int:
    """Adds ``src`` to the entry of key ``(k0, k1)``: 1 if the key is new, 0 if it was there,
    -1 if the table has no free slot."""
    cap = tkeys.shape[0]
    mask = np.uint64(cap - 1)
    h = _hash(k0, k1, mask)
    for _ in range(cap):
        if tused[h] == 0:
            tused[h] = 1
            tkeys[h, 0] = k0
            if tkeys.shape[1] == 2:
                tkeys[h, 1] = k1
            for j in range(src.shape[0]):
                tcnt[h, j] = src[j]
            return 1
        if tkeys[h, 0] == k0 and (tkeys.shape[1] == 1 or tkeys[h, 1] == k1):
            _add(tcnt[h], src, mods)
            return 0
        h = (h + 1) & (cap - 1)
    return -1


@njit
def _add(dst: np.ndarray, src: np.ndarray, mods: np.ndarray) -> None:
    for j in range(dst.shape[0]):
        v = dst[j] + src[j]
        if mods[j] != 0 and v >= mods[j]:
            v -= mods[j]
        dst[j] = v


@njit
def frontier_step(keys: np.ndarray, used: np.ndarray, cnt: np.ndarray, mods: np.ndarray,
                  nb: np.ndarray, rem: np.ndarray, endok: np.ndarray, window: int,
                  open_mode: int,
                  finish: int, carry: int, tkeys: np.ndarray, tused: np.ndarray,
                  tcnt: np.ndarray, total: np.ndarray, io: np.ndarray) -> int:
    """Reads one cell: every state of the table ``keys``/``used``/``cnt`` goes to its
    successors, added into the empty table ``tkeys``/``tused``/``tcnt`` (when ``carry``),
    and, when ``finish``, the boards that end with this cell into ``total[0]`` (cycles)
    and ``total[1]`` (undirected paths).

    ``nb``: int64[4], the window positions (0..``window``-1) of the new cell's knight
    neighbours read before it, -1 for none; ``rem``: uint8[``window`` + 1], how many knight
    neighbours of each position are still unread after this cell (position ``window`` is
    the new cell; 0 retires it, and position 0 always retires). A cell that cannot get the
    moves it lacks from its unread neighbours must be an end of the path: more such cells
    than ends left, or one that may not be an end (``endok``: uint8[``window`` + 1], 0 for
    a cell of the colour that cannot hold an end of a path on an odd board), and the state
    is dropped. ``io``: int64[2], the slot of ``keys`` to start at and the states already in
    the new table (0, 0 for a fresh step). Returns the number of states in the new table,
    -1 when the next state's successors might fill more than three quarters of its slots
    (then ``io`` holds the slot to go on from and the states so far: the caller moves the
    table into a bigger one, :func:`frontier_regrow`, and calls again), -2 when the arrays
    do not fit each other."""
    n = window
    m = mods.shape[0]
    nw = keys.shape[1]
    cap_in = keys.shape[0]
    cap = tkeys.shape[0]
    if (n < 1 or n > MAX_WINDOW or nb.shape[0] != 4 or rem.shape[0] != n + 1 or endok.shape[0] != n + 1
            or not _key_words_fit(keys, tkeys, n) or used.shape[0] != cap_in
            or cnt.shape[0] != cap_in or cnt.shape[1] != m or tused.shape[0] != cap
            or tcnt.shape[0] != cap or tcnt.shape[1] != m or cap < 1 or (cap & (cap - 1)) != 0
            or total.shape[0] != 2 or total.shape[1] != m or io.shape[0] != 2
            or io[0] < 0 or io[1] < 0):
        return -2
    for q in range(4):
        if nb[q] < -1 or nb[q] >= n:
            return -2
    limit = (cap // 4) * 3
    filled = io[1]
    cur = np.zeros(n + 1, np.int64)
    w = np.zeros(n + 1, np.int64)
    f = np.zeros(n + 1, np.int64)
    ren = np.zeros(_FRESH + 1, np.int64)
    st = np.zeros(3, np.int64)
    fst = np.zeros(3, np.int64)
    avail = np.zeros(4, np.int64)
    for s in range(io[0], cap_in):
        if used[s] == 0:
            continue
        if carry != 0 and filled + _MOST_SUCCESSORS > limit:
            io[0] = s
            io[1] = filled
            return -1
        k0 = keys[s, 0]
        k1 = keys[s, 1] if nw == 2 else np.uint64(0)
        ends0 = np.int64(((k1 if nw == 2 else k0) >> _ENDS_SHIFT) & np.uint64(3))
        for t in range(n):
            word = k0 if t < 16 else k1
            cur[t] = np.int64((word >> np.uint64(4 * (t % 16))) & _MASK4)
        cur[n] = 0
        na = 0
        for q in range(4):
            if nb[q] >= 0 and cur[nb[q]] != DONE:
                avail[na] = nb[q]
                na += 1
        # the moves taken: none, one, or two of the available ones (ib == na: no second)
        for ia in range(-1, na):
            for ib in range(ia + 1, na + 1):
                if ia < 0 and ib < na:
                    continue
                a = avail[ia] if ia >= 0 else -1
                b = avail[ib] if ib < na else -1
                for t in range(n + 1):
                    w[t] = cur[t]
                st[0] = ends0
                st[1] = 0
                st[2] = 0
                if not _join(w, n, a, b, open_mode, st):
                    continue
                ok = _retire(w, n, 0, open_mode, st, endok)
                t = 1
                while ok and t <= n:
                    if rem[t] == 0:
                        ok = _retire(w, n, t, open_mode, st, endok)
                    t += 1
                if not ok:
                    continue
                if finish != 0:
                    for t in range(n + 1):
                        f[t] = w[t]
                    fst[0] = st[0]
                    fst[1] = st[1]
                    fst[2] = st[2]
                    fok = True
                    t = 1
                    while fok and t <= n:
                        fok = _retire(f, n, t, open_mode, fst, endok)
                        t += 1
                    if fok and fst[1] + fst[2] == 1:
                        if fst[2] == 1 and fst[0] == 0:
                            _add(total[0], cnt[s], mods)
                        elif fst[1] == 1:
                            _add(total[1], cnt[s], mods)
                if carry == 0 or st[1] + st[2] > 0:
                    continue
                short = 0
                for t in range(1, n + 1):
                    x = w[t]
                    if x != DONE:
                        lack = (2 if x == EMPTY else 1) - np.int64(rem[t])
                        if lack > 0:
                            if lack > 1 or endok[t] == 0:
                                short = 3            # an end of degree 0, or a barred one
                            short += lack
                if short > 0 and (open_mode == 0 or short > 2 - st[0]):
                    continue
                for t in range(_FRESH + 1):
                    ren[t] = 0
                nxt = np.int64(FIRST_ID)
                n0 = np.uint64(0)
                n1 = np.uint64(st[0]) << _ENDS_SHIFT
                if nw == 1:
                    n0 = n1
                    n1 = np.uint64(0)
                for t in range(1, n + 1):
                    x = w[t]
                    if x >= FIRST_ID:
                        if ren[x] == 0:
                            ren[x] = nxt
                            nxt += 1
                        x = ren[x]
                    if x > 15:
                        return -2
                    slot = t - 1
                    if slot < 16:
                        n0 |= np.uint64(x) << np.uint64(4 * slot)
                    else:
                        n1 |= np.uint64(x) << np.uint64(4 * (slot - 16))
                got = _insert(tkeys, tused, tcnt, n0, n1, cnt[s], mods)
                if got < 0:
                    return -2                # cannot happen: the check above leaves room
                filled += got
    io[0] = cap_in
    io[1] = filled
    return filled


@njit
def frontier_regrow(keys: np.ndarray, used: np.ndarray, cnt: np.ndarray, tkeys: np.ndarray,
                    tused: np.ndarray, tcnt: np.ndarray, mods: np.ndarray) -> int:
    """Moves every entry of one table into the empty, bigger table ``tkeys``/``tused``/
    ``tcnt``; returns the number of entries, -2 when the arrays do not fit each other or
    the new table has too few slots."""
    cap_in = keys.shape[0]
    cap = tkeys.shape[0]
    m = mods.shape[0]
    if (not _key_words_fit(keys, tkeys, 15) or used.shape[0] != cap_in
            or cnt.shape[0] != cap_in or cnt.shape[1] != m or tused.shape[0] != cap
            or tcnt.shape[0] != cap or tcnt.shape[1] != m or cap < 1 or (cap & (cap - 1)) != 0):
        return -2
    moved = 0
    for s in range(cap_in):
        if used[s] != 0:
            k1 = keys[s, 1] if keys.shape[1] == 2 else np.uint64(0)
            if moved >= cap or _insert(tkeys, tused, tcnt, keys[s, 0], k1, cnt[s], mods) != 1:
                return -2
            moved += 1
    return moved
