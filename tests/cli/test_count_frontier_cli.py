"""CLI: knightgui study count --all-tours --method / --closed-only / --cols-from --cols-to."""
import json

import pytest

from knightgui.cli import run


def _last_json(capsys):
    out = capsys.readouterr().out.strip().splitlines()
    return out, json.loads(out[-1])


def test_auto_takes_the_frontier_on_a_long_board_and_says_so(capsys):
    assert run(["study", "count", "--all-tours", "--rows", "10", "--cols", "3", "--json"]) == 0
    out, d = _last_json(capsys)
    assert out[0].startswith("method: frontier")
    assert d["method"] == "frontier" and d["method_reason"]
    assert (d["rows"], d["cols"]) == (10, 3)
    # A070030 (3×10: 16 closed tours), A169696 (3×10: 3,048 undirected paths)
    assert d["undirected_closed_tours"] == 16 and d["undirected_paths"] == 3_048
    assert d["totals"] == {"tours": 6_096, "closed": 2 * 30 * 16}
    assert all(type(d[k]) is int for k in ("undirected_closed_tours", "undirected_paths"))


def test_auto_keeps_the_visited_counter_on_a_small_board(capsys):
    assert run(["study", "count", "--all-tours", "--rows", "4", "--cols", "5", "--json",
                "--scheduler", "threads"]) == 0
    out, d = _last_json(capsys)
    assert out[0].startswith("method: visited-set counter")
    assert d["method"] == "visited" and d["totals"] == {"tours": 164, "closed": 0}  # A079137: 82
    assert "per_start" in d


def test_both_methods_agree_when_forced(capsys):
    got = {}
    for method in ("frontier", "visited"):
        assert run(["study", "count", "--all-tours", "--rows", "4", "--cols", "6", "--method",
                    method, "--json", "--scheduler", "threads"]) == 0
        _, d = _last_json(capsys)
        got[method] = (d["totals"]["tours"], d["undirected_paths"], d["undirected_closed_tours"])
    assert got["frontier"] == got["visited"] == (1_488, 744, 0)          # A079137: 744


def test_closed_only_leaves_the_paths_out(capsys):
    assert run(["study", "count", "--all-tours", "--rows", "5", "--cols", "8", "--closed-only",
                "--json"]) == 0
    _, d = _last_json(capsys)
    assert d["undirected_closed_tours"] == 44_202 and d["undirected_paths"] is None  # A175855
    assert d["totals"]["tours"] is None and d["closed_only"] is True


def test_a_sequence_of_lengths_in_one_pass(capsys):
    assert run(["study", "count", "--all-tours", "--rows", "4", "--cols-from", "3",
                "--cols-to", "10", "--json"]) == 0
    out, d = _last_json(capsys)
    assert [b["cols"] for b in d["boards"]] == list(range(3, 11))
    want = [8, 0, 82, 744, 6_378, 31_088, 189_688, 1_213_112]         # A079137, 4×3 … 4×10
    assert [b["undirected_paths"] for b in d["boards"]] == want
    assert [b["totals"]["tours"] for b in d["boards"]] == [2 * x for x in want]
    assert all(b["undirected_closed_tours"] == 0 for b in d["boards"])
    assert any(line.startswith("   4×10") for line in out)


def test_a_closed_sequence(capsys):
    assert run(["study", "count", "--all-tours", "--rows", "5", "--cols-from", "6",
                "--cols-to", "10", "--closed-only", "--json"]) == 0
    _, d = _last_json(capsys)
    got = [b["undirected_closed_tours"] for b in d["boards"]]
    assert got[0::2] == [8, 44_202, 13_311_268]                          # A175855
    assert all(b["undirected_paths"] is None for b in d["boards"])


def test_counts_beyond_64_bits_stay_json_integers(capsys):
    assert run(["study", "count", "--all-tours", "--rows", "3", "--cols-from", "120",
                "--cols-to", "120", "--json"]) == 0
    _, d = _last_json(capsys)
    paths = d["boards"][0]["undirected_paths"]
    assert type(paths) is int and paths > 2**64


@pytest.mark.parametrize("argv,words", [
    (["--rows", "5", "--cols-from", "4", "--cols-to", "6"], "give --all-tours"),
    (["--all-tours", "--rows", "5", "--cols-from", "6", "--cols-to", "4"], "below"),
    (["--all-tours", "--rows", "5", "--cols-from", "4"], "give both"),
    (["--all-tours", "--size", "5", "--cols-from", "4", "--cols-to", "6"], "with --rows R"),
    (["--all-tours", "--rows", "5", "--cols-from", "4", "--cols-to", "6", "--method",
      "visited"], "counted by the frontier"),
    (["--all-tours", "--size", "6", "--method", "sideways"], "--method is one of"),
    (["--size", "6", "--method", "frontier"], "give --all-tours"),
    (["--all-tours", "--size", "6", "--method", "frontier", "--topology", "torus"],
     "knight on the plane"),
    (["--all-tours", "--size", "9", "--method", "visited"], "at most 64 squares"),
    (["--all-tours", "--size", "5", "--method", "visited", "--closed-only"],
     "--closed-only goes with"),
    (["--all-tours", "--size", "9"], "GiB"),
    (["--all-tours", "--rows", "8", "--cols", "40", "--closed-only"], "GiB"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, words):
    assert run(["study", "count", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0], err
