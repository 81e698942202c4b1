"""The window opens a solutions file written by enumerate --out and steps through it; a
damaged file, a FIFO or a device is a dialog, never a hang or a crash."""
from __future__ import annotations

import os

import numpy as np
import pytest

from knightgui_core.board.tour import check_path
from knightgui_core.tietree.enumerator import Enumerator
from knightgui_core.tietree.solution_writer import write_solutions


@pytest.mark.parametrize("ext", [".npy", ".csv"])
def test_open_and_step_through_a_solutions_file(window, tmp_path, ext):
    f = tmp_path / f"s{ext}"
    write_solutions(Enumerator(8, 8, "a8", "c7"), f, limit=500)
    ref = [s.path.tolist() for s in Enumerator(8, 8, "a8", "c7").first(500)]
    assert window.open_solutions(filename=str(f)) is True
    r = window.results
    assert len(r.store) == 500 and r.current == 0
    assert r.tour.path.tolist() == ref[0] and r.tour.closed
    assert r.next() and r.tour.path.tolist() == ref[1]
    assert r.last() and r.tour.path.tolist() == ref[-1]
    assert r.jump(123) and r.tour.path.tolist() == ref[122]
    assert check_path(r.board, r.tour.path, True) is None
    r.last()
    assert not r.next()                       # the end of the file: said, not an error


def test_a_new_search_replaces_the_file(window, tmp_path, qtbot):
    f = tmp_path / "s.npy"
    write_solutions(Enumerator(8, 8, "a8", "c7"), f, limit=50)
    window.open_solutions(filename=str(f))
    window.results.store.clear(64)
    assert len(window.results.store) == 0 and window.results.store.file is None


@pytest.mark.parametrize("kind", ["fifo", "garbage", "devnull"])
def test_bad_solutions_files_are_a_dialog(window, tmp_path, dialogs, kind):
    if kind == "fifo":
        f = tmp_path / "f.npy"
        os.mkfifo(f)
    elif kind == "garbage":
        f = tmp_path / "g.npy"
        f.write_bytes(b"\x93NUMPY\x01\x00garbage")
    else:
        f = tmp_path / "d.csv"
        os.symlink("/dev/null", f)
    assert window.open_solutions(filename=str(f)) is False
    assert dialogs and dialogs[-1][0] == "Cannot open the solutions"


def test_npy_with_a_record_that_is_no_tour(window, tmp_path, dialogs):
    a = np.arange(1, 65, dtype=np.uint8).reshape(1, 8, 8)     # a permutation, no tour
    np.save(tmp_path / "x.npy", a)
    assert window.open_solutions(filename=str(tmp_path / "x.npy")) is False
    assert dialogs
