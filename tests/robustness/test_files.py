"""The safe writer and reader (knightgui_core.system.files) against hostile files made in temporary
folders: links planted at temporary names, FIFOs, devices, folders, a full disk."""
from __future__ import annotations

import contextlib
import errno
import os
import stat
import subprocess
import tempfile
import threading
import time

import numpy as np
import pytest

from knightgui_core.board.tour import Tour, TourError
from knightgui_core.system import files


def _leftovers(folder) -> list[str]:
    return sorted(n for n in os.listdir(folder) if n.endswith(".tmp"))


def _tour() -> Tour:
    from knightgui_core.walks.solve import solve
    return solve(8, 8, start="a1").tour


# ------------------------------------------------------------------------- writing
def test_write_replaces_atomically_and_leaves_no_temporary(tmp_path):
    p = tmp_path / "a.txt"
    files.write_text(p, "one")
    files.write_text(p, "two")
    assert p.read_text() == "two"
    assert _leftovers(tmp_path) == []


def test_new_file_follows_the_umask(tmp_path):
    old = os.umask(0o027)
    try:
        p = files.write_text(tmp_path / "new.txt", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(p).st_mode) == 0o640


def test_overwritten_file_keeps_its_mode(tmp_path):
    p = tmp_path / "keep.json"
    p.write_text("old")
    os.chmod(p, 0o604)
    files.write_text(p, "new")
    assert p.read_text() == "new"
    assert stat.S_IMODE(os.stat(p).st_mode) == 0o604


def test_link_planted_at_the_temporary_name_is_not_followed(tmp_path, monkeypatch):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    target = tmp_path / "out.txt"
    planted = f".{target.name}.PLANTED.tmp"
    os.symlink(victim, tmp_path / planted)
    names = iter(["PLANTED", "FRESHNAME"])
    drawn: list[str] = []
    monkeypatch.setattr(files, "_random_token", lambda: drawn.append("x") or next(names))
    files.write_text(target, "data")
    assert len(drawn) == 2                  # the planted name was drawn, and passed over
    assert victim.read_text() == "precious"
    assert target.read_text() == "data"
    assert os.path.islink(tmp_path / planted)


@pytest.mark.parametrize("points_at", ["file", "nothing"])
def test_a_link_at_the_target_is_refused_and_its_victim_kept(tmp_path, points_at):
    victim = tmp_path / "victim.txt"
    if points_at == "file":
        victim.write_text("precious")
    link = tmp_path / "out.txt"
    os.symlink(victim, link)
    with pytest.raises(files.FileRefused) as ei:
        files.write_text(link, "data")
    assert str(ei.value) == f"{link} is a symbolic link, not a regular file; nothing was written"
    assert os.path.islink(link)
    if points_at == "file":
        assert victim.read_text() == "precious"
    else:
        assert not victim.exists()
    assert _leftovers(tmp_path) == []


def test_a_folder_target_is_one_line_and_nothing_written(tmp_path):
    folder = tmp_path / "adir.png"
    folder.mkdir()
    with pytest.raises(files.FileRefused) as ei:
        files.write_bytes(folder, b"data")
    assert str(ei.value) == f"{folder} is a folder, not a regular file; nothing was written"
    assert os.listdir(tmp_path) == ["adir.png"] and os.listdir(folder) == []


def test_old_fixed_png_temporary_name_is_harmless(tmp_path):
    """The PNG exporter used to write to '.NAME.tmp.png' and followed a link planted there."""
    victim = tmp_path / "victim.bin"
    victim.write_bytes(b"precious")
    os.symlink(victim, tmp_path / ".img.png.tmp.png")
    files.write_bytes(tmp_path / "img.png", b"\x89PNG data")
    assert victim.read_bytes() == b"precious"


@pytest.mark.parametrize("kind", ["fifo", "dir", "devnull", "socket", "link-to-devnull"])
def test_non_regular_target_is_refused_before_writing(tmp_path, kind):
    if kind == "fifo":
        p = tmp_path / "f.json"
        os.mkfifo(p)
    elif kind == "dir":
        p = tmp_path / "d.json"
        p.mkdir()
    elif kind == "devnull":
        p = "/dev/null"
    elif kind == "link-to-devnull":
        p = tmp_path / "l.json"
        os.symlink("/dev/null", p)
    else:
        import socket
        p = tmp_path / "s.json"
        s = socket.socket(socket.AF_UNIX)
        s.bind(str(p))
    with pytest.raises(files.FileRefused) as ei:
        files.write_text(p, "x")
    assert "not a regular file" in str(ei.value)
    assert _leftovers(tmp_path) == []
    if kind == "devnull":
        assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_tour_save_through_a_link_to_a_device_keeps_the_device(tmp_path):
    link = tmp_path / "out.json"
    os.symlink("/dev/null", link)
    with pytest.raises(OSError, match="not a regular file"):
        _tour().save(link)
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode) and os.path.islink(link)


@pytest.mark.parametrize("error", [RuntimeError, KeyboardInterrupt])
def test_a_failure_inside_the_block_keeps_the_target(tmp_path, error):
    """An error, or Ctrl-C (and the command line's SIGTERM/SIGHUP, raised as one)."""
    p = tmp_path / "t.csv"
    p.write_text("before")
    with pytest.raises(error):
        with files.atomic_writer(p, "w") as f:
            f.write("half")
            raise error("stop")
    assert p.read_text() == "before"
    assert _leftovers(tmp_path) == []


def test_enospc_from_the_disk_leaves_nothing_and_says_so(tmp_path, monkeypatch):
    p = tmp_path / "t.json"
    p.write_text("before")

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(files.FileRefused) as ei:
        files.write_text(p, "x" * 1000)
    assert "disk is full" in str(ei.value) and "left as it was" in str(ei.value)
    assert p.read_text() == "before"
    assert _leftovers(tmp_path) == []


@contextlib.contextmanager
def _tiny_tmpfs(size="64k"):
    d = tempfile.mkdtemp(prefix="kg-tmpfs-")
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", d],
                       capture_output=True)
    if r.returncode != 0:
        os.rmdir(d)
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        yield d
    finally:
        subprocess.run(["umount", d], capture_output=True)
        os.rmdir(d)


def test_really_full_disk_leaves_neither_temporary_nor_damaged_target():
    with _tiny_tmpfs() as d:
        p = os.path.join(d, "t.bin")
        files.write_bytes(p, b"old" * 100)
        with pytest.raises(files.FileRefused) as ei:
            files.write_bytes(p, os.urandom(200_000))
        assert "disk is full" in str(ei.value)
        assert open(p, "rb").read() == b"old" * 100
        assert _leftovers(d) == []


def test_missing_folder_is_an_error_not_created(tmp_path):
    with pytest.raises(OSError):
        files.write_text(tmp_path / "no" / "such" / "x.txt", "x")
    assert not (tmp_path / "no").exists()


def test_bad_names_are_refused(tmp_path):
    for bad in ("a\0b", str(tmp_path) + "/", str(tmp_path / "..")):
        with pytest.raises(files.FileRefused):
            files.write_text(bad, "x")


# ------------------------------------------------------------------------- reading
def test_fifo_is_refused_at_once(tmp_path):
    p = tmp_path / "tour.json"
    os.mkfifo(p)
    done = []
    t = threading.Thread(target=lambda: done.append(pytest.raises(TourError, Tour.load, p)))
    t0 = time.monotonic()
    t.start()
    t.join(5)
    assert done, "reading a FIFO blocked"
    assert time.monotonic() - t0 < 5


@pytest.mark.parametrize("dev", ["/dev/zero", "/dev/null", "/dev/urandom"])
def test_devices_are_refused(dev):
    with pytest.raises(TourError, match="not a regular file"):
        Tour.load(dev)


def test_size_limit_before_reading(tmp_path):
    p = tmp_path / "big.json"
    with open(p, "wb") as f:
        f.truncate(2000)
    with pytest.raises(files.FileRefused, match="refused"):
        files.read_bytes(p, limit=1000)
    assert files.read_bytes(p, limit=2000) == b"\0" * 2000


def test_folder_and_missing_file_refused(tmp_path):
    with pytest.raises(files.FileRefused, match="folder"):
        files.read_bytes(tmp_path)
    with pytest.raises(files.FileRefused, match="cannot open"):
        files.read_bytes(tmp_path / "missing")


def test_tour_round_trip_through_the_safe_writer(tmp_path):
    t = _tour()
    for ext in (".json", ".csv"):
        p = t.save(tmp_path / f"t{ext}")
        back = Tour.load(p)
        assert np.array_equal(back.path, t.path)
    assert _leftovers(tmp_path) == []
