"""CLI: a long command says on stderr what it does and how far it has got, on a terminal only;
stdout (and ``--json``) stays clean. The terminal is a real pseudo-terminal in this process
(the kernels are loaded once); a pipe is pytest's capture."""
import io
import json
import os
import signal
import sys
import threading
from contextlib import contextmanager

import pytest

from knightgui.cli import run
from knightgui.commands import _common

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pty")


@contextmanager
def terminal_stderr(monkeypatch):
    """``sys.stderr`` on a pseudo-terminal (100 columns) while inside; yields a list that
    holds, on the way out, everything drawn there."""
    import fcntl
    import pty
    import struct
    import termios
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    chunks: list[bytes] = []

    def drain():
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:
                return
            if not data:
                return
            chunks.append(data)
    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    stream = io.TextIOWrapper(os.fdopen(slave, "wb", buffering=0), encoding="utf-8",
                              write_through=True)
    monkeypatch.setattr(sys, "stderr", stream)
    drawn: list[str] = []
    try:
        yield drawn
    finally:
        monkeypatch.undo()
        stream.close()                     # the slave closed: the reader sees the end
        reader.join(10)
        os.close(master)
        drawn.append(b"".join(chunks).decode("utf-8", "replace"))


def on_terminal(monkeypatch, capsys, *argv):
    """Run the CLI with stderr on a terminal: (exit status, stdout, what stderr showed)."""
    with terminal_stderr(monkeypatch) as drawn:
        code = run(list(argv))
    return code, capsys.readouterr().out, drawn[0]


def on_pipes(capsys, *argv):
    code = run(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def quick_bars(monkeypatch):
    """Bars redraw on every update, so a run of a second shows some."""
    monkeypatch.setattr(_common.Activity, "MININTERVAL", 0.0)


# ----------------------------------------------------------------------------- enumerate

ENUM = ["enumerate", "--rows", "100", "--cols", "100", "--start", "a1", "--end", "b3",
        "--first", "1"]


def _stop_after(monkeypatch, calls: int, how):
    """Ctrl-C, by ``how()``, on the bar's ``calls``-th update."""
    seen = {"n": 0}
    show = _common.Activity.show

    def counting(self, n, text=""):
        show(self, n, text)
        seen["n"] += 1
        if seen["n"] == calls:
            how()
    monkeypatch.setattr(_common.Activity, "show", counting)


def test_enumerate_on_a_terminal_says_what_it_enumerates_and_its_progress(monkeypatch,
                                                                          capsys):
    from knightgui.commands import enumerate as enumerate_command
    monkeypatch.setattr(enumerate_command, "FIRST_CHUNK", 1 << 16)

    def ctrl_c():
        raise KeyboardInterrupt
    _stop_after(monkeypatch, 4, ctrl_c)
    code, out, drawn = on_terminal(monkeypatch, capsys, *ENUM)
    assert code == 130 and out == ""
    assert ("enumerate: Warnsdorff tours of the 100×100 board from a1 to b3 (closed), every "
            "tie followed; the first 1; Ctrl-C stops it") in drawn
    assert "move/s" in drawn and "solutions" in drawn and "dead ends" in drawn
    assert "00:0" in drawn                                       # the time so far
    last = drawn.strip().splitlines()[-1]
    assert last.startswith("interrupted after 0 solutions, ") and "forward moves" in last


def test_enumerate_count_on_a_terminal_and_with_json(monkeypatch, capsys):
    code, out, drawn = on_terminal(monkeypatch, capsys, "enumerate", "--start", "a8",
                                   "--end", "c7")
    assert code == 0 and "14,258 solutions" in out
    assert "from a8 to c7 (closed), every tie followed; counting them" in drawn
    assert "14,258 solutions" in drawn and "enumerate:" in drawn
    code, out, drawn = on_terminal(monkeypatch, capsys, "enumerate", "--start", "a8",
                                   "--end", "c7", "--json")
    assert code == 0 and drawn.strip() == ""                      # --json: stderr silent
    assert json.loads(out.strip().splitlines()[-1])["solutions"] == 14_258


def test_enumerate_on_pipes_prints_no_progress(capsys):
    code, out, err = on_pipes(capsys, "enumerate", "--start", "a8", "--end", "c7",
                              "--first", "2")
    assert code == 0 and err == "" and "solution 2" in out
    code, out, err = on_pipes(capsys, "enumerate", "--start", "a8", "--json")
    assert code == 0 and err == ""
    assert json.loads(out.strip().splitlines()[-1])["solutions"] == 137_300


def test_enumerate_all_tours_says_what_it_counts_on_a_terminal_only(monkeypatch, capsys):
    argv = ["enumerate", "--all-tours", "--rows", "5", "--cols", "5", "--start", "a1"]
    code, out, drawn = on_terminal(monkeypatch, capsys, *argv)
    assert code == 0 and "304 knight's paths" in out
    assert ("enumerate: every knight's path of the 5×5 board from a1; counting them; Ctrl-C "
            "stops it") in drawn
    code, out, err = on_pipes(capsys, *argv, "--first", "3")
    assert code == 0 and err == "" and "path 3" in out


# ----------------------------------------------------------------------------- semimagic

MAGIC = ["study", "semimagic", "--symmetry", "half-turn", "--max-nodes", "6000000"]


def test_semimagic_on_a_terminal_says_what_it_searches_and_its_progress(monkeypatch,
                                                                        capsys):
    code, out, drawn = on_terminal(monkeypatch, capsys, *MAGIC)
    assert code == 1 and "6,000,000 nodes" in out
    assert ("semimagic: searching the 8×8 closed tours the half turn keeps from 10 start "
            "squares (one a symmetry class) for rows and columns adding up to 260; stops "
            "after 1 tour or 6,000,000 nodes; Ctrl-C stops it and prints what it found"
            ) in drawn
    assert "node/s" in drawn and "found 0, 0 of 10 starts exhausted" in drawn
    assert "none found within the budget (not proved)" in drawn


def test_semimagic_ctrl_c_stops_it_with_what_it_found(monkeypatch, capsys):
    _stop_after(monkeypatch, 1, lambda: os.kill(os.getpid(), signal.SIGINT))
    code, out, drawn = on_terminal(monkeypatch, capsys, *MAGIC)
    assert code == 130 and "(interrupted)" in out
    assert "interrupted after 2,097,152 nodes" in drawn and "no semi-magic tour found yet" in drawn


def test_semimagic_json_and_pipes_print_no_progress(monkeypatch, capsys):
    code, out, drawn = on_terminal(monkeypatch, capsys, *MAGIC, "--json")
    lines = drawn.strip().splitlines()                # the outcome alone, no bar
    assert code == 1 and len(lines) == 1
    assert lines[0].startswith("knightgui study semimagic: none found within the budget")
    assert json.loads(out.strip().splitlines()[-1])["nodes"] == 6_000_000
    code, out, err = on_pipes(capsys, "study", "semimagic", "--size", "6", "--symmetry",
                              "half-turn")
    assert code in (0, 1) and "searching" not in err and "node/s" not in err


# ----------------------------------------------------------------------------- solve

class _Res:
    def __init__(self, seconds):
        self.seconds = seconds


def test_solve_reports_its_own_time_beside_the_loading():
    from knightgui.commands.solve import _timed, _took
    runs = iter([0.8, 0.0001])
    res, first, own = _timed(lambda: _Res(next(runs)))        # quick: run again, loaded
    assert (res.seconds, first, own) == (0.0001, 0.8, 0.0001)
    assert _took(first, own) == "in 0.10 ms (+800 ms loading the engine)"
    assert _took(0.0003, 0.0002) == "in 0.20 ms"              # nothing left to load
    runs = iter([2.5])
    res, first, own = _timed(lambda: _Res(next(runs)))        # long: timed once
    assert own is None and _took(first, own) == "in 2.50 s (incl. loading the engine)"


def test_solve_line_names_the_time_in_ms(capsys):
    code, out, err = on_pipes(capsys, "solve", "--rows", "8", "--cols", "8", "-q")
    assert code == 0 and err == ""
    import re
    assert re.fullmatch(r"tour found by warnsdorff greedy \(tie phadke\) in ([\d.]+ ms( \(\+\d+ "
                        r"ms loading the engine\))?|[\d.]+ s \(incl\. loading the engine\))\n",
                        out), out


# ----------------------------------------------------------------------------- count --distinct

COUNT = ["study", "count", "--size", "6", "--distinct"]


@pytest.fixture
def here(monkeypatch):
    monkeypatch.delenv("KNIGHTGUI_SCHEDULER", raising=False)


def test_distinct_says_what_it_costs_and_shows_its_steps(here, monkeypatch, capsys):
    code, out, drawn = on_terminal(monkeypatch, capsys, *COUNT)
    assert code == 0 and "up to symmetry: " in out and "counting" not in out
    assert "count 6×6 --distinct: every tour is counted first" in drawn
    said = [ln for ln in drawn.splitlines() if "counting distinct tours:" in ln]
    assert len(said) == 1 and said[0].startswith(
        "counting distinct tours: 1,984 tours to list again, sort and compare with their "
        "images under the board's 8 symmetries; about ")
    assert " of memory and " in said[0] and said[0].endswith("on one core (Ctrl-C stops it)")
    # the three steps, in order, each with its bar
    at = [drawn.index(s) for s in ("distinct: listing", "distinct: sorting 1,984 tours",
                                   "distinct: canonical forms")]
    assert at == sorted(at) and "1.98k/1.98k" in drawn


def test_distinct_with_json_or_on_a_pipe_keeps_quiet_unless_it_is_dear(here, monkeypatch,
                                                                      capsys):
    code, out, drawn = on_terminal(monkeypatch, capsys, *COUNT, "--json")
    assert code == 0 and drawn.strip() == ""
    assert json.loads(out.strip().splitlines()[-1])["distinct"] > 0
    code, out, err = on_pipes(capsys, *COUNT)
    assert code == 0 and err == "" and "up to symmetry: " in out
    from knightgui.commands.study import count as study_count
    monkeypatch.setattr(study_count, "DISTINCT_SAY_ALWAYS", (0.0, 0))   # as if minutes
    code, out, err = on_pipes(capsys, *COUNT)
    assert code == 0 and err.splitlines() == [err.strip()]              # one line, no bar
    assert err.startswith("counting distinct tours: 1,984 tours") and "|" not in err


def test_distinct_cost_grows_with_the_tours():
    from knightgui.commands.study.count import distinct_cost
    from knightgui_core.system.text import duration_text, size_text
    s8, b8 = distinct_cost(7_894_584, 64)
    assert 30 < s8 < 120 and 2 << 30 < b8 < 3 << 30      # 8×8: about a minute, 2–3 GB
    assert distinct_cost(1_984, 36)[0] < 1
    assert (duration_text(47), duration_text(190), duration_text(7200)) == ("47 s", "3 min",
                                                                             "2.0 h")
    assert (size_text(300 << 20), size_text(2.5 * (1 << 30))) == ("300 MiB", "2.5 GiB")
