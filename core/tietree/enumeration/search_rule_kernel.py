"""The rule the tie-tree search follows, the one module to edit for another tie rule.

At each number the search asks its layout's tie rule which neighbours of the knight tie
(:func:`tied_slots` on the array state, :func:`tied_slots_bits` on the bitboard of at most 64
squares), follows the one of :func:`first_choice` and keeps the others (:func:`store_ties`)
as that number's row of Phadke's options matrix. The search loop
(:func:`knightgui_core.tietree.enumeration.enumerate_kernel.search`) and the options replay
(:mod:`knightgui_core.tietree.enumeration.options_kernel`) ask only these, written into them
(``inline="always"``), so they cannot choose differently.
"""
from __future__ import annotations

import numpy as np

from ...system.jit import leading_zeros, njit, trailing_zeros

#: added to the score of a visited or reserved square (array state)
BLOCKED = 1 << 20


@njit(inline="always")
def ones(x: np.uint64) -> int:
    """Set bits of a uint64 (LLVM turns this loop into one ``popcnt``), written into its
    caller."""
    n = 0
    while x:
        x &= x - np.uint64(1)
        n += 1
    return n


@njit(inline="always")
def tied_slots(nl: np.ndarray, ncount: np.ndarray, key: np.ndarray, q: int) -> int:
    """The tie rule of the array state, its one place: bit ``i`` set when slot ``i`` of
    ``nl[q]`` (the knight on ``q``) is an unvisited square of the lowest score ``key``; 0
    when every neighbour is taken. The search takes the slot of :func:`first_choice` and
    keeps the others as the options of this number (:func:`store_ties`)."""
    best = BLOCKED - 1   # above any real score, below any blocked square
    mask = 0
    for i in range(ncount[q]):
        sc = key[nl[q, i]]
        lt = 1 if sc < best else 0
        le = 1 if sc <= best else 0
        mask = (mask * (1 - lt)) | (le << i)
        best = min(best, sc)
    return mask


@njit(inline="always")
def first_choice(mask: int) -> int:
    """The tied slot the search follows first, of the ``mask`` of :func:`tied_slots` or
    :func:`tied_slots_bits` (not 0): the highest, Phadke's highest move type. Both layouts
    and the options replay choose here."""
    return 63 - np.int64(leading_zeros(np.uint64(mask)))


@njit(inline="always")
def store_ties(mo: np.ndarray, k: int, mask: int, chosen: int, ntype: np.ndarray,
               q: int) -> int:
    """The options of number ``k`` (the knight on ``q``): the move types of the tied slots
    of ``mask`` below the slot ``chosen``, ascending, into ``mo[k, 1..]``; returns how many
    (a backtrack takes the last one next)."""
    one = np.uint64(1)
    rest = np.uint64(mask) & ((one << np.uint64(chosen)) - one)
    n = 0
    while rest:                      # no pass at all when nothing ties
        i = np.int64(trailing_zeros(rest))
        rest &= rest - one
        n += 1
        mo[k, n] = ntype[q, i]
    return n


@njit(inline="always")
def tied_slots_bits(tslot: np.ndarray, att: np.ndarray, q: int, free: np.uint64,
                    avail: np.uint64, dash: np.uint64) -> int:
    """The tie rule of the bitboard state, its one place: bit ``i`` set when slot ``i`` of
    ``nl[q]`` (the knight on ``q``) is a candidate (``avail``) of the lowest score, its
    unvisited neighbours (``free``) or 1 on a dashed approach cell (``dash``); 0 when there
    is no candidate. The search takes the slot of :func:`first_choice` and keeps the others
    as the options of this number (:func:`store_ties`)."""
    one = np.uint64(1)
    best = 99
    mask = 0
    cand = att[q] & avail
    while cand:
        c = np.int64(trailing_zeros(cand))
        cand &= cand - one
        i = tslot[q, c]
        sc = ones(att[c] & free)
        if dash != 0 and (dash >> np.uint64(c)) & one:
            sc = 1
        lt = 1 if sc < best else 0
        le = 1 if sc <= best else 0
        mask = (mask * (1 - lt)) | (le << i)
        best = min(best, sc)
    return mask
