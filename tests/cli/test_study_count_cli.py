"""CLI: knightgui study count."""
import csv
import json

import pytest

from knightgui.cli import run


def _last_json(capsys):
    out = capsys.readouterr().out.strip().splitlines()
    return json.loads(out[-1])


def test_count_8x8_json_is_the_documented_object(capsys):
    assert run(["study", "count", "--size", "8", "--json", "--scheduler", "threads"]) == 0
    d = _last_json(capsys)
    assert list(d) == ["study", "rows", "cols", "totals", "per_start", "tasks", "seconds"]
    assert d["study"] == "count" and d["rows"] == d["cols"] == 8
    t = d["totals"]
    assert (t["tours"], t["closed"], t["dead_ends"]) == (7_894_584, 1_188_384, 761_520)
    assert round(100 * t["p_success"], 1) == 97.9            # Knuth, Pre-Fascicle 8A
    assert 0 < t["p_closed"] < t["p_success"]
    assert len(d["per_start"]) == 64
    a8 = d["per_start"]["a8"]
    assert (a8["tours"], a8["closed"], a8["dead_ends"]) == (137_300, 2_662, 6_804)
    assert abs(a8["p_success"] - 0.979578494) < 1e-9 and set(a8) == {
        "tours", "closed", "dead_ends", "p_success", "p_closed"}
    # ten classes; b2 (a diagonal) folds its first tie into two tasks of two subtrees each
    assert d["tasks"] == {"total": 11, "from_store": 0, "computed": 11}
    assert d["seconds"] >= 0


def test_no_fold_counts_every_subtree_and_finds_the_same_numbers(capsys):
    assert run(["study", "count", "--size", "7", "--json", "--task-moves", "20000"]) == 0
    folded = _last_json(capsys)
    assert run(["study", "count", "--size", "7", "--json", "--task-moves", "20000",
                "--no-fold"]) == 0
    plain = _last_json(capsys)
    assert plain["tasks"]["total"] != folded["tasks"]["total"]     # other tasks, same numbers
    for sq, rec in plain["per_start"].items():
        got = folded["per_start"][sq]
        assert [got[k] for k in ("tours", "closed", "dead_ends")] == \
               [rec[k] for k in ("tours", "closed", "dead_ends")]
        assert got["p_success"] == pytest.approx(rec["p_success"], abs=1e-12)


def test_count_rectangle_starts_csv_and_store(tmp_path, capsys):
    out, store = tmp_path / "c.csv", tmp_path / "s.sqlite"
    args = ["study", "count", "--rows", "5", "--cols", "6", "--starts", "a1,b3,f5",
            "--csv", str(out), "--store", str(store), "--task-moves", "200", "--json"]
    assert run(args) == 0
    first = _last_json(capsys)
    rows = list(csv.DictReader(open(out)))
    assert [r["start"] for r in rows] == ["a1", "b3", "f5"]
    assert rows[0]["class"] == rows[2]["class"] == "a1"          # f5 is a1 turned 180°
    assert {r["start"]: int(r["tours"]) for r in rows} == \
        {k: v["tours"] for k, v in first["per_start"].items()}
    assert first["tasks"]["computed"] == first["tasks"]["total"] > 2
    assert run(args) == 0
    again = _last_json(capsys)
    assert again["per_start"] == first["per_start"]
    assert again["tasks"]["from_store"] == again["tasks"]["total"]
    assert again["tasks"]["computed"] == 0


def test_count_corners_and_split_depth_agree(capsys):
    assert run(["study", "count", "--size", "6", "--starts", "corners", "--json"]) == 0
    a = _last_json(capsys)
    assert run(["study", "count", "--size", "6", "--starts", "corners", "--split-depth",
                "3", "--json"]) == 0
    b = _last_json(capsys)
    assert list(a["per_start"]) == ["a1", "f1", "a6", "f6"]
    assert a["totals"] == b["totals"] and b["tasks"]["total"] > a["tasks"]["total"]


@pytest.mark.parametrize("argv,msg", [
    (["--size", "0"], "--size"),
    (["--size", "12"], "--size"),
    (["--size", "x"], "--size"),
    (["--rows", "12", "--cols", "11"], "128 squares"),
    (["--rows", "5"], "--rows R and --cols C"),
    ([], "--size N"),
    (["--size", "5", "--rows", "5", "--cols", "5"], "not both"),
    (["--size", "5", "--starts", "z9"], "z9"),
    (["--size", "5", "--starts", ""], "no start"),
    (["--size", "5", "--task-moves", "0"], "--task-moves"),
    (["--size", "5", "--split-depth", "-1"], "--split-depth"),
    (["--size", "5", "--scheduler", "nonsense://x"], "--scheduler"),
])
def test_count_bad_input_is_one_line_exit_2(argv, msg, capsys):
    assert run(["study", "count", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and msg in err[0]


def test_count_store_that_is_not_a_store(tmp_path, capsys):
    bad = tmp_path / "x.sqlite"
    bad.write_text("not a database")
    assert run(["study", "count", "--size", "5", "--store", str(bad)]) == 2
    assert "--store" in capsys.readouterr().err
    assert bad.read_text() == "not a database"


def test_count_lengths_and_the_table_options(capsys):
    assert run(["study", "count", "--size", "6", "--lengths", "--json", "--scheduler",
                "threads", "--table-mb", "8"]) == 0
    d = _last_json(capsys)
    assert round(100 * d["totals"]["p_success"], 1) == 97.2        # Knuth
    lens = d["dead_end_lengths"]
    assert sum(v["paths"] for v in lens.values()) == d["totals"]["dead_ends"]
    assert abs(sum(v["probability"] for v in lens.values()) + d["totals"]["p_success"] - 1) < 1e-12
    assert run(["study", "count", "--size", "6", "--json", "--scheduler", "threads",
                "--no-table"]) == 0
    plain = _last_json(capsys)
    assert "dead_end_lengths" not in plain
    for k in ("tours", "closed", "dead_ends"):
        assert plain["totals"][k] == d["totals"][k]
    assert abs(plain["totals"]["p_success"] - d["totals"]["p_success"]) < 1e-12


@pytest.mark.parametrize("value", ["0", "-3", "abc", "1e15", "nan"])
def test_a_bad_table_size_is_one_line_and_exit_2(capsys, value):
    assert run(["study", "count", "--size", "5", "--table-mb", value]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("--table-mb: table size") and "\n" not in err


def test_count_distinct(capsys):
    assert run(["study", "count", "--size", "6", "--distinct", "--json", "--scheduler",
                "threads"]) == 0
    d = _last_json(capsys)
    from knightgui_core.studies.distinct import distinct_counts
    want = distinct_counts(6, 6)
    assert d["distinct"] == want.distinct and d["totals"]["tours"] == want.tours == 1_984
    assert d["distinct_up_to_symmetry"] == want.distinct_up_to_symmetry
    assert d["orbit_sizes"] == want.orbit_sizes
    assert run(["study", "count", "--size", "9", "--distinct"]) == 2
    assert "at most 64 squares" in capsys.readouterr().err


def test_count_all_tours(capsys):
    assert run(["study", "count", "--size", "5", "--all-tours", "--json", "--scheduler",
                "threads"]) == 0
    d = _last_json(capsys)
    assert d["study"] == "all-tours" and d["totals"] == {"tours": 1_728, "closed": 0}
    assert run(["study", "count", "--size", "9", "--all-tours", "--method", "visited"]) == 2
    assert "at most 64 squares" in capsys.readouterr().err
    # paths from one start: both methods give a1's 304 directed paths; a square off the
    # board is one line and exit 2
    for method in ("frontier", "visited"):
        assert run(["study", "count", "--size", "5", "--all-tours", "--starts", "a1",
                    "--method", method, "--json"]) == 0
        assert _last_json(capsys)["per_start"] == {"a1": {"tours": 304, "closed": 0}}
    assert run(["study", "count", "--size", "5", "--all-tours", "--starts", "z9"]) == 2
    assert "off the 5×5 board" in capsys.readouterr().err


def test_count_all_tours_of_every_board_up_to_a_size(capsys):
    # undirected open paths (OEIS A390833) and closed tours as published: 3×4 has
    # 8 paths, 4×5 82, 5×5 864, 3×10 16 closed tours, 5×6 8
    assert run(["study", "count", "--all-tours", "--boards-up-to", "30", "--json",
                "--scheduler", "threads"]) == 0
    d = _last_json(capsys)
    got = {(b["rows"], b["cols"]): (b["undirected_paths"], b["closed_tours"])
           for b in d["boards"]}
    assert set(got) == {(k, n) for k in range(3, 31) for n in range(k, 31) if k * n <= 30}
    assert got[(3, 4)] == (8, 0) and got[(4, 5)] == (82, 0) and got[(5, 5)] == (864, 0)
    assert got[(3, 10)][1] == 16 and got[(5, 6)] == (18_784, 8)
    for b in d["boards"]:
        assert b["directed_paths"] == 2 * b["undirected_paths"]
    for bad in (["--boards-up-to", "30"], ["--all-tours", "--boards-up-to", "65"],
                ["--all-tours", "--boards-up-to", "20", "--size", "5"]):
        assert run(["study", "count", *bad]) == 2
        assert len(capsys.readouterr().err.strip().splitlines()) == 1
