"""The transposition-table count against a second, plain implementation.

``plain`` below is the definition written out in Python with exact fractions: from a state
(square, unvisited squares), the tied squares are the unvisited neighbours with the fewest
unvisited neighbours of their own; a walk that picks one of them uniformly at random ends in
a tour with the mean probability of its choices. It shares nothing with the kernels but the
board's neighbour table, and is checked itself on boards small enough to work out by hand.
"""
from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest

from knightgui_core.board.squares import Board
from knightgui_core.studies.count_study import CountOptions, run_count
from knightgui_core.tietree.counting import count_kernel, memo_kernel
from knightgui_core.tietree.counting import table as table_module
from knightgui_core.tietree.counting.subtrees import CountBoard, count_subtrees, split
from knightgui_core.tietree.counting.table import TableError, TransTable, default_table_bytes, table_bytes


def plain(rows: int, cols: int, start: int):
    """(tours, closed, dead ends, P(tour), P(closed tour), {squares visited: [dead ends,
    probability]}) from ``start``, by plain recursion with exact fractions."""
    b = Board(rows, cols)
    n = b.size
    nbr = [[int(u) for u in b.neighbours[s] if u >= 0] for s in range(n)]
    closing = set(nbr[start])

    @cache
    def go(q: int, free: int):
        visited = n - bin(free).count("1")
        if free == 0:
            c = int(q in closing)
            return 1, c, 0, Fraction(1), Fraction(c), ()
        cand = [u for u in nbr[q] if free >> u & 1]
        if not cand:
            return 0, 0, 1, Fraction(0), Fraction(0), ((visited, 1, Fraction(1)),)
        score = {u: sum(1 for v in nbr[u] if free >> v & 1) for u in cand}
        best = min(score.values())
        tied = [u for u in cand if score[u] == best]
        tours = closed = dead = 0
        p = pc = Fraction(0)
        lens: dict[int, list] = {}
        for u in tied:
            t, c, d, pu, pcu, lu = go(u, free & ~(1 << u))
            tours, closed, dead = tours + t, closed + c, dead + d
            p += pu / len(tied)
            pc += pcu / len(tied)
            for k, paths, prob in lu:
                cell = lens.setdefault(k, [0, Fraction(0)])
                cell[0] += paths
                cell[1] += prob / len(tied)
        return tours, closed, dead, p, pc, tuple((k, v[0], v[1]) for k, v in sorted(lens.items()))

    t, c, d, p, pc, lens = go(start, ((1 << n) - 1) & ~(1 << start))
    return t, c, d, p, pc, {k: [paths, prob] for k, paths, prob in lens}


def test_the_plain_count_on_boards_worked_out_by_hand():
    # 1×1: the start is the tour
    assert plain(1, 1, 0)[:5] == (1, 0, 0, 1, 0)
    # 3×3 from a corner: the centre is out of reach; the first move ties between the two
    # squares a knight move away (one onward exit each), and each way round the ring of
    # eight squares gets stuck with the centre left: two dead ends after 8 squares
    t, c, d, p, pc, lens = plain(3, 3, 0)
    assert (t, c, d, p, pc) == (0, 0, 2, 0, 0) and lens == {8: [2, 1]}
    # 3×4 from a1: the known open tours of the 3×4 board that Warnsdorff's rule allows
    t, c, d, p, pc, lens = plain(3, 4, 0)
    assert t >= 1 and 0 < p <= 1 and sum(v[1] for v in lens.values()) + p == 1


def _check(rows, cols, start, r, want, tol=1e-12):
    t, c, d, p, pc, lens = want
    assert (r.tours, r.closed, r.dead_ends) == (t, c, d), (rows, cols, start)
    assert abs(r.p_success - float(p)) <= tol and abs(r.p_closed - float(pc)) <= tol
    if r.lengths or lens:
        assert {k: v[0] for k, v in r.lengths.items()} == {k: v[0] for k, v in lens.items()}
        for k, v in lens.items():
            assert abs(r.lengths[k][1] - float(v[1])) <= tol


@pytest.mark.parametrize("rows,cols", [(5, 5), (6, 6), (4, 5), (3, 7), (5, 6)])
def test_every_start_matches_the_plain_count_with_and_without_a_table(rows, cols):
    cb = CountBoard(rows, cols)
    table = TransTable(cb.n, 1 << 22, memo_min=3)
    ltable = TransTable(cb.n, 1 << 22, memo_min=3, lengths=True)
    for s in range(cb.n):
        want = plain(rows, cols, s)
        _check(rows, cols, s, count_subtrees(cb, s, [()]), want[:5] + ({},))
        _check(rows, cols, s, count_subtrees(cb, s, [()], table=table), want[:5] + ({},))
        _check(rows, cols, s, count_subtrees(cb, s, [()], table=ltable, lengths=True), want)
        _check(rows, cols, s, count_subtrees(cb, s, [()], lengths=True), want)
    assert table.used() > 0


@pytest.mark.parametrize("budget", [1, 7, 300])
def test_split_subtrees_and_a_stopped_count_add_up_to_the_whole(budget):
    """Prefixes weigh 1 / the width of each tie they pass, and a count stopped by its budget
    hands back the rest: the pieces add up to the whole, probabilities included."""
    cb = CountBoard(6, 6)
    table = TransTable(cb.n, 1 << 22, memo_min=3, lengths=True)
    for s in (0, 7, 14):
        want = plain(6, 6, s)
        tot = count_subtrees(cb, s, [()], lengths=True)
        todo = split(cb, s, 2)
        acc = {"t": 0, "c": 0, "d": 0, "p": 0.0, "pc": 0.0}
        lens: dict[int, list] = {}
        rounds = 0
        while todo:
            rounds += 1
            r = count_subtrees(cb, s, todo[:3], budget, table=table, lengths=True)
            todo = r.rest + todo[3:]
            acc["t"] += r.tours
            acc["c"] += r.closed
            acc["d"] += r.dead_ends
            acc["p"] += r.p_success
            acc["pc"] += r.p_closed
            for k, v in r.lengths.items():
                cell = lens.setdefault(k, [0, 0.0])
                cell[0] += v[0]
                cell[1] += v[1]
        assert (acc["t"], acc["c"], acc["d"]) == (tot.tours, tot.closed, tot.dead_ends)
        assert abs(acc["p"] - float(want[3])) < 1e-12 and abs(acc["pc"] - float(want[4])) < 1e-12
        assert {k: v[0] for k, v in lens.items()} == {k: v[0] for k, v in want[5].items()}
        assert budget > 100 or rounds > 1


def test_a_full_table_evicts_and_stays_exact():
    """A table of a few buckets is full at once: entries are replaced all the time, and every
    count still equals the plain walk's (the old kernel, count_run, is the reference)."""
    cb = CountBoard(7, 7)
    tiny = TransTable(cb.n, 4096, memo_min=2)
    assert 0 < tiny.max_buckets <= 32
    ref = CountBoard(7, 7)
    for s in range(0, cb.n, 3):
        r = count_subtrees(cb, s, [()], table=tiny)
        ref._begin(s, ())
        close = ref.att[s].copy()
        assert count_kernel.count_run(ref.att, close, ref.path, ref.free, ref.pend, ref.ntied,
                                      ref.ties, ref.st, 1 << 62) == count_kernel.DONE
        st = ref.st
        assert (r.tours, r.closed, r.dead_ends) == (int(st[count_kernel.ST_TOURS]),
                                                    int(st[count_kernel.ST_CLOSED]),
                                                    int(st[count_kernel.ST_DEAD]))
        assert r.forward_moves <= int(st[count_kernel.ST_FORWARD])
    assert tiny.used() <= tiny.entries and tiny.buckets == tiny.max_buckets


@pytest.mark.parametrize("rows,cols", [(5, 5), (6, 6), (5, 6)])
def test_the_shared_loop_with_the_plain_visitor_counts_as_count_run(rows, cols):
    """count_kernel.count_loop with its own (plain) visitor, the loop the table's copy is
    made from, gives count_run's counts and forward moves, also when stopped and resumed."""
    for s in range(0, rows * cols, 2):
        got = []
        for run in ("copy", "loop"):
            cb = CountBoard(rows, cols)
            cb._begin(s, ())
            close = cb.att[s].copy()
            ev = count_kernel.BUDGET
            while ev != count_kernel.DONE:
                if run == "copy":
                    ev = count_kernel.count_run(cb.att, close, cb.path, cb.free, cb.pend,
                                                cb.ntied, cb.ties, cb.st, 37)
                else:
                    ev = count_kernel.count_loop(cb.att, close, cb.path, cb.free, cb.pend,
                                                 cb.ntied, cb.ties, cb.st, cb.st, 37)
            st = cb.st
            got.append(tuple(int(st[i]) for i in (count_kernel.ST_TOURS, count_kernel.ST_CLOSED,
                                                  count_kernel.ST_DEAD, count_kernel.ST_FORWARD)))
        assert got[0] == got[1] and got[0][0] + got[0][2] > 0


def test_a_table_grows_when_it_keeps_replacing_entries_and_stops_at_its_limit(monkeypatch):
    """A count that needs more room than the table has (here 9×9 from c3 in a table that
    starts at 64 buckets) doubles it until its limit; each doubling came after the table
    replaced GROW_EVICTIONS times its entries (evictions_to_grow: 81 squares, no eager rule)."""
    monkeypatch.setattr(table_module, "START_BUCKETS", 64)
    cb = CountBoard(9, 9)
    t = TransTable(cb.n, 128 << 10, memo_min=2)
    assert t.buckets == 64
    r = count_subtrees(cb, "c3", [()], table=t)
    assert r.tours == 1_006_914
    assert t.buckets == t.max_buckets > 64 and t.limit_bytes <= 128 << 10
    assert t.used() == t.filled
    assert t.evictions_to_grow() == table_module.GROW_EVICTIONS * t.entries
    assert int(t.cfg[memo_kernel.CF_EVICTED]) >= table_module.GROW_EVICTIONS * t.entries / 2


def test_a_half_full_table_grows_only_once_it_has_replaced_enough_entries():
    """More than half full is not enough: the table doubles when its evictions since the last
    doubling reach GROW_EVICTIONS times its entries (or when every entry is in use)."""
    t = TransTable(36, 1 << 28)
    first = t.buckets
    t.filled = t.entries - 1
    assert not t.grow_if_full() and t.buckets == first
    t.cfg[memo_kernel.CF_EVICTED] = int(table_module.GROW_EVICTIONS * t.entries) - 1
    assert not t.grow_if_full()
    t.cfg[memo_kernel.CF_EVICTED] += 1
    assert t.grow_if_full() and t.buckets == 2 * first
    t.filled = t.entries - 1            # evictions counted again from the doubling
    assert not t.grow_if_full()
    t.filled = t.entries                # every entry in use: it doubles
    assert t.grow_if_full() and t.buckets == 4 * first


def test_a_small_table_of_a_big_board_doubles_after_fewer_evictions(monkeypatch):
    """On a board of EAGER_SQUARES squares or more, a half-full table below EAGER_BYTES
    doubles once it has replaced GROW_EVICTIONS_EAGER times its entries; from EAGER_BYTES on
    (and on smaller boards at any size), GROW_EVICTIONS times."""
    assert table_module.GROW_EVICTIONS_EAGER < table_module.GROW_EVICTIONS
    small_board = TransTable(table_module.EAGER_SQUARES - 1, 1 << 28)
    assert small_board.evictions_to_grow() == table_module.GROW_EVICTIONS * small_board.entries
    t = TransTable(table_module.EAGER_SQUARES, 1 << 28)
    monkeypatch.setattr(table_module, "EAGER_BYTES", 2 * t.bytes)
    first = t.buckets
    t.filled = t.entries - 1
    t.cfg[memo_kernel.CF_EVICTED] = int(table_module.GROW_EVICTIONS_EAGER * t.entries)
    assert t.grow_if_full() and t.buckets == 2 * first      # small: a quarter was enough
    assert t.bytes == table_module.EAGER_BYTES
    t.filled = t.entries - 1
    t.cfg[memo_kernel.CF_EVICTED] += int(table_module.GROW_EVICTIONS_EAGER * t.entries)
    assert not t.grow_if_full() and t.buckets == 2 * first  # big: a quarter is not
    t.cfg[memo_kernel.CF_EVICTED] += int(table_module.GROW_EVICTIONS * t.entries)
    assert t.grow_if_full() and t.buckets == 4 * first


def test_a_short_count_keeps_its_table_small():
    """9×9 from c3 (1,006,914 tours) fits the table a count starts with: no doubling, so a
    short count touches no more memory than it needs."""
    cb = CountBoard(9, 9)
    t = TransTable(cb.n, 1 << 30)
    first = t.buckets
    assert count_subtrees(cb, "c3", [()], table=t).tours == 1_006_914
    assert t.buckets == first < t.max_buckets


@pytest.mark.parametrize("lengths", [False, True])
def test_a_table_doubled_in_place_from_two_buckets_keeps_every_entry(monkeypatch, lengths):
    """The table starts at two buckets and doubles many times, in place (memo_rehash splits
    each bucket in two): no entry is lost, the counts stay the plain walk's, and counting the
    same start again finds its root in the table at once."""
    monkeypatch.setattr(table_module, "START_BUCKETS", 2)
    monkeypatch.setattr(table_module, "GROW_EVICTIONS", 0)     # doubles whenever half full
    cb = CountBoard(6, 6)
    t = TransTable(cb.n, 64 << 20, lengths=lengths, memo_min=2, width=37)
    assert t.buckets == 2
    want = count_subtrees(CountBoard(6, 6), 0, [()], table=None, lengths=lengths)
    got = count_subtrees(cb, 0, [()], table=t, lengths=lengths, chunk=50)
    assert t.buckets >= 64 and t.used() == t.filled
    again = count_subtrees(cb, 0, [()], table=t, lengths=lengths)
    for r in (got, again):
        assert (r.tours, r.closed, r.dead_ends) == (want.tours, want.closed, want.dead_ends)
        assert abs(r.p_success - want.p_success) < 1e-12
        assert r.lengths == want.lengths if lengths else r.lengths is None or not r.lengths
    assert again.hits >= 1 and again.forward_moves < got.forward_moves


def test_knuths_figures():
    """D. E. Knuth, TAOCP Pre-Fascicle 8A, "A greedy heuristic": with ties broken uniformly at
    random, a tour completes on 6×6 about 97.2 % of the time and on 8×8 about 97.9 %; the
    shortest 8×8 dead end, and its probability 0.0000038."""
    six = run_count(6, 6, "all", runner=_serial)
    assert round(100 * six.totals["p_success"], 1) == 97.2
    eight = run_count(8, 8, "all", runner=_serial, options=CountOptions(lengths=True))
    assert round(100 * eight.totals["p_success"], 1) == 97.9
    lens = eight.dead_end_lengths
    assert lens is not None
    shortest = min(lens, key=int)
    assert round(lens[shortest]["probability"], 7) == 0.0000038
    total = eight.totals["p_success"] + sum(v["probability"] for v in lens.values())
    assert abs(total - 1) < 1e-12


def _serial(tasks):
    from knightgui_core.run.runner import run_tasks
    return run_tasks(tasks, scheduler="threads", workers=1)


@pytest.mark.parametrize("bad", [0, -5, "nan", "inf", "lots", 1e12, True, ""])
def test_a_table_size_that_cannot_be_is_one_clear_error(bad):
    with pytest.raises(TableError) as e:
        table_bytes(bad)
    assert "\n" not in str(e.value) and "table size" in str(e.value)


def test_the_default_table_is_a_share_of_memory():
    assert (1 << 20) <= default_table_bytes()
    assert table_bytes("16") == 16 << 20
