"""A frontier count stops inside a cell when it is cancelled: the flag is read after every
round of the cell's threads, in memory and through slices on disk, and the spill folder
keeps only the progress of the cells finished."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time

import pytest

from knightgui_core.frontier.count import SpillPlan, count_frontier
from knightgui_core.frontier.run_folder import OWNER, PROGRESS
from knightgui_core.frontier.spill import _STOPS
from knightgui_core.system.errors import Cancelled


def _only_progress_left(parent) -> bool:
    """True when ``parent`` holds nothing, or one run folder with only its owner file, its
    progress and the slice files that progress names (the stopped cell's files removed)."""
    runs = list(parent.iterdir())
    if not runs:
        return True
    if len(runs) != 1:
        return False
    with open(runs[0] / PROGRESS) as f:
        needed = {seg[2] for seg in json.load(f)["files"]}
    return {p.name for p in runs[0].iterdir()} == {OWNER, PROGRESS} | needed


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
                       spill=SpillPlan(str(tmp_path)) if spill else None)
    assert any(asked) and len(cells) < 36               # stopped before the last cell
    assert time.perf_counter() - t0 < 60                # the whole count takes longer
    if spill:
        assert _only_progress_left(tmp_path) and not _STOPS


def test_the_same_count_runs_to_its_end_when_not_cancelled():
    assert count_frontier(5, 6, threads=2, cancel=lambda: False).boards[-1].paths == \
        count_frontier(5, 6, threads=1).boards[-1].paths


@pytest.mark.parametrize("sig,code,word", [(signal.SIGTERM, 143, "terminated"),
                                           (signal.SIGHUP, 129, "terminated"),
                                           (signal.SIGINT, 130, "interrupted")])
def test_a_signal_stops_a_spilled_count_and_keeps_only_its_progress(tmp_path, sig, code, word):
    """SIGTERM (a batch system's limit) and Ctrl-C stop a count through slices inside its
    cell: one line, exit 143 or 130, the stopped cell's slices removed (the progress
    kept for the same count to go on)."""
    p = subprocess.Popen([sys.executable, "-m", "knightgui", "study", "count", "--all-tours",
                          "--rows", "7", "--cols", "8", "--method", "frontier",
                          "--spill", str(tmp_path), "--slices", "2"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not any(tmp_path.glob("*/c2*_*.u64")):
        time.sleep(0.1)                  # its slices of a later cell are on disk
    assert p.poll() is None
    p.send_signal(sig)
    t0 = time.monotonic()
    _, err = p.communicate(timeout=60)
    assert p.returncode == code and err.strip().splitlines()[-1] == word, err[-300:]
    assert time.monotonic() - t0 < 20
    assert _only_progress_left(tmp_path)
