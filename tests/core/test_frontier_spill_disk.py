"""A spilled frontier count never gives a wrong count from a disk that loses slices: a
write the file system does not take whole (a full disk, a short write) stops the count with
one line, and a slice file that does not read back as it was written (cut short, emptied,
changed) is refused, never read as a smaller or an empty slice."""
from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys

import pytest

from knightgui_core.frontier import merge as frontier_spill_merge
from knightgui_core.frontier import spill as frontier_spill
from knightgui_core.frontier.count import FrontierError, SpillPlan, count_frontier

#: 5×6: 18,784 undirected open paths (A083386), 8 closed tours (A175855)
PATHS_5X6 = 18_784


class _Disk:
    """A file system that takes ``room`` bytes of slices and then no more: the write that
    crosses the limit is short (it takes what is left), the next one fails with ENOSPC."""

    def __init__(self, room: int) -> None:
        self.room = room
        self.real = os.write

    def write(self, fd: int, data) -> int:
        if self.room <= 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        n = min(len(data), self.room)
        self.room -= n
        return self.real(fd, bytes(data[:n]))


@pytest.mark.parametrize("room", [0, 100, 5_000, 300_000])
def test_a_full_disk_stops_the_count(monkeypatch, tmp_path, room):
    disk = _Disk(room)
    monkeypatch.setattr(frontier_spill_merge, "_write", disk.write)
    with pytest.raises(FrontierError, match="No space left on device"):
        count_frontier(5, [6], threads=2, spill=SpillPlan(str(tmp_path), slices=4))


def _damaging(how: str, at_cell: int, seen: list[str]):
    """run_slices that runs a cell's slices and then damages one file they wrote."""
    def run(specs):
        got = frontier_spill.run_in_process(specs)
        if specs[0]["cell"] == at_cell:
            names = sorted({str(f[2]) for g in got for f in g["files"]})
            path = os.path.join(specs[0]["folder"], names[0])
            seen.append(path)
            if how == "emptied":
                open(path, "wb").close()
            elif how == "cut":
                os.truncate(path, os.path.getsize(path) - 8)
            elif how == "removed":
                os.remove(path)
            else:                                   # one word changed, the size kept
                with open(path, "r+b") as f:
                    f.seek(8)
                    word = f.read(8)
                    f.seek(8)
                    f.write(bytes(b ^ 0x01 for b in word))
        return got
    return run


@pytest.mark.parametrize("how,words", [("emptied", "lost data"), ("cut", "lost data"),
                                       ("removed", "cannot be read back"),
                                       ("changed", "checksum")])
def test_a_damaged_slice_file_is_refused(tmp_path, how, words):
    seen: list[str] = []
    with pytest.raises(FrontierError, match=words):
        count_frontier(5, [6], threads=2,
                       spill=SpillPlan(str(tmp_path), slices=4,
                                       run_slices=_damaging(how, 12, seen)))
    assert seen


def test_the_checks_leave_the_count_exact(tmp_path):
    res = count_frontier(5, [6], threads=2, spill=SpillPlan(str(tmp_path), slices=8))
    assert res.boards[0].paths == PATHS_5X6 and res.boards[0].cycles == 8


def _small_tmpfs(tmp_path):
    """A 1 MiB tmpfs mounted at tmp_path/fs, or None (not root, or mount refused)."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return None
    where = tmp_path / "fs"
    where.mkdir()
    got = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(where)],
                         capture_output=True)
    return where if got.returncode == 0 else None


@pytest.mark.parametrize("fill_kib", [900, 1000, 1020])
def test_cli_on_a_nearly_full_tmpfs_exits_2_in_one_line(tmp_path, fill_kib):
    where = _small_tmpfs(tmp_path)
    if where is None:
        pytest.skip("needs root and mount for a small tmpfs")
    try:
        with open(where / "fill", "wb") as f:
            try:
                f.write(b"\0" * (fill_kib << 10))
            except OSError:
                pass
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
        got = subprocess.run([sys.executable, "-m", "knightgui", "study", "count",
                              "--all-tours", "--rows", "6", "--cols", "6", "--method",
                              "frontier", "--spill", str(where), "--slices", "4"],
                             capture_output=True, text=True, env=env, timeout=300)
        assert got.returncode == 2, (got.stdout[-500:], got.stderr[-500:])
        assert "directed paths" not in got.stdout            # no count printed
        err = got.stderr.strip().splitlines()
        assert "Traceback" not in got.stderr
        assert "No space left on device" in err[-1]
        assert not [line for line in err if not line.startswith(("frontier:", "cell "))][:-1]
    finally:
        subprocess.run(["umount", str(where)], capture_output=True)


def test_a_count_stopped_by_a_full_disk_goes_on_once_there_is_room(monkeypatch, tmp_path):
    disk = _Disk(400_000)                   # room for the first cells of 5×6, not for all
    monkeypatch.setattr(frontier_spill_merge, "_write", disk.write)
    with pytest.raises(FrontierError, match="No space left on device"):
        count_frontier(5, [6], threads=2, spill=SpillPlan(str(tmp_path), slices=4))
    monkeypatch.setattr(frontier_spill_merge, "_write", os.write)      # room again
    res = count_frontier(5, [6], threads=2, spill=SpillPlan(str(tmp_path), slices=4))
    assert res.resumed_cells > 0 and res.boards[0].paths == PATHS_5X6
    assert os.listdir(tmp_path) == []
