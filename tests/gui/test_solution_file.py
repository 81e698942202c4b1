"""The window opens a solutions file written by enumerate --out and steps through it; a
damaged file, a FIFO or a device is a dialog, never a hang or a crash."""
from __future__ import annotations

import os

import numpy as np
import pytest

from knightgui_core.board.tour import check_path
from knightgui_core.tietree.enumeration.enumerator import Enumerator
from knightgui_core.tietree.enumeration.solution_writer import write_solutions


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


def test_a_solutions_file_of_a_torus_opens_on_the_torus(window, tmp_path):
    from knightgui_core.board.squares import Board
    b = Board(6, 6, "torus", (2, 3))
    f = tmp_path / "z.json"
    write_solutions(Enumerator(6, 6, "a1", board=b), f, limit=30)
    assert window.open_solutions(filename=str(f)) is True
    assert window.view.board == b == window.controls.board() == window.results.board
    r = window.results
    assert r.next() and check_path(b, r.tour.path) is None
    assert "torus" in window.statusBar().currentMessage()


def test_a_solutions_file_of_another_size_opens_on_its_size(window, tmp_path):
    f = tmp_path / "s6.csv"
    write_solutions(Enumerator(6, 6, "a1"), f, limit=10)       # the window shows 8×8
    assert window.open_solutions(filename=str(f)) is True
    assert (window.view.rows, window.controls.model.settings.rows) == (6, 6)
    assert len(window.results.store) == 10 and window.results.next()
