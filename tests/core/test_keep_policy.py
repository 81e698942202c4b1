"""What an exhaustive run keeps for stepping (core.tietree.keep_policy), without Qt."""
from __future__ import annotations

import numpy as np

from knightgui_core.tietree.enumeration.enumerator import Enumerator
from knightgui_core.tietree.keep_policy import keep_cap, kept_solution_chunks, path_dtype


def test_path_dtype_and_the_memory_cap():
    assert path_dtype(64) is np.uint8 and path_dtype(257) is np.uint16
    assert path_dtype(70_000) is np.int32
    assert keep_cap(64, 1_000_000, budget=50 * (64 + 64)) == 50
    assert keep_cap(64, 10, budget=1 << 30) == 10
    assert keep_cap(4_000_000, 10, budget=1) == 1


def test_the_first_keep_solutions_are_kept_and_the_rest_only_counted():
    en = Enumerator(8, 8, start="a8", end="c7")
    kept = [b for b in kept_solution_chunks(en, keep=300) if b is not None]
    assert sum(len(b) for b in kept) == 300
    assert en.exhausted and en.solutions == 14_258
    first = Enumerator(8, 8, start="a8", end="c7").first(300)
    assert kept[0].first == 1 and int(kept[0].frm[0]) == 0
    total = sum(len(b) for b in kept)
    assert total == len(first)


def test_a_limit_stops_the_search_and_the_memory_budget_bounds_what_is_kept():
    en = Enumerator(8, 8, start="a8", end="c7")
    kept = [b for b in kept_solution_chunks(en, keep=1_000_000, limit=1000,
                                            budget=50 * (64 + 64)) if b is not None]
    assert sum(len(b) for b in kept) == 50
    assert en.solutions == 1000 and not en.exhausted


def test_chunks_are_bounded_so_a_caller_can_stop_between_them():
    en = Enumerator(10, 10, start="a1")
    chunks = kept_solution_chunks(en, keep=10)
    for _ in range(5):
        next(chunks)
    moves = en.forward_moves
    assert 0 < moves and not en.exhausted           # five bounded chunks, then we stopped


def test_every_path_kept_in_compact_blocks_reads_back_path_by_path():
    from knightgui.solutions.store import SolutionStore
    from knightgui_core.tietree.alltours.all_tours_list import AllToursLister
    from knightgui_core.tietree.enumeration.kept_solutions import compact_paths
    from knightgui_core.tietree.keep_policy import kept_path_chunks
    want = AllToursLister(5, 5, "a1").first(10_000)          # 304 paths
    store = SolutionStore()
    lister = AllToursLister(5, 5, "a1")
    for block in kept_path_chunks(lister, keep=150):
        if block is not None:
            store.extend(block)
    assert lister.done and lister.found == len(want) and len(store) == 150
    for i in range(150):
        assert np.array_equal(store.path(i), want[i])
    b = compact_paths(want[:10], first=1, key_every=4)
    assert list(b.frm[[0, 4, 8]]) == [0, 0, 0] and b.length == 26 and b.options is None
