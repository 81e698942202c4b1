"""Analysis ▸ Export plots writes through the one writer (knightgui_core.system.files): a
link planted at the old fixed temporary name or at the target is never followed, a folder
or a full disk is one sentence with nothing left behind."""
from __future__ import annotations

import errno
import os

import pytest
from PySide6.QtGui import QImage

from knightgui_core.system.files import FileRefused


@pytest.fixture
def plot(qapp):
    from knightgui.analysis.plots import FailureHistogram
    w = FailureHistogram()
    w.resize(300, 200)
    w.set_distribution([3, 5, 2, 7])
    yield w
    w.close()
    w.deleteLater()


def _export(plot, path):
    from knightgui.analysis.plot_export import export_plot
    return export_plot(plot, path)


def test_a_link_at_the_old_fixed_temporary_name_is_not_followed(plot, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    os.symlink(victim, tmp_path / ".bars.png.tmp.png")
    out = _export(plot, tmp_path / "bars.png")
    assert victim.read_text() == "precious"
    assert QImage(str(out)).width() == 600          # twice the widget's width
    assert sorted(os.listdir(tmp_path)) == [".bars.png.tmp.png", "bars.png", "victim.txt"]


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_a_link_at_the_target_is_refused_and_its_victim_kept(plot, tmp_path, suffix):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    link = tmp_path / f"bars{suffix}"
    os.symlink(victim, link)
    with pytest.raises(FileRefused) as ei:
        _export(plot, link)
    assert str(ei.value) == f"{link} is a symbolic link, not a regular file; nothing was written"
    assert victim.read_text() == "precious" and os.path.islink(link)
    assert sorted(os.listdir(tmp_path)) == [link.name, "victim.txt"]


def test_a_folder_target_is_one_line_and_leaves_nothing(plot, tmp_path):
    folder = tmp_path / "adir.png"
    folder.mkdir()
    with pytest.raises(FileRefused) as ei:
        _export(plot, folder)
    assert str(ei.value) == f"{folder} is a folder, not a regular file; nothing was written"
    assert os.listdir(tmp_path) == ["adir.png"] and os.listdir(folder) == []


def test_a_full_disk_keeps_the_old_file_and_leaves_no_temporary(plot, tmp_path, monkeypatch):
    out = tmp_path / "bars.png"
    out.write_bytes(b"old")

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(FileRefused) as ei:
        _export(plot, out)
    assert str(ei.value) == f"cannot write {out}: the disk is full; the file was left as it was"
    assert out.read_bytes() == b"old" and os.listdir(tmp_path) == ["bars.png"]
