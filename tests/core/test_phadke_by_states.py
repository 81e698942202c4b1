"""Phadke's study counted by the states of its tie trees (tietree/counting/bits_memo_kernel.py through
tietree/counting/bits_table.py) against the leaf-by-leaf kernel and a plain implementation.

``plain`` below is the rule written out in Python: from a node (square, unvisited squares),
a leaf when every free square is numbered (a solution when the knight stands on an end
square), else the candidates are the unvisited, unreserved neighbours, each scoring its
unvisited neighbours (reserved ones included) or 1 when it is a dashed cell; every candidate
with the lowest score is followed. It counts solutions, dead ends and forward moves and
shares nothing with the kernels but the board's neighbour table.
"""
from __future__ import annotations

import random
import threading
from functools import cache

import numpy as np
import pytest

from knightgui_core.board import dash as D
from knightgui_core.board.squares import Board
from knightgui_core.studies import phadke as P
from knightgui_core.tietree.counting import bits_table as BT
from knightgui_core.tietree.enumeration import bitboard_kernel as K64


def plain(b: Board, start: int, dashed: set[int], chain: tuple[int, ...]):
    """(solutions, dead ends, forward moves) of one algorithm by plain recursion."""
    nbr = [[int(u) for u in b.neighbours[s] if u >= 0] for s in range(b.size)]
    reserved = set(chain)
    ends = set(nbr[chain[0]])

    @cache
    def go(q: int, free: frozenset):
        todo = free - reserved
        if not todo:
            return (1, 0, 0) if q in ends else (0, 1, 0)
        cand = [u for u in nbr[q] if u in todo]
        if not cand:
            return 0, 1, 0
        score = {u: 1 if u in dashed else sum(1 for v in nbr[u] if v in free) for u in cand}
        best = min(score.values())
        sol = dead = fwd = 0
        for u in cand:
            if score[u] == best:
                s, d, f = go(u, free - {u})
                sol, dead, fwd = sol + s, dead + d, fwd + f + 1
        return sol, dead, fwd

    return go(start, frozenset(range(b.size)) - {start})


def _leaf_by_leaf(bat: P.AlgorithmBatch, idx: np.ndarray) -> np.ndarray:
    return bat.run(idx, by_states=False)


def _by_states(bat: P.AlgorithmBatch, idx: np.ndarray, table: BT.BitsTable) -> np.ndarray:
    return BT.count_by_states(bat.att, bat.starts[idx], bat.dash[idx], bat.endm[idx],
                              bat.free0[idx], bat.avail0[idx], table)


def _sample(step: int = 97) -> list[P.Algorithm]:
    algos = P.all_algorithms()
    # every family, and one whole group of a start, an end and no tail (the algorithms that
    # share the most), besides a stride through the list
    group = [a for a in algos if (a.start, a.end, a.tail) == ("d5", "c7", None)]
    return sorted({a.id: a for a in algos[::step] + group}.values(), key=lambda a: a.id)


def test_the_plain_counter_and_the_table_on_boards_worked_out_by_hand():
    # 3×3: the centre has no move and the other eight squares make one cycle,
    # a1 b3 c1 a2 c3 b1 a3 c2. With b2 and c2 reserved (c2 first: the last number must stand
    # on a1 or a3), every move from a1 is forced: b3 c1 a2 c3 b1 a3, one solution, 6 moves.
    b = Board(3, 3)
    sq = b.parse
    assert plain(b, sq("a1"), set(), (sq("c2"), sq("b2"))) == (1, 0, 6)
    # with only b2 reserved (no end square: it has no move), b3 and c2 tie from a1 (one
    # unvisited neighbour each): both ways round the cycle, 7 moves each, two dead ends
    assert plain(b, sq("a1"), set(), (sq("b2"),)) == (0, 2, 14)
    att = K64.attack_masks(b.neighbours)
    table = BT.BitsTable(1 << 20, memo_min=2)
    free = 0x1FF & ~1
    for chain, want in (((sq("c2"), sq("b2")), (1, 0, 6, 1)), ((sq("b2"),), (0, 2, 14, 1))):
        res = sum(1 << q for q in chain)
        got = BT.count_by_states(att, np.array([0]), np.zeros(1, np.uint64),
                                 np.array([att[chain[0]]], np.uint64),
                                 np.array([free], np.uint64), np.array([free & ~res], np.uint64),
                                 table)
        assert tuple(got[0]) == want


@pytest.mark.parametrize("rows, cols", [(5, 5), (5, 6), (6, 6)])
def test_by_states_matches_the_plain_counter_and_the_leaf_kernel_on_small_boards(rows, cols):
    b = Board(rows, cols)
    rng = random.Random(rows * 100 + cols)
    nbr = b.neighbours
    att = K64.attack_masks(nbr)
    table = BT.BitsTable(1 << 20, memo_min=4)
    for _ in range(12):
        start = rng.randrange(b.size)
        # a reserved chain of one to three squares, each a move from the next
        chain = [rng.choice([int(u) for u in nbr[start] if u >= 0])]
        for _ in range(rng.randrange(3)):
            nxt = [int(u) for u in nbr[chain[0]] if u >= 0 and u != start and u not in chain]
            if nxt:
                chain.insert(0, rng.choice(nxt))
        dashed = set(rng.sample(range(b.size), rng.randrange(4))) - {start}
        want = plain(b, start, dashed, tuple(chain))
        full = (1 << b.size) - 1
        free = full & ~(1 << start)
        res = sum(1 << q for q in chain)
        args = (np.array([start]), np.array([sum(1 << q for q in dashed)], dtype=np.uint64),
                np.array([att[chain[0]]], dtype=np.uint64), np.array([free], dtype=np.uint64),
                np.array([free & ~res], dtype=np.uint64))
        got = BT.count_by_states(att, *args, table)
        assert tuple(got[0, :3]) == want and got[0, 3] == 1
        # the kernel before the table, on the same inputs
        nl, ntype, ncount, _, _ = P._k.tables(nbr, ())
        out = np.zeros((1, 4), dtype=np.int64)
        K64.count_batch_bits(K64.bit_tables(nbr, nl, ntype, ncount, (), ()),
                             K64.Algorithms(args[0], np.array([b.size - len(chain)]), *args[1:]),
                             out)
        assert tuple(out[0, :3]) == want


@pytest.mark.parametrize("nbytes, memo_min", [(BT.DEFAULT_BYTES, BT.MEMO_MIN), (1 << 20, 2),
                                              (1 << 20, 40)])
def test_a_sample_of_phadke_algorithms_counts_as_leaf_by_leaf(nbytes, memo_min):
    """Every family, one algorithm in 97 and a whole group, with the default table, a tiny
    one looking up every tie (it fills and evicts), and one looking up only big subtrees."""
    algos = _sample()
    bat = P.AlgorithmBatch(algos)
    idx = np.arange(len(algos))
    want = _leaf_by_leaf(bat, idx)
    table = BT.BitsTable(nbytes, memo_min=memo_min)
    got = _by_states(bat, idx, table)
    assert {a.family for a in algos} == set(P.FAMILIES)
    assert np.array_equal(got, want)
    assert table.stats[BT._m.SS_HITS] > 0            # the table did serve
    if memo_min == 2:
        assert table.stats[BT._m.SS_EVICTED] > 0     # and was full
    # again through the same (now warm) table: the same counts, more of them from the table
    before = int(table.stats[BT._m.SS_FROM_TABLE])
    assert np.array_equal(_by_states(bat, idx, table), want)
    assert table.stats[BT._m.SS_FROM_TABLE] > before


@pytest.mark.slow
def test_every_phadke_algorithm_counts_as_leaf_by_leaf():
    algos = P.all_algorithms()
    bat = P.AlgorithmBatch(algos)
    idx = np.arange(len(algos))
    want = _leaf_by_leaf(bat, idx)
    got = P.run(algos).counts
    assert all(got[a.id] == tuple(int(x) for x in want[i, :3]) for i, a in enumerate(algos))


def test_the_study_run_equals_the_leaf_kernel_per_algorithm_in_threads():
    algos = [a for a in P.all_algorithms() if a.start == "b8"][::5]
    new = P.run(algos, workers=2)
    old = P.run(algos, workers=2, by_states=False)
    assert len(new.counts) == len(algos) and new.counts == old.counts


def test_batch_inputs_equal_the_dash_plan_of_each_algorithm():
    b = Board(8, 8)
    algos = P.all_algorithms()[::7]
    bat = P.AlgorithmBatch(algos)
    for i, a in enumerate(algos):
        S, E = b.parse(a.start), b.parse(a.end)
        tail = None if a.tail is None else tuple(b.parse(x) for x in a.tail)
        plan = D.plan(b, S, E, dict(a.dashes), tail)
        free = ((1 << 64) - 1) & ~(1 << S)
        res = sum(1 << q for q in plan.chain)
        assert (int(bat.starts[i]), int(bat.lens[i]), int(bat.dash[i]), int(bat.endm[i]),
                int(bat.free0[i]), int(bat.avail0[i])) == (
            S, 64 - len(plan.chain), sum(1 << q for q in plan.dashed),
            int(bat.att[plan.chain[0]]), free, free & ~res)


@pytest.mark.parametrize("algo, message", [
    (P.Algorithm(0, "cd", "a8", "c7", (("a8", "full"),)), "cannot be dashed"),
    (P.Algorithm(0, "cd", "a8", "c7", (("b2", "full"),)), "not a corner"),
    (P.Algorithm(0, "cd", "a8", "c7", (("h1", "sideways"),)), "unknown dash state"),
    (P.Algorithm(0, "cd", "a8", "a7", ()), "not a knight move"),
])
def test_bad_algorithms_get_the_dash_plans_error(algo, message):
    with pytest.raises(D.EnumerationError, match=message):
        P.AlgorithmBatch([algo])


@pytest.mark.parametrize("nbytes", [0, -5, 1000, True, "64", 1 << 62])
def test_a_table_size_that_is_no_size_gets_one_clear_error(nbytes):
    with pytest.raises(BT.BitsTableError, match="table size"):
        BT.BitsTable(nbytes)


def test_a_window_that_is_empty_gets_one_clear_error():
    with pytest.raises(BT.BitsTableError, match="window"):
        BT.BitsTable(1 << 20, memo_min=30, memo_max=20)


def test_inputs_the_kernel_would_misread_are_refused():
    bat = P.AlgorithmBatch(P.all_algorithms()[:2])
    ok = (bat.att, bat.starts, bat.dash, bat.endm, bat.free0, bat.avail0)
    BT.count_by_states(*ok)
    bad = [
        (bat.att.astype(np.int64),) + ok[1:],
        (np.zeros(65, np.uint64),) + ok[1:],
        ok[:2] + (bat.dash[:1],) + ok[3:],
        ok[:2] + (bat.dash.astype(np.int64),) + ok[3:],
        (ok[0], np.array([0, 64])) + ok[2:],
        ok[:4] + (bat.free0 | (np.uint64(1) << bat.starts.astype(np.uint64)),) + ok[5:],
        ok[:5] + (bat.avail0 | ~bat.free0,),
    ]
    for args in bad:
        with pytest.raises(BT.BitsTableError):
            BT.count_by_states(*args)


def test_the_pool_lends_a_table_to_one_thread_at_a_time_and_keeps_it_by_key():
    pool = BT.TablePool(1 << 20, keep=2)
    with pool.borrow("a") as t1:
        with pool.borrow("a") as t2:             # the same key while lent: another table
            assert t2 is not t1
    with pool.borrow("a") as t3:
        assert t3 is t1 or t3 is t2
    seen = []

    def worker():
        with pool.borrow("b") as t:
            seen.append(t)
            barrier.wait()

    barrier = threading.Barrier(3)
    threads = [threading.Thread(target=worker) for _ in range(3)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert len({id(t) for t in seen}) == 3       # three threads at once: three tables
    assert pool.kept() <= 2                      # and no more than ``keep`` kept after
    pool.release()
    assert pool.kept() == 0


def test_dashes_given_as_a_mapping_or_as_pairs_make_the_same_inputs():
    pairs = P.Algorithm(0, "cd", "c8", "b6", (("a1", "full"), ("h1", "A")))
    mapping = P.Algorithm(0, "cd", "c8", "b6", {"a1": "full", "h1": "A"})  # type: ignore[arg-type]
    x, y = P.AlgorithmBatch([pairs]), P.AlgorithmBatch([mapping])
    assert x.dash[0] == y.dash[0] != 0
    assert np.array_equal(x.run(np.arange(1)), y.run(np.arange(1), by_states=False))
