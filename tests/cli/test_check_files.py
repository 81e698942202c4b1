"""``knightgui check FILE`` on CSV tour files: a CSV file's coordinates are checked line by
line (a square name that contradicts its col and row, a col or row no board of the program
has) and such a file is refused as unreadable (exit 2, one line naming the line), while every
tour file the program writes is still read back as a tour."""
from __future__ import annotations

import json

import pytest

from knightgui.cli import run
from knightgui_core.board.tour import MAX_SIDE, NotATourError, Tour, TourError

HEADER = "move,col,row,square\n"


def call(capsys, *argv):
    code = run(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize("body,said", [
    ("1,9,9,zz\n", "line 2: square 'zz' contradicts col,row 9,9 (j10)"),
    ("1,0,0,a1\n2,2,1,zz9\n", "line 3: square 'zz9' contradicts col,row 2,1 (c2)"),
    ("1,1000000000000000000,0,a1\n", "line 2: col,row 1000000000000000000,0 is on no board"),
    ("1,0,1000000000000000000,\n", "line 2: col,row 0,1000000000000000000 is on no board"),
    (f"1,{MAX_SIDE},0,\n", f"line 2: col,row {MAX_SIDE},0 is on no board"),
    ("1,-1,0,\n", "line 2: col,row -1,0 is on no board"),
    ("1," + "9" * 30 + ",0,\n", "line 2: col,row 999999999999…(30 digits),0 is on no board"),
    ("1," + "9" * 5000 + ",0,\n", "line 2: move, col and row must be whole numbers"),
    ("1,1_0,0,\n", "line 2: move, col and row must be whole numbers"),
])
def test_check_refuses_a_csv_with_impossible_coordinates_naming_the_line(
        tmp_path, capsys, body, said):
    """Before, these were read as a path on a board made up from them ("1 moves do not fill
    a 1000000000000000001×1 board", exit 1)."""
    f = tmp_path / "bad.csv"
    f.write_text(HEADER + body)
    code, out, err = call(capsys, "check", str(f))
    line = _one_line(err)
    assert code == 2 and out == "", (code, err)
    assert said in line and str(f) in line and "not a tour" not in line
    code, out, err = call(capsys, "check", str(f), "--json")
    assert code == 2 and out == "" and said in _one_line(err)
    with pytest.raises(TourError) as e:
        Tour.load(f)
    assert not isinstance(e.value, NotATourError)


def test_a_csv_within_the_limits_that_is_no_tour_is_still_exit_1(tmp_path, capsys):
    f = tmp_path / "edge.csv"
    f.write_text(HEADER + f"1,{MAX_SIDE - 1},0,\n")
    code, _, err = call(capsys, "check", str(f))
    assert code == 1 and f"1 moves do not fill a {MAX_SIDE}×1 board" in _one_line(err)


@pytest.mark.parametrize("argv", [
    ["--rows", "5", "--cols", "5"],
    ["--rows", "6", "--cols", "30"],                         # names past z: aa1 … ad6
    ["--rows", "6", "--cols", "6", "--topology", "torus"],   # the CSV opens with its board
])
@pytest.mark.parametrize("suffix", [".csv", ".json"])
def test_every_tour_file_solve_writes_is_checked_as_a_tour(tmp_path, capsys, argv, suffix):
    out_file = tmp_path / f"tour{suffix}"
    code, _, err = call(capsys, "solve", "-q", *argv, "--out", str(out_file))
    assert code == 0, err
    code, out, err = call(capsys, "check", str(out_file), "--json")
    assert code == 0 and err == "", err
    d = json.loads(out.strip().splitlines()[-1])
    rows, cols = int(argv[1]), int(argv[3])
    assert d["valid"] is True and (d["rows"], d["cols"]) == (rows, cols)


def test_a_csv_with_numeric_or_empty_square_names_is_read(tmp_path, capsys):
    """The square column may name a square as col,row (1-based) or be left empty."""
    t = Tour.from_csv(HEADER + "1,0,0,a1\n")                  # the 1×1 board's tour
    assert t.board.size == 1
    text = Tour.load(_written(tmp_path, 5)).to_csv().splitlines()
    rows = [text[0]]
    for k, line in enumerate(text[1:]):
        move, col, row, _ = line.split(",")
        name = "" if k % 2 else f'"{int(col) + 1},{int(row) + 1}"'
        rows.append(",".join([move, col, row, name]))
    f = tmp_path / "names.csv"
    f.write_text("\n".join(rows) + "\n")
    code, _, err = call(capsys, "check", str(f))
    assert code == 0, err


def _written(tmp_path, n: int):
    from knightgui_core.walks.solve import solve
    f = tmp_path / "t.csv"
    solve(n, n, start="a1").tour.save(f)
    return f
