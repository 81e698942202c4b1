"""The frontier count through slices on disk (frontier_spill): the same counts as in memory,
the folder removed, bad folders refused with one line, the merge exact."""
from __future__ import annotations

import errno
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knightgui_core.frontier import spill as frontier_spill
from knightgui_core.frontier.count import FrontierError, SpillPlan, count_frontier
from knightgui_core.frontier.spill import merge_rows, slices_for
from knightgui_core.frontier.word import key_hash

#: A193055 (closed tours of 8 × n), its term n = 6: the value tests/core/test_frontier_oeis.py
#: and test_frontier_pair.py hold (also 6×8's term of A175881)
A193055_8X6 = 55_488_142


def _both(rows: int, cols: int, closed_only: bool, tmp_path, slices: int = 1, **kw):
    mem = count_frontier(rows, [cols], closed_only=closed_only, threads=2)
    lines: list[str] = []
    disk = count_frontier(rows, [cols], closed_only=closed_only, threads=2,
                          spill=SpillPlan(str(tmp_path), slices, report=lines.append), **kw)
    return mem, disk, lines


@pytest.mark.parametrize("rows, cols, closed_only", [(5, 6, False), (6, 6, True), (8, 3, False),
                                                     (4, 7, False)])
def test_slices_count_as_memory(rows, cols, closed_only, tmp_path):
    mem, disk, lines = _both(rows, cols, closed_only, tmp_path, slices=4)
    assert disk.boards == mem.boards
    assert disk.column_states == mem.column_states
    assert disk.state_cells == mem.state_cells
    assert len(disk.slices) == rows * cols and len(lines) == rows * cols
    assert max(c["slices"] for c in disk.slices) == 4
    # every cell's slices are listed, their states add up to the cell's
    for cell in disk.slices:
        assert len(cell["per_slice"]) == cell["slices"]
        assert sum(s["states_in"] for s in cell["per_slice"]) == cell["states_in"]
    assert os.listdir(tmp_path) == []                  # the run's folder is gone


def test_slices_chosen_by_memory(tmp_path):
    # 2 MiB: the tables of 5×6 open (145,980 states at most) need more, so cells split
    mem, disk, _ = _both(5, 6, False, tmp_path, memory_limit=2 << 20)
    assert disk.boards == mem.boards and disk.boards[0].paths == 18_784
    assert max(c["slices_out"] for c in disk.slices) >= 4
    assert os.listdir(tmp_path) == []


def test_slices_for_powers_of_two():
    assert slices_for(1, 24, 1 << 30) == 1
    assert slices_for(1, 24, 1 << 30, least=3) == 4
    k = slices_for(10**9, 24, 8 << 30)
    assert k & (k - 1) == 0 and k >= 16
    assert 10**9 * 24 * (1.1 / 0.8 * 4 + 1) / k <= 0.8 * (8 << 30)


def _unwritable(tmp_path) -> str:
    if os.geteuid() == 0:                              # root writes anywhere but /proc
        return "/proc"
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    return str(ro)


def test_unwritable_folder_refused(tmp_path):
    with pytest.raises(FrontierError, match="cannot be written"):
        count_frontier(5, [6], spill=SpillPlan(_unwritable(tmp_path), slices=2))
    with pytest.raises(FrontierError, match="does not exist"):
        count_frontier(5, [6], spill=SpillPlan(str(tmp_path / "nowhere"), slices=2))


def test_full_disk_refused_and_cleaned(tmp_path, monkeypatch):
    def full(*_args, **_kw):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(frontier_spill, "_route", full)
    with pytest.raises(FrontierError, match="No space left"):
        count_frontier(5, [6], spill=SpillPlan(str(tmp_path), slices=2))
    assert os.listdir(tmp_path) == []


def _cli(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.run([sys.executable, "-m", "knightgui", "study", "count", "--all-tours",
                           *args], capture_output=True, text=True, env=env, timeout=300)


def test_cli_spill(tmp_path):
    got = _cli("--rows", "5", "--cols", "6", "--method", "frontier", "--spill", str(tmp_path),
               "--slices", "4", "--json")
    assert got.returncode == 0, got.stderr
    rec = json.loads(got.stdout[got.stdout.index("{"):])
    assert rec["totals"]["tours"] == 37_568 and rec["undirected_closed_tours"] == 8
    assert len(rec["slices"]) == 30 and rec["slices"][-1]["slices"] == 4
    assert "slices on disk" in got.stderr and os.listdir(tmp_path) == []
    bad = _cli("--rows", "5", "--cols", "6", "--method", "frontier", "--spill",
               _unwritable(tmp_path), "--slices", "2")
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr
    assert bad.stderr.strip().splitlines()[-1].endswith(("No such file or directory",
                                                         "Permission denied"))
    alone = _cli("--rows", "5", "--cols", "6", "--slices", "2")
    assert alone.returncode == 2 and "--spill" in alone.stderr


_MODS = np.array([0, (1 << 61) - 1], np.uint64)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 40), st.integers(0, 3),
                          st.integers(0, (1 << 64) - 1), st.integers(0, (1 << 61) - 2)),
                min_size=0, max_size=300),
       st.sampled_from([1, 2]), st.sampled_from([1, 2, 3]))
def test_merge_adds_equal_keys(rows, words, parts):
    top = 1 << 63
    want: dict[tuple[int, ...], list[int]] = {}
    data = []
    for a, b, r0, r1 in rows:
        key = (top | a,) if words == 1 else (top | a, b)
        data.append([*key, r0, r1])
        got = want.setdefault(key, [0, 0])
        got[0] = (got[0] + r0) % (1 << 64)
        got[1] = (got[1] + r1) % int(_MODS[1])
    arr = np.array(data, np.uint64).reshape(-1, words + 2)
    half = arr.shape[0] // 2
    tabs = merge_rows([arr[:half], arr[half:]], _MODS, words, parts, lambda _n: None)
    assert len(tabs) == parts
    seen: dict[tuple[int, ...], list[int]] = {}
    for j, tab in enumerate(tabs):
        used = tab[tab[:, 0] != 0]
        if used.shape[0]:           # each table holds its own share of the hash
            h = key_hash(used[:, 0], used[:, 1] if words == 2 else None)
            assert set(((h >> np.uint64(32)) % np.uint64(parts)).tolist()) == {j}
        for row in used.tolist():
            key = tuple(row[:words])
            assert key not in seen
            seen[key] = row[words:]
    assert seen == want


@pytest.mark.slow
def test_8x6_closed_through_slices(tmp_path):
    # the two-word step, 8 slices at least; 132 M states at most in memory (11.4 GiB of
    # table), here about an eighth of it at a time
    res = count_frontier(8, [6], closed_only=True, spill=SpillPlan(str(tmp_path), slices=8))
    assert res.boards[0].cycles == A193055_8X6
    assert os.listdir(tmp_path) == []


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(0, (1 << 64) - 1), st.integers(0, (1 << 64) - 1)),
                max_size=200),
       st.sampled_from([1, 2]), st.integers(1, 9), st.integers(1, 3))
def test_route_kernel_matches_key_hash(keys, words, slices, shares):
    from knightgui_core.frontier.spill_kernel import spill_route
    rows = np.array([[a, b, i] for i, (a, b) in enumerate(keys)], np.uint64).reshape(-1, 3)
    if words == 1:
        rows = np.ascontiguousarray(rows[:, [0, 2]])
    out = np.empty_like(rows)
    starts = np.zeros(slices * shares + 1, np.int64)
    used = rows[rows[:, 0] != 0]
    assert spill_route(rows, words, slices, shares, out, starts) == used.shape[0]
    h = key_hash(used[:, 0], used[:, 1] if words == 2 else None)
    bucket = ((h % np.uint64(slices)) * np.uint64(shares)
              + (h >> np.uint64(32)) % np.uint64(shares)).astype(np.int64)
    for b in range(slices * shares):        # each bucket: its rows, in their order
        assert out[starts[b]:starts[b + 1]].tolist() == used[bucket == b].tolist()
    assert spill_route(rows, words, slices, shares, out[:0], starts) == (-2 if len(rows)
                                                                          else 0)
    assert spill_route(rows, 3, slices, shares, out, starts) == -2


@pytest.mark.parametrize("rows, cols, closed_only", [(5, 6, False), (8, 3, False)])
def test_slices_read_in_parts(rows, cols, closed_only, tmp_path):
    # a slice too big for the memory is read in parts by other bits of the hash: forced here
    from knightgui_core.frontier.spill import spill_step
    mem = count_frontier(rows, [cols], closed_only=closed_only, threads=2)
    disk = count_frontier(rows, [cols], closed_only=closed_only, threads=2,
                          spill=SpillPlan(str(tmp_path), slices=2,
                                          run_slices=lambda specs: [spill_step({**s, "parts": 4})
                                                                    for s in specs]))
    assert disk.boards == mem.boards and disk.column_states == mem.column_states
    assert {s["parts"] for c in disk.slices for s in c["per_slice"]} == {4}
    assert os.listdir(tmp_path) == []


def test_slice_over_memory_read_again_in_more_parts(tmp_path):
    # each slice told it may use 48 KiB: its tables pass that, so it is read again in
    # 2, 4, ... parts until they fit; the counts stay the in-memory ones
    from knightgui_core.frontier.spill import spill_step
    mem = count_frontier(5, [6], threads=2)
    disk = count_frontier(5, [6], threads=2, spill=SpillPlan(
        str(tmp_path), slices=2,
        run_slices=lambda specs: [spill_step({**s, "budget": 48 << 10}) for s in specs]))
    assert disk.boards == mem.boards and disk.column_states == mem.column_states
    assert max(s["parts"] for c in disk.slices for s in c["per_slice"]) >= 4
    assert os.listdir(tmp_path) == []
