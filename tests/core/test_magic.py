"""Magic and semi-magic tours (core/board/magic.py, ``knightgui check``): two published
semi-magic 8×8 tours are recognised, a Warnsdorff tour and a made-up numbering are not."""
from __future__ import annotations

import json

import numpy as np
import pytest

from knightgui.cli import run
from knightgui_core.board.magic import line_sums, magic_constants
from knightgui_core.board.squares import Board
from knightgui_core.board.tour import Tour
from knightgui_core.walks.solve import solve

# William Beverley's tour (Philosophical Magazine, 1848), the first semi-magic knight's tour,
# top rank first as usually printed: an open tour whose ranks and files all add to 260.
BEVERLEY = """
 1 30 47 52  5 28 43 54
48 51  2 29 44 53  6 27
31 46 49  4 25  8 55 42
50  3 32 45 56 41 26  7
33 62 15 20  9 24 39 58
16 19 34 61 40 57 10 23
63 14 17 36 21 12 59 38
18 35 64 13 60 37 22 11
"""

# the re-entrant tour Dudeney gave as "the best answer" to his magic knight's tour puzzle
# (Amusements in Mathematics, 1917; MathWorld credits it to Francony, 1882): ranks and files
# 260, the diagonals 264 and 256
DUDENEY = """
46 55 44 19 58  9 22  7
43 18 47 56 21  6 59 10
54 45 20 41 12 57  8 23
17 42 53 48  5 24 11 60
52  3 32 13 40 61 34 25
31 16 49  4 33 28 37 62
 2 51 14 29 64 39 26 35
15 30  1 50 27 36 63 38
"""


def tour_of(printed: str) -> Tour:
    """The tour a printed numbering describes (top rank first), validated by :class:`Tour`."""
    grid = np.array([[int(v) for v in line.split()] for line in printed.strip().splitlines()])
    grid = grid[::-1]                              # rank 1 first, as Board counts rows
    rows, cols = grid.shape
    path = np.empty(rows * cols, dtype=np.int64)
    path[grid.ravel() - 1] = np.arange(rows * cols)
    return Tour(Board(rows, cols), path)


@pytest.mark.parametrize("printed, closed, diagonals", [
    (BEVERLEY, False, {282, 210}), (DUDENEY, True, {264, 256})])
def test_published_semi_magic_tours_are_tours_and_semi_magic(printed, closed, diagonals):
    t = tour_of(printed)                           # raises unless every step is a knight move
    assert t.is_closed_path is closed
    s = line_sums(t.numbers())
    assert s.kind == "semi-magic"
    assert s.rows == (260,) * 8 and s.cols == (260,) * 8
    assert set(s.diagonals) == diagonals


def test_a_warnsdorff_tour_is_not_magic():
    t = solve(8, 8, start="a1")
    tour = Tour(Board(8, 8), np.asarray(t.path))
    s = line_sums(tour.numbers())
    assert s.kind == "none" and len(set(s.rows)) > 1
    assert sum(s.rows) == sum(s.cols) == 64 * 65 // 2


def test_magic_needs_the_diagonals_and_semi_magic_every_line():
    # the 4×4 Dürer square's numbers: rows, columns and diagonals 34 (no tour, but the sums
    # are what the kind is read from)
    durer = np.array([[16, 3, 2, 13], [5, 10, 11, 8], [9, 6, 7, 12], [4, 15, 14, 1]])
    assert line_sums(durer).kind == "magic"
    assert line_sums(durer).to_dict()["diagonal_sums"] == [34, 34]
    swapped = durer.copy()
    swapped[:, [0, 1]] = swapped[:, [1, 0]]        # columns swapped: rows still 34, diagonals not
    assert line_sums(swapped).kind == "semi-magic"
    swapped[0, [0, 1]] = swapped[0, [1, 0]]
    swapped[1, [0, 1]] = swapped[1, [1, 0]]
    assert line_sums(swapped).kind == "none"
    oblong = np.arange(1, 7).reshape(2, 3)         # rows 6 and 15
    assert line_sums(oblong).kind == "none" and line_sums(oblong).diagonals == ()
    assert magic_constants(8, 8) == (260, 260) and magic_constants(3, 4) == (26, -1)
    with pytest.raises(ValueError):
        line_sums(np.zeros(4, dtype=np.int64))


def test_check_json_says_semi_magic_with_the_sums(tmp_path, capsys):
    f = tmp_path / "beverley.json"
    tour_of(BEVERLEY).save(f)
    assert run(["check", str(f), "--json"]) == 0
    d = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert d["magic"] == "semi-magic" and d["row_sums"] == [260] * 8
    assert d["col_sums"] == [260] * 8 and sorted(d["diagonal_sums"]) == [210, 282]
    assert all(type(v) is int for v in d["row_sums"] + d["col_sums"])
    assert run(["check", str(f)]) == 0
    out = capsys.readouterr().out
    assert "magic: semi-magic (row sums all 260; column sums all 260; diagonals" in out


def test_check_json_says_none_for_a_warnsdorff_tour(tmp_path, capsys):
    f = tmp_path / "w.json"
    assert run(["solve", "--rows", "8", "--cols", "8", "--start", "a1", "--out", str(f)]) == 0
    capsys.readouterr()
    assert run(["check", str(f), "--json"]) == 0
    d = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert d["magic"] == "none" and len(set(d["row_sums"])) > 1
