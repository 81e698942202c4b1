"""Streaming solutions to files: the same solutions as the enumerator, in every format, with
flat memory, through the safe writer; read back one at a time."""
from __future__ import annotations

import json
import os
import tracemalloc

import numpy as np
import pytest

from knightgui_core.board.tour import Tour
from knightgui_core.tietree.enumeration.enumerator import EnumerationError, Enumerator
from knightgui_core.tietree.enumeration.solution_reader import open_solutions
from knightgui_core.tietree.enumeration.solution_writer import (
    NPY_HEADER_BYTES,
    solution_blocks,
    write_solutions,
)

FORMATS = (".npy", ".csv", ".json")


@pytest.fixture(scope="module")
def a8c7():
    en = Enumerator(8, 8, "a8", "c7")
    sols = en.first(20_000)
    return [s.path.tolist() for s in sols], [s.branch for s in sols]


@pytest.mark.parametrize("ext", FORMATS)
def test_every_solution_written_and_read_back(tmp_path, ext, a8c7):
    paths, branches = a8c7
    f = tmp_path / f"s{ext}"
    c = write_solutions(Enumerator(8, 8, "a8", "c7"), f)
    assert c["solutions"] == c["written"] == len(paths) == 14_258 and c["exhausted"]
    back = open_solutions(f)
    assert (back.rows, back.cols, len(back)) == (8, 8, len(paths))
    for i in (0, 1, 777, len(paths) - 1):
        assert back.path(i).tolist() == paths[i]
        assert back.index(i) == i + 1
        if ext != ".npy":
            assert back.branch(i) == branches[i]
    assert not [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]


def test_npy_is_plain_numpy_boards_of_move_numbers(tmp_path, a8c7):
    f = tmp_path / "s.npy"
    write_solutions(Enumerator(8, 8, "a8", "c7"), f, limit=100)
    a = np.load(f)
    assert a.shape == (100, 8, 8) and a.dtype == np.uint8
    t = Tour(Enumerator(8, 8).board, np.array(a8c7[0][5]), closed=True)
    assert (a[5] == t.numbers()).all()
    with open(f, "rb") as fh:
        assert len(fh.read(NPY_HEADER_BYTES)) == NPY_HEADER_BYTES
    assert os.path.getsize(f) == NPY_HEADER_BYTES + 100 * 64


@pytest.mark.parametrize("ext", FORMATS)
def test_big_board_names_and_tail(tmp_path, ext):
    """Numeric square names (over 26 columns) need CSV quoting; the tail squares follow."""
    en = Enumerator(10, 30, start=0)
    ref = [s.path.tolist() for s in Enumerator(10, 30, start=0).first(3)]
    write_solutions(en, tmp_path / f"b{ext}", limit=3)
    back = open_solutions(tmp_path / f"b{ext}")
    assert [back.path(i).tolist() for i in range(3)] == ref
    en = Enumerator(8, 8, "b8", "a6", {"h1": "full", "a8": "A"}, ["c2", "a1", "b3", "c5", "a6"])
    ref = [s.path.tolist() for s in Enumerator(8, 8, "b8", "a6", {"h1": "full", "a8": "A"},
                                               ["c2", "a1", "b3", "c5", "a6"]).first(50)]
    write_solutions(en, tmp_path / f"t{ext}", limit=50)
    back = open_solutions(tmp_path / f"t{ext}")
    assert [back.path(i).tolist() for i in range(len(back))] == ref


def test_json_is_strict_and_has_the_counters(tmp_path):
    f = tmp_path / "s.json"
    write_solutions(Enumerator(8, 8, "a8", "c7"), f, limit=10)
    d = json.loads(f.read_text())
    assert d["format"] == "knightgui-enumeration" and len(d["solutions_listed"]) == 10
    assert d["written"] == 10 and d["method"]["start"] == "a8"


def test_memory_stays_flat(tmp_path):
    """Peak Python-side memory while writing 2,000 vs 60,000 solutions (numba's own
    allocations are outside tracemalloc; the blocks are numpy arrays and are inside)."""
    peaks = []
    for limit in (2_000, 60_000):
        en = Enumerator(9, 9, "a1")
        tracemalloc.start()
        write_solutions(en, tmp_path / "m.npy", limit=limit)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    assert peaks[1] < 2 * peaks[0] + (1 << 20), peaks


def test_cancel_and_limit():
    en = Enumerator(9, 9, "a1")
    got = sum(len(p) for _, p, _ in solution_blocks(en, limit=12_345))
    assert got == 12_345 == en.solutions
    en = Enumerator(9, 9, "a1")
    blocks = list(solution_blocks(en, cancel=lambda: True, block=100))
    assert len(blocks) == 1 and not en.exhausted


def test_failed_write_leaves_no_file(tmp_path):
    f = tmp_path / "s.csv"
    with pytest.raises(KeyboardInterrupt):
        write_solutions(Enumerator(8, 8, "a8", "c7"), f,
                        progress=lambda c: (_ for _ in ()).throw(KeyboardInterrupt))
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("content, ext", [
    (b"", ".npy"), (b"\x93NUMPY garbage", ".npy"), (b"solution,branch,path\n", ".csv"),
    (b"x,y\n", ".csv"), (b'{"format":"knightgui-enumeration"}', ".json"), (b"[1]", ".json"),
    (b'{"format":"knightgui-enumeration","rows":8,"cols":8,"solutions_listed":[{"path":1}]}',
     ".json")])
def test_damaged_files_are_one_error(tmp_path, content, ext):
    f = tmp_path / f"bad{ext}"
    f.write_bytes(content)
    with pytest.raises(EnumerationError):
        open_solutions(f)


def test_npy_with_bad_numbers_refused_on_access(tmp_path):
    a = np.zeros((2, 5, 5), dtype=np.uint8)
    np.save(tmp_path / "z.npy", a)
    s = open_solutions(tmp_path / "z.npy")
    with pytest.raises(EnumerationError):
        s.path(0)
    with pytest.raises(IndexError):
        s.path(2)


def test_fifo_refused(tmp_path):
    for ext in FORMATS:
        p = tmp_path / f"f{ext}"
        os.mkfifo(p)
        with pytest.raises(EnumerationError):
            open_solutions(p)
