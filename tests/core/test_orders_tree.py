"""The move-order study's shared walks (studies/orders/tree_kernel.py through
studies/orders/walks.py): orders as ranks and words of constraints, the tail table, sets of
orders, each distinct walk made once, chunks, and arguments that do not fit refused."""
import itertools

import numpy as np
import pytest

from knightgui_core.studies.orders import OrderError, all_orders, run_orders
from knightgui_core.studies.orders.walk_kernel import one_walk
from knightgui_core.studies.orders.walks import (
    OrderSet,
    order_set,
    padded_layout,
    rank_words,
    shared_walks,
    tail_table,
    tree_starts,
)


def test_ranks_are_rows_of_the_table_and_words_say_what_comes_before():
    table = all_orders()
    ranks, words = rank_words(table)
    np.testing.assert_array_equal(ranks, np.arange(len(table)))
    assert (words >= 0).all()
    for i in np.random.default_rng(5).integers(0, len(table), 60):
        o = [int(t) - 1 for t in table[i]]
        for y in range(8):
            byte = (int(words[i]) >> (8 * y)) & 0xFF
            assert {t for t in range(8) if byte >> t & 1} == set(o[:o.index(y)])


@pytest.mark.parametrize("bad", [[[1, 2, 3, 4, 5, 6, 7, 7]], [[0, 1, 2, 3, 4, 5, 6, 7]],
                                 [[1, 2, 3, 4, 5, 6, 7, 9], [1, 2, 3, 4, 5, 6, 7, 8]]])
def test_rows_that_are_not_orders_are_refused(bad):
    with pytest.raises(ValueError, match="once each"):
        rank_words(np.array(bad))
    with pytest.raises(OrderError, match="once each"):
        run_orders(5, orders=np.array(bad))
    with pytest.raises(OrderError):
        run_orders(5, orders=np.array(bad), shared=False)


@pytest.mark.parametrize("bad", [np.zeros((2, 7)), [[1, 2, 3, 4, 5, 6, 7, 300]], "12345678"])
def test_tables_that_are_not_orders_are_refused(bad):
    with pytest.raises(OrderError):
        run_orders(5, orders=bad)


def test_tail_table_lists_the_tails_that_keep_each_pattern():
    toff, tflat = tail_table()
    assert toff.shape == (4097,) and toff[0] == 0 and toff[-1] == tflat.size
    tails = list(itertools.permutations(range(4)))
    for pattern in range(4096):
        pairs = [(j, i) for i in range(4) for jj, j in enumerate(x for x in range(4) if x != i)
                 if pattern >> (3 * i + jj) & 1]          # j must come before i
        want = [r for r, p in enumerate(tails) if all(p.index(j) < p.index(i) for j, i in pairs)]
        assert tflat[toff[pattern]:toff[pattern + 1]].tolist() == want, pattern
    assert toff[1] - toff[0] == 24


def test_a_set_keeps_what_all_its_orders_keep():
    table = all_orders()
    first_type_1 = order_set(table[:5040])                # every order begins with move type 1
    assert first_type_1.word == sum(1 << (8 * y) for y in range(1, 8))
    assert first_type_1.rlo == 0 and first_type_1.count == 5040
    one = order_set(table[[777]])
    assert one.word == int(rank_words(table[[777]])[1][0]) and one.rlo == 777
    assert order_set(table).word == 0
    repeats = order_set(table[[9, 3, 9, 40000]])
    assert repeats.count == 3 and repeats.rlo == 3 and repeats.row_of.size == 40000 - 3 + 1
    assert repeats.inverse.tolist() == [1, 0, 1, 2]


@pytest.mark.parametrize("tie", ["first", "last"])
def test_shuffled_and_repeated_orders_get_their_own_walks(tie):
    table = all_orders()[np.random.default_rng(11).integers(0, 40320, 700)]
    table = np.concatenate([table, table[:50]])
    shared = run_orders(6, tie, cols=5, orders=table)
    own = run_orders(6, tie, cols=5, orders=table, shared=False)
    np.testing.assert_array_equal(shared.lengths, own.lengths)
    np.testing.assert_array_equal(shared.closed, own.closed)
    lengths, closed = shared_walks(6, 5, int(tie == "last"), table)
    np.testing.assert_array_equal(lengths, own.lengths)
    np.testing.assert_array_equal(closed, own.closed)


@pytest.mark.parametrize("last", [0, 1])
def test_each_distinct_walk_is_made_once(last):
    """The shared walks from one start are as many as the distinct paths of all 40,320 orders
    walked one by one (the kernel of ``replay``)."""
    _, offsets, outlets0, to_padded = padded_layout(5, 5)
    start = int(to_padded[7])
    buf = np.empty(25, dtype=np.int32)
    paths = set()
    for o in all_orders():
        k = int(one_walk(np.array(o), last, outlets0, offsets, start, 25, buf))
        paths.add(buf[:k].tobytes())
    oset = order_set(all_orders())
    len_t = np.zeros((1, oset.count), dtype=np.int16)
    closed_t = np.zeros((1, oset.count), dtype=np.uint8)
    walks = tree_starts(oset, last, outlets0, offsets, np.array([start]), np.array([0]), 25,
                        len_t, closed_t)
    assert walks == len(paths) > 1


def test_a_run_is_one_chunk_up_to_64_squares_and_5040_orders_beyond():
    seen: list[tuple[int, int]] = []
    run_orders(8, orders=all_orders()[:6000], progress=lambda d, t: seen.append((d, t)))
    assert seen == [(6000, 6000)]
    seen.clear()
    run_orders(9, orders=all_orders()[:6000], progress=lambda d, t: seen.append((d, t)))
    assert seen == [(5040, 6000), (6000, 6000)]


def _call(oset=None, starts=(12,), squares=25, shape=None):
    _, offsets, outlets0, _ = padded_layout(5, 5)
    oset = oset or order_set(all_orders()[:10])
    shape = shape or (1, oset.count)
    return tree_starts(oset, 0, outlets0, offsets, np.array(starts), np.zeros(len(starts)),
                       squares, np.zeros(shape, np.int16), np.zeros(shape, np.uint8))


def test_arguments_that_do_not_fit_are_refused():
    _, _, _, to_padded = padded_layout(5, 5)
    centre = int(to_padded[12])
    assert _call(starts=(centre,)) >= 1
    with pytest.raises(ValueError, match="do not fit"):
        _call(starts=(0,))                                 # a frame square
    with pytest.raises(ValueError, match="do not fit"):
        _call(starts=(centre,), squares=20)                # fewer squares than the board has
    with pytest.raises(ValueError, match="do not fit"):
        _call(OrderSet(0, 0, np.array([0, 5], np.int32), 2, np.arange(2)), (centre,))
    with pytest.raises(ValueError, match="do not fit"):
        _call(OrderSet(0, 40319, np.array([0, 1], np.int32), 2, np.arange(2)), (centre,))
    with pytest.raises(ValueError, match="a row per start"):
        _call(starts=(centre,), shape=(1, 3))
