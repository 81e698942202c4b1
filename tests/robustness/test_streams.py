"""The command line in hostile surroundings: stdout/stderr full, closed or broken, an ASCII-only
terminal; strict JSON; long numbers in messages; CSV columns that contradict each other.
Real processes: the interpreter's own exit flush is part of what is tested."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from knightgui_core.board.tour import Tour, TourError
from knightgui_core.system.text import shorten, strict_dumps
from knightgui_core.walks.solve import solve

CMD = [sys.executable, "-m", "knightgui"]


def _run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=None, **kw):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run(CMD + args, stdout=stdout, stderr=stderr, env=e, timeout=120, **kw)


def _no_traceback(err: bytes):
    assert b"Traceback" not in err and b"Exception ignored" not in err, err.decode()


def test_full_stdout_is_exit_1_and_one_line():
    with open("/dev/full", "w") as full:
        r = _run(["solve", "--rows", "8", "--cols", "8"], stdout=full)
    _no_traceback(r.stderr)
    assert r.returncode == 1
    lines = [ln for ln in r.stderr.decode().strip().splitlines()     # a cold cache says it
             if "compiling the engine (once)" not in ln]             # compiles: not an error
    assert lines == ["knightgui: cannot write to stdout: No space left on device"]


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_closed_stdout(json_flag):
    r = subprocess.run(" ".join(CMD + ["solve", "--rows", "8", "--cols", "8"] + json_flag)
                       + " >&-", shell=True, capture_output=False, stderr=subprocess.PIPE,
                       timeout=120)
    _no_traceback(r.stderr)
    assert r.returncode == 1 and b"cannot write to stdout" in r.stderr


def test_closed_stderr_with_bad_input_is_quiet_exit():
    r = subprocess.run(" ".join(CMD + ["check", "/dev/null"]) + " 2>&-", shell=True,
                       stdout=subprocess.PIPE, timeout=120)
    assert r.returncode in (1, 2) and r.stdout == b""


def test_broken_pipe_head():
    p = subprocess.Popen(CMD + ["enumerate", "--start", "a8", "--end", "c7", "--first", "3000"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.read(100)
    p.stdout.close()                      # what `| head -c 100` does
    err = p.stderr.read()
    p.wait(120)
    _no_traceback(err)
    assert p.returncode == 1 and b"broken pipe" in err


def test_ascii_only_terminal():
    r = _run(["solve", "--rows", "8", "--cols", "8", "--start", "a1", "--json"],
             env={"LANG": "C", "LC_ALL": "C", "PYTHONIOENCODING": "ascii"})
    _no_traceback(r.stderr)
    assert r.returncode == 0
    json.loads(r.stdout.decode("ascii").strip().splitlines()[-1])
    r = _run(["check", "/dev/zero"], env={"LANG": "C", "PYTHONIOENCODING": "ascii"})
    _no_traceback(r.stderr)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1


def test_long_number_is_shortened_in_the_message():
    r = _run(["solve", "--rows", "9" * 5000, "--cols", "8"])
    assert r.returncode == 2
    line = r.stderr.decode()
    assert len(line) < 200 and "5,000 digits" in line


def test_shorten():
    assert shorten("got " + "1" * 30) == "got 111111111111…(30 digits)"
    assert shorten("x" * 1000, 50).endswith("…") and len(shorten("x" * 1000, 50)) == 50
    assert shorten("move 12 of 64") == "move 12 of 64"


def test_strict_json():
    s = strict_dumps({"a": float("inf"), "b": [float("nan"), 1.5], "c": -float("inf")})
    assert json.loads(s) == {"a": None, "b": [None, 1.5], "c": None}
    assert "Infinity" not in s and "NaN" not in s


@pytest.mark.parametrize("bad", ["Infinity", "-Infinity", "NaN", "1e999"])
def test_tour_json_with_non_finite_number_is_refused(tmp_path, bad):
    t = solve(5, 5, start="a1").tour
    text = t.to_json().replace('"method":{', f'"method":{{"x":{bad},', 1)
    p = tmp_path / "t.json"
    p.write_text(text)
    with pytest.raises(TourError):
        Tour.load(p)
    r = _run(["check", str(p), "--json"])
    assert r.returncode == 2 and r.stdout == b""


def test_csv_square_column_must_agree_with_col_row():
    t = solve(8, 8, start="a1").tour
    text = t.to_csv()
    Tour.from_csv(text)
    bad = text.replace("1,0,0,a1\n", "1,0,0,h8\n", 1)
    with pytest.raises(TourError, match="contradicts"):
        Tour.from_csv(bad)
    t30 = solve(30, 30, start="1,1").tour
    assert (Tour.from_csv(t30.to_csv()).path == t30.path).all()
