"""Counting Warnsdorff tours subtree by subtree (the count study's kernels).

Phadke's exhaustive enumeration in its plainest form (strict rule, no dashes, open tours):
every tie is followed, and only tours, closed tours (last square a knight move from the start)
and dead ends are counted, exactly as
:mod:`knightgui_core.tietree.enumeration.enumerate_kernel` counts them.

**Subtrees.** A *prefix* is the list of move types (1..8) taken at the first ties of a path;
it names the subtree below, and the subtrees of one tie's options partition the subtree above
it, so a start spreads over many tasks and the totals do not depend on how deep it is cut.

**One loop.** :func:`count_loop` is the search over this module's 128-bit layout, written
once; a leaf and a tie go to a small inlined visitor (``visit_*``): the plain count here, the
transposition table of :mod:`knightgui_core.tietree.counting.memo_kernel` bound by
:func:`knightgui_core.system.jit.specialise`. The tie rule is
:mod:`knightgui_core.tietree.counting.rule_kernel`'s. The bitboard search with dashes
(:mod:`knightgui_core.tietree.counting.bits_memo_kernel`) keeps its own loop: its state differs.

**Budget.** :func:`count_run` stops at the first leaf after ``max_steps`` forward moves and
can be called again; the work left is then the options on the tie stack, each a prefix
(rebuilt by :mod:`knightgui_core.tietree.counting.subtrees`): a task too big splits itself.

Arrays (``N`` squares, at most 128; a set of squares is two uint64 words, ``[..., 0]``
squares 0..63, ``[..., 1]`` squares 64..127):

* ``att``   uint64[N, 2]  knight attack mask of each square.
* ``mtype`` int8[N, N]    move type (1..8) of the step q → c, 0 when it is not a knight move.
* ``path``  int32[N + 1]  ``path[k]`` = square of number k (index 0 unused).
* ``free``  uint64[N + 1, 2]  unvisited squares once number k stands.
* ``pend``  uint64[N + 1, 2]  tied options at number k not explored yet.
* ``ntied`` int8[N + 1]   how many options were tied at number k (0 or 1: no tie).
* ``ties``  int32[N + 1]  numbers whose ``pend`` is not empty, ascending.
* ``st``    int64[ST_SIZE] scalars, slots ``ST_*``.
"""
from __future__ import annotations

import numpy as np

from ...system.jit import njit
from .rule_kernel import forced, low, pop_into, step, tied, without_low

# events
DONE, BUDGET, BAD_PREFIX = 1, 2, 3
# phases (count_loop ends on a leaf with no tie open; count_run in PH_DONE)
PH_RUN, PH_LEAF, PH_DONE = 0, 1, 2
# scalar slots
ST_K, ST_PHASE, ST_NTIE, ST_TOURS, ST_CLOSED, ST_DEAD, ST_FORWARD, ST_ROOT, ST_N = range(9)
ST_SIZE = 9


@njit
def count_begin(att: np.ndarray, mtype: np.ndarray, n: int, start: int, prefix: np.ndarray,
                path: np.ndarray, free: np.ndarray, pend: np.ndarray, ntied: np.ndarray,
                ties: np.ndarray, st: np.ndarray) -> int:
    """Fresh state with ``start`` numbered 1, then follow ``prefix`` (int8[d], move types
    taken at the first d ties). Returns DONE with the state on the root of the subtree
    (not expanded yet), or BAD_PREFIX when a prefix entry is not a tied option there or the
    path ends before the prefix does."""
    for i in range(st.shape[0]):
        st[i] = 0
    for j in range(n + 1):
        ntied[j] = 0
        pend[j, 0] = 0
        pend[j, 1] = 0
    path[1] = start
    free[1, 0] = 0
    free[1, 1] = 0
    one = np.uint64(1)
    for s in range(n):
        if s != start:
            if s < 64:
                free[1, 0] |= one << np.uint64(s)
            else:
                free[1, 1] |= one << np.uint64(s - 64)
    k = 1
    i = 0
    while i < prefix.shape[0]:
        if k == n:
            return BAD_PREFIX
        q = path[k]
        t0, t1, nt = tied(att, q, free[k, 0], free[k, 1])
        if nt == 0:
            return BAD_PREFIX
        c = -1
        if nt == 1:
            c = low(t0, t1)
        else:
            ntied[k] = nt
            while t0 or t1:
                b = low(t0, t1)
                t0, t1 = without_low(t0, t1)
                if mtype[q, b] == prefix[i]:
                    c = b
            if c < 0:
                return BAD_PREFIX
            i += 1
        step(path, free, k, c)
        k += 1
    st[ST_K] = k
    st[ST_ROOT] = k
    st[ST_N] = n
    st[ST_PHASE] = PH_RUN
    return DONE


@njit
def next_tie(att: np.ndarray, mtype: np.ndarray, path: np.ndarray, free: np.ndarray,
             st: np.ndarray, out_types: np.ndarray) -> int:
    """From the root of a fresh :func:`count_begin` state, the move types (ascending) tied at
    the next tie, written to ``out_types`` (int8[8]), its number to ``st[ST_K]``; returns how
    many (0: a tour or a dead end comes first). Uses ``path``/``free`` beyond the root as
    scratch; call :func:`count_begin` again before :func:`count_run`."""
    k = st[ST_K]
    n = st[ST_N]
    while k < n:
        q = path[k]
        t0, t1, nt = tied(att, q, free[k, 0], free[k, 1])
        if nt == 0:
            return 0
        if nt >= 2:
            got = 0
            while t0 or t1:
                out_types[got] = mtype[q, low(t0, t1)]
                t0, t1 = without_low(t0, t1)
                got += 1
            out_types[:got].sort()
            st[ST_K] = k
            return got
        c = low(t0, t1)
        step(path, free, k, c)
        k += 1
    return 0


@njit
def _forced(att: np.ndarray, path: np.ndarray, free: np.ndarray, ntied: np.ndarray, k: int,
            n: int) -> tuple:
    """:func:`~knightgui_core.tietree.counting.rule_kernel.forced` as a function of its
    own (count_loop's call; see its docstring)."""
    return forced(att, path, free, ntied, k, n)


# ---- the per-node work of the plain count: the visitor the loop below is written with.
# Another use (memo_kernel: the transposition table) gets its own copy of the loop from
# knightgui_core.system.jit.specialise with these five names bound to its functions. ``V``
# is the visitor's data (here ``st`` itself), ``P`` what it reads from it once per call.

@njit(inline="always")
def visit_setup(V: np.ndarray, st: np.ndarray) -> int:
    """The plain count reads nothing beforehand."""
    return 0


@njit(inline="always")
def visit_tour(V: np.ndarray, P: int, top: int, closed: bool) -> None:
    """A tour (closed when its last square is a knight move from the start), below the
    innermost open tie ``top``."""
    V[ST_TOURS] += 1
    if closed:
        V[ST_CLOSED] += 1


@njit(inline="always")
def visit_dead(V: np.ndarray, P: int, top: int, k: int) -> None:
    """A dead end at number ``k``."""
    V[ST_DEAD] += 1


@njit(inline="always")
def visit_tie(V: np.ndarray, P: int, st: np.ndarray, path: np.ndarray, free: np.ndarray,
              k: int, top: int, fwd: int) -> bool:
    """A tie at number ``k``: True when the subtree below it is known already (the loop
    does not enter it), else the tie is opened. The plain count knows nothing."""
    return False


@njit(inline="always")
def visit_close(V: np.ndarray, P: int, st: np.ndarray, path: np.ndarray, free: np.ndarray,
                ntied: np.ndarray, kk: int, parent: int, fwd: int) -> None:
    """The tie at number ``kk`` is finished (every option followed); ``parent`` is the tie
    above it (0: the root)."""


@njit
def count_loop(att: np.ndarray, close: np.ndarray, path: np.ndarray, free: np.ndarray,
               pend: np.ndarray, ntied: np.ndarray, ties: np.ndarray, st: np.ndarray,
               V: np.ndarray, max_steps: int) -> int:
    """The count by states, written once: run the subtree below ``st[ST_ROOT]`` up to the
    first leaf after ``max_steps`` forward moves, handing each leaf and each tie to the
    visitor (``visit_*``). Returns DONE or BUDGET.

    Not folded into ``enumerate_kernel.search``: the table's visitor needs four hooks that
    loop lacks, and with them it is 1.1–1.3× slower (``bench/table.py``). The forced moves run
    in :func:`_forced` so that the square and the unvisited set stay in registers, the rule's
    helpers inlined: the same machine code whatever numba's cache held (``bench/table.py``)."""
    one = np.uint64(1)
    P = visit_setup(V, st)
    k = st[ST_K]
    phase = st[ST_PHASE]
    ntie = st[ST_NTIE]
    fwd = st[ST_FORWARD]
    n = st[ST_N]
    steps = 0
    event = np.int64(BUDGET)
    t0 = np.uint64(0)
    t1 = np.uint64(0)
    nt = np.int64(0)
    while True:
        if phase == PH_RUN:
            # the forced moves, in a function of their own, up to a leaf or a tie
            k0 = k
            k, t0, t1, nt = _forced(att, path, free, ntied, k, n)
            steps += k - k0
            fwd += k - k0
            phase = np.int64(PH_LEAF)
            if k == n:
                q = path[k]
                if q < 64:
                    is_closed = (close[0] >> np.uint64(q)) & one
                else:
                    is_closed = (close[1] >> np.uint64(q - 64)) & one
                visit_tour(V, P, ties[ntie - 1] if ntie > 0 else 0, is_closed != 0)
                continue
            if nt == 0:
                visit_dead(V, P, ties[ntie - 1] if ntie > 0 else 0, k)
                continue
            if visit_tie(V, P, st, path, free, k, ties[ntie - 1] if ntie > 0 else 0, fwd):
                continue
            ties[ntie] = k
            ntie += 1
            c = pop_into(pend, k, t0, t1)
        else:
            # close every tie whose options are all done, innermost first
            while ntie > 0:
                kk = ties[ntie - 1]
                if pend[kk, 0] != 0 or pend[kk, 1] != 0:
                    break
                ntie -= 1
                visit_close(V, P, st, path, free, ntied, kk, ties[ntie - 1] if ntie > 0 else 0,
                            fwd)
            if ntie == 0:
                event = np.int64(DONE)
                break
            if steps >= max_steps:
                break
            k = ties[ntie - 1]
            c = pop_into(pend, k, pend[k, 0], pend[k, 1])
        phase = np.int64(PH_RUN)
        step(path, free, k, c)
        k += 1
        steps += 1
        fwd += 1
    st[ST_K] = k
    st[ST_PHASE] = phase
    st[ST_NTIE] = ntie
    st[ST_FORWARD] = fwd
    return event


@njit
def count_run(att: np.ndarray, close: np.ndarray, path: np.ndarray, free: np.ndarray,
              pend: np.ndarray, ntied: np.ndarray, ties: np.ndarray, st: np.ndarray,
              max_steps: int) -> int:
    """Run the subtree below ``st[ST_ROOT]`` up to the first leaf after ``max_steps``
    forward moves, counting tours, closed tours and dead ends into ``st``; ``close``
    uint64[2] = squares a knight move from the start. Returns DONE or BUDGET.

    A hand-kept copy of :func:`count_loop` with the plain visitor: the reference
    ``bench/table.py`` measures against and tests/core/test_memo_count.py holds the shared
    loop to. It drops a tie once its last option is taken, where the loop keeps it open until
    its subtree is done; both take the same time (``bench/table.py``'s ``loop_against_copy``)."""
    one = np.uint64(1)
    k = st[ST_K]
    phase = st[ST_PHASE]
    ntie = st[ST_NTIE]
    tours = st[ST_TOURS]
    closed = st[ST_CLOSED]
    dead = st[ST_DEAD]
    fwd = st[ST_FORWARD]
    n = st[ST_N]
    steps = 0
    event = np.int64(BUDGET)
    while True:
        if phase == PH_RUN:
            q = path[k]
            if k == n:
                tours += 1
                if q < 64:
                    if (close[0] >> np.uint64(q)) & one:
                        closed += 1
                elif (close[1] >> np.uint64(q - 64)) & one:
                    closed += 1
                phase = np.int64(PH_LEAF)
                continue
            t0, t1, nt = tied(att, q, free[k, 0], free[k, 1])
            if nt == 0:
                dead += 1
                phase = np.int64(PH_LEAF)
                continue
            c = low(t0, t1)
            if t0:
                t0 &= t0 - one
            else:
                t1 &= t1 - one
            ntied[k] = nt
            if nt > 1:
                pend[k, 0] = t0
                pend[k, 1] = t1
                ties[ntie] = k
                ntie += 1
        elif phase == PH_LEAF:
            if ntie == 0:
                phase = np.int64(PH_DONE)
                event = np.int64(DONE)
                break
            if steps >= max_steps:
                break
            k = ties[ntie - 1]
            c = pop_into(pend, k, pend[k, 0], pend[k, 1])
            if pend[k, 0] == 0 and pend[k, 1] == 0:
                ntie -= 1
            phase = np.int64(PH_RUN)
        else:
            event = np.int64(DONE)
            break
        step(path, free, k, c)
        k += 1
        steps += 1
        fwd += 1
    st[ST_K] = k
    st[ST_PHASE] = phase
    st[ST_NTIE] = ntie
    st[ST_TOURS] = tours
    st[ST_CLOSED] = closed
    st[ST_DEAD] = dead
    st[ST_FORWARD] = fwd
    return event
