"""Phadke's exhaustive enumeration as a resumable numba state machine (docs/spec.md §4, §5).

Every Warnsdorff tie is followed: the highest tied move type is taken, the others are kept
in the options matrix row of the current number, and after a solution or a dead end the
search goes back to the highest number with a stored option. The state lives in arrays, so
``advance_kernel`` stops after any number of forward moves and continues with the same
results. Two records travel through every kernel (``N`` squares, ``L`` numbers placed):
:class:`Tables`, read and never written, and :class:`State`, written (:func:`new_state`):

* ``neighbours`` int32[N, 8]: square reached by move type t+1, or -1 (``Board.neighbours``).
* ``onward`` int32[N, 8]: the on-board neighbours of each square, ascending move type;
  ``move_type`` int8[N, 8] their move types; ``onward_count`` int32[N] how many.
* ``scored`` int32[N, 8]: neighbours whose score follows their outlets (every neighbour
  that is not a dashed approach cell); ``scored_count`` int32[N].
* ``may_end`` int8[N]: 1 where number L may stand: a knight move from the first square of
  the reserved chain or tail (all ones in open mode).
* ``score`` int32[N]: the Warnsdorff score of each square plus ``BLOCKED`` when it is
  visited or reserved: outlets (unvisited knight-neighbours; reserved squares count as
  unvisited) for a plain square, the constant 1 for a dashed approach cell (docs/spec.md §5).
* ``path`` int32[L + 1]: ``path[k]`` = square of number k (index 0 unused).
* ``options`` int8[L + 1, 8]: the options matrix: ``options[k, 0]`` = number of stored
  options, ``options[k, 1..7]`` = stored move types, ascending by slot.
* ``ties`` int32[L + 1]: numbers whose options-matrix row is not empty, ascending.
* ``scalars`` int64[ST_SIZE]: the counters and the position, slots ``ST_*``.

The search loop, :func:`search`, is written once for both state layouts and every use: the
bitboard of at most 64 squares (:mod:`knightgui_core.tietree.enumeration.bitboard_kernel`)
binds its own five operations in place of this module's; the tie rule of both is in
:mod:`knightgui_core.tietree.enumeration.search_rule_kernel`.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

import numpy as np

from ...board.tables_kernel import compact_table
from ...system.jit import njit, specialise
from .search_rule_kernel import BLOCKED, first_choice, store_ties, tied_slots

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


class Tables(NamedTuple):
    """What the search on the array state reads and never writes (the module docstring
    gives each field's type): the knight's moves from each square, the neighbours whose
    score a visit changes, and where number L may stand."""

    neighbours: np.ndarray
    onward: np.ndarray
    move_type: np.ndarray
    onward_count: np.ndarray
    scored: np.ndarray
    scored_count: np.ndarray
    may_end: np.ndarray


class State(NamedTuple):
    """What the search on the array state writes, in place: the squares' scores, the path,
    the options matrix, the numbers with stored options and the scalars (the module
    docstring gives each field's type)."""

    score: np.ndarray
    path: np.ndarray
    options: np.ndarray
    ties: np.ndarray
    scalars: np.ndarray


class Collected(NamedTuple):
    """Where :func:`collect_kernel` copies each solution: row i of ``paths`` int32[>= S,
    L + 1] (the path), ``options`` int8[>= S, L + 1, 8] (the options matrix) and
    ``branches`` int64[>= S] (the branch number), S the solutions asked for."""

    paths: np.ndarray
    options: np.ndarray
    branches: np.ndarray


#: Five arrays: the lists of :func:`tables`, or a fresh state ``(score, path, options, ties,
#: scalars)`` of :func:`new_state`.
Arrays5 = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def tables(nbr: np.ndarray, dashed: Iterable[int]) -> Arrays5:
    """``(onward, move_type, onward_count, scored, scored_count)`` (see the module
    docstring) for a neighbour table ``nbr`` int32[N, 8] and the flat squares of the dashed
    approach cells. One pass per table (:mod:`knightgui_core.board.tables_kernel`): boards
    of millions of squares."""
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
def start_state(tables: Tables, state: State, start: int, L: int) -> None:
    """Number the start square 1 in ``state`` (scores of an empty board, the rest zero) and
    reset its scalars for a search of ``L`` numbers."""
    score, scored = state.score, tables.scored
    score[start] += BLOCKED
    for i in range(tables.scored_count[start]):
        score[scored[start, i]] -= 1
    state.path[1] = start
    st = state.scalars
    for i in range(st.shape[0]):
        st[i] = 0
    st[ST_K] = 1
    st[ST_PHASE] = PH_RUNNING
    st[ST_L] = L


@njit
def new_state(tables: Tables, dashed_mask: np.ndarray, reserved_mask: np.ndarray, start: int,
              L: int) -> Arrays5:
    """The fields of a fresh :class:`State` ``(score, path, options, ties, scalars)`` with
    ``start`` numbered 1, for a search of ``L`` numbers; ``dashed_mask`` / ``reserved_mask``
    int8[N] as in :func:`init_key`."""
    n = tables.neighbours.shape[0]
    key = np.zeros(n, dtype=np.int32)
    init_key(tables.neighbours, dashed_mask, reserved_mask, key)
    path = np.zeros(L + 1, dtype=np.int32)
    mo = np.zeros((L + 1, 8), dtype=np.int8)
    ties = np.zeros(L + 1, dtype=np.int32)
    st = np.zeros(ST_SIZE, dtype=np.int64)
    start_state(tables, State(key, path, mo, ties, st), start, L)
    return key, path, mo, ties, st


# The loop and its visitors take either layout's records (this module's Tables and State,
# the bitboard's BitTables and BitState, which imports this module), annotated as ``Any``.
#
# The array state as the search loop's layout (:func:`search`): its operations read
# ``onward_count``, ``scored``, ``scored_count``, ``may_end`` of the tables and write
# ``score`` of the state; it keeps nothing in the loop's two registers (``unvisited``,
# ``candidates``: the bitboard's squares at the current number).

@njit(inline="always")
def held(tables: Tables, state: State, k: int) -> tuple[np.uint64, np.uint64]:
    """The registers at number ``k`` when the loop starts: none in the array state."""
    return np.uint64(0), np.uint64(0)


@njit(inline="always")
def ends_here(tables: Tables, state: State, q: int) -> bool:
    """May number L stand on ``q`` (``may_end``)?"""
    return tables.may_end[q] != 0


@njit(inline="always")
def tie_mask(tables: Tables, state: State, q: int, unvisited: np.uint64,
             candidates: np.uint64) -> int:
    """The tied slots of the knight on ``q`` (:func:`tied_slots` on ``score``)."""
    return tied_slots(tables.onward, tables.onward_count, state.score, q)


@njit(inline="always")
def back_to(tables: Tables, state: State, k: int, kb: int, unvisited: np.uint64,
            candidates: np.uint64) -> tuple[np.uint64, np.uint64]:
    """Back from number ``k`` to number ``kb``: numbers kb+1 .. k erased from ``score``,
    each square unblocked and its scored neighbours given their outlet back."""
    path, score = state.path, state.score
    scored, scored_count = tables.scored, tables.scored_count
    for j in range(k, kb, -1):
        s = path[j]
        score[s] -= BLOCKED
        for i in range(scored_count[s]):
            score[scored[s, i]] += 1
    return unvisited, candidates


@njit(inline="always")
def step_to(tables: Tables, state: State, c: int, k: int, unvisited: np.uint64,
            candidates: np.uint64) -> tuple[np.uint64, np.uint64]:
    """Square ``c`` taken as number ``k``: blocked, its scored neighbours one outlet less."""
    score, scored = state.score, tables.scored
    score[c] += BLOCKED
    for i in range(tables.scored_count[c]):
        score[scored[c, i]] -= 1
    return unvisited, candidates


@njit(inline="always")
def no_visit(state: Any, got: int, carry: int, out: tuple) -> int:
    """The visitor of a search that only counts: nothing done at a solution."""
    return carry


@njit
def search(tables: Any, state: Any, max_steps: int, max_solutions: int, out: tuple,
           carry: int) -> int:
    """The tie-tree search, the one loop in source for every state layout and every use:
    at most ``max_steps`` forward moves and ``max_solutions`` solutions; returns
    solutions · 4 + the last event (SOLUTION when it stopped at the last solution it was
    allowed, EXHAUSTED, BUDGET). It reads the knight's moves of ``tables`` and writes
    ``path``, ``options``, ``ties``, ``scalars`` of ``state``; the rest of both records is the
    layout's, touched only by its operations: ``held`` (its two registers at the start),
    ``ends_here`` (may number L stand here), ``tie_mask`` (the tie rule), ``back_to`` (undo
    down to a number) and ``step_to`` (take a square). At each solution (its branch in
    ``scalars[ST_SOL_BRANCH]``) ``visit(state, got, carry, out)`` writes into ``out`` and
    returns the next ``carry``.

    Never run itself: each use is a copy by :func:`knightgui_core.system.jit.specialise`
    with its layout (this module's operations, or
    :data:`knightgui_core.tietree.enumeration.bitboard_kernel.BITS`) and its visitor
    (:func:`no_visit`, :func:`visit`, ``stream_kernel.copy_row``, ``keep_kernel.write_delta``)
    written in: as fast as a hand-kept loop per use (``bench/enumerate.py``). The count by
    states (``counting/count_kernel.py``) keeps a loop of its own: folded onto this one it
    was measured slower."""
    if max_solutions < 1:
        return BUDGET
    nbr, nl, ntype = tables.neighbours, tables.onward, tables.move_type
    path, mo, ties, st = state.path, state.options, state.ties, state.scalars
    k = st[ST_K]
    phase = st[ST_PHASE]
    L = st[ST_L]
    ntie = st[ST_NTIE]
    sols = st[ST_SOLUTIONS]
    dead = st[ST_DEAD_ENDS]
    fwd = st[ST_FORWARD]
    branch = st[ST_BRANCH]
    steps = 0
    got = 0
    event = np.int64(BUDGET)
    unvisited, candidates = held(tables, state, k)
    while True:
        if phase == PH_RUNNING:
            q = path[k]
            if k == L:
                phase = np.int64(PH_LEAF)
                if ends_here(tables, state, q):
                    sols += 1
                    st[ST_SOL_BRANCH] = branch
                    branch = L + 1
                    carry = visit(state, got, carry, out)
                    got += 1
                    if got == max_solutions:
                        event = np.int64(SOLUTION)
                        break
                else:
                    dead += 1
                continue
            if steps >= max_steps:
                event = np.int64(BUDGET)
                break
            mask = tie_mask(tables, state, q, unvisited, candidates)
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
                event = np.int64(BUDGET)
                break
            kb = ties[ntie - 1]
            unvisited, candidates = back_to(tables, state, k, kb, unvisited, candidates)
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
        k += 1
        path[k] = c
        unvisited, candidates = step_to(tables, state, c, k, unvisited, candidates)
        steps += 1
        fwd += 1
    st[ST_K] = k
    st[ST_PHASE] = phase
    st[ST_NTIE] = ntie
    st[ST_SOLUTIONS] = sols
    st[ST_DEAD_ENDS] = dead
    st[ST_FORWARD] = fwd
    st[ST_BRANCH] = branch
    return got * 4 + event


#: solutions without end: a search that counts, or steps to its budget
NO_LIMIT = 1 << 62

_advance = specialise(search, "advance_array", visit=no_visit)


@njit
def advance_kernel(tables: Tables, state: State, max_steps: int,
                   stop_on_solution: bool) -> int:
    """Run at most ``max_steps`` forward moves of :func:`search` on the array state,
    ``state`` updated in place. Returns SOLUTION (only when ``stop_on_solution``; the
    solution is in ``state.path[1..L]``), EXHAUSTED or BUDGET."""
    r = _advance(tables, state, max_steps, 1 if stop_on_solution else NO_LIMIT, (),
                 np.int64(0))
    return r % 4


@njit(inline="always")
def counts_of(st: np.ndarray, ev: int) -> np.ndarray:
    """int64[4] = (solutions, dead ends, forward moves, exhausted 0/1) of the scalars ``st``
    after the search returned ``ev``."""
    out = np.empty(4, dtype=np.int64)
    out[0] = st[ST_SOLUTIONS]
    out[1] = st[ST_DEAD_ENDS]
    out[2] = st[ST_FORWARD]
    out[3] = 1 if ev == EXHAUSTED else 0
    return out


@njit
def count_kernel(tables: Tables, dashed_mask: np.ndarray, reserved_mask: np.ndarray,
                 start: int, L: int, max_steps: int) -> np.ndarray:
    """Enumerate one algorithm from scratch without building any Python object, for at most
    ``max_steps`` forward moves: int64[4] = (solutions, dead ends, forward moves, exhausted
    0/1). The arguments as in :func:`new_state`."""
    key, path, mo, ties, st = new_state(tables, dashed_mask, reserved_mask, start, L)
    ev = advance_kernel(tables, State(key, path, mo, ties, st), max_steps, False)
    return counts_of(st, ev)


@njit(inline="always")
def visit(state: Any, got: int, carry: int, out: Collected) -> int:
    """What :func:`search` does at a solution, as :func:`collect_kernel` binds it:
    the whole path, options matrix and branch number into row ``got`` of ``out``.
    Returns ``carry`` (unused here). Copied element by element: a slice assignment may
    allocate, which a copy compiled without reference counts cannot."""
    paths, options, path, mo = out.paths, out.options, state.path, state.options
    for j in range(path.shape[0]):
        paths[got, j] = path[j]
        for t in range(8):
            options[got, j, t] = mo[j, t]
    out.branches[got] = state.scalars[ST_SOL_BRANCH]
    return carry


@njit(inline="always")
def got_and_event(r: int) -> np.ndarray:
    """int64[2] = (solutions, last event) of :func:`search`'s return ``r``."""
    res = np.empty(2, dtype=np.int64)
    res[0] = r // 4
    res[1] = r % 4
    return res


# without reference counts: the visitor takes its arrays out of records at every solution
# (bench/enumerate.py, the first 1,981 solutions)
_collect = specialise(search, "collect_array", refcounts=False, visit=visit)


@njit
def collect_kernel(tables: Tables, state: State, max_solutions: int, max_steps: int,
                   out_path: np.ndarray, out_mo: np.ndarray,
                   out_branch: np.ndarray) -> np.ndarray:
    """Up to ``max_solutions`` further solutions within ``max_steps`` forward moves, each
    copied into ``out_path[i]`` (int32[>=max_solutions, L+1]), ``out_mo[i]``
    (int8[>=max_solutions, L+1, 8]) and ``out_branch[i]`` (int64[>=max_solutions]): int64[2]
    = (solutions copied, last event)."""
    return got_and_event(_collect(tables, state, max_steps, max_solutions,
                                  Collected(out_path, out_mo, out_branch), np.int64(0)))
