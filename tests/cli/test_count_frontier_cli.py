"""CLI: knightgui study count --all-tours --method / --closed-only / --cols-from --cols-to."""
import json
import os
import shutil
import subprocess
import sys

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


def _huge_result(rows: int, cols: list[int]):
    """A frontier result whose counts have 5,000 digits and more (a 3×8300 board's have
    about 4,460: past the 4,300 digits Python prints by default)."""
    from knightgui_core.frontier.count import FrontierBoard, FrontierResult
    res = FrontierResult(rows, False, peak_states=10, column_states=[1])
    res.boards = [FrontierBoard(rows, n, 7 * 10**5000 + n, 3 * 10**6000 + n) for n in cols]
    return res


@pytest.mark.parametrize("argv", [["--rows", "3", "--cols", "8300"],
                                  ["--rows", "3", "--cols-from", "8299", "--cols-to", "8300"]])
def test_counts_of_any_number_of_digits_print_exactly(capsys, monkeypatch, argv):
    from knightgui_core.studies import tour_methods
    monkeypatch.setattr(tour_methods, "run_frontier",
                        lambda rows, cols, **kw: _huge_result(rows, list(cols)))
    assert run(["study", "count", "--all-tours", "--method", "frontier", *argv, "--json"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    old = sys.get_int_max_str_digits()
    assert old != 0                                           # the limit is left as it was
    sys.set_int_max_str_digits(0)
    try:
        d = json.loads(out[-1])
        text = "\n".join(out[:-1]).replace(",", "")
        board = d["boards"][-1] if "boards" in d else d
        assert board["undirected_paths"] == 3 * 10**6000 + 8300
        assert board["undirected_closed_tours"] == 7 * 10**5000 + 8300
        assert board["totals"]["tours"] == 2 * (3 * 10**6000 + 8300)
        assert str(2 * (3 * 10**6000 + 8300)) in text
    finally:
        sys.set_int_max_str_digits(old)


@pytest.mark.slow
def test_a_real_count_past_the_digit_limit_prints(capsys):
    # 3×1200: 645 digits, past the lowest limit Python allows (640), set for this test
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(640)
    try:
        assert run(["study", "count", "--all-tours", "--rows", "3", "--cols-from", "1200",
                    "--cols-to", "1200", "--json"]) == 0
        out = capsys.readouterr().out.strip().splitlines()
        sys.set_int_max_str_digits(0)
        paths = json.loads(out[-1])["boards"][0]["undirected_paths"]
        assert len(str(paths)) > 640 and f"{2 * paths:,}" in "\n".join(out)
    finally:
        sys.set_int_max_str_digits(old)


def test_store_is_refused_with_the_frontier(capsys, tmp_path):
    for argv in (["--rows", "5", "--cols", "6", "--method", "frontier"],
                 ["--rows", "4", "--cols-from", "3", "--cols-to", "5"],
                 ["--rows", "5", "--cols", "6", "--method", "frontier", "--starts", "a1"]):
        assert run(["study", "count", "--all-tours", *argv, "--store",
                    str(tmp_path / "s.sqlite")]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "--store" in err[0], err
    assert not (tmp_path / "s.sqlite").exists()


def test_a_bad_spill_folder_is_one_line(capsys, tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x")
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    cases = [(afile, "is not a folder"), (tmp_path / "none", "does not exist")]
    if os.geteuid() != 0:                       # root writes into a 0500 folder
        cases.append((ro, "cannot be written"))
    for where, words in cases:
        assert run(["study", "count", "--all-tours", "--rows", "5", "--cols", "6", "--method",
                    "frontier", "--spill", str(where), "--slices", "2"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and words in err[0], err


def test_a_read_only_file_system_is_one_line(capsys, tmp_path):
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("needs root and mount for a read-only tmpfs")
    where = tmp_path / "ro"
    where.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m,ro", "tmpfs", str(where)],
                      capture_output=True).returncode:
        pytest.skip("mount refused")
    try:
        assert run(["study", "count", "--all-tours", "--rows", "5", "--cols", "6", "--method",
                    "frontier", "--spill", str(where), "--slices", "2"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "Read-only file system" in err[0], err
    finally:
        subprocess.run(["umount", str(where)], capture_output=True)
