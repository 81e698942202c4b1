"""One exit code per outcome, as the README promises: 0 done, 1 no tour, 2 bad input (one
line on stderr). "No tour" is 1 whether a theorem rules the board or the start out, a search
finds none, or ``check`` reads a path that is not a tour (issue 34, part 6)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from knightgui.cli import build_parser, run
from knightgui_core.board.tour import NotATourError, Tour, TourError
from knightgui_core.walks.solve import NoTourError, SolveError, solve


def call(capsys, *argv):
    code = run(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


# ---------------------------------------------------------------- solve: no tour is 1
@pytest.mark.parametrize("argv,said", [
    (["--rows", "2", "--cols", "2"], "no open tour exists on 2×2"),
    (["--rows", "3", "--cols", "3"], "no open tour exists on 3×3"),
    (["--rows", "4", "--cols", "4"], "no open tour exists on 4×4"),
    (["--rows", "4", "--cols", "4", "--method", "greedy"], "no open tour exists on 4×4"),
    (["--rows", "7", "--cols", "7", "--closed"], "no closed tour exists on 7×7"),
    (["--rows", "6", "--cols", "3", "--closed"], "no closed tour exists on 3×6"),
    (["--rows", "5", "--cols", "5", "--start", "b1"], "no open tour of 5×5 starts on b1"),
    (["--rows", "3", "--cols", "7", "--start", "d2"], "no open tour of 3×7 starts on d2"),
])
def test_solve_without_a_tour_exits_1_with_one_line(capsys, argv, said):
    code, out, err = call(capsys, "solve", "-q", *argv)
    assert code == 1, (code, err)
    assert said in _one_line(err) and out == ""
    if "3×7" not in said:       # a proof, at once; 3×7 from d2: the search's own report
        assert err.startswith("knightgui solve: no ")


@pytest.mark.parametrize("argv", [["--rows", "3", "--cols", "3"],
                                  ["--rows", "5", "--cols", "5", "--start", "b1"],
                                  ["--rows", "3", "--cols", "7", "--start", "d2"]])
def test_solve_json_without_a_tour_is_one_object_and_exit_1(capsys, argv):
    code, out, err = call(capsys, "solve", "--json", *argv)
    assert code == 1 and err == ""
    d = json.loads(out.strip().splitlines()[-1])
    assert d["valid"] is False and d["path"] == [] and "no open tour" in d["message"]
    for key in ("rows", "cols", "closed", "method", "seconds", "nodes", "stuck_at", "moves",
                "start", "rule_walk"):
        assert key in d


def test_solve_found_is_0_and_bad_input_still_2(capsys):
    assert call(capsys, "solve", "--rows", "5", "--cols", "5", "-q")[0] == 0
    for argv, said in ((["--rows", "0", "--cols", "8"], "--rows"),
                       (["--rows", "8", "--cols", "8", "--start", "j9"], "off"),
                       (["--rows", "8", "--cols", "8", "--tie", "nope"], "unknown tie"),
                       (["--rows", "8", "--cols", "8", "--method", "nope"], "invalid choice")):
        code, _, err = call(capsys, "solve", *argv)
        assert code == 2 and said in _one_line(err)


def test_solve_api_no_tour_is_a_solve_error_of_its_own_kind():
    with pytest.raises(NoTourError, match="no open tour exists on 3×3"):
        solve(3, 3)
    with pytest.raises(NoTourError, match="corners' colour"):
        solve(5, 5, start="b1")
    with pytest.raises(SolveError) as e:            # callers catching SolveError still do
        solve(8, 8, tie="nope")
    assert not isinstance(e.value, NoTourError)
    assert issubclass(NoTourError, SolveError) and issubclass(NoTourError, ValueError)


def test_other_boards_without_a_tour_exit_1(capsys):
    code, out, _ = call(capsys, "solve", "--rows", "8", "--cols", "8", "--leaper", "camel",
                        "--json")
    assert code == 1 and json.loads(out.strip().splitlines()[-1])["answer"] == "no"


# ---------------------------------------------------------------- check: not a tour is 1
def _tour_file(tmp_path, name="t.json"):
    t = solve(5, 5, start="a1", method="backtrack").tour
    f = tmp_path / name
    t.save(f)
    return t, f


def _json_with_path(tmp_path, name, path, rows=5, cols=5, closed=False):
    f = tmp_path / f"{name}.json"
    f.write_text(json.dumps({"format": "knightgui-tour", "version": 1, "rows": rows,
                             "cols": cols, "closed": closed, "path": path}))
    return f


def _not_tours(tmp_path):
    t, _ = _tour_file(tmp_path)
    pairs = t.pairs()
    twice = pairs[:-1] + [pairs[0]]
    swapped = pairs[:3] + [pairs[4], pairs[3]] + pairs[5:]
    return {
        "short": (_json_with_path(tmp_path, "short", pairs[:1]), "1 squares"),
        "twice": (_json_with_path(tmp_path, "twice", twice), "visited twice"),
        "not a knight move": (_json_with_path(tmp_path, "swap", swapped), "not a knight move"),
        "off the board": (_json_with_path(tmp_path, "off", pairs[:-1] + [[7, 0]]), "off the"),
        "closed that does not close": (_json_with_path(tmp_path, "open", pairs, closed=True),
                                       "marked closed"),
    }


@pytest.mark.parametrize("case", ["short", "twice", "not a knight move", "off the board",
                                  "closed that does not close"])
def test_check_of_a_path_that_is_not_a_tour_exits_1(tmp_path, capsys, case):
    f, said = _not_tours(tmp_path)[case]
    code, out, err = call(capsys, "check", str(f))
    assert code == 1, (code, err)
    line = _one_line(err)
    assert str(f) in line and "not a tour" in line and said in line and out == ""
    code, out, err = call(capsys, "check", str(f), "--json")
    assert code == 1 and err == ""
    d = json.loads(out.strip().splitlines()[-1])
    assert d["valid"] is False and said in d["why"] and d["file"] == str(f)
    with pytest.raises(NotATourError):
        Tour.load(f)


def test_check_of_a_csv_path_that_is_not_a_tour_exits_1(tmp_path, capsys):
    t, f = _tour_file(tmp_path, "t.csv")
    lines = f.read_text().splitlines()
    body = lines[1:]
    # swap two moves (renumbered): a path of the board's squares, not a tour
    a, b = body[3].split(","), body[4].split(",")
    body[3] = ",".join([a[0]] + b[1:])
    body[4] = ",".join([b[0]] + a[1:])
    f.write_text("\n".join([lines[0]] + body) + "\n")
    code, _, err = call(capsys, "check", str(f))
    assert code == 1 and "not a knight move" in _one_line(err)


def test_check_of_a_tour_is_0_and_of_an_unreadable_file_2(tmp_path, capsys):
    _, f = _tour_file(tmp_path)
    code, out, _ = call(capsys, "check", str(f))
    assert code == 0 and "valid open tour" in out
    bad = {
        "missing.json": None,
        "garbage.json": "{not json",
        "other.json": json.dumps({"format": "other"}),
        "fields.json": json.dumps({"format": "knightgui-tour", "version": 1, "rows": "5",
                                   "cols": 5, "closed": False, "path": []}),
        "pairs.json": json.dumps({"format": "knightgui-tour", "version": 1, "rows": 1,
                                  "cols": 1, "closed": False, "path": [["a", 0]]}),
        "header.csv": "not,a,tour\n",
    }
    for name, text in bad.items():
        p = tmp_path / name
        if text is not None:
            p.write_text(text)
        code, out, err = call(capsys, "check", str(p))
        assert code == 2, (name, code, err)
        assert str(p) in _one_line(err) and "not a tour:" not in err and out == ""
        if text is not None:
            with pytest.raises(TourError) as e:
                Tour.load(p)
            assert not isinstance(e.value, NotATourError), name
    code, _, err = call(capsys, "check", os.devnull)
    assert code == 2 and _one_line(err)


# ---------------------------------------------------------------- enumerate: the same rule
def test_enumerate_no_tour_is_1_tours_0_bad_input_2(capsys):
    assert call(capsys, "enumerate", "--rows", "4", "--cols", "4", "--start", "a1")[0] == 1
    assert call(capsys, "enumerate", "--rows", "5", "--cols", "5", "--start", "b1")[0] == 1
    assert call(capsys, "enumerate", "--rows", "4", "--cols", "4", "--start", "a1",
                "--all-tours")[0] == 1
    assert call(capsys, "enumerate", "--start", "a8", "--end", "c7")[0] == 0
    code, _, err = call(capsys, "enumerate", "--start", "z9")
    assert code == 2 and "--start" in _one_line(err)


# ---------------------------------------------------------------- what --help says
def test_help_says_the_exit_codes(capsys):
    text = build_parser().format_help()
    assert "1 no tour" in text and "2 bad input" in text
    sub = build_parser()._subparsers._group_actions[0].choices          # type: ignore[union-attr]
    assert "1: no tour" in sub["solve"].format_help()
    assert "1: the file is read but its path is not a tour" in " ".join(
        sub["check"].format_help().split())


def test_the_installed_command_exits_1_for_no_tour():
    r = subprocess.run([sys.executable, "-m", "knightgui", "solve", "--rows", "3", "--cols",
                        "3"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.strip().splitlines() == [
        "knightgui solve: no open tour exists on 3×3: open tours need 1×1, 3×4, 3×n with "
        "n ≥ 7, or both sides ≥ 4 with one ≥ 5"]
