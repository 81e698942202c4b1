"""File ▸ Open solutions… on hostile files (issue 34, part 4): each is one dialog line, the
reader's own sentence, never "Unexpected error", and the window keeps what it showed.

A ``.npy`` file whose header declares a 40000×40000 board is refused before anything of that
size is allocated (before the bounds, showing its first solution allocated 11.9 GiB; the
test caps the address space at 2 GiB more than the window has, so code that tried would fail
at once instead). A FIFO is
refused at once; a timer opens its other end after a deadline so that a reader stuck on it
would be let go and the test fail instead of hanging.
"""
from __future__ import annotations

import contextlib
import os
import threading
import time

import numpy as np
import pytest
from numpy.lib import format as npf

SQUARES_8x8 = " ".join(f"{'abcdefgh'[c]}{r + 1}" for r in range(8) for c in range(8))
PAIRS_8x8 = ",".join(f"[{c},{r}]" for r in range(8) for c in range(8))
TITLE = "Cannot open the solutions"


def _big_index_csv(p):
    p.write_text(f"solution,branch,path\n{2**83},0,{SQUARES_8x8}\n")


def _huge_npy(p):
    """One 40000×40000 board of bytes, as large as its header says (1.6 GB, sparse: no disk
    taken), so memory-mapping it works and only reading a solution would allocate."""
    with open(p, "wb") as f:
        npf.write_array_header_1_0(f, {"descr": "|u1", "fortran_order": False,
                                       "shape": (1, 40_000, 40_000)})
        f.truncate(f.tell() + 40_000 * 40_000)


def _short_npy(p):
    with open(p, "wb") as f:
        npf.write_array_header_1_0(f, {"descr": "|u1", "fortran_order": False,
                                       "shape": (10**9, 8, 8)})
        f.write(b"\x01" * 64)


def _deep_json(p):
    p.write_text('{"format": "knightgui-enumeration", "rows": 8, "cols": 8, '
                 '"solutions_listed": ' + "[" * 100_000 + "]" * 100_000 + "}")


def _infinite_json(p):
    p.write_text('{"format": "knightgui-enumeration", "rows": 8, "cols": 8, '
                 f'"solutions_listed": [{{"index": Infinity, "branch": 0, "path": [{PAIRS_8x8}]}}]}}')


CASES = {
    "big.csv": (_big_index_csv, "big.csv: line 2: solution 967140655691…(25 digits) is not a "
                                "whole number in 1..9,223,372,036,854,775,807"),
    "huge.npy": (_huge_npy, "huge.npy: its header declares a 40000×40000 board; solutions "
                            "files hold boards of 1 to 1,000 squares a side"),
    "short.npy": (_short_npy, "short.npy: its header declares 1000000000 solutions "
                              "(64,000,000,000 bytes) but 64 bytes follow it"),
    "deep.json": (_deep_json, "deep.json: JSON nested 100,001 levels deep (at most 64 are "
                              "read)"),
    "inf.json": (_infinite_json, "inf.json: not valid JSON (Infinity is not a JSON number)"),
}


def _one_dialog(dialogs, expected):
    assert len(dialogs) == 1, dialogs
    title, text = dialogs[0]
    assert title == TITLE and "Unexpected error" not in title + text
    assert "\n" not in text and text == expected, text


@pytest.mark.parametrize("name", list(CASES))
def test_hostile_solutions_file_is_one_line(window, dialogs, tmp_path, name, address_space):
    make, says = CASES[name]
    f = tmp_path / name
    make(f)
    before = window.view.path
    with address_space(2 << 30):
        assert window.open_solutions(filename=str(f)) is False
    _one_dialog(dialogs, says)
    assert (window.view.rows, window.view.cols) == (8, 8)      # the board is as it was
    assert window.view.path is before


@pytest.mark.parametrize("suffix", [".npy", ".csv", ".json"])
def test_fifo_and_device_are_one_line_at_once(window, dialogs, tmp_path, suffix, address_space):
    fifo = tmp_path / f"fifo{suffix}"
    os.mkfifo(fifo)

    def let_go():                 # a reader stuck on the FIFO gets its end of file
        with contextlib.suppress(OSError):
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    timer = threading.Timer(10.0, let_go)
    timer.start()
    t0 = time.monotonic()
    try:
        assert window.open_solutions(filename=str(fifo)) is False
    finally:
        timer.cancel()
    assert time.monotonic() - t0 < 5
    _one_dialog(dialogs, f"{fifo} is a FIFO (named pipe), not a regular file; refused")
    dialogs.clear()
    zero = tmp_path / f"zero{suffix}"
    zero.symlink_to("/dev/zero")
    with address_space(2 << 30):
        assert window.open_solutions(filename=str(zero)) is False
    _one_dialog(dialogs, f"{zero} is a character device, not a regular file; refused")


def test_a_good_file_still_opens_after_a_refused_one(window, dialogs, tmp_path, address_space):
    from knightgui_core.tietree.enumeration.enumerator import Enumerator
    from knightgui_core.tietree.enumeration.solution_writer import write_solutions
    bad = tmp_path / "huge.npy"
    _huge_npy(bad)
    with address_space(2 << 30):
        assert window.open_solutions(filename=str(bad)) is False
    good = tmp_path / "s.npy"
    write_solutions(Enumerator(6, 6, "a1"), good, limit=5)
    assert window.open_solutions(filename=str(good)) is True
    assert len(window.results.store) == 5 and (window.view.rows, window.view.cols) == (6, 6)
    assert np.array_equal(np.sort(window.results.tour.path), np.arange(36))


def test_deep_saved_controls_are_ignored_and_the_other_settings_kept(qtbot, dialogs):
    """A settings file whose saved controls nest 100,000 deep: the controls keep their
    defaults and the rest of the settings still apply (before the bound, the RecursionError
    stopped the restore half-way: the view options below it were lost)."""
    from knightgui import settings
    from knightgui.window.main import MainWindow
    s = settings.qsettings()
    s.setValue("controls", "[" * 100_000 + "]" * 100_000)
    s.setValue("view/numbers", False)
    s.sync()
    w = MainWindow(restore_settings=True)
    qtbot.addWidget(w)
    try:
        assert w.view.show_numbers is False
        assert (w.controls.model.settings.rows, w.controls.model.settings.cols) == (8, 8)
        assert dialogs == []
    finally:
        w.close()
