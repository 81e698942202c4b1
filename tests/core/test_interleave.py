"""The table's count with several subtrees walked in turn (tietree/counting/interleave.py)
against the count with one search (the same wrapper with interleaving off) and against the
plain walk without a table: the same tours, closed tours and dead ends, probabilities equal to
rounding, whatever the number of searches, the budget or a cancel."""
from __future__ import annotations

import pytest

from knightgui_core.tietree.counting import bucket_kernel, interleave, interleave_kernel, memo_kernel
from knightgui_core.tietree.counting import subtrees as subtrees_module
from knightgui_core.tietree.counting.subtrees import CountBoard, count_subtrees
from knightgui_core.tietree.counting.table import TransTable


def _whole(rows, cols, start):
    return count_subtrees(CountBoard(rows, cols), start, [()])      # no table: one search


def _same(got, want, tol=1e-12):
    assert (got.tours, got.closed, got.dead_ends) == (want.tours, want.closed, want.dead_ends)
    assert abs(got.p_success - want.p_success) <= tol
    assert abs(got.p_closed - want.p_closed) <= tol


def _add_up(cb, start, budget, table, cancel=None, chunk=1 << 20):
    """Count ``start`` in pieces of ``budget`` forward moves, each piece's rest the next
    piece's work, and return the sums and the number of pieces."""
    todo: list = [()]
    tot = subtrees_module.SubtreeCount()
    pieces = 0
    while todo:
        r = count_subtrees(cb, start, todo, budget, table=table, cancel=cancel, chunk=chunk)
        tot.tours += r.tours
        tot.closed += r.closed
        tot.dead_ends += r.dead_ends
        tot.p_success += r.p_success
        tot.p_closed += r.p_closed
        todo = r.rest
        pieces += 1
        assert pieces < 200_000
    return tot, pieces


@pytest.mark.parametrize("contexts", [1, 2, 3, 8])
@pytest.mark.parametrize("rows,cols,start", [(6, 6, 0), (7, 7, 24), (8, 8, 27), (5, 7, 3)])
def test_any_number_of_searches_counts_the_same(monkeypatch, contexts, rows, cols, start):
    monkeypatch.setattr(interleave, "CONTEXTS", contexts)
    cb = CountBoard(rows, cols)
    table = TransTable(cb.n, 1 << 22, memo_min=4)
    got = count_subtrees(cb, start, [()], table=table)
    _same(got, _whole(rows, cols, start))
    assert got.rest == [] and table.used() > 0 and got.probes > 0


@pytest.mark.parametrize("chunk", [1 << 20, 300])
def test_every_store_is_in_the_table_when_the_kernel_returns(monkeypatch, chunk):
    """Stores wait in a ring while their buckets come from memory; each call of the kernel
    empties it before it returns (the table may double between calls): every entry that
    passed through the ring is in the table then (none is replaced in a table this big)."""
    run = interleave_kernel.many_run
    seen = {"calls": 0, "checked": 0}

    def checked_run(*args):
        ev = run(*args)
        table, flight = args[2], args[7]
        tab, cfg, ring, rb = table.entries, table.config, flight.entries, flight.buckets
        assert cfg[memo_kernel.CF_EVICTED] == 0
        for j in range(ring.shape[0]):
            if ring[j, 2] != 0:
                key = ring[j, 2] & bucket_kernel._KEY_MASK
                assert bucket_kernel._find(tab, int(rb[j]), ring[j, 0], ring[j, 1], key) >= 0
                seen["checked"] += 1
        seen["calls"] += 1
        return ev

    monkeypatch.setattr(interleave._i, "many_run", checked_run)
    cb = CountBoard(7, 7)
    table = TransTable(cb.n, 1 << 26, memo_min=4)
    table.grow_to_limit()
    got = count_subtrees(cb, 24, [()], table=table, chunk=chunk)
    _same(got, _whole(7, 7, 24))
    assert seen["checked"] >= 8 and (chunk > 1000 or seen["calls"] > 10)


def test_the_start_is_cut_into_subtrees_that_partition_it():
    """On 10×10 the start is cut into hundreds of subtrees, none inside another; on 8×8 the
    subtrees cut from a list of prefixes count, with the table, what the list does without."""
    cb = CountBoard(10, 10)
    subs = interleave.expand(cb, 3, [()], interleave.CONTEXTS * interleave.SUBTREES_PER_CONTEXT)
    assert len(subs) >= 300 and len(set(subs)) == len(subs)
    assert not any(a != b and b[:len(a)] == a for a in subs[:60] for b in subs)
    cb = CountBoard(8, 8)
    asked = interleave.expand(cb, 0, [()], 3)[:2]
    cut = interleave.expand(cb, 0, asked, 40)
    assert len(cut) >= 40 and all(any(p[:len(a)] == a for a in asked) for p in cut)
    want = count_subtrees(cb, 0, asked)                     # one search, no table
    _same(count_subtrees(cb, 0, asked, table=TransTable(cb.n, 1 << 22)), want)
    _same(count_subtrees(cb, 0, cut), want)


@pytest.mark.parametrize("rows,cols,start,budget", [(6, 6, 0, 1), (6, 6, 0, 7), (6, 6, 0, 300),
                                                    (7, 7, 24, 300), (7, 7, 24, 5_000),
                                                    (8, 8, 0, 5_000)])
def test_a_count_stopped_by_its_budget_hands_back_the_rest(monkeypatch, rows, cols, start,
                                                          budget):
    """However small the budget, the pieces add up to the whole: a search stopped on the tie
    it has just opened hands back every option of its stack, one not walked yet its own
    subtree, and the subtrees not started follow."""
    monkeypatch.setattr(subtrees_module, "MANY_BUDGET", 1)          # interleave at any budget
    monkeypatch.setattr(interleave, "SUBTREES_PER_CONTEXT", 2)      # keep the pieces few
    cb = CountBoard(rows, cols)
    table = TransTable(cb.n, 1 << 22, memo_min=4)
    tot, pieces = _add_up(cb, start, budget, table)
    _same(tot, _whole(rows, cols, start), tol=1e-9)
    assert budget > 1_000 or pieces > 1


def test_a_cancelled_count_hands_back_the_rest(monkeypatch):
    calls = {"n": 0}

    def cancel() -> bool:
        calls["n"] += 1
        return calls["n"] % 3 == 0

    cb = CountBoard(8, 8)
    table = TransTable(cb.n, 1 << 22)
    tot, pieces = _add_up(cb, 27, 1 << 40, table, cancel=cancel, chunk=20_000)
    _same(tot, _whole(8, 8, 27), tol=1e-9)
    assert pieces > 1


def test_small_budgets_and_dead_end_lengths_keep_one_search():
    """Below :data:`MANY_BUDGET` forward moves, or with lengths, the count is the one search's,
    forward move for forward move."""
    cb = CountBoard(7, 7)
    one = count_subtrees(cb, 24, [()], 1000, table=TransTable(cb.n, 1 << 22))
    again = count_subtrees(cb, 24, [()], 1000, table=TransTable(cb.n, 1 << 22))
    assert one.forward_moves == again.forward_moves and one.rest == again.rest
    assert one.forward_moves < 1000 + cb.n
    lens = count_subtrees(cb, 24, [()], table=TransTable(cb.n, 1 << 22, lengths=True),
                          lengths=True)
    assert lens.lengths and sum(v[0] for v in lens.lengths.values()) == lens.dead_ends
