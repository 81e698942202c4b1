import json

import numpy as np
import pytest

from knightgui_core.board.squares import Board
from knightgui_core.board.tour import (
    MAX_FILE_BYTES,
    Tour,
    TourError,
    board_line,
    check_path,
    split_board_line,
)
from knightgui_core.walks.solve import solve


@pytest.fixture(scope="module")
def tour8():
    return solve(8, 8, method="greedy").tour


def test_valid_tour_round_trips_json_and_csv(tmp_path, tour8):
    for ext in ("json", "csv"):
        f = tmp_path / f"t.{ext}"
        tour8.save(f)
        back = Tour.load(f)
        assert np.array_equal(back.path, tour8.path)
        assert (back.rows, back.cols) == (8, 8)


def test_json_layout_follows_spec(tmp_path, tour8):
    d = json.loads(tour8.to_json())
    assert d["format"] == "knightgui-tour" and d["version"] == 1
    assert d["path"][0] == [0, 0] and len(d["path"]) == 64
    assert tour8.to_csv().splitlines()[:2] == ["move,col,row,square", "1,0,0,a1"]


def test_numbers_grid_has_rank_one_at_row_zero(tour8):
    nums = tour8.numbers()
    assert nums[0, 0] == 1 and sorted(nums.ravel()) == list(range(1, 65))


def test_closedness_is_checked():
    b = Board(8, 8)
    path = solve(8, 8, method="greedy").path
    closes = b.is_knight_move(int(path[-1]), int(path[0]))
    if not closes:
        with pytest.raises(TourError, match="closed"):
            Tour(b, path, closed=True)


@pytest.mark.parametrize("mutate,msg", [
    (lambda p: p[:-1], "63 squares"),
    (lambda p: np.concatenate([p[:-1], p[:1]]), "twice"),
    (lambda p: np.concatenate([p[:10], p[11:12], p[10:11], p[12:]]), "not a knight move"),
    (lambda p: np.where(np.arange(64) == 5, 99, p), "off the board")])
def test_bad_paths_say_what_is_wrong(mutate, msg):
    p = solve(8, 8, method="greedy").path.astype(np.int64)
    assert msg in check_path(Board(8, 8), mutate(p))


@pytest.mark.parametrize("content,msg", [
    (b"", "empty"), (b"\xff\xfe\x00garbage", "UTF-8"), (b'{"format": "x"}', "not a knightgui"),
    (b'{"format":"knightgui-tour","version":1,"rows":8,"cols":8,"closed":false,"path":[]}',
     "0 squares"),
    (b'{"format":"knightgui-tour","version":1,"rows":"8","cols":8,"closed":false,"path":[]}',
     "whole number"),
    (b'{"format":"knightgui-tour","version":1,"rows":1,"cols":1,"closed":false,"path":[[0,1]]}',
     "off the"),
    (b"[1,2,3]", "JSON object"), (b"move,col,row,square\n1,0,0,a1\n2,1,1,b2\n", "fill"),
    (b"not,a,tour\n", "header")])
def test_corrupt_files_are_refused_clearly(tmp_path, content, msg):
    f = tmp_path / ("t.json" if content.startswith((b"{", b"[")) else "t.csv")
    f.write_bytes(content)
    with pytest.raises(TourError) as e:
        Tour.load(f)
    assert msg in str(e.value)


def test_oversized_file_is_refused_before_reading(tmp_path):
    f = tmp_path / "huge.json"
    with open(f, "wb") as fh:
        fh.truncate(MAX_FILE_BYTES + 1)   # sparse: no real disk use
    with pytest.raises(TourError, match="refused"):
        Tour.load(f)


def test_save_is_atomic_and_leaves_no_temp_files(tmp_path, tour8):
    f = tmp_path / "t.json"
    tour8.save(f)
    tour8.save(f)
    assert [p.name for p in tmp_path.iterdir()] == ["t.json"]


def test_board_line_read_back():
    """The comment line of a board that is not the knight's plane is read back as written,
    the rest of the text left as it was; a text without it is the knight's plane."""
    line = board_line(Board(5, 6, topology="torus", leaper=(2, 3)))
    assert line == "# topology=torus leaper=2,3\n"
    assert split_board_line(line + "move,col,row,square\n") == ("torus", "2,3",
                                                                 "move,col,row,square\n")
    assert split_board_line("move,col\n# x") == ("plane", "1,2", "move,col\n# x")
    assert split_board_line("# leaper=1,3") == ("plane", "1,3", "")
