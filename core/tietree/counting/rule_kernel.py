"""The tie rule of the count by states, the one module to edit for another: the knight on
``q`` goes to the unvisited neighbours with the fewest onward exits (:func:`tied`), each in
turn, lowest square first (:func:`low`, :func:`without_low`, :func:`pop_into`), on the count's
two-word state (at most 128 squares, ``[..., 0]`` squares 0..63, ``[..., 1]`` 64..127) that
:mod:`knightgui_core.tietree.counting.count_kernel` and ``memo_kernel`` search.
"""
from __future__ import annotations

import numpy as np

from ...system.jit import inlined, njit, trailing_zeros

__all__ = ["forced", "low", "pop_into", "popcount2", "step", "tied", "without_low"]


@njit
def popcount2(a: np.uint64, b: np.uint64) -> int:
    """Set bits of two uint64 words."""
    n = 0
    while a:
        a &= a - np.uint64(1)
        n += 1
    while b:
        b &= b - np.uint64(1)
        n += 1
    return n


@njit
def tied(att: np.ndarray, q: int, f0: np.uint64, f1: np.uint64) -> tuple:
    """The unvisited neighbours of ``q`` with the fewest onward exits (board ``f0, f1``),
    as two words, and how many there are."""
    c0 = att[q, 0] & f0
    c1 = att[q, 1] & f1
    best = 99
    t0 = np.uint64(0)
    t1 = np.uint64(0)
    nt = 0
    one = np.uint64(1)
    w = 0
    while w < 2:
        cand = c0 if w == 0 else c1
        while cand:
            b = np.int64(trailing_zeros(cand))
            cand &= cand - one
            c = b + 64 * w
            sc = popcount2(att[c, 0] & f0, att[c, 1] & f1)
            if sc < best:
                best = sc
                t0 = np.uint64(0)
                t1 = np.uint64(0)
                nt = 0
            if sc == best:
                if w == 0:
                    t0 |= one << np.uint64(b)
                else:
                    t1 |= one << np.uint64(b)
                nt += 1
        w += 1
    return t0, t1, nt


@njit
def low(t0: np.uint64, t1: np.uint64) -> int:
    """The lowest square of a non-empty two-word set."""
    if t0:
        return np.int64(trailing_zeros(t0))
    return np.int64(64) + np.int64(trailing_zeros(t1))


@njit(inline="always")
def without_low(t0: np.uint64, t1: np.uint64) -> tuple:
    """A non-empty two-word set without its lowest square (:func:`low`)."""
    if t0:
        return t0 & (t0 - np.uint64(1)), t1
    return t0, t1 & (t1 - np.uint64(1))


@njit
def pop_into(pend: np.ndarray, k: int, t0: np.uint64, t1: np.uint64) -> int:
    """The lowest square of the non-empty set ``t0, t1``; the rest of the set goes to
    ``pend[k]`` (the options of number ``k`` still to try)."""
    c = low(t0, t1)
    r0, r1 = without_low(t0, t1)
    pend[k, 0] = r0
    pend[k, 1] = r1
    return c


@njit
def step(path: np.ndarray, free: np.ndarray, k: int, c: int) -> None:
    """Number ``k + 1`` on square ``c``."""
    f0 = free[k, 0]
    f1 = free[k, 1]
    if c < 64:
        f0 &= ~(np.uint64(1) << np.uint64(c))
    else:
        f1 &= ~(np.uint64(1) << np.uint64(c - 64))
    path[k + 1] = c
    free[k + 1, 0] = f0
    free[k + 1, 1] = f1


# copies numba writes into forced and the table's interleaved loop (system.jit.inlined), so
# their machine code does not depend on what the cache held when they were compiled
_tied = inlined(tied)
_low = inlined(low)
#: :func:`pop_into` and :func:`step` inlined (interleave_kernel's loop)
pop_into_inlined = inlined(pop_into)
step_inlined = inlined(step)


@njit(inline="always")
def _taken(f0: np.uint64, f1: np.uint64, c: np.uint64) -> tuple:
    """The two-word unvisited set ``f0, f1`` without square ``c`` (``step``'s update, on
    values instead of rows)."""
    if c < np.uint64(64):
        return f0 & ~(np.uint64(1) << c), f1
    return f0, f1 & ~(np.uint64(1) << (c - np.uint64(64)))


@njit(inline="always")
def forced(att: np.ndarray, path: np.ndarray, free: np.ndarray, ntied: np.ndarray, k: int,
           n: int) -> tuple:
    """The forced moves from number ``k`` to a leaf or a tie: the number where they stop, the
    squares tied there (two words) and how many (0: dead end); ``free`` gets only that row.
    Inlined where it is called, with the rule's helpers (``count_kernel._forced`` is its
    call)."""
    q = np.uint64(path[k])
    f0 = free[k, 0]
    f1 = free[k, 1]
    t0 = np.uint64(0)
    t1 = np.uint64(0)
    nt = np.int64(0)
    while k < n:
        t0, t1, nt = _tied(att, q, f0, f1)
        ntied[k] = nt
        if nt != 1:
            break
        q = np.uint64(_low(t0, t1))
        f0, f1 = _taken(f0, f1, q)
        k += 1
        path[k] = q
    free[k, 0] = f0
    free[k, 1] = f1
    return k, t0, t1, nt
