"""Phadke's exhaustive enumeration as a resumable numba state machine (docs/spec.md §4, §5).

Every Warnsdorff tie is followed: the highest tied move type is taken and the other tied
types are kept in the options matrix row of the current number; after a solution or a dead
end the search goes back to the highest number with a stored option. The whole state lives
in arrays, so ``advance_kernel`` can stop after any number of forward moves and continue
later with exactly the same results.

Static tables (``N`` squares), built by :func:`tables`:

* ``nbr``  int32[N, 8]  square reached by move type t+1, or -1 (``Board.neighbours``).
* ``nl``   int32[N, 8]  the on-board neighbours of each square, ascending move type;
  ``ntype`` int8[N, 8] their move types; ``ncount`` int32[N] how many.
* ``dl``   int32[N, 8]  neighbours whose score follows their outlets (every neighbour that
  is not a dashed approach cell); ``dcount`` int32[N].
* ``adj_end`` int8[N]   1 where number L may stand: a knight move from the first square of
  the reserved chain or tail (all ones in open mode).

Mutable state (built by :func:`new_state`, ``L`` = numbers the search places):

* ``key``  int32[N]     the Warnsdorff score of each square plus ``BLOCKED`` when it is
  visited or reserved: outlets (unvisited knight-neighbours; reserved squares count as
  unvisited) for a plain square, the constant 1 for a dashed approach cell (docs/spec.md §5).
* ``path`` int32[L + 1] ``path[k]`` = square of number k (index 0 unused).
* ``mo``   int8[L + 1, 8] options matrix: ``mo[k, 0]`` = number of stored options,
  ``mo[k, 1..7]`` = stored move types, ascending by slot.
* ``ties`` int32[L + 1] numbers whose options-matrix row is not empty, ascending.
* ``st``   int64[ST_SIZE] scalars, slots ``ST_*``.

Boards of at most 64 squares use the bitboard twin in
:mod:`knightgui_core.tietree.enumeration.bitboard_kernel`.
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ...board.tables_kernel import compact_table
from ...system.jit import leading_zeros, njit, specialise, trailing_zeros

# event codes
SOLUTION, EXHAUSTED, BUDGET = 1, 2, 3
# phases
PH_RUNNING, PH_LEAF, PH_DONE = 0, 1, 2
# scalar state slots
ST_K = 0            # current number (the knight stands on path[k])
ST_PHASE = 1
ST_SOLUTIONS = 2
ST_DEAD_ENDS = 3
ST_FORWARD = 4      # forward moves made (including a move that takes a stored option)
ST_NTIE = 5         # entries in ``ties``
ST_BRANCH = 6       # lowest number backtracked to since the last solution
ST_SOL_BRANCH = 7   # branch number of the most recent solution (0 for the first)
ST_L = 8
ST_SIZE = 9

BLOCKED = 1 << 20

#: Five arrays: the tables of :func:`tables`, or a state ``(key or bits, path, mo, ties, st)``.
Arrays5 = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def tables(nbr: np.ndarray, dashed: Iterable[int]) -> Arrays5:
    """``(nl, ntype, ncount, dl, dcount)`` (see the module docstring) for a neighbour table
    ``nbr`` int32[N, 8] and the flat squares of the dashed approach cells. One pass per
    table (:mod:`knightgui_core.board.tables_kernel`): boards of millions of squares."""
    nbr = np.ascontiguousarray(nbr, dtype=np.int32)
    n = nbr.shape[0]
    keep = np.ones(n, dtype=np.int8)
    nl, ntype = np.empty((n, 8), np.int32), np.empty((n, 8), np.int8)
    ncount = np.empty(n, np.int32)
    compact_table(nbr, keep, nl, ntype, ncount)
    cells = [int(s) for s in dashed]
    if not cells:             # no dashed cell: the score list is the neighbour list (shared)
        return nl, ntype, ncount, nl, ncount
    keep[cells] = 0
    dl, dtype_ = np.empty((n, 8), np.int32), np.empty((n, 8), np.int8)
    dcount = np.empty(n, np.int32)
    compact_table(nbr, keep, dl, dtype_, dcount)
    return nl, ntype, ncount, dl, dcount


@njit
def init_key(nbr: np.ndarray, dashed_mask: np.ndarray, reserved_mask: np.ndarray,
             key: np.ndarray) -> None:
    """Scores of an empty board with reserved squares blocked (they stay outlets), written
    into ``key`` int32[N]. ``nbr`` int32[N, 8]; ``dashed_mask`` / ``reserved_mask`` int8[N]:
    1 on a dashed approach cell / a reserved square."""
    n = nbr.shape[0]
    for s in range(n):
        if dashed_mask[s] != 0:
            key[s] = 1
        else:
            m = 0
            for t in range(8):
                if nbr[s, t] >= 0:
                    m += 1
            key[s] = m
        if reserved_mask[s] != 0:
            key[s] += BLOCKED


@njit
def start_state(dl: np.ndarray, dcount: np.ndarray, key: np.ndarray, path: np.ndarray,
                st: np.ndarray, start: int, L: int) -> None:
    """Number the start square 1 and reset the scalars. Arrays as in the module docstring:
    ``dl`` int32[N, 8], ``dcount`` int32[N], ``key`` int32[N], ``path`` int32[L + 1],
    ``st`` int64[ST_SIZE]."""
    key[start] += BLOCKED
    for i in range(dcount[start]):
        key[dl[start, i]] -= 1
    path[1] = start
    for i in range(st.shape[0]):
        st[i] = 0
    st[ST_K] = 1
    st[ST_PHASE] = PH_RUNNING
    st[ST_L] = L


@njit
def new_state(nbr: np.ndarray, dashed_mask: np.ndarray, reserved_mask: np.ndarray,
              dl: np.ndarray, dcount: np.ndarray, start: int, L: int) -> Arrays5:
    """Fresh ``(key, path, mo, ties, st)`` with ``start`` numbered 1. ``nbr`` int32[N, 8],
    ``dashed_mask`` / ``reserved_mask`` int8[N] (see :func:`init_key`), ``dl`` int32[N, 8],
    ``dcount`` int32[N]; the state arrays are those of the module docstring."""
    n = nbr.shape[0]
    key = np.zeros(n, dtype=np.int32)
    init_key(nbr, dashed_mask, reserved_mask, key)
    path = np.zeros(L + 1, dtype=np.int32)
    mo = np.zeros((L + 1, 8), dtype=np.int8)
    ties = np.zeros(L + 1, dtype=np.int32)
    st = np.zeros(ST_SIZE, dtype=np.int64)
    start_state(dl, dcount, key, path, st, start, L)
    return key, path, mo, ties, st


@njit(inline="always")
def tied_slots(nl: np.ndarray, ncount: np.ndarray, key: np.ndarray, q: int) -> int:
    """The tie rule of the array state, its one place: bit ``i`` set when slot ``i`` of
    ``nl[q]`` (the knight on ``q``) is an unvisited square of the lowest score ``key``; 0
    when every neighbour is taken. The search takes the highest set slot and keeps the
    others, ascending, as the options of this number (:func:`advance_kernel`,
    :mod:`knightgui_core.tietree.enumeration.options_kernel`)."""
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
    :func:`knightgui_core.tietree.enumeration.bitboard_kernel.tied_slots_bits` (not 0): the highest,
    Phadke's highest move type. Both layouts and the options replay choose here."""
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


@njit
def advance_kernel(nbr: np.ndarray, nl: np.ndarray, ntype: np.ndarray, ncount: np.ndarray,
                   dl: np.ndarray, dcount: np.ndarray, adj_end: np.ndarray, key: np.ndarray,
                   path: np.ndarray, mo: np.ndarray, ties: np.ndarray, st: np.ndarray,
                   max_steps: int, stop_on_solution: bool) -> int:
    """Run at most ``max_steps`` forward moves. Returns SOLUTION (only when
    ``stop_on_solution``; the solution is in ``path[1..L]``), EXHAUSTED or BUDGET.

    Tables and state as in the module docstring: ``nbr``, ``nl``, ``dl`` int32[N, 8],
    ``ntype`` int8[N, 8], ``ncount``, ``dcount`` int32[N], ``adj_end`` int8[N], ``key``
    int32[N], ``path`` int32[L + 1], ``mo`` int8[L + 1, 8], ``ties`` int32[L + 1], ``st``
    int64[ST_SIZE]; the state arrays are updated in place. The one search loop of the array
    state. It is called, not written into its uses (``inline="always"``): written into
    :func:`each_solution`'s copies it made them slower (bench/tietree_loops.py, 2 cores
    shared, load 13, best of 3 CPU times: the first 1,000,000 open 9×9 tours streamed in
    404 ms against 374 ms; on bitboards the 137,300 open 8×8 tours from a1 in 28.5 ms
    against 21.7 ms)."""
    k = st[ST_K]
    phase = st[ST_PHASE]
    L = st[ST_L]
    ntie = st[ST_NTIE]
    sols = st[ST_SOLUTIONS]
    dead = st[ST_DEAD_ENDS]
    fwd = st[ST_FORWARD]
    branch = st[ST_BRANCH]
    steps = 0
    event = np.int64(BUDGET)
    while True:
        if phase == PH_RUNNING:
            if k == L:
                phase = np.int64(PH_LEAF)
                if adj_end[path[k]] != 0:
                    sols += 1
                    st[ST_SOL_BRANCH] = branch
                    branch = L + 1
                    if stop_on_solution:
                        event = np.int64(SOLUTION)
                        break
                else:
                    dead += 1
                continue
            if steps >= max_steps:
                break
            q = path[k]
            mask = tied_slots(nl, ncount, key, q)
            if mask == 0:
                dead += 1
                phase = np.int64(PH_LEAF)
                continue
            hi = first_choice(mask)
            n = store_ties(mo, k, mask, hi, ntype, q)
            if n != 0:
                mo[k, 0] = n
                ties[ntie] = k
                ntie += 1
            c = nl[q, hi]
        elif phase == PH_LEAF:
            if ntie == 0:
                phase = np.int64(PH_DONE)
                event = np.int64(EXHAUSTED)
                break
            if steps >= max_steps:
                break
            kb = ties[ntie - 1]
            for j in range(k, kb, -1):      # erase numbers kb+1 .. k
                s = path[j]
                key[s] -= BLOCKED
                for i in range(dcount[s]):
                    key[dl[s, i]] += 1
            n = mo[kb, 0]
            t = mo[kb, n]
            mo[kb, n] = 0
            mo[kb, 0] = n - 1
            if n == 1:
                ntie -= 1
            if kb < branch:
                branch = kb
            k = kb
            c = nbr[path[kb], t - 1]
            phase = np.int64(PH_RUNNING)
        else:
            event = np.int64(EXHAUSTED)
            break
        # move to c as number k + 1
        key[c] += BLOCKED
        for i in range(dcount[c]):
            key[dl[c, i]] -= 1
        k += 1
        path[k] = c
        steps += 1
        fwd += 1
    st[ST_K] = k
    st[ST_PHASE] = phase
    st[ST_NTIE] = ntie
    st[ST_SOLUTIONS] = sols
    st[ST_DEAD_ENDS] = dead
    st[ST_FORWARD] = fwd
    st[ST_BRANCH] = branch
    return event


@njit(inline="always")
def counts_of(st: np.ndarray, ev: int) -> np.ndarray:
    """int64[4] = (solutions, dead ends, forward moves, exhausted 0/1) of the state ``st``
    after the search returned ``ev``."""
    out = np.empty(4, dtype=np.int64)
    out[0] = st[ST_SOLUTIONS]
    out[1] = st[ST_DEAD_ENDS]
    out[2] = st[ST_FORWARD]
    out[3] = 1 if ev == EXHAUSTED else 0
    return out


@njit
def count_kernel(nbr: np.ndarray, nl: np.ndarray, ntype: np.ndarray, ncount: np.ndarray,
                 dl: np.ndarray, dcount: np.ndarray, adj_end: np.ndarray, dashed_mask: np.ndarray,
                 reserved_mask: np.ndarray, start: int, L: int, max_steps: int) -> np.ndarray:
    """Enumerate one algorithm without building any Python object.

    Returns int64[4] = (solutions, dead ends, forward moves, exhausted 0/1); stops after
    ``max_steps`` forward moves (use a huge value to run to the end). Tables as in
    :func:`advance_kernel`, masks as in :func:`init_key`."""
    key, path, mo, ties, st = new_state(nbr, dashed_mask, reserved_mask, dl, dcount, start, L)
    ev = advance_kernel(nbr, nl, ntype, ncount, dl, dcount, adj_end, key, path, mo, ties, st,
                        max_steps, False)
    return counts_of(st, ev)


@njit(inline="always")
def visit(path: np.ndarray, mo: np.ndarray, st: np.ndarray, got: int, carry: int,
          out: tuple[np.ndarray, np.ndarray, np.ndarray]) -> int:
    """What :func:`each_solution` does at a solution, as :func:`collect_kernel` binds it:
    the whole path, options matrix and branch number into row ``got`` of ``out`` =
    (``out_path``, ``out_mo``, ``out_branch``). Returns ``carry`` (unused here)."""
    out[0][got, :] = path
    out[1][got, :, :] = mo
    out[2][got] = st[ST_SOL_BRANCH]
    return carry


@njit
def each_solution(a0: np.ndarray, a1: np.ndarray, a2: np.ndarray, a3: np.ndarray,
                  a4: np.ndarray, a5: np.ndarray, a6: np.ndarray, a7: np.ndarray,
                  path: np.ndarray, mo: np.ndarray, ties: np.ndarray, st: np.ndarray,
                  max_solutions: int, max_steps: int, out: tuple, carry: int) -> int:
    """The search driven from solution to solution, written once for every use that stops
    at each one (collect, keep, stream): up to ``max_solutions`` further solutions within
    ``max_steps`` forward moves, ``visit(path, mo, st, got, carry, out)`` called at each
    (the solution in ``path[1..L]``, its branch in ``st[ST_SOL_BRANCH]``; it writes into
    its ``out`` and returns the next ``carry``). The layout's tables and state are
    ``a0``..``a7``, ``path``, ``mo``, ``ties``, ``st`` (:func:`advance_kernel`'s, or the
    bitboard's), handed over one by one (a tuple of them at every solution cost its
    reference counts). Each use is a copy by :func:`knightgui_core.system.jit.specialise`
    with ``advance_kernel`` (the layout) and ``visit`` (``inline="always"``) bound. Returns
    solutions · 4 + last event."""
    got = 0
    steps_left = max_steps
    ev = np.int64(BUDGET)  # typed as the search returns it (the AOT compiler keeps a literal)
    while got < max_solutions:
        f0 = st[ST_FORWARD]
        ev = advance_kernel(a0, a1, a2, a3, a4, a5, a6, a7, path, mo, ties, st, steps_left,
                            True)
        steps_left -= st[ST_FORWARD] - f0
        if ev != SOLUTION:
            break
        carry = visit(path, mo, st, got, carry, out)
        got += 1
    return got * 4 + ev


@njit(inline="always")
def got_and_event(r: int) -> np.ndarray:
    """int64[2] = (solutions, last event) of :func:`each_solution`'s return ``r``."""
    res = np.empty(2, dtype=np.int64)
    res[0] = r // 4
    res[1] = r % 4
    return res


_collect = specialise(each_solution, "collect_array", advance_kernel=advance_kernel,
                      visit=visit)


@njit
def collect_kernel(nbr: np.ndarray, nl: np.ndarray, ntype: np.ndarray, ncount: np.ndarray,
                   dl: np.ndarray, dcount: np.ndarray, adj_end: np.ndarray, key: np.ndarray,
                   path: np.ndarray, mo: np.ndarray, ties: np.ndarray, st: np.ndarray,
                   max_solutions: int, max_steps: int, out_path: np.ndarray, out_mo: np.ndarray,
                   out_branch: np.ndarray) -> np.ndarray:
    """Advance to up to ``max_solutions`` further solutions within ``max_steps`` forward
    moves, copying each into ``out_path[i]`` (int32[>=max_solutions, L+1]), ``out_mo[i]``
    (int8[>=max_solutions, L+1, 8]) and ``out_branch[i]`` (int64[>=max_solutions]). Returns
    int64[2] = (solutions copied, last event). Tables and state as in :func:`advance_kernel`."""
    return got_and_event(_collect(nbr, nl, ntype, ncount, dl, dcount, adj_end, key, path, mo,
                                  ties, st, max_solutions, max_steps,
                                  (out_path, out_mo, out_branch), np.int64(0)))
