"""The cost said before a frontier count: within a small factor of what a run measures, and
through slices on disk exactly when the tables outgrow the memory given."""
from __future__ import annotations

import pytest

from knightgui_core.frontier.count import count_frontier
from knightgui_core.studies.frontier_cost import frontier_cost


@pytest.mark.parametrize("rows,cols,closed", [(5, 12, True), (5, 8, False), (6, 10, True)])
def test_the_estimate_is_within_a_small_factor_of_a_run(rows, cols, closed):
    res = count_frontier(rows, [cols], closed_only=closed)
    cost = frontier_cost(rows, cols, closed, memory=1 << 40)
    assert cost.states is not None and cost.table_bytes is not None
    assert res.peak_states / 3 <= cost.states <= 3 * res.peak_states
    assert cost.table_bytes >= res.peak_table_bytes / 3
    assert not cost.spilled and "in memory" in cost.summary()


def test_tables_bigger_than_the_memory_go_to_slices_on_disk(tmp_path):
    small = frontier_cost(8, 8, True, spill=str(tmp_path), memory=1 << 30)
    assert small.spilled and small.disk_bytes and small.disk_bytes > small.table_bytes / 4
    assert small.disk_free is not None and small.disk_free > 0
    line = small.summary()
    assert "through slices on disk" in line and " free" in line and "CPU" in line
    assert not frontier_cost(8, 8, True, memory=1 << 50).spilled


def test_a_height_with_no_measured_board_says_so():
    cost = frontier_cost(2, 1, True, memory=1 << 30)
    assert cost.states is None and "no measured board" in cost.summary()


def test_the_8x8_closed_figures_are_the_measured_run_s(tmp_path):
    """8×8 closed through slices: 585,836,639 states, 64 GiB of disk and 76 min of CPU were
    measured (docs/results/all-tours.md); the estimate is within a quarter of each."""
    cost = frontier_cost(8, 8, True, spill=str(tmp_path), memory=6000 << 20)
    assert cost.states == 585_836_639 and cost.spilled
    assert 0.75 * 64 * 2**30 < cost.disk_bytes < 1.25 * 64 * 2**30
    assert 0.75 * 76 * 60 < cost.cpu_seconds < 1.25 * 76 * 60


def test_too_little_free_disk_is_said():
    from knightgui_core.studies.frontier_cost import FrontierCost
    c = FrontierCost(8, 8, True, 10, 10 << 30, 1 << 30, True, 5 << 30, 1 << 30, 60.0)
    assert "(1.0 GiB free: too little)" in c.summary()
