"""The packed store of found solutions gives back exactly what the engine produced."""
from __future__ import annotations

import numpy as np
import pytest

from knightgui.solutions.store import SolutionStore
from knightgui_core.board.squares import Board
from knightgui_core.tietree.enumeration.enumerator import Enumerator


def test_store_round_trips_paths_options_and_branches():
    sols = Enumerator(8, 8, start="a8", end="c7").first(300)
    en = Enumerator(8, 8, start="a8", end="c7")
    store = SolutionStore()
    store.extend(en.block_compact(7))                          # runs of uneven sizes
    store.extend([en.block_compact(0), en.block_compact(100), en.block_compact(193)])
    assert len(store) == 300
    for i in (0, 1, 2, 6, 7, 57, 106, 107, 299):
        s = sols[i]
        np.testing.assert_array_equal(store.path(i), s.path)
        np.testing.assert_array_equal(store.mo(i), s.mo)
        assert store.branch(i) == s.branch and store.index(i) == s.index == i + 1
    assert store.nbytes() < 300 * 64                       # compact: under one byte a square


def test_block_gives_the_solutions_first_gives_up_to_the_end():
    a = Enumerator(6, 6, start="a1", end="b3")
    total = a.count()["solutions"]
    b = Enumerator(6, 6, start="a1", end="b3")
    got = []
    while True:
        first, paths, mo, branches = b.block(1000)
        assert first == len(got) + 1
        got.extend(zip(paths, mo, branches))
        if len(paths) < 1000:
            break
    sols = Enumerator(6, 6, start="a1", end="b3").first(total + 5)
    assert len(got) == len(sols) == total and b.exhausted
    for (p, m, br), s in zip(got, sols):
        assert (p == s.path).all() and (m == s.mo).all() and br == s.branch


def test_out_of_range_is_an_index_error():
    store = SolutionStore()
    try:
        store.path(0)
    except IndexError as e:
        assert "not stored" in str(e)
    else:
        raise AssertionError("expected IndexError")


def test_memory_budget_bounds_what_is_kept_while_counting_goes_on(qtbot, monkeypatch):
    import knightgui.worker as wk
    from knightgui_core.tietree import keep_policy
    monkeypatch.setattr(keep_policy, "KEEP_BYTES", 50 * (64 * 1 + 64))   # room for 50 8×8 paths
    w = wk.SolverThread()
    got, done = [], []
    w.solutionsFound.connect(lambda g, batch: got.extend(batch))
    w.finishedRun.connect(lambda g, st: done.append(st))
    w.submit(wk.Request(rows=8, cols=8, mode=wk.Mode.EXHAUSTIVE, start=Board(8, 8).parse("a8"),
                        end=Board(8, 8).parse("c7"), closed=True))
    qtbot.waitUntil(lambda: bool(done), timeout=60_000)
    assert sum(len(b) for b in got) == 50 and done[0].solutions == 14_258 and done[0].exhausted
    assert w.stop(5000)


@pytest.mark.parametrize("kw", [dict(rows=8, cols=8, start="a8", end="c7"),
                                dict(rows=8, cols=8, start="d5"),
                                dict(rows=9, cols=9, start="a1"),
                                dict(rows=17, cols=17, start="a1"),
                                dict(rows=8, cols=8, start="b8", end="a6", dashes={"h1": "full"},
                                     tail=("c2", "a1", "b3", "c5", "a6"))])
def test_compact_blocks_keep_exactly_the_engines_solutions(kw):
    sols = Enumerator(**kw).first(900)
    en = Enumerator(**kw)
    store = SolutionStore()
    for k in (7, 0, 100, 543, 250):                      # key solutions every 16, and blocks
        store.extend(en.block_compact(k, key_every=16))  # that start between them
    assert len(store) == len(sols)
    for i, s in enumerate(sols):
        np.testing.assert_array_equal(store.path(i), s.path)
        np.testing.assert_array_equal(store.mo(i), s.mo)
        assert store.branch(i) == s.branch and store.index(i) == s.index == i + 1
    size = kw["rows"] * kw["cols"]
    assert {b.squares.dtype for b in store._blocks} == {np.dtype(np.uint8 if size <= 256
                                                                 else np.uint16)}
    assert store.nbytes() < len(sols) * (size + 100)      # well under one whole path each


def test_compact_blocks_continue_the_counters_like_block():
    a, b = Enumerator(8, 8, start="a8", end="c7"), Enumerator(8, 8, start="a8", end="c7")
    blk = a.block_compact(500, max_steps=300_000)
    first, paths, _, _ = b.block(500, max_steps=300_000)
    assert blk.first == first == 1 and len(blk) == len(paths)
    assert (a.solutions, a.forward_moves, a.dead_ends) == (b.solutions, b.forward_moves,
                                                           b.dead_ends)
    rest = a.count()
    assert rest["solutions"] == 14_258 and a.exhausted


def test_the_keep_kernels_refuse_what_they_cannot_write_before_searching():
    from knightgui_core.tietree.enumeration import keep_kernel as keep
    for bits, bad in ((False, (0, 0)), (False, (3, 3)), (False, (3, -1)), (True, (0, 0))):
        e = Enumerator(6, 6, start="a1", bits=bits).engine
        out = (np.zeros(64, np.uint8), np.zeros(3, np.int64), np.zeros(2, np.int32),
               np.zeros(2, np.int32))
        fn = keep.collect_delta_bits if bits else keep.collect_delta
        assert fn(*e._args(), 2, 1000, *bad, *out) == -1, (bits, bad)
        assert int(e.st[1]) == 0 and int(e.st[4]) == 0       # PH_RUNNING, no forward move
        assert not out[0].any() and not out[1].any()


def test_the_bitboard_keep_kernel_refuses_more_than_one_byte_a_square():
    from knightgui_core.tietree.enumeration import keep_kernel as keep
    e = Enumerator(6, 6, start="a1", bits=True).engine
    out = (np.zeros(64, np.uint8), np.zeros(3, np.int64), np.zeros(2, np.int32),
           np.zeros(2, np.int32))
    assert keep.collect_delta_bits(*e._args(), 2, 1000, 3, 1, *out) == -1
    assert keep.collect_delta_bits(*e._args(), 2, 1000, 3, 0, *out) == 2 * 4 + 1   # SOLUTION
    b = int(out[3][1])                      # the second solution from its branch on
    assert 0 < b < 36 and tuple(out[2]) == (0, b)
    assert tuple(out[1]) == (0, 36, 36 + 36 - b)


def test_a_store_refuses_runs_of_another_enumeration():
    store = SolutionStore()
    store.extend(Enumerator(8, 8, start="a8", end="c7").block_compact(5))
    with pytest.raises(ValueError):
        store.extend(Enumerator(8, 8, start="a8", end="c7").block_compact(5))   # 1 again


def test_short_runs_are_joined_and_long_ones_kept_as_they_are():
    from knightgui.solutions.store import MIN_RUN, fewer_runs
    kw = dict(rows=8, cols=8, start="a8", end="c7")
    en = Enumerator(**kw)
    runs = [en.block_compact(k, key_every=16) for k in (5, 1, 0, 40, MIN_RUN, 3, 7, 1500, 2)]
    sols = Enumerator(**kw).first(sum(len(r) for r in runs))
    got = fewer_runs(runs)
    assert [len(r) for r in got] == [46, MIN_RUN, 10, 1500, 2]
    assert got[1] is runs[4] and got[3] is runs[7]          # long runs: not copied
    store = SolutionStore()
    store.extend(got)
    assert len(store) == len(sols) == 46 + MIN_RUN + 10 + 1500 + 2
    for i, s in enumerate(sols):
        np.testing.assert_array_equal(store.path(i), s.path)
        np.testing.assert_array_equal(store.mo(i), s.mo)
        assert store.branch(i) == s.branch and store.index(i) == s.index == i + 1


def test_only_runs_that_follow_each_other_join():
    from knightgui_core.tietree.enumeration.kept_solutions import join_blocks
    a = Enumerator(8, 8, start="a8", end="c7")
    r1, r2 = a.block_compact(4), a.block_compact(4)
    with pytest.raises(ValueError):
        join_blocks([r2, r1])
    with pytest.raises(ValueError):
        join_blocks([])
    assert len(join_blocks([r1, r2])) == 8


def test_square_names_are_made_when_read():
    from knightgui.solutions.results import SquareNames
    from knightgui_core.board.squares import Board
    b = Board(30, 30)
    path = np.array([0, 29, 31, 899], dtype=np.int32)
    names = SquareNames(b, path)
    assert len(names) == 4 and names[1] == b.name(29) == "ad1" and names[-1] == b.name(899)
    assert names[1:3] == [b.name(29), b.name(31)] and list(names) == [b.name(int(s)) for s in path]


@pytest.mark.parametrize("n, dtype", [(17, np.uint16), (257, np.int32)])
def test_kept_changes_of_wide_boards_rebuild_the_solutions(n, dtype):
    """Two bytes a square above 256 squares, four above 65,536: the same solutions."""
    kept = Enumerator(n, n, "a1").block_compact(4, key_every=3)
    ref = [s.path for s in Enumerator(n, n, "a1").first(4)]
    assert len(kept) == 4 and kept.squares.dtype == dtype
    L = kept.length - 1
    cur = np.zeros(L, dtype=np.int64)
    for i in range(4):
        cur[int(kept.frm[i]):L] = kept.squares[kept.sptr[i]:kept.sptr[i + 1]]
        np.testing.assert_array_equal(np.concatenate([cur, kept.tail]), ref[i])
    assert int(kept.frm[0]) == int(kept.frm[3]) == 0 and 0 < int(kept.frm[1]) < L
