"""A spilled frontier count keeps its progress in its own folder when it stops, and the same
count goes on from the last cell saved to the same exact count; a folder of another
version, with a damaged slice, or in use by a live run is refused in one line; the folders
of dead runs that saved nothing are removed by a later run."""
from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from knightgui_core.frontier import spill as frontier_spill
from knightgui_core.frontier.count import FrontierError, SpillPlan, count_frontier
from knightgui_core.frontier.run_folder import OWNER, PREFIX, PROGRESS
from knightgui_core.system.errors import Cancelled

#: 6×6 closed tours (A001230, A175881's 6×6 term)
CLOSED_6X6 = 9_862


def _folders(parent) -> list[str]:
    return sorted(p for p in os.listdir(parent) if p.startswith(PREFIX))


def _kept(parent) -> tuple[str, dict]:
    """The one run folder in ``parent``, which holds the owner, the progress and exactly the
    slice files the progress names; its progress."""
    (name,) = _folders(parent)
    path = os.path.join(parent, name)
    with open(os.path.join(path, PROGRESS)) as f:
        progress = json.load(f)
    assert set(os.listdir(path)) == {OWNER, PROGRESS} | {f[2] for f in progress["files"]}
    return path, progress


def _stop_at(cell: int):
    """run_slices that stops the count (Cancelled) inside cell ``cell``."""
    def run(specs):
        if specs[0]["cell"] == cell:
            raise Cancelled("stopped by the test")
        return frontier_spill.run_in_process(specs)
    return run


def test_a_stopped_count_goes_on_to_the_same_count(tmp_path):
    with pytest.raises(Cancelled):
        count_frontier(5, [6], threads=2,
                       spill=SpillPlan(str(tmp_path), slices=4, run_slices=_stop_at(17)))
    path, progress = _kept(tmp_path)
    assert progress["cell"] == 17
    lines: list[str] = []
    res = count_frontier(5, [6], threads=2,
                         spill=SpillPlan(str(tmp_path), slices=4, report=lines.append))
    mem = count_frontier(5, [6], threads=2)
    assert res.boards == mem.boards and res.boards[0].paths == 18_784
    assert res.column_states == mem.column_states and res.state_cells == mem.state_cells
    assert res.resumed_cells == 17 and len(res.slices) == 30 - 17
    assert any("17 of 30 cells were done" in line for line in lines)
    assert os.listdir(tmp_path) == []                  # done: the folder is gone


def test_a_sequence_resumes_with_its_finished_boards(tmp_path):
    with pytest.raises(Cancelled):
        count_frontier(4, [3, 5, 7], threads=2,   # 4×3 and 4×5 are finished by then
                       spill=SpillPlan(str(tmp_path), slices=2, run_slices=_stop_at(22)))
    res = count_frontier(4, [3, 5, 7], threads=2, spill=SpillPlan(str(tmp_path), slices=2))
    assert res.boards == count_frontier(4, [3, 5, 7], threads=2).boards
    assert res.resumed_cells == 22


def test_a_stop_in_the_first_cell_keeps_nothing(tmp_path):
    with pytest.raises(Cancelled):
        count_frontier(5, [6], spill=SpillPlan(str(tmp_path), slices=2, run_slices=_stop_at(0)))
    assert os.listdir(tmp_path) == []


def test_a_damaged_slice_is_refused_in_one_line(tmp_path):
    with pytest.raises(Cancelled):
        count_frontier(5, [6], threads=2,
                       spill=SpillPlan(str(tmp_path), slices=4, run_slices=_stop_at(12)))
    path, progress = _kept(tmp_path)
    name = progress["files"][0][2]
    with open(os.path.join(path, name), "r+b") as f:
        f.seek(0)
        word = f.read(8)
        f.seek(0)
        f.write(bytes(b ^ 0x10 for b in word))
    with pytest.raises(FrontierError, match="damaged.*remove the folder") as got:
        count_frontier(5, [6], threads=2, spill=SpillPlan(str(tmp_path), slices=4))
    assert "\n" not in str(got.value)
    assert os.path.isdir(path)                         # refused, not removed nor mixed in


def test_another_version_is_refused(tmp_path):
    with pytest.raises(Cancelled):
        count_frontier(5, [6], threads=2,
                       spill=SpillPlan(str(tmp_path), slices=4, run_slices=_stop_at(12)))
    path, progress = _kept(tmp_path)
    progress["version"] = "0" * 16
    with open(os.path.join(path, PROGRESS), "w") as f:
        json.dump(progress, f)
    with pytest.raises(FrontierError, match="another version of the code"):
        count_frontier(5, [6], threads=2, spill=SpillPlan(str(tmp_path), slices=4))


def test_another_board_has_its_own_folder(tmp_path):
    with pytest.raises(Cancelled):
        count_frontier(5, [6], threads=2,
                       spill=SpillPlan(str(tmp_path), slices=4, run_slices=_stop_at(12)))
    lines: list[str] = []
    res = count_frontier(4, [6], threads=2,
                         spill=SpillPlan(str(tmp_path), slices=2, report=lines.append))
    assert res.resumed_cells == 0 and res.boards == count_frontier(4, [6]).boards
    assert any("holds a stopped count of another board" in line for line in lines)
    _kept(tmp_path)                                    # the 5×6 progress is still there


def test_a_live_runs_folder_is_refused(tmp_path):
    with pytest.raises(Cancelled):
        count_frontier(5, [6], threads=2,
                       spill=SpillPlan(str(tmp_path), slices=4, run_slices=_stop_at(12)))
    path, _ = _kept(tmp_path)
    fd = os.open(os.path.join(path, OWNER), os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)    # a live run holds it
        with pytest.raises(FrontierError, match="in use by a running count"):
            count_frontier(5, [6], threads=2, spill=SpillPlan(str(tmp_path), slices=4))
    finally:
        os.close(fd)
    assert count_frontier(5, [6], threads=2,
                          spill=SpillPlan(str(tmp_path), slices=4)).resumed_cells == 12


def test_dead_runs_folders_without_progress_are_removed(tmp_path):
    dead = tmp_path / (PREFIX + "dead")
    dead.mkdir()
    (dead / OWNER).write_text("pid 1 on nowhere\n")       # nobody holds its lock
    (dead / "c3_f0o0.u64").write_bytes(b"\0" * 64)
    live = tmp_path / (PREFIX + "live")
    live.mkdir()
    (live / OWNER).write_text("pid 2 on here\n")
    other = tmp_path / (PREFIX + "no-owner")              # not a folder this code made
    other.mkdir()
    fd = os.open(live / OWNER, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        lines: list[str] = []
        count_frontier(4, [5], spill=SpillPlan(str(tmp_path), slices=2, report=lines.append))
    finally:
        os.close(fd)
    assert sorted(os.listdir(tmp_path)) == sorted([live.name, other.name])
    assert any("removed" in line and dead.name in line for line in lines)


_CHILD = textwrap.dedent("""
    import os, signal, sys
    from knightgui_core.frontier import spill as frontier_spill
    kill_cell = int(sys.argv[2])
    rows, cols = sys.argv[3:5] if len(sys.argv) > 4 else ("6", "6")
    real = frontier_spill._route

    def route(*args):
        got = real(*args)
        if frontier_spill._CELL == kill_cell:       # some of the cell's slices written
            os.kill(os.getpid(), signal.SIGKILL)
        return got

    real_step = frontier_spill._spill_step

    def step(spec):
        frontier_spill._CELL = int(spec["cell"])
        return real_step(spec)

    frontier_spill._CELL = -1
    frontier_spill._route = route
    frontier_spill._spill_step = step
    from knightgui.__main__ import main
    sys.exit(main(["study", "count", "--all-tours", "--rows", rows, "--cols", cols,
                   "--closed-only", "--method", "frontier", "--spill", sys.argv[1],
                   "--slices", "4"]))
""")


def _cli(folder, *extra, rows: int = 6, cols: int = 6,
         timeout: float = 300) -> subprocess.CompletedProcess:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.run([sys.executable, "-m", "knightgui", "study", "count", "--all-tours",
                           "--rows", str(rows), "--cols", str(cols), "--closed-only",
                           "--method", "frontier", "--spill", str(folder), "--slices", "4",
                           "--json", *extra], capture_output=True, text=True, env=env,
                          timeout=timeout)


def test_a_count_killed_in_a_cell_resumes_to_the_exact_count(tmp_path):
    killed = subprocess.run([sys.executable, "-c", _CHILD, str(tmp_path), "20"],
                            capture_output=True, text=True, timeout=300)
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-500:]
    (name,) = _folders(tmp_path)
    assert any(p.startswith("c21_") for p in os.listdir(tmp_path / name))  # mid-cell
    got = _cli(tmp_path)
    assert got.returncode == 0, got.stderr[-500:]
    rec = json.loads(got.stdout.strip().splitlines()[-1])
    assert rec["undirected_closed_tours"] == CLOSED_6X6 and rec["resumed_cells"] == 20
    assert "20 of 36 cells were done" in got.stderr
    assert os.listdir(tmp_path) == []


@pytest.mark.slow
def test_a_7x8_count_killed_in_a_late_cell_resumes_to_its_closed_tours(tmp_path):
    """7×8 closed (34,524,432,316 undirected tours, A193054), killed with SIGKILL inside
    cell 41 of 56 (its biggest columns), then run again: the exact count, 41 cells resumed."""
    killed = subprocess.run([sys.executable, "-c", _CHILD, str(tmp_path), "41", "7", "8"],
                            capture_output=True, text=True, timeout=1800)
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-500:]
    got = _cli(tmp_path, rows=7, cols=8, timeout=1800)
    assert got.returncode == 0, got.stderr[-500:]
    rec = json.loads(got.stdout.strip().splitlines()[-1])
    assert rec["undirected_closed_tours"] == 34_524_432_316 and rec["resumed_cells"] == 41
    assert "41 of 56 cells were done" in got.stderr
    assert os.listdir(tmp_path) == []


def test_a_count_killed_in_its_first_cell_is_cleaned_up_later(tmp_path):
    killed = subprocess.run([sys.executable, "-c", _CHILD, str(tmp_path), "0"],
                            capture_output=True, text=True, timeout=300)
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-500:]
    assert len(_folders(tmp_path)) == 1                 # left behind by the kill
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    got = subprocess.run([sys.executable, "-m", "knightgui", "study", "count", "--all-tours",
                          "--rows", "4", "--cols", "5", "--method", "frontier", "--spill",
                          str(tmp_path), "--slices", "2"], capture_output=True, text=True,
                         env=env, timeout=300)
    assert got.returncode == 0, got.stderr[-500:]
    assert os.listdir(tmp_path) == [] and "removed" in got.stderr


def test_two_runs_of_one_count_never_share_its_folder(tmp_path):
    from knightgui_core.frontier.run_folder import RunFolder
    from knightgui_core.frontier.spill import SpillError
    question = {"rows": 5, "lengths": [6]}
    first, second = RunFolder(str(tmp_path), question), RunFolder(str(tmp_path), question)
    assert first.open(3, 1) is None
    try:
        with pytest.raises(SpillError, match="in use by a running count"):
            second.open(3, 1)
        second.release()
        assert os.path.isdir(first.path)               # the refused run took nothing
    finally:
        first.close(True)
    assert os.listdir(tmp_path) == []
    assert second.open(3, 1) is None                    # free again once the first ended
    second.close(True)


def test_a_signal_inside_a_save_keeps_the_files_the_saved_progress_names(tmp_path, monkeypatch):
    """A stop between the rename of the new progress and the end of ``save`` (the folder's
    fsync) keeps the slice files the progress on disk names, not those of the save before."""
    from knightgui_core.frontier import run_folder as rf
    run = rf.RunFolder(str(tmp_path), {"rows": 5, "lengths": [6]})
    assert run.open(3, 1) is None
    for name in ("old.u64", "new.u64", "stray.u64"):
        (tmp_path / os.path.basename(run.path) / name).write_bytes(b"x")
    run.save({"cell": 1, "files": [[0, 0, "old.u64", 0, 1, 0]]})
    real_fsync = os.fsync

    def fsync(fd):
        if os.path.isdir(f"/proc/self/fd/{fd}"):
            raise KeyboardInterrupt            # the signal lands once the rename is done
        real_fsync(fd)
    monkeypatch.setattr(rf.os, "fsync", fsync)
    with pytest.raises(KeyboardInterrupt):
        run.save({"cell": 2, "files": [[0, 0, "new.u64", 0, 1, 0]]})
    monkeypatch.setattr(rf.os, "fsync", real_fsync)
    run.close(False)
    assert sorted(os.listdir(run.path)) == sorted([rf.OWNER, rf.PROGRESS, "new.u64"])
