"""``knightgui study semimagic``: a semi-magic 8×8 tour found from c1 among the half-turn
closed tours and re-checked, "none" proved on 6×6 (exit 1), the budget said to be a budget
(exit 1, not proved), bad input in one line (exit 2)."""
from __future__ import annotations

import json

import numpy as np
import pytest

from knightgui.cli import run
from knightgui_core.board.magic import line_sums
from knightgui_core.board.squares import Board
from knightgui_core.board.tour import Tour


def last_json(capsys) -> dict:
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def test_a_half_turn_semi_magic_tour_from_c1_is_found_and_checked(capsys):
    argv = ["study", "semimagic", "--symmetry", "half-turn", "--start", "c1", "--json"]
    assert run(argv) == 0
    d = last_json(capsys)
    assert d["status"] == "found" and d["found"] == 1 and d["kinds"] == ["semi-magic"]
    assert d["starts"] == ["c1"] and d["tours"][0][0] == "c1" and d["closed"] is True
    assert type(d["nodes"]) is int and d["nodes"] > 0 and d["proved_none"] is False
    path = np.asarray(d["squares"][0])
    t = Tour(Board(8, 8), path)                    # a knight's tour, closed
    assert t.is_closed_path
    s = line_sums(t.numbers())
    assert s.rows == (260,) * 8 and s.cols == (260,) * 8 and list(s.diagonals) == d["diagonal_sums"][0]
    assert all(path[k + 32] == 63 - path[k] for k in range(32))   # the half turn's pairs


def test_six_by_six_has_none_proved_and_the_text_says_so(capsys):
    assert run(["study", "semimagic", "--size", "6", "--symmetry", "half-turn"]) == 1
    out, err = capsys.readouterr()
    assert "proved: none of the 6×6 closed tours the half turn keeps is semi-magic" in err
    assert "6 of 6 start squares exhausted" in out


def test_a_spent_budget_is_not_a_proof(capsys):
    assert run(["study", "semimagic", "--closed-only", "--max-nodes", "2000", "--json"]) == 1
    out, err = capsys.readouterr()
    d = json.loads(out.strip().splitlines()[-1])
    assert d["status"] == "budget" and d["nodes"] == 2000 and d["proved_none"] is False
    assert "not proved" in err


@pytest.mark.slow
def test_the_text_prints_the_numbered_board(capsys):
    assert run(["study", "semimagic", "--symmetry", "half-turn", "--start", "c1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("8×8 closed tours the half turn keeps: tour 1 is semi-magic")
    grid = [[int(v) for v in line.split()] for line in out[1:9]]
    assert sorted(v for row in grid for v in row) == list(range(1, 65))
    assert {sum(row) for row in grid} == {260} and {sum(c) for c in zip(*grid)} == {260}


@pytest.mark.parametrize("argv, said", [
    (["--size", "7", "--symmetry", "half-turn"], "centre square"),
    (["--size", "1"], "--size must be between 2 and 16"),
    (["--limit", "0"], "--limit must be between"),
    (["--seconds", "soon"], "--seconds must be a number"),
    (["--start", "z9"], "--start"),
    (["--size", "6", "--nested"], "nested needs"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, said):
    assert run(["study", "semimagic", *argv, "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and said in err


def test_the_census_runs_on_the_runner_and_resumes_from_the_store(capsys, tmp_path):
    argv = ["study", "semimagic", "--size", "6", "--symmetry", "half-turn", "--census",
            "--store", str(tmp_path / "c.sqlite"), "--json"]
    assert run(argv) == 1                          # complete, and 6×6 has none: proved
    d = last_json(capsys)
    assert d["complete"] is True and d["numbered"] == 0 and d["closed_tours"] == 0
    assert d["tasks"] == {"total": 6, "from_store": 0, "computed": 6}
    assert type(d["nodes"]) is int and d["nodes"] > 0
    assert run(argv) == 1
    again = last_json(capsys)
    assert again["tasks"] == {"total": 6, "from_store": 6, "computed": 0}
    assert again["nodes"] == d["nodes"]


def test_the_census_refuses_a_budget(capsys):
    assert run(["study", "semimagic", "--census", "--seconds", "5"]) == 2
    assert "--census runs every start square" in capsys.readouterr().err
