"""CLI: knightgui enumerate and knightgui study phadke (docs/spec.md §10)."""
import csv
import json

import pytest

from knightgui.cli import run


def _last_json(capsys):
    out = capsys.readouterr().out.strip().splitlines()
    return json.loads(out[-1])


def test_enumerate_counts_a8_c7(capsys):
    assert run(["enumerate", "--start", "a8", "--end", "c7", "--json"]) == 0
    d = _last_json(capsys)
    assert d["solutions"] == 14258 and d["exhausted"] is True
    assert set(d) >= {"solutions", "dead_ends", "forward_moves", "exhausted", "seconds"}


def test_enumerate_first_boards(capsys):
    assert run(["enumerate", "--start", "a8", "--end", "3,7",
                "--first", "2", "--json"]) == 0
    d = _last_json(capsys)
    assert d["solutions"] == 2 and not d["exhausted"]
    first = d["first"]
    assert [f["index"] for f in first] == [1, 2] and first[1]["branch"] == 49
    assert first[0]["numbers"][0] == [1, 22, 3, 18, 43, 38, 13, 16]   # rank 8
    assert first[0]["path"][:3] == ["a8", "b6", "c8"]


def test_enumerate_with_dash_and_tail_writes_csv(tmp_path, capsys):
    out = tmp_path / "sols.csv"
    assert run(["enumerate", "--start", "b8", "--end", "a6", "--dash", "h1=full,a8=A",
                "--xcd", "c2-a1-b3-c5-a6", "--out", str(out), "--json"]) == 0
    d = _last_json(capsys)
    rows = list(csv.DictReader(open(out)))
    assert len(rows) == d["solutions"] > 0
    assert all(r["path"].endswith("c2 a1 b3 c5 a6") for r in rows)


def test_list_tails(capsys):
    assert run(["enumerate", "--start", "b8", "--end", "a6", "--list-tails", "--json"]) == 0
    d = _last_json(capsys)
    assert d["ecd"] == ["b6-a8-c7-a6"] and len(d["xcd"]) == 2


@pytest.mark.parametrize("argv, msg", [
    (["--start", "a8", "--end", "c6"], "not a knight move"),
    (["--start", "a8", "--end", "a8"], "same square"),
    (["--start", "a8", "--end", "c7", "--dash", "a8=full"], "cannot be dashed"),
    (["--start", "a8", "--end", "c7", "--dash", "a1"], "CORNER=STATE"),
    (["--start", "b8", "--end", "a6", "--ecd", "c7-a8-b6-a6"], "unknown tail"),
    (["--start", "b8", "--end", "a6", "--ecd", "c2-a1-b3-c5-a6"], "use --xcd"),
    (["--start", "q1", "--end", "c7"], "start"),
    (["--start", "a8", "--end", "c7", "--first", "0"], "--first"),
])
def test_enumerate_bad_input_exits_2(argv, msg, capsys):
    assert run(["enumerate", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert msg in err and len(err.splitlines()) == 1


def test_study_phadke_strict(tmp_path, capsys):
    assert run(["study", "phadke", "--family", "strict", "--out", str(tmp_path), "--json"]) == 0
    d = _last_json(capsys)
    assert d["strict"]["solutions"] == d["strict"]["paper_solutions"] == 989_931
    assert d["strict"]["full_board"] == 5_732_056 and d["strict"]["algorithms"] == 53
    assert (tmp_path / "combos.csv").exists()


@pytest.mark.slow
def test_study_phadke_strict_distinct(tmp_path, capsys):
    """The distinct cycles of the whole strict family (the fast suite checks the count of
    distinct cycles on a few algorithms: tests/core/test_distinct.py)."""
    assert run(["study", "phadke", "--family", "strict", "--json", "--distinct"]) == 0
    d = _last_json(capsys)
    dist = d["distinct"]["strict"]
    assert dist["tours"] == 989_931 > dist["distinct"] > dist["distinct_up_to_symmetry"]
    assert dist["distinct_full_board"] == 8 * dist["distinct_up_to_symmetry"]


def test_study_phadke_bad_family_exits_2(capsys):
    assert run(["study", "phadke", "--family", "nope"]) == 2


def test_enumerate_out_json_holds_valid_tours(tmp_path, capsys):
    from knightgui_core.board.squares import Board
    from knightgui_core.board.tour import check_path
    out = tmp_path / "first.json"
    assert run(["enumerate", "--start", "a8", "--end", "c7", "--first", "5",
                "--out", str(out)]) == 0
    d = json.loads(out.read_text())
    assert d["format"] == "knightgui-enumeration" and len(d["solutions_listed"]) == 5
    b = Board(8, 8)
    for rec in d["solutions_listed"]:
        path = [r * 8 + c for c, r in rec["path"]]
        assert check_path(b, path, closed=True) is None
    assert run(["enumerate", "--start", "a8", "--end", "c7", "--first", "1",
                "--out", str(tmp_path / "x.txt")]) == 2


def test_study_checkpoint_is_read_into_a_store_once(tmp_path, capsys):
    """--checkpoint is gone; an old JSON checkpoint is read into the --store file, saying so."""
    from knightgui_core.studies import phadke as P
    ck, st = tmp_path / "ck.json", tmp_path / "results.sqlite"
    P.run(P.algorithms("strict"), workers=1, checkpoint=ck)      # an old-style checkpoint
    assert run(["study", "phadke", "--family", "strict", "--checkpoint", str(ck),
                "--json"]) == 2
    assert "--store" in capsys.readouterr().err
    assert run(["study", "phadke", "--family", "strict", "--checkpoint", str(ck),
                "--store", str(st), "--json"]) == 0
    cap = capsys.readouterr()
    assert "read 53 finished algorithms" in cap.err and str(st) in cap.err
    d = json.loads(cap.out.strip().splitlines()[-1])
    assert d["strict"]["solutions"] == 989_931
    assert d["tasks"] == {"total": 10, "from_store": 10, "computed": 0}
    (tmp_path / "junk.json").write_text('{"format": "something else"}')
    assert run(["study", "phadke", "--checkpoint", str(tmp_path / "junk.json"),
                "--store", str(st)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "junk.json" in err


def test_open_count_uses_the_table_and_agrees_with_the_options_matrix(capsys):
    """enumerate without --end, dashes or --first counts by states (transposition table);
    --no-table walks the options matrix: the same solutions and dead ends."""
    assert run(["enumerate", "--rows", "7", "--cols", "7", "--start", "c3", "--json"]) == 0
    fast = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert run(["enumerate", "--rows", "7", "--cols", "7", "--start", "c3", "--json",
                "--no-table"]) == 0
    plain = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert fast["method"] == "transposition table" and plain["method"] == "options matrix"
    assert plain["p_success"] is None
    assert (fast["solutions"], fast["dead_ends"]) == (plain["solutions"], plain["dead_ends"])
    assert fast["forward_moves"] < plain["forward_moves"] and 0 < fast["p_success"] <= 1


@pytest.mark.parametrize("rows,cols,start", [(7, 7, "d4"), (5, 7, "c3"), (6, 6, "a1")])
def test_open_count_folded_by_the_starts_symmetries_agrees_with_the_options_matrix(
        capsys, rows, cols, start):
    """The centre (8 symmetries), a middle-line square, a corner on the diagonal: counted by
    states, one subtree per orbit, they give the options matrix's figures."""
    base = ["enumerate", "--rows", str(rows), "--cols", str(cols), "--start", start, "--json"]
    assert run(base) == 0
    fast = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert run(base + ["--no-table"]) == 0
    plain = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert fast["method"] == "transposition table"
    assert (fast["solutions"], fast["dead_ends"]) == (plain["solutions"], plain["dead_ends"])
    assert fast["solutions"] + fast["dead_ends"] > 0


def test_all_tours_lists_counts_and_writes_every_path(tmp_path, capsys):
    import numpy as np
    assert run(["enumerate", "--all-tours", "--rows", "5", "--cols", "5", "--start", "a1",
                "--json"]) == 0
    d = _last_json(capsys)
    assert d["solutions"] == 304 and d["closed"] == 0 and d["exhausted"]
    assert run(["enumerate", "--all-tours", "--rows", "5", "--cols", "5", "--start", "a1",
                "--first", "3", "--json"]) == 0
    text = capsys.readouterr().out
    d = json.loads(text.strip().splitlines()[-1])
    assert len(d["first"]) == 3 and d["first"][0][0] == "a1" and "path 3" in text
    out = tmp_path / "paths.npy"
    assert run(["enumerate", "--all-tours", "--rows", "5", "--cols", "5", "--start", "c3",
                "--out", str(out)]) == 0
    boards = np.load(out)
    assert boards.shape[1:] == (5, 5) and len(boards) > 0
    assert all(sorted(b.ravel()) == list(range(1, 26)) for b in boards[:50])
    assert len({b.tobytes() for b in boards}) == len(boards)


@pytest.mark.parametrize("extra", [["--end", "b3"], ["--dash", "h8=full"],
                                   ["--rows", "12", "--cols", "12"]])
def test_all_tours_refuses_what_it_cannot_do_in_one_line(extra, capsys):
    assert run(["enumerate", "--all-tours", "--start", "a1", *extra]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
