"""The solve and check commands, run in-process through knightgui.cli.run (and one real
subprocess for the console entry point)."""
import json
import subprocess
import sys

import pytest

from knightgui.cli import run
from knightgui_core.board.tour import Tour


def call(capsys, *argv):
    code = run(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_json_contract(capsys):
    code, out, err = call(capsys, "solve", "--rows", "8", "--cols", "8", "--json")
    assert code == 0
    d = json.loads(out.strip().splitlines()[-1])
    for key in ("rows", "cols", "closed", "valid", "method", "seconds", "path"):
        assert key in d
    assert d["valid"] and len(d["path"]) == 64 and d["path"][0] == [0, 0]


def test_solve_out_round_trips_through_check(tmp_path, capsys):
    for ext in ("json", "csv"):
        f = tmp_path / f"t.{ext}"
        code, _, _ = call(capsys, "solve", "--rows", "6", "--cols", "9", "--start", "b2",
                          "--tie", "lookahead", "--out", str(f), "-q")
        assert code == 0 and Tour.load(f).path[0] == 1 * 9 + 1
        code, out, _ = call(capsys, "check", str(f), "--json")
        assert code == 0 and json.loads(out.splitlines()[-1])["valid"]


def test_greedy_failure_exits_1_with_where(capsys):
    code, out, err = call(capsys, "solve", "--rows", "77", "--cols", "77", "--start", "1,77",
                          "--tie", "first", "--order", "67812345", "--method", "greedy", "--json")
    assert code == 1
    d = json.loads(out.splitlines()[-1])
    assert d["valid"] is False and "stuck" in d["message"] and d["stuck_at"] >= 0


@pytest.mark.parametrize("argv,msg", [
    (["--rows", "0", "--cols", "8"], "--rows"), (["--rows", "-3", "--cols", "8"], "--rows"),
    (["--rows", "x", "--cols", "8"], "whole number"),
    (["--rows", "8", "--cols", "8", "--start", "j9"], "off"),
    (["--rows", "8", "--cols", "8", "--tie", "nope"], "unknown tie"),
    (["--rows", "8", "--cols", "8", "--order", "1234"], "move order"),
    (["--rows", "8", "--cols", "8", "--order", "12345677"], "each of 1..8"),
    (["--rows", "8", "--cols", "8", "--out", "x.txt"], ".json or .csv"),
    (["--rows", "8"], "required")])
def test_bad_input_exits_2_with_one_line(capsys, argv, msg):
    code, out, err = call(capsys, "solve", *argv)
    assert code == 2
    assert msg in err and len(err.strip().splitlines()) == 1


def test_check_refuses_non_tours(tmp_path, capsys):
    f = tmp_path / "bad.json"
    f.write_text('{"format": "knightgui-tour", "version": 1, "rows": 5, "cols": 5, '
                 '"closed": false, "path": [[0, 0]]}')
    code, _, err = call(capsys, "check", str(f))          # read, but not a tour: "no tour"
    assert code == 1 and "1 squares" in err
    code, _, err = call(capsys, "check", str(tmp_path / "missing.json"))
    assert code == 2 and "cannot open" in err


def test_console_entry_point_runs_headless(tmp_path):
    r = subprocess.run([sys.executable, "-m", "knightgui", "solve", "--rows", "8", "--cols",
                        "8", "--json"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout.splitlines()[-1])["valid"]


def test_headless_commands_never_import_qt():
    code = ("import sys; from knightgui.cli import run; "
            "rc = run(['solve', '--rows', '10', '--cols', '10', '-q']); "
            "assert rc == 0; assert 'PySide6' not in sys.modules, 'Qt imported'; print('clean')")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "clean" in r.stdout, r.stderr


def test_auto_says_where_the_rule_failed_and_what_took_over(capsys):
    code, out, _ = call(capsys, "solve", "--rows", "100", "--cols", "100", "--json")
    d = json.loads(out.splitlines()[-1])
    assert code == 0 and d["valid"] and d["method"] == "construction"
    assert d["message"] == ("Warnsdorff's rule (phadke) got stuck on cn1 (92,1) after 9,975 "
                            "moves; tour by construction")
    assert d["rule_walk"]["moves"] == 9975 and not d["rule_walk"]["completed"]


@pytest.mark.parametrize("cols,start,first", [("21", "j2", [9, 1]), ("1401", "8,2", [7, 1]),
                                              ("40", "ab2", [27, 1])])
def test_auto_starts_where_asked_on_3_row_boards(capsys, cols, start, first):
    code, out, _ = call(capsys, "solve", "--rows", "3", "--cols", cols, "--start", start,
                        "--json", "-q")
    d = json.loads(out.splitlines()[-1])
    assert code == 0 and d["valid"] and d["path"][0] == first


def test_a_start_without_a_tour_is_not_a_success(capsys):
    code, out, err = call(capsys, "solve", "--rows", "3", "--cols", "7", "--start", "d2", "--json")
    d = json.loads(out.splitlines()[-1])
    assert code == 1 and d["valid"] is False and d["path"] == []
    assert "no open tour of 3×7 starts on d2" in d["message"]
    code, _, err = call(capsys, "solve", "--rows", "5", "--cols", "5", "--start", "b1")
    assert code == 1 and "corners' colour" in err and len(err.strip().splitlines()) == 1


def test_letter_names_work_on_wide_boards(capsys):
    code, out, _ = call(capsys, "solve", "--rows", "30", "--cols", "30", "--start", "a1",
                        "--json", "-q")
    assert code == 0 and json.loads(out.splitlines()[-1])["start"] == "a1"
    code, out, _ = call(capsys, "solve", "--rows", "30", "--cols", "30", "--start", "ad30",
                        "--json", "-q")
    d = json.loads(out.splitlines()[-1])
    assert code == 0 and d["path"][0] == [29, 29] and d["start"] == "ad30"
