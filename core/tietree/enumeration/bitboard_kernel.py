"""The bitboard state of the enumeration, for boards of at most 64 squares: a layout of the
one search loop (:func:`knightgui_core.tietree.enumeration.enumerate_kernel.search`), five
small operations (:data:`BITS`) bound into its copies in place of the array state's.

The records :class:`BitTables` (read, never written) and :class:`BitState` (written in place)
hold ``path``, ``options``, ``ties`` and ``scalars`` as in
:mod:`knightgui_core.tietree.enumeration.enumerate_kernel`; instead of the scores the board is
``board_at`` uint64[L + 1, 2]: (unvisited squares, reserved ones included; candidates =
unvisited and not reserved) once number k is placed, held in the loop's two registers. A
square's outlets are ``popcount(attacks[c] & unvisited)``, and a backtrack to number kb just
reads ``board_at[kb]``, nothing undone square by square (bench/enumerate.py: 6× the array
state's solutions a second on a8→c7). The tie rule is
:func:`knightgui_core.tietree.enumeration.search_rule_kernel.tied_slots_bits`.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

import numpy as np

from ...system.jit import njit, specialise
from .enumerate_kernel import NO_LIMIT, Collected, counts_of, got_and_event, no_visit, search, visit
from .search_rule_kernel import ones, tied_slots_bits

# enumerate_kernel's codes and slots, written out: numba's cache of this file does not notice
# edits to another module (tests/core/test_enumerate.py checks that both agree)
SOLUTION, EXHAUSTED, BUDGET = 1, 2, 3
PH_RUNNING, PH_LEAF, PH_DONE = 0, 1, 2
ST_K, ST_PHASE, ST_SOLUTIONS, ST_DEAD_ENDS, ST_FORWARD = 0, 1, 2, 3, 4
ST_NTIE, ST_BRANCH, ST_SOL_BRANCH, ST_L, ST_SIZE = 5, 6, 7, 8, 9


class BitTables(NamedTuple):
    """What the bitboard search reads and never writes: ``neighbours``, ``onward``,
    ``move_type`` as in :class:`knightgui_core.tietree.enumeration.enumerate_kernel.Tables`
    (the candidates are walked as bits, so no count), ``slot`` int8[N, N]
    (:func:`slot_table`), ``attacks`` uint64[N] (:func:`attack_masks`), and the squares of
    ``dashed`` approach cells and of the ``ends`` where number L may stand (np.uint64 bit
    sets, never Python ints: a kernel has one signature)."""

    neighbours: np.ndarray
    onward: np.ndarray
    move_type: np.ndarray
    slot: np.ndarray
    attacks: np.ndarray
    dashed: np.uint64
    ends: np.uint64


class BitState(NamedTuple):
    """What the bitboard search writes, in place: ``board_at`` uint64[L + 1, 2] (the module
    docstring), ``path`` int32[L + 1], ``options`` int8[L + 1, 8], ``ties`` int32[L + 1],
    ``scalars`` int64[ST_SIZE] (as in
    :class:`knightgui_core.tietree.enumeration.enumerate_kernel.State`)."""

    board_at: np.ndarray
    path: np.ndarray
    options: np.ndarray
    ties: np.ndarray
    scalars: np.ndarray


class Algorithms(NamedTuple):
    """Many algorithms on one board, for :func:`count_batch_bits`; per algorithm i:
    ``starts[i]``, ``lengths[i]`` (= L, the numbers it places), ``dashed[i]``, ``ends[i]``
    (as in :class:`BitTables`), ``unvisited[i]`` / ``candidates[i]`` (the board with the
    start numbered, :func:`initial_bits`). ``starts``, ``lengths`` int64[A], the rest
    uint64[A]."""

    starts: np.ndarray
    lengths: np.ndarray
    dashed: np.ndarray
    ends: np.ndarray
    unvisited: np.ndarray
    candidates: np.ndarray


#: A fresh state ``(board_at, path, options, ties, scalars)``.
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


def bit_tables(nbr: np.ndarray, nl: np.ndarray, ntype: np.ndarray, ncount: np.ndarray,
               dashed: Iterable[int], ends: Iterable[int]) -> BitTables:
    """The :class:`BitTables` of a board of at most 64 squares: its neighbour table ``nbr``
    and lists (``nl``, ``ntype``, ``ncount`` of
    :func:`knightgui_core.tietree.enumeration.enumerate_kernel.tables`), the flat squares of
    its dashed approach cells and those where number L may stand."""
    return BitTables(nbr, nl, ntype, slot_table(nl, ncount), attack_masks(nbr),
                     bit_mask(dashed), bit_mask(ends))


def initial_bits(n: int, reserved: Iterable[int], start: int) -> np.ndarray:
    """uint64[2] = (unvisited, candidates) with ``start`` numbered 1."""
    full = (1 << n) - 1
    res = int(bit_mask(reserved))
    free = full & ~(1 << start)
    return np.array([free, free & ~res], dtype=np.uint64)


def new_bits_state(n: int, reserved: Iterable[int], start: int, L: int) -> BitState:
    """A fresh :class:`BitState` for :func:`advance_bits`."""
    return BitState(*fresh_bits_state(initial_bits(n, reserved, start), start, L))


@njit
def fresh_bits_state(bits0: np.ndarray, start: int, L: int) -> Arrays5:
    """The fields of a :class:`BitState` ``(board_at, path, options, ties, scalars)`` with
    ``start`` numbered 1 and ``bits0`` (uint64[2], see :func:`initial_bits`) as the board."""
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
# (:func:`knightgui_core.tietree.enumeration.enumerate_kernel.search`): its operations read
# ``slot``, ``attacks``, ``dashed``, ``ends`` of the tables and ``board_at`` of the state,
# and hold the unvisited squares and the candidates at the current number
# (``board_at[k]``) in the loop's two registers.

@njit(inline="always")
def held_bits(tables: BitTables, state: BitState, k: int) -> tuple[np.uint64, np.uint64]:
    """The registers at number ``k``: ``board_at[k]``."""
    return state.board_at[k, 0], state.board_at[k, 1]


@njit(inline="always")
def ends_here_bits(tables: BitTables, state: BitState, q: int) -> bool:
    """May number L stand on ``q`` (bit ``q`` of ``ends``)?"""
    return (tables.ends >> np.uint64(q)) & np.uint64(1) != 0


@njit(inline="always")
def tie_mask_bits(tables: BitTables, state: BitState, q: int, unvisited: np.uint64,
                  candidates: np.uint64) -> int:
    """The tied slots of the knight on ``q`` (:func:`tied_slots_bits`)."""
    return tied_slots_bits(tables.slot, tables.attacks, q, unvisited, candidates,
                           tables.dashed)


@njit(inline="always")
def back_to_bits(tables: BitTables, state: BitState, k: int, kb: int, unvisited: np.uint64,
                 candidates: np.uint64) -> tuple[np.uint64, np.uint64]:
    """Back to number ``kb``: the board as it was then, ``board_at[kb]`` (nothing undone
    square by square)."""
    return state.board_at[kb, 0], state.board_at[kb, 1]


@njit(inline="always")
def step_to_bits(tables: BitTables, state: BitState, c: int, k: int, unvisited: np.uint64,
                 candidates: np.uint64) -> tuple[np.uint64, np.uint64]:
    """Square ``c`` taken as number ``k``: its bit cleared, the board kept as
    ``board_at[k]``."""
    b = ~(np.uint64(1) << np.uint64(c))
    free = unvisited & b
    avail = candidates & b
    state.board_at[k, 0] = free
    state.board_at[k, 1] = avail
    return free, avail


#: the bitboard's operations, bound by name into the search loop's copies
BITS = {"held": held_bits, "ends_here": ends_here_bits, "tie_mask": tie_mask_bits,
        "back_to": back_to_bits, "step_to": step_to_bits}

_advance_bits = specialise(search, "advance_bits", visit=no_visit, **BITS)


@njit
def advance_bits(tables: BitTables, state: BitState, max_steps: int,
                 stop_on_solution: bool) -> int:
    """:func:`knightgui_core.tietree.enumeration.enumerate_kernel.advance_kernel` on the
    bitboard state (the search loop with :data:`BITS` bound)."""
    r = _advance_bits(tables, state, max_steps, 1 if stop_on_solution else NO_LIMIT, (),
                      np.int64(0))
    return r % 4


@njit
def count_bits(tables: BitTables, bits0: np.ndarray, start: int, L: int,
               max_steps: int) -> np.ndarray:
    """:func:`knightgui_core.tietree.enumeration.enumerate_kernel.count_kernel` on the
    bitboard state, ``bits0`` of :func:`initial_bits`; the same return."""
    bits, path, mo, ties, st = fresh_bits_state(bits0, start, L)
    ev = advance_bits(tables, BitState(bits, path, mo, ties, st), max_steps, False)
    return counts_of(st, ev)


_collect_bits = specialise(search, "collect_bits", refcounts=False, visit=visit, **BITS)


@njit
def collect_bits(tables: BitTables, state: BitState, max_solutions: int, max_steps: int,
                 out_path: np.ndarray, out_mo: np.ndarray, out_branch: np.ndarray) -> np.ndarray:
    """:func:`knightgui_core.tietree.enumeration.enumerate_kernel.collect_kernel` on the
    bitboard state: the same arguments and return."""
    return got_and_event(_collect_bits(tables, state, max_steps, max_solutions,
                                       Collected(out_path, out_mo, out_branch), np.int64(0)))


@njit
def count_batch_bits(tables: BitTables, algorithms: Algorithms, out: np.ndarray) -> None:
    """Count many algorithms on one board (at most 64 squares) to exhaustion, one after
    another, no Python objects: ``out[i] = (solutions, dead ends, forward moves, 1)``
    (int64[A, 4]) for algorithm i of ``algorithms``, on the board of ``tables`` with that
    algorithm's ``dashed`` and ``ends`` in place of the tables' own."""
    n = tables.neighbours.shape[0]
    path = np.zeros(n + 1, dtype=np.int32)
    mo = np.zeros((n + 1, 8), dtype=np.int8)
    ties = np.zeros(n + 1, dtype=np.int32)
    st = np.zeros(ST_SIZE, dtype=np.int64)
    bits = np.zeros((n + 1, 2), dtype=np.uint64)
    state = BitState(bits, path, mo, ties, st)
    for i in range(algorithms.starts.shape[0]):
        for j in range(st.shape[0]):
            st[j] = 0
        mo[:, :] = 0
        path[1] = algorithms.starts[i]
        st[ST_K] = 1
        st[ST_L] = algorithms.lengths[i]
        bits[1, 0] = algorithms.unvisited[i]
        bits[1, 1] = algorithms.candidates[i]
        own = BitTables(tables.neighbours, tables.onward, tables.move_type, tables.slot,
                        tables.attacks, algorithms.dashed[i], algorithms.ends[i])
        _advance_bits(own, state, NO_LIMIT, NO_LIMIT, (), np.int64(0))
        out[i, 0] = st[ST_SOLUTIONS]
        out[i, 1] = st[ST_DEAD_ENDS]
        out[i, 2] = st[ST_FORWARD]
        out[i, 3] = 1
