"""``knightgui study uncrossed``: JSON with exact ints, the text answer, bad input in one
line (exit 2)."""
from __future__ import annotations

import json

import pytest

from knightgui.cli import run


def test_json_has_length_count_path_and_the_proofs_figures(capsys):
    assert run(["study", "uncrossed", "--rows", "5", "--cols", "5", "--json"]) == 0
    d = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert d["length"] == 10 and d["count"] == 4 and d["total"] == 32 and d["cycle"] is False
    assert len(d["path"]) == 11 and d["path"][0][0] in "abcde"
    assert len(d["squares"]) == 11 and all(type(v) is int for v in d["squares"])
    assert type(d["nodes"]) is int and d["nodes"] > 0 and d["seconds"] >= 0


def test_cycle_on_an_oblong_board_in_text(capsys):
    assert run(["study", "uncrossed", "--rows", "4", "--cols", "7", "--cycle"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("7×4: the longest uncrossed cycle has 10 moves; 8 up to symmetry")
    names = out[1].split()
    assert len(names) == 11 and names[0] == names[-1]


@pytest.mark.parametrize("argv, said", [
    (["--rows", "0", "--cols", "5"], "--rows must be between 1 and 12"),
    (["--rows", "5", "--cols", "x"], "--cols must be a whole number"),
    (["--rows", "7", "--cols", "7", "--max-nodes", "50"], "needs more than 50 nodes"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, said):
    assert run(["study", "uncrossed", *argv, "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and said in err


def test_a_board_with_no_uncrossed_cycle_exits_1(capsys):
    assert run(["study", "uncrossed", "--rows", "3", "--cols", "4", "--cycle"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.strip() == "knightgui study uncrossed: 4×3 has no uncrossed cycle"
    assert run(["study", "uncrossed", "--rows", "3", "--cols", "4", "--cycle", "--json"]) == 1
    d = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert d["length"] == 0 and d["count"] == 0 and d["path"] == []
