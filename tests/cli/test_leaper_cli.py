"""The command line on other boards and pieces: --topology and --leaper (issue 27)."""
from __future__ import annotations

import json

import pytest

from knightgui.cli import run


def _last(capsys):
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def test_enumerate_on_a_torus_with_a_zebra_counts_the_same_both_ways(capsys):
    assert run(["enumerate", "--rows", "6", "--cols", "6", "--start", "a1", "--topology",
                "torus", "--leaper", "zebra", "--json"]) == 0
    by_states = _last(capsys)
    assert run(["enumerate", "--rows", "6", "--cols", "6", "--start", "a1", "--topology",
                "torus", "--leaper", "2,3", "--no-table", "--json"]) == 0
    walked = _last(capsys)
    assert by_states["solutions"] == walked["solutions"] > 0
    assert run(["enumerate", "--rows", "6", "--cols", "6", "--start", "a1", "--json"]) == 0
    assert _last(capsys)["solutions"] != walked["solutions"]      # not the knight's plane


def test_solve_answers_what_is_known_and_finds_a_tour_by_search(tmp_path, capsys):
    out = tmp_path / "zebra.json"
    assert run(["solve", "--rows", "6", "--cols", "6", "--topology", "torus", "--leaper",
                "2,3", "--closed", "--out", str(out), "--json"]) == 0
    d = _last(capsys)
    assert d["answer"] == "yes" and d["valid"] and d["topology"] == "torus"
    assert run(["check", str(out), "--json"]) == 0                # the file names its board
    assert run(["solve", "--rows", "8", "--cols", "8", "--leaper", "camel", "--json"]) == 1
    d = _last(capsys)
    assert d["answer"] == "no" and "colour" in d["why"]


@pytest.mark.parametrize("extra", [["--leaper", "2,2"], ["--leaper", "0,3"],
                                   ["--topology", "klein"], ["--leaper", "many"]])
def test_bad_boards_get_one_line_and_exit_2(extra, capsys):
    assert run(["enumerate", "--start", "a1", *extra]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and ("leaper" in err[0] or "topology" in err[0])


def test_study_count_on_a_cylinder_is_the_same_along_each_wrapped_row(capsys):
    assert run(["study", "count", "--rows", "5", "--cols", "6", "--topology", "cylinder",
                "--json"]) == 0
    d = _last(capsys)
    per = d["per_start"]
    for r in range(1, 6):
        assert len({per[f"{c}{r}"]["tours"] for c in "abcdef"}) == 1
    assert run(["study", "count", "--size", "6", "--topology", "torus", "--distinct"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_study_count_all_tours_on_a_torus(capsys):
    assert run(["study", "count", "--size", "4", "--topology", "torus", "--all-tours",
                "--json"]) == 0
    d = _last(capsys)
    assert d["topology"] == "torus" and d["leaper"] == [1, 2]
    assert d["totals"]["tours"] == sum(r["tours"] for r in d["per_start"].values())
    assert len({r["tours"] for r in d["per_start"].values()}) == 1     # every square alike


@pytest.mark.parametrize("extra", [[], ["--all-tours"]])
def test_a_npy_out_on_another_board_is_one_line_before_the_search(tmp_path, capsys, extra):
    out = tmp_path / "s.npy"
    assert run(["enumerate", "--rows", "6", "--cols", "6", "--start", "a1", "--topology",
                "torus", "--first", "3", "--out", str(out), *extra]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and ".json or .csv" in err[0] and not out.exists()
    csv = tmp_path / "s.csv"
    assert run(["enumerate", "--rows", "6", "--cols", "6", "--start", "a1", "--topology",
                "torus", "--first", "3", "--out", str(csv), *extra]) == 0
    assert csv.read_text().startswith("# topology=torus leaper=1,2\n")


def test_a_tour_found_where_no_rule_decides_is_said_without_contradiction(capsys):
    """'yes' beside 'no rule here decides whether …' read as a contradiction (issue 35)."""
    assert run(["solve", "--rows", "10", "--cols", "10", "--leaper", "zebra", "--topology",
                "cylinder", "--json"]) == 0
    out = _last(capsys)
    assert out["answer"] == "yes" and out["valid"]
    assert "no rule" not in out["why"] and "proves one exists" in out["why"]
