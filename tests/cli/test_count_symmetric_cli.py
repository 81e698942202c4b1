"""CLI: knightgui study count --all-tours --symmetry (the tours a board symmetry keeps)."""
import json

import pytest

from knightgui.cli import run


def _last_json(capsys):
    out = capsys.readouterr().out.strip().splitlines()
    return json.loads(out[-1])


def test_symmetric_count_json_uses_the_all_tours_keys(capsys):
    assert run(["study", "count", "--all-tours", "--rows", "6", "--cols", "6", "--symmetry",
                "quarter-turn", "--json", "--scheduler", "threads"]) == 0
    d = _last_json(capsys)
    assert d["study"] == "all-tours" and d["symmetry"] == "quarter-turn"
    assert d["undirected_closed_tours"] == 10 and d["undirected_paths"] == 0
    assert type(d["undirected_closed_tours"]) is int
    assert "quarter turn" in d["reasons"]["open"] and "closed" not in d["reasons"]
    assert d["orbits"] == 9


def test_closed_only_skips_the_open_paths(capsys):
    assert run(["study", "count", "--all-tours", "--rows", "10", "--cols", "3", "--symmetry",
                "half-turn", "--closed-only", "--json"]) == 0
    d = _last_json(capsys)
    assert d["undirected_closed_tours"] == 4 and "undirected_paths" not in d
    assert {p["kind"] for p in d["parts"]} == {"closed"} and len(d["parts"]) == 2  # turned, reflected
    # the open paths of the same board, with the closed ones: 44 half-turn paths
    assert run(["study", "count", "--all-tours", "--rows", "10", "--cols", "3", "--symmetry",
                "half-turn", "--json"]) == 0
    assert _last_json(capsys)["undirected_paths"] == 44


def test_impossible_symmetry_is_a_count_of_zero_with_its_reason(capsys):
    assert run(["study", "count", "--all-tours", "--size", "8", "--symmetry", "diagonal",
                "--json"]) == 0
    out = capsys.readouterr().out
    d = json.loads(out.strip().splitlines()[-1])
    assert d["undirected_closed_tours"] == 0 and d["undirected_paths"] == 0
    assert "fixes 8 squares" in d["reasons"]["closed"]
    assert "none: the diagonal mirror fixes 8 squares" in out


@pytest.mark.parametrize("argv,words", [
    (["--all-tours", "--size", "6", "--symmetry", "spin"], "--symmetry: expected one of"),
    (["--all-tours", "--rows", "5", "--cols", "6", "--symmetry", "diagonal"],
     "only a square board"),
    (["--size", "6", "--symmetry", "half-turn"], "go with --all-tours"),
    (["--size", "6", "--closed-only"], "go with --all-tours"),
    (["--all-tours", "--rows", "12", "--cols", "12", "--symmetry", "half-turn"], "at most 128"),
    (["--all-tours", "--size", "6", "--symmetry", "half-turn", "--starts", "a1"],
     "takes no --starts"),
    (["--all-tours", "--size", "6", "--symmetry", "half-turn", "--topology", "torus"],
     "plane board only"),
    (["--all-tours", "--boards-up-to", "20", "--symmetry", "half-turn"], "--boards-up-to"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, words):
    assert run(["study", "count", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0]


@pytest.mark.slow
def test_knuth_8x8_half_turn_from_the_command_line(capsys):
    assert run(["study", "count", "--all-tours", "--size", "8", "--symmetry", "half-turn",
                "--closed-only", "--json"]) == 0
    assert _last_json(capsys)["undirected_closed_tours"] == 2_432_932
