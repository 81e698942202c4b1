"""The table's count over many subtrees at once (:mod:`.interleave_kernel`'s wrapper).

:func:`~knightgui_core.tietree.counting.subtrees.count_subtrees` hands its work here when it
has a table and no dead-end lengths: the subtrees asked for are cut a few ties further
(:func:`expand`) until :data:`CONTEXTS` searches stay busy to the end, and the kernel walks
that many in turn. The counts are one search's, to the last tour (the probabilities equal to
rounding). When the budget runs out each search stands on a tie it has just opened: its open
ties' sums are counted (``memo_fold``), the options on its tie stack, then the subtrees not
started, are ``rest``.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...system.control import CancelLike, cancel_requested
from . import count_kernel as _k
from . import interleave_kernel as _i
from . import memo_kernel as _m
from .board import CountBoard, SubtreeCount, children, left_of
from .table import TransTable

__all__ = ["CONTEXTS", "SUBTREES_PER_CONTEXT", "count_many", "expand"]

#: searches walked in turn: eight gain the most over one search; four gain less and sixteen
#: no more (``bench/table.py``)
CONTEXTS = 8
#: the subtrees asked for are cut until there are this many per context (or no tie is left
#: to cut at): a search that finishes takes the next subtree, and the last ones to finish run
#: with fewer searches beside them, so many small subtrees keep the end short
SUBTREES_PER_CONTEXT = 64
#: ...but never more than this many ties below a subtree asked for
MAX_CUT = 16


def expand(cb: CountBoard, start: int, prefixes: list[tuple], want: int) -> list[tuple]:
    """``prefixes`` cut one tie further, all of them at a time, until there are at least
    ``want`` (or :data:`MAX_CUT` rounds, or no tie left with at least half the board
    unvisited: below that a subtree is small, and the table should see it whole): in order,
    each prefix replaced by its children, so the result partitions the same subtrees."""
    level = list(prefixes)
    for _ in range(MAX_CUT):
        if len(level) >= want:
            break
        nxt: list[tuple] = []
        for p in level:
            kids, k = children(cb, start, p)
            nxt.extend(kids if kids and 2 * (cb.n - k) >= cb.n else [p])
        if len(nxt) == len(level):
            break
        level = nxt
    return level


def count_many(cb: CountBoard, start: int, prefixes: Sequence[Sequence[int]], budget: int,
               cancel: CancelLike, chunk: int, table: TransTable) -> SubtreeCount:
    """What ``count_subtrees(cb, start, prefixes, budget, cancel, chunk, table)`` counts
    (no lengths), with :data:`CONTEXTS` searches in turn."""
    out = SubtreeCount()
    subs = expand(cb, start, [tuple(p) for p in prefixes], CONTEXTS * SUBTREES_PER_CONTEXT)
    if not subs:
        return out
    n = cb.n
    nctx = min(CONTEXTS, len(subs))
    depth = max(1, max(len(p) for p in subs))
    prefs = np.zeros((len(subs), depth), dtype=np.int8)
    plen = np.zeros(len(subs), dtype=np.int64)
    for j, p in enumerate(subs):
        prefs[j, :len(p)] = p
        plen[j] = len(p)
    rows = nctx * (n + 1)
    board = _i.Start(cb.att, cb.mtype, cb.att[start].copy(), n, start)
    subtrees = _i.Subtrees(prefs, plen, np.zeros(1, dtype=np.int64))
    stacks = _i.Stacks(path=np.zeros(rows, dtype=np.int32),
                       unvisited=np.zeros((rows, 2), dtype=np.uint64),
                       onward=np.zeros((rows, 2), dtype=np.uint64),
                       tie_width=np.zeros(rows, dtype=np.int8),
                       ties=np.zeros(rows, dtype=np.int32),
                       scratch=np.zeros(_k.ST_SIZE, dtype=np.int64))
    # no dead-end lengths here: their columns are one wide and go untouched
    sums = _m.TieSums(counts=np.zeros((rows, 3), dtype=np.int64),
                      chances=np.zeros((rows, 2), dtype=np.float64),
                      dead_lengths=np.zeros((rows, 1), dtype=np.int64),
                      dead_length_p=np.zeros((rows, 1), dtype=np.float64),
                      opened_at=np.zeros(rows, dtype=np.int64))
    contexts = _i.Contexts(np.zeros((_i.CX_SIZE, nctx), dtype=np.int64),
                           np.zeros(nctx, dtype=np.float64))
    totals = _i.Totals(np.zeros(_i.TOT_SIZE, dtype=np.int64), np.zeros(2, dtype=np.float64))
    ring = np.zeros((_i.RING, 8), dtype=np.uint64)
    flight = _i.Ring(ring, ring.view(np.float64), np.zeros(_i.RING, dtype=np.int64))
    for s in range(nctx):
        _i.many_begin(board, subtrees, stacks, sums, contexts, s)
    tot_i, tot_f = totals
    left = int(budget)
    ev = _i.BUDGET
    while left > 0:
        f0 = int(tot_i[_i.TOT_FORWARD])
        new0 = int(tot_i[_i.TOT_NEW])
        ev = _i.many_run(board, subtrees, table.record, stacks, sums, contexts, totals, flight,
                         min(left, int(chunk)))
        left -= int(tot_i[_i.TOT_FORWARD]) - f0
        table.filled += int(tot_i[_i.TOT_NEW]) - new0
        table.grow_if_full()
        if ev == _i.DONE or cancel_requested(cancel):
            break
    out.tours, out.closed, out.dead_ends = (int(x) for x in tot_i[:3])
    out.p_success, out.p_closed = float(tot_f[0]), float(tot_f[1])
    out.forward_moves = int(tot_i[_i.TOT_FORWARD])
    out.probes = int(tot_i[_i.TOT_PROBES])
    out.hits = int(tot_i[_i.TOT_HITS])
    if ev != _i.DONE:
        _stopped(cb, subs, subtrees, stacks, sums, contexts, out)
    return out


def _stopped(cb: CountBoard, subs: list[tuple], subtrees: _i.Subtrees, stacks: _i.Stacks,
             sums: _m.TieSums, contexts: _i.Contexts, out: SubtreeCount) -> None:
    """Stopped within the budget: each live search's counts so far into ``out``, and its
    options left, then the subtrees not started, into ``out.rest``. A search stands either on
    the tie it has just opened (its lookup in flight is dropped) or, not walked yet, on the
    root of its subtree."""
    n = cb.n
    cx, cw = contexts
    oi = np.zeros(3, np.int64)
    of = np.zeros(2, np.float64)
    ol = np.zeros(1, np.int64)
    olp = np.zeros(1, np.float64)
    for s in range(cx.shape[1]):
        if cx[_i.CX_LIVE, s] == 0:
            continue
        if cx[_i.CX_PHASE, s] == _i.PH_RUN:
            out.rest.append(subs[int(cx[_i.CX_PREFIX, s])])   # begun, not walked yet
            continue
        rows = slice(s * (n + 1), (s + 1) * (n + 1))
        ntie = int(cx[_i.CX_NTIE, s])
        _m.memo_fold(n, ntie, stacks.ties[rows], stacks.tie_width[rows],
                     _m.TieSums(*(a[rows] for a in sums)), oi, of, ol, olp)
        out.tours += int(oi[0])
        out.closed += int(oi[1])
        out.dead_ends += int(oi[2])
        out.p_success += float(cw[s]) * float(of[0])
        out.p_closed += float(cw[s]) * float(of[1])
        out.rest.extend(left_of(stacks.path[rows], stacks.tie_width[rows], stacks.ties[rows],
                                stacks.onward[rows], cb.mtype, int(cx[_i.CX_K, s]) - rows.start,
                                ntie))
    out.rest.extend(subs[int(subtrees.next[0]):])
