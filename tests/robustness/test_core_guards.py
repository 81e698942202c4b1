"""Public functions of core refuse what would send a kernel outside its arrays: damaged
enumeration states, bad neighbour tables and stats arrays, huge boards, reading a solution
that is not there. A crash here kills the test process: the tests run in-process on purpose."""
from __future__ import annotations

import os

import numpy as np
import pytest

from knightgui_core.board.squares import Board
from knightgui_core.tietree.enumeration.enumerator import EnumerationError, Enumerator
from knightgui_core.walks.close_kernel import repair_closed
from knightgui_core.walks.solve import solve

N_CORRUPT = 10_000 if os.environ.get("KNIGHTGUI_STRESS") else 300

CASES = [dict(rows=8, cols=8, start="a8", end="c7"),                 # bitboard kernel
         dict(rows=9, cols=9, start="a1"),                            # array kernel, open
         dict(rows=9, cols=9, start="e5", end="d7"),
         dict(rows=8, cols=8, start="b8", end="a6", dashes={"h1": "full"}),
         dict(rows=10, cols=10, start="a1", end="b3", bits=False)]


def _make(case):
    c = dict(case)
    bits = c.pop("bits", None)
    return Enumerator(c["rows"], c["cols"], c["start"], c.get("end"), c.get("dashes"),
                      bits=bits)


@pytest.mark.parametrize("case", CASES)
def test_every_reached_state_is_accepted_and_continues_identically(case):
    ref = _make(case)
    rng = np.random.default_rng(1)
    for _ in range(12):
        ref.advance(int(rng.integers(0, 5000)))
        state = ref.get_state()
        other = _make(case)
        other.set_state(state)
        a = [s.path.tolist() for s in ref.first(3, max_steps=100_000)]
        b = [s.path.tolist() for s in other.first(3, max_steps=100_000)]
        assert ref.get_state()["path"].tolist() == other.get_state()["path"].tolist()
        assert a == b
        if ref.exhausted:
            break


@pytest.mark.parametrize("case", CASES)
def test_damaged_states_are_refused_or_harmless(case):
    en = _make(case)
    en.first(5, max_steps=100_000)
    en.advance(777)
    good = en.get_state()
    rng = np.random.default_rng(7)
    refused = 0
    for i in range(N_CORRUPT):
        st = {k: v.copy() for k, v in good.items()}
        name = list(st)[i % len(st)]
        a = st[name].reshape(-1)
        j = int(rng.integers(0, a.size))
        if a.dtype == np.uint64:
            a[j] ^= np.uint64(1) << np.uint64(int(rng.integers(0, 64)))
        else:
            info = np.iinfo(a.dtype)
            a[j] = rng.choice([info.min, info.max, -1, 0, 1, 7, 8, 9, int(a[j]) + 1,
                               int(a[j]) - 1, 10**6 % (info.max + 1)])
        fresh = _make(case)
        try:
            fresh.set_state(st)
        except EnumerationError as e:
            assert "damaged" in str(e) or "does not fit" in str(e)
            refused += 1
            continue
        fresh.first(2, max_steps=20_000)       # accepted: it must run inside its arrays
    assert refused > N_CORRUPT // 3


def test_wrong_shapes_and_missing_keys():
    en = Enumerator(8, 8, "a8", "c7")
    s = en.get_state()
    s["path"] = s["path"][:-1]
    with pytest.raises(EnumerationError):
        en.set_state(s)


def test_current_solution_before_any_step_and_after_a_dead_end():
    en = Enumerator(8, 8, "a8", "c7")
    with pytest.raises(EnumerationError, match="no current solution"):
        en.current_solution()
    assert en.advance(10**9) == en.SOLUTION
    assert en.current_solution().index == 1
    assert en.current_solution().tour is not None


def test_huge_board_refused_before_allocating():
    with pytest.raises(EnumerationError, match="memory"):
        Enumerator(100_000, 100_000, 0)


def test_repair_refuses_bad_tables_and_stats():
    t = solve(8, 8, start="a1").tour
    nbr = Board(8, 8).neighbours
    for bad in (np.full_like(nbr, 10**6), np.full_like(nbr, -5), nbr + 64):
        with pytest.raises(ValueError, match="nbr"):
            repair_closed(bad, t.path)
    for stats in (np.zeros(0, np.int64), np.zeros(1, np.int64), np.zeros(2, np.int32),
                  np.zeros(4, np.int64)[::2], [0, 0]):
        with pytest.raises(ValueError, match="stats"):
            repair_closed(nbr, t.path, stats=stats)
    with pytest.raises(ValueError, match="cols"):
        repair_closed(nbr, t.path, cols=0)
    ok, p = repair_closed(nbr, t.path, stats=np.zeros(2, np.int64))
    assert sorted(p.tolist()) == list(range(64))
