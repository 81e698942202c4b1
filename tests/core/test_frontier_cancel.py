"""A frontier count stops inside a cell when it is cancelled: the flag is read after every
round of the cell's threads, in memory and through slices on disk, and the spill folder is
removed."""
from __future__ import annotations

import threading
import time

import pytest

from knightgui_core.frontier.frontier_count import count_frontier
from knightgui_core.frontier.frontier_spill import _STOPS
from knightgui_core.system.errors import Cancelled


def _from_workers():
    """A cancel flag that only the cell's worker threads see set (the loop between cells
    runs on the calling thread and sees it clear): a Cancelled can then only come from
    inside a cell."""
    main = threading.main_thread()
    asked = []

    def cancel() -> bool:
        mine = threading.current_thread() is not main
        asked.append(mine)
        return mine

    return cancel, asked


@pytest.mark.parametrize("spill", [False, True])
def test_a_cancel_is_heard_inside_a_cell(spill, tmp_path):
    cancel, asked = _from_workers()
    cells = []
    t0 = time.perf_counter()
    with pytest.raises(Cancelled):
        count_frontier(6, 6, threads=2, cancel=cancel, progress=lambda d, t: cells.append(d),
                       spill=str(tmp_path) if spill else None)
    assert any(asked) and cells and cells[-1] < 36      # stopped before the last cell
    assert time.perf_counter() - t0 < 60                # the whole count takes longer
    if spill:
        assert list(tmp_path.iterdir()) == [] and not _STOPS


def test_the_same_count_runs_to_its_end_when_not_cancelled():
    assert count_frontier(5, 6, threads=2, cancel=lambda: False).boards[-1].paths == \
        count_frontier(5, 6, threads=1).boards[-1].paths
