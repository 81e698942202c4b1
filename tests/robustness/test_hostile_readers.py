"""Every file reader bounds what it reads before it reads it (issue 34, part 4).

Hostile checkpoints, solutions files and tours are refused with one sentence: never a
RecursionError or OverflowError traceback, a hang on a FIFO, gigabytes read from /dev/zero
or an allocation sized by a ``.npy`` header. The core tests call the readers; the CLI tests
run ``python -m knightgui`` in a child process (exit 2, one line on stderr), capped in
address space so that a reader that did read /dev/zero whole fails fast instead of taking
the machine's memory. Nothing here can hang: FIFO readers run in a thread (or a child) with
a deadline, and a stuck one is let go by opening the FIFO's other end.
"""
from __future__ import annotations

import contextlib
import json
import os
import resource
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from numpy.lib import format as npf

# only entry points that existed before the bounds (the rest is imported where it is used),
# so that every defect's test runs, and fails, on the code before them
from knightgui_core.board.dash import EnumerationError
from knightgui_core.board.tour import Tour, TourError
from knightgui_core.studies import phadke as P
from knightgui_core.studies.phadke.runner import import_checkpoint
from knightgui_core.system import files
from knightgui_core.tietree.enumeration.solution_reader import open_solutions

CMD = [sys.executable, "-m", "knightgui"]
#: Address space of a CLI child: it needs under 1 GiB; reading /dev/zero whole needs more.
CHILD_CAP = 2 << 30
BIG = 2**83                               # an index no int64 holds
SQUARES_8x8 = " ".join(f"{'abcdefgh'[c]}{r + 1}" for r in range(8) for c in range(8))


# ----------------------------------------------------------------------- hostile files
def _deep_checkpoint(p, depth=100_000):
    p.write_text('{"format":"knightgui-phadke-checkpoint","version":1,"done":'
                 + "[" * depth + "]" * depth + "}")
    return p


def _infinite_checkpoint(p):
    p.write_text('{"format":"knightgui-phadke-checkpoint","version":1,'
                 '"done":[[0,"k",Infinity,0,0]]}')
    return p


def _fifo(p):
    os.mkfifo(p)
    return p


def _big_index_csv(p):
    p.write_text(f"solution,branch,path\n{BIG},0,{SQUARES_8x8}\n")
    return p


def _huge_npy(p, rows=40_000, cols=40_000, dtype="<u4"):
    """A .npy file whose header declares one rows×cols board, as large as it says (a sparse
    file: it takes no disk), so that memory-mapping it succeeds."""
    with open(p, "wb") as f:
        npf.write_array_header_1_0(f, {"descr": dtype, "fortran_order": False,
                                       "shape": (1, rows, cols)})
        f.truncate(f.tell() + rows * cols * np.dtype(dtype).itemsize)
    return p


# ----------------------------------------------------------------------------- helpers
def _rchar() -> int:
    with open("/proc/self/io") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("rchar:"))


def _in_thread(fn, fifo=None, seconds=20.0):
    """``fn()`` in a thread with a deadline; a reader stuck on ``fifo`` is let go (its
    other end opened and closed) and the test fails instead of hanging."""
    out: dict = {}

    def run():
        try:
            out["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - handed to the test's thread
            out["error"] = e
    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    if t.is_alive():
        if fifo is not None:
            with contextlib.suppress(OSError):
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        t.join(5)
        pytest.fail(f"the reader was still blocked after {seconds} s")
    if "error" in out:
        raise out["error"]
    return out.get("value")


def _cli(args, tmp_path, seconds=60.0):
    """Run ``knightgui ARGS`` capped at :data:`CHILD_CAP`; (exit code, stderr, peak RSS in
    bytes). A child still running after ``seconds`` is killed and the test fails."""
    err = tmp_path / "stderr.txt"
    with open(err, "wb") as e:
        proc = subprocess.Popen(CMD + args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=e, preexec_fn=lambda: resource.setrlimit(
                                    resource.RLIMIT_AS, (CHILD_CAP, CHILD_CAP)))
    deadline = time.monotonic() + seconds
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            proc.kill()
            os.wait4(proc.pid, 0)
            proc.returncode = -9
            pytest.fail(f"knightgui {' '.join(args)} still running after {seconds} s")
        time.sleep(0.05)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, err.read_text(errors="replace"), usage.ru_maxrss * 1024


def _one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    assert "Traceback" not in text and "Error:" not in lines[0]
    return lines[0]


# -------------------------------------------------------------------- bounded JSON (core)
def test_json_depth_is_measured_without_recursion_and_skips_strings():
    from knightgui_core.system.text import MAX_JSON_DEPTH, JsonRefused, json_depth, strict_loads
    assert json_depth('{"a": [[1, 2], {"b": "[[[[{{{{"}]}') == 3
    assert json_depth('["\\"]]]", [[]]]') == 3
    assert json_depth("[" * 1_000_000) == 1_000_000           # no RecursionError, no stack
    assert json_depth(b"[" * 10 + b"]" * 10, chunk=3) == 10    # carried across chunks
    with pytest.raises(JsonRefused, match=f"nested 100,001 levels deep .at most {MAX_JSON_DEPTH}"):
        strict_loads("[" * 100_001 + "]" * 100_001)
    assert strict_loads("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH) is not None


@pytest.mark.parametrize("text, why", [
    ('{"n": Infinity}', "Infinity is not a JSON number"),
    ('{"n": -Infinity}', "-Infinity is not a JSON number"),
    ('{"n": NaN}', "NaN is not a JSON number"),
    ('{"n": 1e999}', "too large a number"),
    (f'{{"n": {BIG}}}', "beyond the 64-bit range"),
    ('{"n": ' + "9" * 5000 + "}", "5,000 digits"),
])
def test_strict_loads_refuses_what_is_not_a_number_in_one_sentence(text, why):
    from knightgui_core.system.text import JsonRefused, strict_loads
    with pytest.raises(JsonRefused, match=why) as e:
        strict_loads(text)
    assert "\n" not in str(e.value) and len(str(e.value)) < 200
    assert strict_loads('{"n": 9223372036854775807}') == {"n": 2**63 - 1}


# --------------------------------------------------------------------- checkpoints (core)
def test_deep_checkpoint_is_one_sentence_not_a_recursion_error(tmp_path):
    p = _deep_checkpoint(tmp_path / "deep.json")
    with pytest.raises(ValueError, match="nested 100,001 levels deep"):
        import_checkpoint(p, store=None)      # refused before the store is touched
    # the resumable run counts it as no checkpoint (and rewrites it), no RecursionError
    assert P.run(P.algorithms("strict")[:0], checkpoint=p).counts == {}


def test_infinite_counts_are_refused_not_an_overflow(tmp_path):
    p = _infinite_checkpoint(tmp_path / "inf.json")
    with pytest.raises(ValueError, match="Infinity is not a JSON number"):
        import_checkpoint(p, store=None)


def test_checkpoint_counts_must_be_whole_numbers_in_range(tmp_path):
    from knightgui_core.studies.phadke.checkpoint import read_checkpoint
    algos = P.algorithms("strict")
    a, b, c = algos[0], algos[1], algos[2]
    p = tmp_path / "ck.json"
    p.write_text(json.dumps({"format": "knightgui-phadke-checkpoint", "done": [
        [a.id, a.key, 5, 1, 9], [b.id, b.key, 1e300, 0, 0], [c.id, c.key, -1, 0, 0],
        [[a.id], a.key, 1, 1, 1], [a.id + 999_999, a.key, 1, 1, 1]]}))
    assert read_checkpoint(p, algos) == {a.id: (5, 1, 9)}
    p.write_text(json.dumps({"format": "knightgui-phadke-checkpoint",
                             "done": [[a.id, a.key, BIG, 0, 0]]}))
    with pytest.raises(ValueError, match="beyond the 64-bit range"):
        read_checkpoint(p, algos)


def test_fifo_checkpoint_is_refused_at_once(tmp_path):
    p = _fifo(tmp_path / "fifo.json")
    with pytest.raises(OSError, match="FIFO"):
        _in_thread(lambda: import_checkpoint(p, store=None), fifo=p)
    with pytest.raises(OSError, match="FIFO"):      # the resumable run refuses it before work
        _in_thread(lambda: P.run(P.algorithms("strict")[:1], workers=1, checkpoint=p), fifo=p)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_dev_zero_checkpoint_is_refused_without_reading(tmp_path, address_space):
    before = _rchar()
    with address_space(), pytest.raises(OSError, match="character device"):
        _in_thread(lambda: import_checkpoint("/dev/zero", store=None))
    assert _rchar() - before < 1 << 20          # not a megabyte read, let alone gigabytes


def test_checkpoint_above_the_size_limit_is_refused_unread(tmp_path, monkeypatch):
    from knightgui_core.studies.phadke import checkpoint as phadke_checkpoint
    monkeypatch.setattr(phadke_checkpoint, "CHECKPOINT_BYTES", 1000)
    p = tmp_path / "big.json"
    p.write_text('{"format": "knightgui-phadke-checkpoint", "done": []}' + " " * 2000)
    with pytest.raises(OSError, match="files above 1,000 bytes are refused"):
        import_checkpoint(p, store=None)


# -------------------------------------------------------------------- checkpoints (CLI)
@pytest.mark.parametrize("make, says", [
    (_deep_checkpoint, "deep.json: JSON nested 100,001 levels deep (at most 64 are read)"),
    (_infinite_checkpoint, "inf.json: not valid JSON (Infinity is not a JSON number)"),
    (_fifo, "fifo.json is a FIFO (named pipe), not a regular file; refused"),
    (None, "/dev/zero is a character device, not a regular file; refused"),
], ids=["deep", "infinity", "fifo", "dev-zero"])
def test_cli_refuses_a_hostile_checkpoint_in_one_line(tmp_path, make, says):
    name = {_deep_checkpoint: "deep.json", _infinite_checkpoint: "inf.json",
            _fifo: "fifo.json"}.get(make)
    path = "/dev/zero" if make is None else str(make(tmp_path / name))
    store = tmp_path / "results.sqlite"
    code, err, peak = _cli(["study", "phadke", "--family", "strict", "--store", str(store),
                            "--checkpoint", path], tmp_path)
    line = _one_line(err)
    assert code == 2, err
    assert line.startswith("--checkpoint: ") and line.endswith(says), line
    # no gigabytes of /dev/zero (peak about 150 MB). Linux keeps a child's peak RSS across
    # fork and exec, so a large test process raises every child's figure alike: compare
    # with a child that reads nothing, started the same way
    _code, _err, base = _cli(["--version"], tmp_path)
    assert peak < base + (256 << 20), (peak, base)


# ----------------------------------------------------------------------------- tours
def test_deep_or_infinite_tour_is_one_line_from_check(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text('{"format": "knightgui-tour", "path": ' + "[" * 100_000 + "]" * 100_000
                    + "}")
    with pytest.raises(TourError, match="nested 100,001 levels deep"):
        Tour.load(deep)
    code, err, _ = _cli(["check", str(deep)], tmp_path)
    assert code == 2 and _one_line(err) == (f"knightgui check: {deep}: JSON nested 100,001 "
                                             "levels deep (at most 64 are read)")
    big = tmp_path / "big.json"
    big.write_text('{"format": "knightgui-tour", "version": 1, "rows": 1, "cols": 1, '
                   f'"path": [[{BIG}, 0]]}}')
    with pytest.raises(TourError, match="beyond the 64-bit range"):
        Tour.load(big)


def test_tour_that_would_not_fit_in_memory_is_refused_unread(tmp_path, monkeypatch):
    from knightgui_core.system import files as F
    p = tmp_path / "t.json"
    p.write_text("{" + " " * (2 << 20) + "}")          # 2 MiB: 96 MiB to parse at 48×
    monkeypatch.setattr(F, "available_memory", lambda: 50 << 20)
    before = _rchar()
    with pytest.raises(TourError, match="reading it needs about 96 MiB of memory and 50 MiB "
                       "is available; refused"):
        Tour.load(p)
    assert _rchar() - before < 1 << 20


# ---------------------------------------------------------------- solutions files (core)
def test_csv_index_beyond_int64_is_one_sentence_not_an_overflow(tmp_path):
    p = _big_index_csv(tmp_path / "big.csv")
    with pytest.raises(EnumerationError) as e:
        open_solutions(p)
    assert str(e.value) == ("big.csv: line 2: solution 967140655691…(25 digits) is not a "
                            "whole number in 1..9,223,372,036,854,775,807")
    p.write_text(f"solution,branch,path\n1,65,{SQUARES_8x8}\n")
    with pytest.raises(EnumerationError, match="line 2: branch 65 is not a whole number in 0..64"):
        open_solutions(p)
    p.write_text(f"solution,branch,path\n1,0,{SQUARES_8x8}\n2,3,{SQUARES_8x8}\n")
    sf = open_solutions(p)                          # in range: read as before
    assert (len(sf), sf.index(1), sf.branch(1)) == (2, 2, 3)


def test_json_index_out_of_range_is_refused(tmp_path):
    pairs = [[c, r] for r in range(8) for c in range(8)]
    doc = {"format": "knightgui-enumeration", "rows": 8, "cols": 8,
           "solutions_listed": [{"index": 0, "branch": 0, "path": pairs}]}
    p = tmp_path / "s.json"
    p.write_text(json.dumps(doc))
    with pytest.raises(EnumerationError, match="index or branch is out of range"):
        open_solutions(p)
    doc["solutions_listed"][0]["index"] = BIG
    p.write_text(json.dumps(doc))
    with pytest.raises(EnumerationError, match="beyond the 64-bit range"):
        open_solutions(p)
    p.write_text(json.dumps(doc).replace('"rows": 8', '"rows": ' + "[" * 100_000 + "8"
                                                + "]" * 100_000))
    with pytest.raises(EnumerationError, match="s.json: JSON nested 100,001 levels deep"):
        open_solutions(p)


def test_npy_header_of_a_huge_board_is_refused_before_allocating(tmp_path):
    import tracemalloc
    p = _huge_npy(tmp_path / "huge.npy")
    tracemalloc.start()
    try:
        with pytest.raises(EnumerationError) as e:
            open_solutions(p)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert str(e.value) == ("huge.npy: its header declares a 40000×40000 board; solutions "
                            "files hold boards of 1 to 1,000 squares a side")
    assert peak < 1 << 20


@pytest.mark.parametrize("shape, dtype, payload, says", [
    ((10**9, 8, 8), "<u1", 64, "declares 1000000000 solutions (64,000,000,000 bytes) but 64 "
                               "bytes follow it"),
    ((1, 20, 20), "<u1", 400, "uint8 cannot hold the move numbers of a 20×20 board"),
    ((1, 8, 8), "<f8", 512, "found shape (1, 8, 8) of float64"),
    ((8, 8), "<u1", 64, "found shape (8, 8) of uint8"),
])
def test_npy_header_must_agree_with_the_board_and_the_file(tmp_path, shape, dtype, payload,
                                                           says):
    p = tmp_path / "s.npy"
    with open(p, "wb") as f:
        npf.write_array_header_1_0(f, {"descr": dtype, "fortran_order": False, "shape": shape})
        f.write(b"\x01" * payload)
    with pytest.raises(EnumerationError, match=says.replace("(", r"\(").replace(")", r"\)")):
        open_solutions(p)


def test_a_written_npy_still_opens_memory_mapped(tmp_path):
    from knightgui_core.tietree.enumeration.enumerator import Enumerator
    from knightgui_core.tietree.enumeration.solution_writer import write_solutions
    p = tmp_path / "s.npy"
    write_solutions(Enumerator(5, 5, "a1"), p, 3)
    sf = open_solutions(p)
    assert isinstance(sf._get_numbers(0), np.memmap)
    assert len(sf) == 3 and sorted(sf.numbers(2).ravel()) == list(range(1, 26))
    with open(p, "rb") as f:
        assert np.array_equal(np.load(f)[2], sf.numbers(2))


@pytest.mark.parametrize("suffix", [".npy", ".csv", ".json"])
def test_fifo_and_device_solutions_files_are_refused_at_once(tmp_path, suffix, address_space):
    p = _fifo(tmp_path / f"fifo{suffix}")
    with pytest.raises(EnumerationError, match="FIFO"):
        _in_thread(lambda: open_solutions(p), fifo=p)
    link = tmp_path / f"zero{suffix}"
    link.symlink_to("/dev/zero")
    before = _rchar()
    with address_space(), pytest.raises(EnumerationError, match="character device"):
        _in_thread(lambda: open_solutions(link))
    assert _rchar() - before < 1 << 20


def test_open_regular_checks_the_opened_descriptor(tmp_path):
    p = tmp_path / "a.bin"
    p.write_bytes(b"xyz")
    with files.open_regular(p) as f:
        assert f.read() == b"xyz"
    with pytest.raises(files.FileRefused, match="files above 2 bytes are refused"):
        files.open_regular(p, 2)
