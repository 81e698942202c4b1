"""Every finish of a path played by hand: the exact search behind
:func:`knightgui_core.walks.hand.completions.completions` (any board and piece, over the
neighbour table ``nbr`` int32[N, 8] of :attr:`knightgui_core.board.squares.Board.neighbours`).

The knight stands on the path's last square v; the *free* squares F are the unvisited ones.
A finish is a path from v through every square of F. Necessary conditions, checked at every
node (:func:`_viable`), each cutting only branches that hold no finish, so the counts stay
exact:

* v has a free neighbour, and F is connected (a flood over F);
* a free square with no free neighbour can only be the next square and the last, so F holds
  no other square;
* a free square f with ``free neighbours + (1 if f is next to v)`` ≤ 1 can only be the last
  square: at most one such square;
* on a two-coloured graph (``colour``, every move changes colour) the finish alternates
  colours from v, so F holds ⌈|F|/2⌉ squares of the other colour than v's, and a forced last
  square has the colour the last square must have.

Candidates are tried in Warnsdorff's order (fewest onward free neighbours first), so the
first finish comes early. When at most 64 squares are free at the start (any board: a free
square's bit is its rank among them, :attr:`FreeSquares.bit`), the states (v, F) are kept
in a transposition table (:class:`Positions`; linear probing, a square of -1 marks an empty
slot; inserts stop at three quarters full) with their two counts: finishes, and finishes
that end a move from the path's first square.

The search is resumable (:func:`completions_begin`, then :func:`completions_run` for at most
``max_nodes`` forward moves at a time); its state is three records the wrapper builds once
(:class:`FreeSquares`, :class:`Branches`, :class:`Positions`) and the counters ``st``.
numba only; the wrapper checks the path and sizes every array.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...board.validate_kernel import _is_move
from ...system.jit import njit

#: fields of the state ``st`` (int64[CS_FIELDS])
(CS_DEPTH, CS_ROOT, CS_NODES, CS_DONE, CS_FOUND, CS_OVERFLOW, CS_STAMP, CS_NFREE, CS_COL0,
 CS_COL1, CS_TWO_COLOURS, CS_MEMO, CS_STORED, CS_HITS, CS_COUNT, CS_OPEN, CS_CLOSED,
 CS_EXLEN) = range(18)
CS_FIELDS = 18
#: states with fewer free squares than this are not kept in the table (cheaper to search)
MEMO_MIN = 3
_MAXI = np.int64(0x7FFFFFFFFFFFFFFF)


class FreeSquares(NamedTuple):
    """The squares of a board of ``N`` not on the path: ``free`` uint8[N] (1 free),
    ``onward`` int32[N] the free neighbours of each square, ``listed`` int32[N] every square,
    the free ones first (``st[CS_NFREE]`` of them), ``position`` int32[N] each square's index
    in ``listed``, ``bit`` int32[N] a free square's bit in the table's key (its rank among
    the squares free at the start) and ``key`` uint64[1] the bits of the free squares, kept
    while the table is used."""

    free: np.ndarray
    onward: np.ndarray
    listed: np.ndarray
    position: np.ndarray
    bit: np.ndarray
    key: np.ndarray


class Branches(NamedTuple):
    """The depth-first search's stacks, one level a square of the path: ``path`` int32[N]
    the squares by depth, ``candidates`` int32[N, 8] each level's free neighbours in
    Warnsdorff's order, ``frame`` int64[N, 4] each level's candidates, next candidate,
    finishes and closed finishes; the flood of :func:`_viable` marks ``seen`` and ``near``
    int64[N] with a stamp and keeps its squares in ``stack`` int32[N]."""

    path: np.ndarray
    candidates: np.ndarray
    frame: np.ndarray
    seen: np.ndarray
    near: np.ndarray
    stack: np.ndarray


class Positions(NamedTuple):
    """The table of positions already counted, ``2^j`` slots: ``key`` uint64 the free
    squares' bits, ``square`` int32 the knight's square (-1: an empty slot), ``counts``
    int64[2^j, 2] the position's finishes and closed finishes."""

    key: np.ndarray
    square: np.ndarray
    counts: np.ndarray


@njit
def _take(u: int, nbr: np.ndarray, colour: np.ndarray, free: np.ndarray, outlets: np.ndarray,
          flist: np.ndarray, fpos: np.ndarray, lidx: np.ndarray, bits: np.ndarray,
          st: np.ndarray) -> None:
    """Visit ``u``: its neighbours lose an outlet, it leaves the free list (swapped to the
    end, so :func:`_give` in reverse order only has to lengthen the list again)."""
    free[u] = 0
    for t in range(8):
        w = nbr[u, t]
        if w >= 0:
            outlets[w] -= 1
    m = st[CS_NFREE]
    i = fpos[u]
    last = flist[m - 1]
    flist[i] = last
    fpos[last] = i
    flist[m - 1] = u
    fpos[u] = m - 1
    st[CS_NFREE] = m - 1
    st[CS_COL0 + (colour[u] & 1)] -= 1
    if st[CS_MEMO]:
        bits[0] &= ~(np.uint64(1) << np.uint64(lidx[u]))


@njit
def _give(u: int, nbr: np.ndarray, colour: np.ndarray, free: np.ndarray, outlets: np.ndarray,
          lidx: np.ndarray, bits: np.ndarray, st: np.ndarray) -> None:
    """Undo :func:`_take` of ``u`` (the last square taken and not given back)."""
    free[u] = 1
    for t in range(8):
        w = nbr[u, t]
        if w >= 0:
            outlets[w] += 1
    st[CS_NFREE] += 1
    st[CS_COL0 + (colour[u] & 1)] += 1
    if st[CS_MEMO]:
        bits[0] |= np.uint64(1) << np.uint64(lidx[u])


@njit
def _viable(v: int, nbr: np.ndarray, colour: np.ndarray, free: np.ndarray,
            outlets: np.ndarray, flist: np.ndarray, seen: np.ndarray, near: np.ndarray,
            stack: np.ndarray, st: np.ndarray) -> bool:
    """Whether the position (the knight on ``v``, the free squares of ``flist``) passes the
    necessary conditions of the module docstring."""
    nf = st[CS_NFREE]
    if nf == 0:
        return True
    if outlets[v] == 0:
        return False
    two = st[CS_TWO_COLOURS] != 0
    cv = colour[v] & 1
    if two and st[CS_COL0 + 1 - cv] != (nf + 1) // 2:
        return False
    stamp = st[CS_STAMP] + 1
    st[CS_STAMP] = stamp
    for t in range(8):
        u = nbr[v, t]
        if u >= 0 and free[u]:
            near[u] = stamp
    ends = 0
    end_sq = -1
    s0 = flist[0]
    seen[s0] = stamp
    stack[0] = s0
    top = 1
    reached = 0
    while top > 0:
        top -= 1
        f = stack[top]
        reached += 1
        d = outlets[f]
        if d == 0 and nf > 1:
            return False
        a = 1 if near[f] == stamp else 0
        if d + a <= 1:
            ends += 1
            if ends > 1:
                return False
            end_sq = f
        for t in range(8):
            u = nbr[f, t]
            if u >= 0 and free[u] and seen[u] != stamp:
                seen[u] = stamp
                stack[top] = u
                top += 1
    if reached < nf:
        return False
    if two and ends == 1:
        last_colour = 1 - cv if nf % 2 == 1 else cv
        if colour[end_sq] != last_colour:
            return False
    return True


@njit
def _order(u: int, nbr: np.ndarray, free: np.ndarray, outlets: np.ndarray,
           out: np.ndarray) -> int:
    """The free neighbours of ``u`` into ``out`` (int32[8]), fewest outlets first (ties in
    move-type order); returns their number."""
    n = 0
    for t in range(8):
        w = nbr[u, t]
        if w < 0 or free[w] == 0:
            continue
        j = n
        while j > 0 and outlets[out[j - 1]] > outlets[w]:
            out[j] = out[j - 1]
            j -= 1
        out[j] = w
        n += 1
    return n


@njit
def _slot(key: np.uint64, sq: int, mask: np.uint64) -> int:
    """The home slot of the state (free squares ``key``, knight on ``sq``)."""
    h = key ^ (np.uint64(sq + 1) * np.uint64(0x9E3779B97F4A7C15))
    h ^= h >> np.uint64(31)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(29)
    return np.int64(h & mask)


@njit
def _find(key: np.uint64, sq: int, tkey: np.ndarray, tsq: np.ndarray) -> int:
    """The slot holding the state, or the empty slot where it would go (``-1 - slot``)."""
    mask = np.uint64(tsq.shape[0] - 1)
    i = _slot(key, sq, mask)
    while True:
        if tsq[i] < 0:
            return -1 - i
        if tsq[i] == sq and tkey[i] == key:
            return i
        i = (i + 1) & np.int64(mask)


@njit
def _store(key: np.uint64, sq: int, o: int, c: int, tkey: np.ndarray, tsq: np.ndarray,
           tval: np.ndarray, st: np.ndarray) -> None:
    """Keep the state's counts while the table is less than three quarters full."""
    if (st[CS_STORED] + 1) * 4 > tsq.shape[0] * 3:     # always leave an empty slot
        return
    j = _find(key, sq, tkey, tsq)
    if j >= 0:
        return
    j = -1 - j
    tkey[j] = key
    tsq[j] = sq
    tval[j, 0] = o
    tval[j, 1] = c
    st[CS_STORED] += 1


@njit
def _add(frame: np.ndarray, depth: int, o: int, c: int, st: np.ndarray) -> bool:
    """Add a finished subtree's ``o`` finishes (``c`` of them closed) to the counts of level
    ``depth``; False, with the run marked done by overflow, when ``o`` would not fit."""
    if o > _MAXI - frame[depth, 2]:
        st[CS_OVERFLOW] = 1
        st[CS_DONE] = 1
        return False
    frame[depth, 2] += o
    frame[depth, 3] += c
    return True


@njit
def completions_begin(nbr: np.ndarray, colour: np.ndarray, prefix: np.ndarray,
                      two_colours: bool, memo: bool, count: bool, squares: FreeSquares,
                      branches: Branches, table: Positions, st: np.ndarray) -> None:
    """Fill the search's state for the path ``prefix`` (int32[k], 1 ≤ k ≤ N, distinct
    squares each a move from the one before). ``colour`` int8[N] 0/1
    (:func:`knightgui_core.walks.flood_kernel.two_colouring`, read only when
    ``two_colours``); ``memo``: keep positions in ``table`` when at most 64 squares are free
    (its squares are cleared to -1); ``count``: count every finish (else stop at the
    first); ``st`` int64[CS_FIELDS]. A position already full or failing the conditions is
    done at once."""
    free, outlets, flist, fpos, lidx, bits = squares
    path, cand, frame, seen, near, stack = branches
    tsq = table.square
    n = nbr.shape[0]
    st[:] = 0
    st[CS_TWO_COLOURS] = 1 if two_colours else 0
    st[CS_COUNT] = 1 if count else 0
    tsq[:] = -1
    bits[0] = np.uint64(0)
    for s in range(n):
        free[s] = 1
        flist[s] = s
        fpos[s] = s
        seen[s] = 0
        near[s] = 0
        n_out = 0
        for t in range(8):
            if nbr[s, t] >= 0:
                n_out += 1
        outlets[s] = n_out
        st[CS_COL0 + (colour[s] & 1)] += 1
    st[CS_NFREE] = n
    k = prefix.shape[0]
    for i in range(k):
        _take(prefix[i], nbr, colour, free, outlets, flist, fpos, lidx, bits, st)
        path[i] = prefix[i]
    nf = st[CS_NFREE]
    if memo and nf <= 64:           # a free square's bit in the key: its rank among the free
        st[CS_MEMO] = 1
        for i in range(nf):
            lidx[flist[i]] = i
            bits[0] |= np.uint64(1) << np.uint64(i)
    root = k - 1
    st[CS_ROOT] = root
    st[CS_DEPTH] = root
    last = prefix[root]
    if st[CS_NFREE] == 0:
        st[CS_DONE] = 1
        st[CS_FOUND] = 1
        st[CS_OPEN] = 1
        st[CS_CLOSED] = 1 if _is_move(nbr, last, prefix[0]) else 0
        return
    if not _viable(last, nbr, colour, free, outlets, flist, seen, near, stack, st):
        st[CS_DONE] = 1
        return
    frame[root, 0] = _order(last, nbr, free, outlets, cand[root])
    frame[root, 1:] = 0


@njit
def completions_run(nbr: np.ndarray, colour: np.ndarray, max_nodes: int, squares: FreeSquares,
                    branches: Branches, table: Positions, example: np.ndarray,
                    st: np.ndarray) -> None:
    """Go on with the search of :func:`completions_begin` for at most ``max_nodes`` forward
    moves. ``st[CS_DONE]`` 1 when it is over: counted (``CS_OPEN``, ``CS_CLOSED``), the
    first finish found when not counting, or a count past 2^63 (``CS_OVERFLOW``). The first
    finish found goes to ``example`` (int32[N], ``CS_EXLEN`` squares, ``CS_FOUND`` 1)."""
    free, outlets, flist, fpos, lidx, bits = squares
    path, cand, frame, seen, near, stack = branches
    tkey, tsq, tval = table
    if st[CS_DONE]:
        return
    first = path[0]
    root = st[CS_ROOT]
    depth = st[CS_DEPTH]
    memo = st[CS_MEMO] != 0
    nodes = st[CS_NODES]
    limit = nodes + max_nodes
    while nodes < limit:
        i = frame[depth, 1]
        if i < frame[depth, 0]:
            frame[depth, 1] = i + 1
            u = cand[depth, i]
            nodes += 1
            _take(u, nbr, colour, free, outlets, flist, fpos, lidx, bits, st)
            path[depth + 1] = u
            nf = st[CS_NFREE]
            o = np.int64(0)
            c = np.int64(0)
            known = False
            if nf == 0:
                o = np.int64(1)
                c = np.int64(1) if _is_move(nbr, u, first) else np.int64(0)
                known = True
                if st[CS_FOUND] == 0:
                    st[CS_FOUND] = 1
                    st[CS_EXLEN] = depth + 1 - root
                    for j in range(root + 1, depth + 2):
                        example[j - root - 1] = path[j]
                    if st[CS_COUNT] == 0:
                        _give(u, nbr, colour, free, outlets, lidx, bits, st)
                        st[CS_DONE] = 1
                        break
            elif memo and nf >= MEMO_MIN:
                j = _find(bits[0], u, tkey, tsq)
                if j >= 0:
                    o = tval[j, 0]
                    c = tval[j, 1]
                    known = True
                    st[CS_HITS] += 1
            if not known and not _viable(u, nbr, colour, free, outlets, flist, seen, near,
                                         stack, st):
                if memo and nf >= MEMO_MIN:
                    _store(bits[0], u, 0, 0, tkey, tsq, tval, st)
                known = True
            if known:
                _give(u, nbr, colour, free, outlets, lidx, bits, st)
                if not _add(frame, depth, o, c, st):
                    break
                continue
            depth += 1
            frame[depth, 0] = _order(u, nbr, free, outlets, cand[depth])
            frame[depth, 1] = 0
            frame[depth, 2] = 0
            frame[depth, 3] = 0
        else:
            if depth == root:
                st[CS_DONE] = 1
                st[CS_OPEN] = frame[root, 2]
                st[CS_CLOSED] = frame[root, 3]
                break
            v = path[depth]
            o = frame[depth, 2]
            c = frame[depth, 3]
            if memo and st[CS_NFREE] >= MEMO_MIN:
                _store(bits[0], v, o, c, tkey, tsq, tval, st)
            _give(v, nbr, colour, free, outlets, lidx, bits, st)
            depth -= 1
            if not _add(frame, depth, o, c, st):
                break
    st[CS_DEPTH] = depth
    st[CS_NODES] = nodes
