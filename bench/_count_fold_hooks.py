"""The tie-tree search as it would have to become to take the count by states' visitors
(bench/count_fold.py): ``enumerate_kernel.search`` with the four hooks ``count_loop`` gives
its visitor (a tour with the innermost open tie, a dead end, a tie that may be known already,
a tie closed once its whole subtree is done) and its ties kept open until then, as the table
needs. Only the measurement uses it; nothing in the engine imports it.
"""
from __future__ import annotations

import numpy as np

from knightgui_core.system.jit import njit
from knightgui_core.tietree.enumeration.search_rule_kernel import first_choice, store_ties

EXHAUSTED, BUDGET = 2, 3
PH_RUNNING, PH_LEAF = 0, 1
ST_K, ST_PHASE, ST_NTIE, ST_FORWARD, ST_L = 0, 1, 2, 6, 8   # the count's slots


@njit(inline="always")
def closes(x0, x1, x2, x3, x4, q):
    """Is the tour ending on ``q`` closed (``x3``: the squares a move from the start)?"""
    if q < 64:
        return (x3[0] >> np.uint64(q)) & np.uint64(1) != 0
    return (x3[1] >> np.uint64(q - 64)) & np.uint64(1) != 0


@njit
def search_hooked(nbr, nl, ntype, x0, x1, x2, x3, x4, path, mo, ties, ntied, st,
                  V, max_steps):
    """The search loop with the count's visitor hooks; returns EXHAUSTED or BUDGET."""
    P = visit_setup(V, st)     # noqa: F821 - bound by specialise
    k = st[ST_K]
    phase = st[ST_PHASE]
    L = st[ST_L]
    ntie = st[ST_NTIE]
    fwd = st[ST_FORWARD]
    steps = 0
    event = np.int64(BUDGET)
    r0, r1 = held(x0, x1, x2, x3, x4, k)     # noqa: F821
    while True:
        if phase == PH_RUNNING:
            q = path[k]
            top = ties[ntie - 1] if ntie > 0 else 0
            if k == L:
                phase = np.int64(PH_LEAF)
                visit_tour(V, P, top, closes(x0, x1, x2, x3, x4, q))   # noqa: F821
                continue
            if steps >= max_steps:
                break
            mask = tie_mask(nl, x0, x1, x2, x3, x4, q, r0, r1)   # noqa: F821
            if mask == 0:
                visit_dead(V, P, top, k)     # noqa: F821
                phase = np.int64(PH_LEAF)
                continue
            hi = first_choice(mask)
            n = store_ties(mo, k, mask, hi, ntype, q)
            if n != 0:
                if visit_tie(V, P, st, path, x2, k, top, fwd):   # noqa: F821
                    phase = np.int64(PH_LEAF)
                    continue
                mo[k, 0] = n
                ntied[k] = n + 1
                ties[ntie] = k
                ntie += 1
            c = nl[q, hi]
        else:
            while ntie > 0:          # close every tie whose options are all done
                kk = ties[ntie - 1]
                if mo[kk, 0] != 0:
                    break
                ntie -= 1
                visit_close(V, P, st, path, x2, ntied, kk,   # noqa: F821
                            ties[ntie - 1] if ntie > 0 else 0, fwd)
            if ntie == 0:
                event = np.int64(EXHAUSTED)
                break
            if steps >= max_steps:
                break
            kb = ties[ntie - 1]
            r0, r1 = back_to(x0, x1, x2, x3, x4, path, k, kb, r0, r1)   # noqa: F821
            n = mo[kb, 0]
            t = mo[kb, n]
            mo[kb, n] = 0
            mo[kb, 0] = n - 1
            k = kb
            c = nbr[path[kb], t - 1]
            phase = np.int64(PH_RUNNING)
        k += 1
        path[k] = c
        r0, r1 = step_to(x0, x1, x2, x3, x4, c, k, r0, r1)   # noqa: F821
        steps += 1
        fwd += 1
    st[ST_K] = k
    st[ST_PHASE] = phase
    st[ST_NTIE] = ntie
    st[ST_FORWARD] = fwd
    return event
