"""``enumerate --out`` and ``solve --out/--png`` write through the one writer: a full disk,
a folder or a link at the target is one line that names the option and the file (once),
exit 2, the old file kept and no temporary file left."""
from __future__ import annotations

import errno
import os

import pytest

from knightgui.cli import run


def call(capsys, *argv):
    code = run(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _full(monkeypatch):
    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(os, "fsync", full)


ENUMERATE = ["enumerate", "--start", "a8", "--end", "c7"]
ALL_TOURS = ["enumerate", "--all-tours", "--rows", "5", "--cols", "5", "--start", "a1"]


@pytest.mark.parametrize("argv", [ENUMERATE, ALL_TOURS], ids=["phadke", "all-tours"])
def test_enumerate_out_on_a_full_disk_is_one_line_and_keeps_the_old_file(
        tmp_path, capsys, monkeypatch, argv):
    out = tmp_path / "sol.csv"
    out.write_text("old")
    _full(monkeypatch)
    code, _, err = call(capsys, *argv, "--out", str(out))
    assert code == 2
    assert err.splitlines() == [f"--out: cannot write {out}: the disk is full; the file was "
                                "left as it was"]
    assert out.read_text() == "old" and os.listdir(tmp_path) == ["sol.csv"]


def test_enumerate_out_refuses_a_folder_and_a_link(tmp_path, capsys):
    folder = tmp_path / "d.csv"
    folder.mkdir()
    code, _, err = call(capsys, *ENUMERATE, "--out", str(folder))
    assert code == 2
    assert err.splitlines() == [f"--out: {folder} is a folder, not a regular file; nothing "
                                "was written"]
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    link = tmp_path / "l.csv"
    link.symlink_to(victim)
    code, _, err = call(capsys, *ENUMERATE, "--out", str(link))
    assert code == 2
    assert err.splitlines() == [f"--out: {link} is a symbolic link, not a regular file; "
                                "nothing was written"]
    assert victim.read_text() == "precious"
    assert sorted(os.listdir(tmp_path)) == ["d.csv", "l.csv", "victim.txt"]


@pytest.mark.parametrize("flag, name", [("--out", "t.json"), ("--png", "t.png")])
def test_solve_names_the_file_that_could_not_be_written(tmp_path, capsys, monkeypatch, flag,
                                                        name):
    target = tmp_path / name
    target.write_bytes(b"old")
    _full(monkeypatch)
    code, _, err = call(capsys, "solve", "--rows", "6", "--cols", "6", "-q", flag, str(target))
    assert code == 2
    assert err.splitlines() == [f"{flag}: cannot write {target}: the disk is full; the file "
                                "was left as it was"]
    assert target.read_bytes() == b"old" and os.listdir(tmp_path) == [name]
