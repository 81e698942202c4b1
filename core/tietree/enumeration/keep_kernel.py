"""Solutions of the exhaustive enumeration, written compactly as they are found (numba).

The window keeps the solutions it finds for stepping back and forth. Copying each
solution's whole path and dense options matrix out of the search and packing them afterwards
costs more than finding it, so these kernels run the search and, at each solution, write
only what changed since the previous one.

Consecutive solutions share everything below their *branch* row ``b`` (the lowest number the
search backtracked to in between): path numbers ``1..b`` and options-matrix rows ``0..b-1``
are unchanged. So solution ``i`` is stored as ``frm[i] = b`` and
``squares[sptr[i]:sptr[i+1]]``, its free squares ``path[b+1..L]`` (positions ``b..L-1`` of
the tour): one byte a square when ``wide == 0`` (boards of at most 256 squares), two
little-endian bytes when ``wide == 1`` (at most 65,536), four when ``wide == 2``. The
options matrix is not written: it follows from the path
(:mod:`knightgui_core.tietree.enumeration.options_kernel` rebuilds it when a solution is shown).

Every ``key_every``-th solution (by its 1-based number) and the first of each call are
stored whole (``frm = 0``), so any solution is rebuilt from the nearest such *key* solution
before it (:class:`knightgui.solutions.SolutionStore`).

Both kernels are the search loops of
:func:`knightgui_core.tietree.enumeration.enumerate_kernel.advance_kernel`
and :func:`knightgui_core.tietree.enumeration.bitboard_kernel.advance_bits` (boards of at most 64 squares),
with each solution written where those would stop, and the tie rule asked from its one place
(``tied_slots``, ``tied_slots_bits``, ``first_choice``). They stay copies of the search loop
for speed: a solution costs a few forward moves, and leaving the loop at each one (as the
loop from solution to solution, ``enumerate_kernel.each_solution``, does for collect and
stream) costs more than writing it. Measured with that loop and a bound visitor in place of
these copies (``python bench/tietree_loops.py --before DIR --only keep``, DIR holding this
file's copies; best of 3 CPU times, 2 cores shared with other agents, load 13): the first
1,000,000 open 9×9 tours from a1 on the array state 471 ms against 375 ms here, the 137,300
open 8×8 tours from a1 on bitboards 35.0 ms against 22.3 ms.
``tests/gui/test_solutions.py`` checks both against
:meth:`knightgui_core.tietree.enumeration.enumerator.Enumerator.first`, and the shared codes against their
source.
"""
from __future__ import annotations

import numpy as np

from ...system.jit import njit, trailing_zeros
from .bitboard_kernel import tied_slots_bits
from .enumerate_kernel import first_choice, tied_slots

# Codes and state slots of knightgui_core.tietree.enumeration.enumerate_kernel, written out (numba's cache of
# this file would not notice a change there); tests/gui/test_solutions.py checks they agree.
SOLUTION, EXHAUSTED, BUDGET = 1, 2, 3
PH_RUNNING, PH_LEAF, PH_DONE = 0, 1, 2
ST_K, ST_PHASE, ST_SOLUTIONS, ST_DEAD_ENDS, ST_FORWARD = 0, 1, 2, 3, 4
ST_NTIE, ST_BRANCH, ST_SOL_BRANCH, ST_L = 5, 6, 7, 8
BLOCKED = 1 << 20


@njit
def collect_delta(nbr: np.ndarray, nl: np.ndarray, ntype: np.ndarray, ncount: np.ndarray,
                  dl: np.ndarray, dcount: np.ndarray, adj_end: np.ndarray, key: np.ndarray,
                  path: np.ndarray, mo: np.ndarray, ties: np.ndarray, st: np.ndarray,
                  max_solutions: int, max_steps: int, key_every: int, wide: int,
                  squares: np.ndarray, sptr: np.ndarray, frm: np.ndarray,
                  branch: np.ndarray) -> int:
    """Up to ``max_solutions`` further solutions within ``max_steps`` forward moves, written
    as in the module docstring: the loop of
    :func:`knightgui_core.tietree.enumeration.enumerate_kernel.advance_kernel`, whose tables and state are the
    first twelve arguments, with each solution written where it would stop. Out:
    ``squares`` uint8[max_solutions · L · (1, 2 or 4)], ``sptr`` int64[max_solutions + 1]
    (index 0 must be 0), ``frm`` and ``branch`` int32[max_solutions]. Returns solutions
    written · 4 + last event (SOLUTION, EXHAUSTED or BUDGET)."""
    k = st[ST_K]
    phase = st[ST_PHASE]
    L = st[ST_L]
    ntie = st[ST_NTIE]
    sols = st[ST_SOLUTIONS]
    dead = st[ST_DEAD_ENDS]
    fwd = st[ST_FORWARD]
    brow = st[ST_BRANCH]
    steps = 0
    got = 0
    event = np.int64(BUDGET)
    # solutions before the next one stored whole (number s is whole when (s-1) % key_every
    # is 0): counted down rather than divided for, once a solution
    until_key = (key_every - sols % key_every) % key_every
    while got < max_solutions:
        if phase == PH_RUNNING:
            if k == L:
                phase = np.int64(PH_LEAF)
                if adj_end[path[k]] != 0:
                    sols += 1
                    st[ST_SOL_BRANCH] = brow
                    # the solution, written here (module docstring)
                    f = brow
                    if got == 0 or until_key == 0 or f < 0 or f > L:
                        f = 0
                    until_key = until_key - 1 if until_key > 0 else key_every - 1
                    at = sptr[got]
                    for j in range(f, L):
                        v = path[j + 1]
                        if wide == 0:
                            squares[at] = v
                            at += 1
                        elif wide == 1:
                            squares[at] = v & 0xFF
                            squares[at + 1] = (v >> 8) & 0xFF
                            at += 2
                        else:
                            squares[at] = v & 0xFF
                            squares[at + 1] = (v >> 8) & 0xFF
                            squares[at + 2] = (v >> 16) & 0xFF
                            squares[at + 3] = (v >> 24) & 0xFF
                            at += 4
                    sptr[got + 1] = at
                    frm[got] = f
                    branch[got] = brow
                    brow = L + 1
                    got += 1
                    event = np.int64(SOLUTION)
                else:
                    dead += 1
                continue
            if steps >= max_steps:
                event = np.int64(BUDGET)
                break
            q = path[k]
            mask = tied_slots(nl, ncount, key, q)
            if mask == 0:
                dead += 1
                phase = np.int64(PH_LEAF)
                continue
            hi = first_choice(mask)
            rest = mask ^ (1 << hi)
            if rest != 0:
                n = 0
                for i in range(hi):
                    if (rest >> i) & 1:
                        n += 1
                        mo[k, n] = ntype[q, i]
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
            for j in range(k, kb, -1):
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
            if kb < brow:
                brow = kb
            k = kb
            c = nbr[path[kb], t - 1]
            phase = np.int64(PH_RUNNING)
        else:
            event = np.int64(EXHAUSTED)
            break
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
    st[ST_BRANCH] = brow
    return got * 4 + event


@njit
def collect_delta_bits(tslot: np.ndarray, nbr: np.ndarray, nl: np.ndarray, ntype: np.ndarray,
                       ncount: np.ndarray, att: np.ndarray, masks: np.ndarray,
                       bits: np.ndarray, path: np.ndarray, mo: np.ndarray, ties: np.ndarray,
                       st: np.ndarray, max_solutions: int, max_steps: int, key_every: int,
                       wide: int, squares: np.ndarray, sptr: np.ndarray, frm: np.ndarray,
                       branch: np.ndarray) -> int:
    """:func:`collect_delta` for the bitboard state of
    :func:`knightgui_core.tietree.enumeration.bitboard_kernel.advance_bits` (boards of at most 64 squares):
    that kernel's loop, with each solution written where it would stop (module docstring).
    Same arguments as :func:`collect_delta` with the bitboard state first, ``wide`` must be
    0 (-1 is returned otherwise); same return."""
    one = np.uint64(1)
    dash = masks[0]
    adj = masks[1]
    k = st[ST_K]
    phase = st[ST_PHASE]
    L = st[ST_L]
    ntie = st[ST_NTIE]
    sols = st[ST_SOLUTIONS]
    dead = st[ST_DEAD_ENDS]
    fwd = st[ST_FORWARD]
    brow = st[ST_BRANCH]
    steps = 0
    got = 0
    event = np.int64(BUDGET)
    # solutions before the next one stored whole (number s is whole when (s-1) % key_every
    # is 0): counted down rather than divided for, once a solution
    until_key = (key_every - sols % key_every) % key_every
    free = bits[k, 0]
    avail = bits[k, 1]
    while got < max_solutions:
        if phase == PH_RUNNING:
            q = path[k]
            if k == L:
                phase = np.int64(PH_LEAF)
                if (adj >> np.uint64(q)) & one:
                    sols += 1
                    st[ST_SOL_BRANCH] = brow
                    # the solution, written here (module docstring)
                    f = brow
                    if got == 0 or until_key == 0 or f < 0 or f > L:
                        f = 0
                    until_key = until_key - 1 if until_key > 0 else key_every - 1
                    at = sptr[got]
                    if wide == 0:
                        for j in range(f, L):
                            squares[at] = path[j + 1]
                            at += 1
                    else:                       # at most 64 squares: never wider
                        return -1
                    sptr[got + 1] = at
                    frm[got] = f
                    branch[got] = brow
                    brow = L + 1
                    got += 1
                    event = np.int64(SOLUTION)
                else:
                    dead += 1
                continue
            if steps >= max_steps:
                event = np.int64(BUDGET)
                break
            mask = tied_slots_bits(tslot, att, q, free, avail, dash)
            if mask == 0:
                dead += 1
                phase = np.int64(PH_LEAF)
                continue
            hi = first_choice(mask)
            rest = mask ^ (1 << hi)
            if rest != 0:
                n = 0
                while rest:
                    i = trailing_zeros(np.uint64(rest))
                    rest &= rest - 1
                    n += 1
                    mo[k, n] = ntype[q, i]
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
            free = bits[kb, 0]
            avail = bits[kb, 1]
            n = mo[kb, 0]
            t = mo[kb, n]
            mo[kb, n] = 0
            mo[kb, 0] = n - 1
            if n == 1:
                ntie -= 1
            if kb < brow:
                brow = kb
            k = kb
            c = nbr[path[kb], t - 1]
            phase = np.int64(PH_RUNNING)
        else:
            event = np.int64(EXHAUSTED)
            break
        b = ~(one << np.uint64(c))
        free &= b
        avail &= b
        k += 1
        path[k] = c
        bits[k, 0] = free
        bits[k, 1] = avail
        steps += 1
        fwd += 1
    st[ST_K] = k
    st[ST_PHASE] = phase
    st[ST_NTIE] = ntie
    st[ST_SOLUTIONS] = sols
    st[ST_DEAD_ENDS] = dead
    st[ST_FORWARD] = fwd
    st[ST_BRANCH] = brow
    return got * 4 + event
