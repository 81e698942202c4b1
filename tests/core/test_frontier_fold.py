"""The frontier count folded by the board's top-bottom mirror: a state and its image kept as
one key after each column. The key's mirror, the states it pairs on real boards, and the
counts, which must not change while the states about halve."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knightgui_core.frontier import count as frontier_count
from knightgui_core.frontier import word as frontier_word
from knightgui_core.frontier.count import FOLD_SHARE, SpillPlan, count_frontier, state_estimate
from knightgui_core.frontier.word import carry_code
from knightgui_core.frontier.word_kernel import _mirror_canon

TOP = 1 << 63
BODY = (1 << 60) - 1


def _relabel(nibs: list[int]) -> list[int]:
    """Pieces (labels 3 and up) renumbered 3, 4, ... in the order they first appear."""
    ren: dict[int, int] = {}
    for x in nibs:
        if x >= 3 and x not in ren:
            ren[x] = 3 + len(ren)
    return [ren.get(x, x) for x in nibs]


def _nibbles(key: int, k: int) -> list[int]:
    return [(key >> (4 * p)) & 15 for p in range(2 * k + 1)]


def _word(nibs: list[int], high: int) -> int:
    return sum(x << (4 * p) for p, x in enumerate(nibs)) | high


def _mirror(key: int, k: int) -> int:
    """The key of the mirrored board, written plainly: rows r and k - 1 - r swapped in the
    column before (positions 1..k) and the column just read (k + 1..2k)."""
    a = _nibbles(key, k)
    b = [a[0]] + a[1:k + 1][::-1] + a[k + 1:][::-1]
    return _word(_relabel(b), key & ~BODY)


def _canon(key: int, k: int) -> int:
    return int(_mirror_canon(np.uint64(key), np.int64(k)))


@st.composite
def _keys(draw):
    k = draw(st.integers(1, 7))
    nibs = [0] + draw(st.lists(st.integers(0, 10), min_size=2 * k, max_size=2 * k))
    ends = draw(st.integers(0, 2))
    return k, _word(_relabel(nibs), TOP | ends << 60)


@settings(max_examples=300, deadline=None)
@given(_keys())
def test_the_canonical_key_is_one_of_the_pair_and_the_same_for_both(case):
    k, key = case
    got = _canon(key, k)
    image = _mirror(key, k)
    assert got == min(key, image)
    assert _canon(got, k) == got
    assert _canon(image, k) == got
    assert _mirror(image, k) == key            # the mirror is an involution on these keys
    assert got >> 60 == key >> 60               # the ends and the mark bit kept


def _boundary_tables(monkeypatch, rows: int, cols: int, closed: bool, fold: bool
                     ) -> list[dict[int, tuple[int, ...]]]:
    """Every column's states after its last cell (key -> residues), read off the run."""
    real = frontier_word.word_cell
    seen: list[dict[int, tuple[int, ...]]] = []
    calls = [0]

    def spy(*args, **kwargs):
        out = real(*args, **kwargs)
        if calls[0] % rows == rows - 1:
            seen.append({int(r[0]): tuple(int(x) for x in r[1:])
                         for t in out[0] for r in t if r[0]})
        calls[0] += 1
        return out

    monkeypatch.setattr(frontier_count, "word_cell", spy)
    count_frontier(rows, [cols], closed_only=closed, threads=1, fold=fold)
    return seen


@pytest.mark.parametrize("rows,cols,closed", [(4, 6, False), (5, 5, False), (6, 5, True),
                                              (3, 8, False)])
def test_real_states_fold_into_their_mirror_pairs(monkeypatch, rows, cols, closed):
    """The stored states are mirror-invariant only up to dead states (a state that cannot
    be finished may be dropped at one cell and its image a few cells later), so the table is
    the orbit sums of the unfolded one exactly at the first column where states differ, and
    afterwards its keys are canonical and every live pair has equal counts."""
    plain = _boundary_tables(monkeypatch, rows, cols, closed, False)
    folded = _boundary_tables(monkeypatch, rows, cols, closed, True)
    assert len(plain) == len(folded) == cols and not plain[-1] and not folded[-1]
    for whole, half in zip(plain, folded):
        assert all(key & 15 == 0 for key in whole)   # the oldest cell left at a column's end
        assert all(_canon(key, rows) == key for key in half)
        assert len(half) <= len(whole)
    first = 1                                    # the first column holds one state, its own image
    sums: dict[int, int] = {}
    pairs = 0
    for key, counts in plain[first].items():
        image = _mirror(key, rows)
        assert _canon(key, rows) == min(key, image) == _canon(image, rows)
        sums[min(key, image)] = sums.get(min(key, image), 0) + counts[0]
        pairs += image != key and plain[first].get(image) == counts
    assert {key: counts[0] for key, counts in folded[first].items()} == sums
    assert pairs > 0 and len(folded[first]) < len(plain[first])


def test_carry_code_folds_only_a_columns_last_cell():
    assert [carry_code(i, 3, 9, True) for i in range(9)] == [1, 1, 2, 1, 1, 2, 1, 1, 0]
    assert [carry_code(i, 3, 9, False) for i in range(9)] == [1] * 8 + [0]


def _seen(res):
    return [(b.rows, b.cols, b.cycles, b.paths) for b in res.boards]


@pytest.mark.parametrize("rows,cols,closed", [
    (2, [3, 4, 6], False), (3, [4, 5, 7, 8, 10], False), (3, [6, 8, 10, 12], True),
    (4, [4, 5, 6, 7, 8], False), (4, [5, 6], True), (5, [5, 6, 7], False),
    (5, [6, 8, 10], True), (6, [4, 5], False), (6, [5, 6, 7], True), (7, [3, 4], False),
    (7, [4, 5, 6], True)])
def test_folded_counts_equal_the_unfolded_counts(rows, cols, closed):
    plain = count_frontier(rows, cols, closed_only=closed, fold=False)
    folded = count_frontier(rows, cols, closed_only=closed, fold=True)
    assert _seen(folded) == _seen(plain)
    if rows > 2:                           # 2 × n: no path, every state dies at once
        assert folded.state_cells < plain.state_cells
        assert any(b.cycles or b.paths for b in plain.boards) or (rows, closed) == (4, True)
    assert all(f <= p for f, p in zip(folded.column_states, plain.column_states))
    assert sum(folded.column_states) < sum(plain.column_states) or rows == 2


def test_folded_states_about_halve_on_6x6_closed():
    plain = count_frontier(6, [6], closed_only=True, fold=False)
    folded = count_frontier(6, [6], closed_only=True)        # folded by default
    assert folded.boards[0].cycles == plain.boards[0].cycles == 9862     # A175881
    for f, p in zip(folded.column_states[2:-1], plain.column_states[2:-1]):
        assert 0.45 * p < f < 0.55 * p


@pytest.mark.slow
def test_folded_6x6_open_states_about_halve():
    plain = count_frontier(6, [6], fold=False)
    folded = count_frontier(6, [6])
    assert _seen(folded) == _seen(plain)
    assert folded.boards[0].paths == 3_318_960      # A165134: 6,637,920 directed
    for f, p in zip(folded.column_states[2:-1], plain.column_states[2:-1]):
        assert 0.45 * p < f < 0.55 * p


def test_one_end_cell_is_never_folded():
    start = count_frontier(5, [5], end_at=0, fold=True)
    plain = count_frontier(5, [5], end_at=0, fold=False)
    assert start.column_states == plain.column_states
    assert start.boards[0].paths == plain.boards[0].paths > 0


def test_slices_on_disk_fold_as_memory_does(tmp_path):
    mem = count_frontier(5, [6], fold=True)
    plain = count_frontier(5, [6], fold=False)
    disk = count_frontier(5, [6], spill=SpillPlan(str(tmp_path), slices=4), fold=True)
    assert _seen(disk) == _seen(mem) == _seen(plain)
    assert disk.column_states == mem.column_states
    assert disk.column_states[3] < plain.column_states[3]
    assert not any(tmp_path.iterdir())


def test_the_memory_estimate_knows_the_fold():
    plain = count_frontier(5, [8], fold=False)
    folded = count_frontier(5, [8])
    assert folded.boards == plain.boards
    assert folded.peak_states <= FOLD_SHARE * plain.peak_states       # 0.704 measured
    assert max(folded.column_states) < 0.55 * max(plain.column_states)
    for rows, closed in ((5, False), (7, False), (7, True), (9, True)):
        whole = state_estimate(rows, closed, fold=False)
        assert whole is not None and state_estimate(rows, closed) == int(whole * FOLD_SHARE)
