"""The bitboard state of the enumeration, for boards of at most 64 squares: a layout of the
one search loop (:func:`knightgui_core.tietree.enumeration.enumerate_kernel.search`), five
small operations (:data:`BITS`) bound into its copies in place of the array state's.

Same rules, same state (``path``, ``mo``, ``ties``, ``st``), but instead of ``key`` the board
is ``bits`` uint64[L + 1, 2]: ``bits[k]`` = (unvisited squares, reserved ones included;
candidates = unvisited and not reserved) once number k is placed, held in the loop's two
registers. The outlets of a square c are ``popcount(att[c] & bits[k, 0])`` with ``att``
uint64[N] the knight attack masks; ``masks`` uint64[2] = (dashed approach cells, squares
where number L may stand). A backtrack to number kb just reads ``bits[kb]``: nothing is
undone square by square, which makes it about 2.5x faster than the array state on 8x8;
candidates are walked bit by bit (``trailing_zeros``) and ``tslot`` int8[N, N] gives each
one's slot in ``nl[q]``. Its tie rule is
:func:`knightgui_core.tietree.enumeration.search_rule_kernel.tied_slots_bits`.
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ...system.jit import njit, specialise
from .enumerate_kernel import NO_LIMIT, counts_of, got_and_event, no_visit, search, visit
from .search_rule_kernel import ones, tied_slots_bits

# The same codes and slots as knightgui_core.tietree.enumeration.enumerate_kernel, written out
# here on purpose: numba's on-disk cache of this file does not notice edits to another module,
# so constants imported from there could go stale. tests/core/test_enumerate.py checks that
# both agree.
SOLUTION, EXHAUSTED, BUDGET = 1, 2, 3
PH_RUNNING, PH_LEAF, PH_DONE = 0, 1, 2
ST_K, ST_PHASE, ST_SOLUTIONS, ST_DEAD_ENDS, ST_FORWARD = 0, 1, 2, 3, 4
ST_NTIE, ST_BRANCH, ST_SOL_BRANCH, ST_L, ST_SIZE = 5, 6, 7, 8, 9

#: A fresh state ``(bits, path, mo, ties, st)``.
Arrays5 = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


@njit
def popcount(x: np.uint64) -> int:
    """Set bits of a uint64, as a call (:func:`ones` written into the callers that count
    once a candidate)."""
    return ones(x)


def attack_masks(nbr: np.ndarray) -> np.ndarray:
    """uint64[N] knight attack masks of a board with at most 64 squares."""
    n = nbr.shape[0]
    if n > 64:
        raise ValueError("attack masks need a board of at most 64 squares")
    att = np.zeros(n, dtype=np.uint64)
    for s in range(n):
        for t in range(8):
            u = int(nbr[s, t])
            if u >= 0:
                att[s] |= np.uint64(1) << np.uint64(u)
    return att


def slot_table(nl: np.ndarray, ncount: np.ndarray) -> np.ndarray:
    """int8[N, N]: ``slot[q, c]`` = position of c in q's neighbour list ``nl[q]`` (ascending
    move type), so the kernel can walk candidate bits in any order."""
    n = nl.shape[0]
    slot = np.zeros((n, n), dtype=np.int8)
    for q in range(n):
        for i in range(int(ncount[q])):
            slot[q, nl[q, i]] = i
    return slot


def bit_mask(squares: Iterable[int]) -> np.uint64:
    """The uint64 with bit ``s`` set for each flat square ``s`` (all below 64)."""
    m = 0
    for s in squares:
        m |= 1 << int(s)
    return np.uint64(m)


def initial_bits(n: int, reserved: Iterable[int], start: int) -> np.ndarray:
    """uint64[2] = (unvisited, candidates) with ``start`` numbered 1."""
    full = (1 << n) - 1
    res = int(bit_mask(reserved))
    free = full & ~(1 << start)
    return np.array([free, free & ~res], dtype=np.uint64)


def new_bits_state(n: int, reserved: Iterable[int], start: int, L: int) -> Arrays5:
    """Fresh ``(bits, path, mo, ties, st)`` for :func:`advance_bits`."""
    return fresh_bits_state(initial_bits(n, reserved, start), start, L)


@njit
def fresh_bits_state(bits0: np.ndarray, start: int, L: int) -> Arrays5:
    """``(bits, path, mo, ties, st)`` with ``start`` numbered 1 and ``bits0`` (uint64[2], see
    :func:`initial_bits`) as the board: ``bits`` uint64[L + 1, 2], ``path`` int32[L + 1], ``mo``
    int8[L + 1, 8], ``ties`` int32[L + 1], ``st`` int64[ST_SIZE]."""
    bits = np.zeros((L + 1, 2), dtype=np.uint64)
    bits[1, 0] = bits0[0]
    bits[1, 1] = bits0[1]
    path = np.zeros(L + 1, dtype=np.int32)
    path[1] = start
    mo = np.zeros((L + 1, 8), dtype=np.int8)
    ties = np.zeros(L + 1, dtype=np.int32)
    st = np.zeros(ST_SIZE, dtype=np.int64)
    st[ST_K] = 1
    st[ST_L] = L
    return bits, path, mo, ties, st


# The bitboard as the search loop's layout
# (:func:`knightgui_core.tietree.enumeration.enumerate_kernel.search`): its five arrays
# ``x0..x4`` are (``tslot``, ``ncount``, ``att``, ``masks``, ``bits``), its two registers the
# unvisited squares and the candidates at the current number (``bits[k]``).

@njit(inline="always")
def held_bits(x0: np.ndarray, x1: np.ndarray, x2: np.ndarray, x3: np.ndarray, x4: np.ndarray,
              k: int) -> tuple[np.uint64, np.uint64]:
    """The registers at number ``k``: ``bits[k]``."""
    return x4[k, 0], x4[k, 1]


@njit(inline="always")
def ends_here_bits(x0: np.ndarray, x1: np.ndarray, x2: np.ndarray, x3: np.ndarray,
                   x4: np.ndarray, q: int) -> bool:
    """May number L stand on ``q`` (bit ``q`` of ``masks[1]``)?"""
    return (x3[1] >> np.uint64(q)) & np.uint64(1) != 0


@njit(inline="always")
def tie_mask_bits(nl: np.ndarray, x0: np.ndarray, x1: np.ndarray, x2: np.ndarray,
                  x3: np.ndarray, x4: np.ndarray, q: int, r0: np.uint64, r1: np.uint64) -> int:
    """The tied slots of the knight on ``q`` (:func:`tied_slots_bits`)."""
    return tied_slots_bits(x0, x2, q, r0, r1, x3[0])


@njit(inline="always")
def back_to_bits(x0: np.ndarray, x1: np.ndarray, x2: np.ndarray, x3: np.ndarray,
                 x4: np.ndarray, path: np.ndarray, k: int, kb: int, r0: np.uint64,
                 r1: np.uint64) -> tuple[np.uint64, np.uint64]:
    """Back to number ``kb``: the board as it was then, ``bits[kb]`` (nothing undone square
    by square)."""
    return x4[kb, 0], x4[kb, 1]


@njit(inline="always")
def step_to_bits(x0: np.ndarray, x1: np.ndarray, x2: np.ndarray, x3: np.ndarray,
                 x4: np.ndarray, c: int, k: int, r0: np.uint64,
                 r1: np.uint64) -> tuple[np.uint64, np.uint64]:
    """Square ``c`` taken as number ``k``: its bit cleared, the board kept as ``bits[k]``."""
    b = ~(np.uint64(1) << np.uint64(c))
    free = r0 & b
    avail = r1 & b
    x4[k, 0] = free
    x4[k, 1] = avail
    return free, avail


#: the bitboard's operations, bound by name into the search loop's copies
BITS = {"held": held_bits, "ends_here": ends_here_bits, "tie_mask": tie_mask_bits,
        "back_to": back_to_bits, "step_to": step_to_bits}

_advance_bits = specialise(search, "advance_bits", visit=no_visit, **BITS)


@njit
def advance_bits(tslot: np.ndarray, nbr: np.ndarray, nl: np.ndarray, ntype: np.ndarray,
                 ncount: np.ndarray, att: np.ndarray, masks: np.ndarray, bits: np.ndarray,
                 path: np.ndarray, mo: np.ndarray, ties: np.ndarray, st: np.ndarray,
                 max_steps: int, stop_on_solution: bool) -> int:
    """:func:`advance_kernel` for boards of at most 64 squares (bitboard state).

    ``tslot`` int8[N, N] (:func:`slot_table`), ``nbr``, ``nl`` int32[N, 8], ``ntype``
    int8[N, 8], ``ncount`` int32[N], ``att`` uint64[N] (:func:`attack_masks`), ``masks``
    uint64[2], ``bits`` uint64[L + 1, 2] (see the module docstring), ``path`` int32[L + 1],
    ``mo`` int8[L + 1, 8], ``ties`` int32[L + 1], ``st`` int64[ST_SIZE]. The search loop
    with the bitboard's operations (:data:`BITS`) bound."""
    r = _advance_bits(nbr, nl, ntype, tslot, ncount, att, masks, bits, path, mo, ties, st,
                      max_steps, 1 if stop_on_solution else NO_LIMIT, (), np.int64(0))
    return r % 4


@njit
def count_bits(tslot: np.ndarray, nbr: np.ndarray, nl: np.ndarray, ntype: np.ndarray,
               ncount: np.ndarray, att: np.ndarray, masks: np.ndarray, bits0: np.ndarray,
               start: int, L: int, max_steps: int) -> np.ndarray:
    """:func:`count_kernel` for boards of at most 64 squares. ``bits0`` = uint64[2] of
    :func:`initial_bits`. Returns int64[4] like ``count_kernel``. Tables as in
    :func:`advance_bits`."""
    bits, path, mo, ties, st = fresh_bits_state(bits0, start, L)
    ev = advance_bits(tslot, nbr, nl, ntype, ncount, att, masks, bits, path, mo, ties, st,
                      max_steps, False)
    return counts_of(st, ev)


_collect_bits = specialise(search, "collect_bits", visit=visit, **BITS)


@njit
def collect_bits(tslot: np.ndarray, nbr: np.ndarray, nl: np.ndarray, ntype: np.ndarray,
                 ncount: np.ndarray, att: np.ndarray, masks: np.ndarray, bits: np.ndarray,
                 path: np.ndarray, mo: np.ndarray, ties: np.ndarray, st: np.ndarray,
                 max_solutions: int, max_steps: int, out_path: np.ndarray, out_mo: np.ndarray,
                 out_branch: np.ndarray) -> np.ndarray:
    """:func:`knightgui_core.tietree.enumeration.enumerate_kernel.collect_kernel` for the bitboard state
    (the same loop with the bitboard's operations): tables and state as in :func:`advance_bits`,
    ``out_path`` int32[>=max_solutions, L + 1], ``out_mo`` int8[>=max_solutions, L + 1, 8],
    ``out_branch`` int64[>=max_solutions]. Returns int64[2] = (solutions copied, last
    event)."""
    return got_and_event(_collect_bits(nbr, nl, ntype, tslot, ncount, att, masks, bits, path,
                                       mo, ties, st, max_steps, max_solutions,
                                       (out_path, out_mo, out_branch), np.int64(0)))


@njit
def count_batch_bits(tslot: np.ndarray, nbr: np.ndarray, nl: np.ndarray, ntype: np.ndarray,
                     ncount: np.ndarray, att: np.ndarray, starts: np.ndarray, lens: np.ndarray,
                     dash_masks: np.ndarray, end_masks: np.ndarray, free0: np.ndarray,
                     avail0: np.ndarray, out: np.ndarray) -> None:
    """Count many algorithms on one board (at most 64 squares) to exhaustion, one after
    another, no Python objects. Per algorithm i: ``starts[i]``, ``lens[i]`` (= L),
    ``dash_masks[i]``, ``end_masks[i]`` (squares where number L may stand), ``free0[i]`` /
    ``avail0[i]`` (:func:`initial_bits`). Writes ``out[i] = (solutions,
    dead ends, forward moves, 1)``. Tables as in :func:`advance_bits`; ``starts``,
    ``lens`` int64[A]; ``dash_masks``, ``end_masks``, ``free0``, ``avail0`` uint64[A];
    ``out`` int64[A, 4]."""
    n = nbr.shape[0]
    path = np.zeros(n + 1, dtype=np.int32)
    mo = np.zeros((n + 1, 8), dtype=np.int8)
    ties = np.zeros(n + 1, dtype=np.int32)
    st = np.zeros(ST_SIZE, dtype=np.int64)
    bits = np.zeros((n + 1, 2), dtype=np.uint64)
    masks = np.zeros(2, dtype=np.uint64)
    for i in range(starts.shape[0]):
        for j in range(st.shape[0]):
            st[j] = 0
        mo[:, :] = 0
        path[1] = starts[i]
        st[ST_K] = 1
        st[ST_L] = lens[i]
        bits[1, 0] = free0[i]
        bits[1, 1] = avail0[i]
        masks[0] = dash_masks[i]
        masks[1] = end_masks[i]
        advance_bits(tslot, nbr, nl, ntype, ncount, att, masks, bits, path, mo, ties, st,
                     1 << 62, False)
        out[i, 0] = st[ST_SOLUTIONS]
        out[i, 1] = st[ST_DEAD_ENDS]
        out[i, 2] = st[ST_FORWARD]
        out[i, 3] = 1
