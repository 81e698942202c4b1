"""Phadke's exhaustive enumeration: worked example, counts, chunking, validity (docs/spec.md §4)."""
import numpy as np
import pytest

from knightgui_core.board.squares import Board
from knightgui_core.tietree.enumeration.enumerator import EnumerationError, Enumerator, Solution, count_kernel

FIRST_BOARD = """
 1 22  3 18 43 38 13 16
 4 19 64 39 14 17 46 37
23  2 21 42 49 44 15 12
20  5 50 63 40 47 36 45
51 24 41 48 59 54 11 32
 6 27 60 53 62 33 56 35
25 52 29  8 55 58 31 10
28  7 26 61 30  9 34 57
"""


@pytest.fixture(params=[True, False], ids=["bitboard", "general"])
def bits(request):
    return request.param


def test_a8_c7_strict_has_14258_solutions(bits):
    r = Enumerator(8, 8, "a8", "c7", bits=bits).count()
    assert r["solutions"] == 14258
    assert r["exhausted"] is True
    assert r["dead_ends"] > 0 and r["forward_moves"] > r["solutions"]


def test_worked_example_first_three_solutions(bits):
    en = Enumerator(8, 8, "a8", "c7", bits=bits)
    s1, s2, s3 = en.first(3)
    expect = np.array([[int(x) for x in line.split()] for line in FIRST_BOARD.strip().splitlines()])
    assert np.array_equal(s1.numbers[::-1], expect)          # rank 8 at the top
    assert s1.mo_entries() == [(2, 1, 3), (20, 1, 1), (20, 2, 2), (41, 1, 1), (41, 2, 3),
                               (43, 1, 1), (47, 1, 3), (48, 1, 2), (49, 1, 2)]
    b = en.board
    assert b.name(int(s1.path[5])) == "a3" and b.name(int(s1.path[6])) == "b1"
    assert b.name(int(s1.path[48])) == "e6"
    assert s1.branch == 0 and s2.branch == 49 and s3.branch == 54
    # solution 2 took MO(49,1)=2: e6 -> f4 (move type 2), and has a tie at 54 (f2)
    assert b.name(int(s2.path[49])) == "f4"
    assert (49, 1, 2) not in s2.mo_entries() and (54, 1, 5) in s2.mo_entries()
    assert b.name(int(s2.path[53])) == "f2"
    # solution 3 took MO(54,1)=5 to d3, tie at 55 with MO(55,1)=4
    assert b.name(int(s3.path[54])) == "d3"
    assert (54, 1, 5) not in s3.mo_entries() and (55, 1, 4) in s3.mo_entries()
    assert s1.mo.shape == (64, 8) and not s1.mo[:, 0].any()
    assert [s.index for s in (s1, s2, s3)] == [1, 2, 3]


@pytest.mark.parametrize("chunk", [1, 7, 100_000])
def test_counts_do_not_depend_on_chunk_size(chunk, bits):
    en = Enumerator(8, 8, "a8", "c7", bits=bits)
    sols = 0
    if chunk == 1:   # a shorter prefix keeps the one-step run fast; compare with a reference
        ref = Enumerator(8, 8, "a8", "c7", bits=bits)
        ref.first(300)
        while sols < 300:
            ev = en.advance(1)
            sols += ev == Enumerator.SOLUTION
        assert (en.solutions, en.dead_ends, en.forward_moves) == (
            ref.solutions, ref.dead_ends, ref.forward_moves)
        assert np.array_equal(en.engine.path, ref.engine.path)
        return
    while True:
        ev = en.advance(chunk)
        if ev == Enumerator.EXHAUSTED:
            break
        sols += ev == Enumerator.SOLUTION
    whole = Enumerator(8, 8, "a8", "c7", bits=bits).count()
    assert sols == whole["solutions"] == en.solutions == 14258
    assert en.dead_ends == whole["dead_ends"] and en.forward_moves == whole["forward_moves"]


def test_count_in_small_chunks_with_progress_matches():
    calls = []
    r = Enumerator(8, 8, "a8", "c7").count(progress=calls.append, chunk=10_000)
    assert r["solutions"] == 14258 and len(calls) > 5
    assert calls[-1]["solutions"] == 14258


def test_one_solution_at_a_time_all_valid_closed_and_distinct():
    en = Enumerator(8, 8, "a8", "c7")
    seen = set()
    n = 0
    prev = None
    b = Board(8, 8)
    while (s := en.next_solution(max_steps_per_chunk=50)) is not None:
        n += 1
        assert s.index == n
        if n % 97 == 1:
            t = s.tour                      # validates on construction
            assert t.closed and t.is_closed_path
        assert s.path[0] == b.parse("a8") and s.path[-1] == b.parse("c7")
        key = s.path.tobytes()
        assert key not in seen
        seen.add(key)
        if prev is not None:                # same squares up to the branch number
            assert np.array_equal(prev[:s.branch], s.path[:s.branch])
            assert prev[s.branch] != s.path[s.branch]
        prev = s.path
    assert n == 14258 and en.exhausted
    assert en.next_solution() is None


def test_iterator_and_first_agree():
    a = [s.path.tobytes() for s in Enumerator(8, 8, "a8", "c7").first(500)]
    it = iter(Enumerator(8, 8, "a8", "c7"))
    b = [next(it).path.tobytes() for _ in range(500)]
    assert a == b and len(set(a)) == 500


def test_every_solution_is_a_valid_tour_for_a_dashed_compulsory_combo():
    # c8 -> b6 ends with the compulsory end dash c7, a8, b6 (docs/spec.md §4)
    en = Enumerator(8, 8, "c8", "b6", dashes={"h1": "full", "a1": "A"})
    sols = list(en)
    assert len(sols) == en.solutions > 0
    b = en.board
    for s in sols[::7]:
        assert s.tour.closed
        assert [b.name(int(x)) for x in s.path[-3:]] == ["c7", "a8", "b6"]
        assert s.mo.shape == (62, 8)


def test_count_kernel_matches_enumerator():
    r = count_kernel(8, 8, "c7", "e8", dashes={"a1": "full"})
    en = Enumerator(8, 8, "c7", "e8", dashes={"a1": "full"})
    assert r["solutions"] == len(list(en)) == en.solutions


def test_open_mode_on_a_small_board_gives_valid_open_tours():
    en = Enumerator(5, 5, start="a1")
    sols = list(en)
    assert en.exhausted and len(sols) == en.solutions > 0
    for s in sols:
        assert not s.tour.closed and len(s.path) == 25


def test_general_kernel_on_a_board_above_64_squares():
    # 6x12 = 72 squares: the bitboard kernel cannot hold it
    en = Enumerator(6, 12, start="a1", end="b3")
    assert not en.engine.bits_mode
    got = en.first(3)
    assert len(got) == 3
    for s in got:
        assert s.tour.closed and len(set(s.path.tolist())) == 72


def test_bad_input_errors():
    with pytest.raises(EnumerationError, match="not a knight move"):
        Enumerator(8, 8, "a8", "c6")
    with pytest.raises(EnumerationError, match="same square"):
        Enumerator(8, 8, "a8", "a8")
    with pytest.raises(EnumerationError, match="start"):
        Enumerator(8, 8, "z9", "c7")
    with pytest.raises(EnumerationError, match="not free|cannot be dashed"):
        Enumerator(8, 8, "a8", "c7", dashes={"a8": "full"})
    with pytest.raises(EnumerationError, match="unknown tail"):
        Enumerator(8, 8, "b8", "a6", tail=["a1", "b3", "c5", "a6"])
    with pytest.raises(EnumerationError):
        Enumerator(8, 8, "a8", "c7").advance(-1)
    assert isinstance(Solution, type)


def test_bitboard_and_general_kernels_agree_on_small_boards():
    for rows, cols, start, end in [(5, 5, "c3", None), (6, 6, "a1", "b3"), (5, 6, "b2", None),
                                   (6, 6, "c3", "d5"), (3, 4, "a1", None), (1, 1, "a1", None)]:
        a = Enumerator(rows, cols, start, end, bits=True).count()
        b = Enumerator(rows, cols, start, end, bits=False).count()
        for key in ("solutions", "dead_ends", "forward_moves", "exhausted"):
            assert a[key] == b[key], (rows, cols, start, end, key)


def test_dashed_runs_agree_between_kernels_and_chunks():
    kw = dict(start="c6", end="d8", dashes={"a1": "A", "h1": "full", "a8": "B"})
    ref = Enumerator(8, 8, bits=False, **kw).count()
    en = Enumerator(8, 8, **kw)
    while en.advance(13) != Enumerator.EXHAUSTED:
        pass
    assert (en.solutions, en.dead_ends, en.forward_moves) == (
        ref["solutions"], ref["dead_ends"], ref["forward_moves"])
    assert ref["solutions"] > 0


def test_cancelled_count_can_be_resumed():
    en = Enumerator(8, 8, "a8", "c7")
    r = en.count(cancel=lambda: True, chunk=1000)
    assert not r["exhausted"] and r["forward_moves"] == 1000
    r = en.count(chunk=777)
    assert r["exhausted"] and r["solutions"] == 14258


def test_state_snapshot_continues_identically():
    en = Enumerator(8, 8, "a8", "c7")
    en.first(100)
    snap = en.get_state()
    a = [s.path.tobytes() for s in en.first(50)]
    other = Enumerator(8, 8, "a8", "c7")
    other.set_state(snap)
    b = [s.path.tobytes() for s in other.first(50)]
    assert a == b and other.solutions == en.solutions == 150
    with pytest.raises(EnumerationError, match="does not fit"):
        Enumerator(8, 8, "c8", "b6").set_state(snap)


def test_first_in_blocks_matches_stepping_and_respects_budget():
    a = Enumerator(8, 8, "a8", "c7").first(9000)          # three kernel blocks
    en = Enumerator(8, 8, "a8", "c7")
    b = [en.next_solution() for _ in range(9000)]
    assert [s.path.tobytes() for s in a] == [s.path.tobytes() for s in b]
    assert [s.branch for s in a] == [s.branch for s in b]
    limited = Enumerator(8, 8, "a8", "c7")
    got = limited.first(10, max_steps=100)
    assert len(got) < 10 and limited.forward_moves == 100


def test_module_functions_reject_bad_boards():
    from knightgui_core.tietree.enumeration.enumerator import free_corners, list_tails
    with pytest.raises(EnumerationError):
        list_tails(0, 8, "a1", "b3")
    with pytest.raises(EnumerationError, match="not a knight move"):
        list_tails(8, 8, "a1", "a2")
    assert free_corners(8, 8, "d4") == {"a1": None, "a8": None, "h8": None, "h1": None}


def test_both_kernels_share_codes_and_state_slots():
    from knightgui_core.tietree.enumeration import bitboard_kernel as k64
    from knightgui_core.tietree.enumeration import enumerate_kernel as k
    names = [n for n in dir(k) if n.startswith(("ST_", "PH_"))] + ["SOLUTION", "EXHAUSTED",
                                                                   "BUDGET"]
    assert len(names) > 10
    for n in names:
        assert getattr(k64, n) == getattr(k, n), n


@pytest.mark.parametrize("allow", [0, 1, 2, 3, 4])
def test_building_an_enumeration_can_be_cancelled_between_its_stages(allow):
    """``cancel`` is asked between the stages that build the tables (board neighbours,
    compact tables, search state); the first true answer raises Cancelled, a false one lets
    the build go on, and a build that was never cancelled counts as usual."""
    from knightgui_core.tietree.enumeration.enumerator import Cancelled
    asked = []

    def cancel():
        asked.append(1)
        return len(asked) > allow

    if allow >= 4:
        en = Enumerator(120, 120, start="a1", cancel=cancel)
        assert len(asked) == 4
        assert en.advance(1000) == en.BUDGET and en.forward_moves == 1000
    else:
        with pytest.raises(Cancelled):
            Enumerator(120, 120, start="a1", cancel=cancel)
        assert len(asked) == allow + 1
    assert not issubclass(Cancelled, ValueError)   # not a complaint about the input


def test_the_counts_are_a_typed_value_that_reads_as_the_old_mapping():
    import json

    from knightgui_core.system.text import strict_dumps
    from knightgui_core.tietree.enumeration.search_counts import SearchCounts
    c = Enumerator(6, 6, "a1").count()
    assert isinstance(c, SearchCounts) and c.exhausted and c.seconds is not None
    assert c.solutions == c["solutions"] > 0 and c.dead_ends == c["dead_ends"]
    d = json.loads(strict_dumps(c))
    assert d == dict(c) and set(d) == {"solutions", "dead_ends", "forward_moves", "exhausted",
                                       "seconds"}
    e = Enumerator(6, 6, "a1").engine.counters
    assert "seconds" not in e and e == {"solutions": 0, "dead_ends": 0, "forward_moves": 0,
                                        "exhausted": False}
    with pytest.raises(KeyError):
        e["seconds"]
