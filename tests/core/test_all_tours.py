"""Every knight's path, not only Warnsdorff's: against brute force and OEIS."""
from __future__ import annotations

import numpy as np
import pytest

from knightgui_core.board.squares import Board
from knightgui_core.run.runner import run_tasks
from knightgui_core.studies.all_tours import all_tours_task, colours_allow, run_all_tours
from knightgui_core.tietree.counting.subtrees import CountBoard, CountError


def brute(rows, cols, start, board=None):
    """Paths and closed paths from ``start`` by plain depth-first search."""
    b = Board(rows, cols) if board is None else board
    nbr = [[int(u) for u in b.neighbours[s] if u >= 0] for s in range(b.size)]
    found = [0, 0]

    def go(q, seen):
        if len(seen) == b.size:
            found[0] += 1
            found[1] += start in nbr[q]
            return
        for u in nbr[q]:
            if u not in seen:
                seen.add(u)
                go(u, seen)
                seen.remove(u)
    go(start, {start})
    return found


def _serial(tasks):
    return run_tasks(tasks, scheduler="threads", workers=1)


@pytest.mark.parametrize("rows,cols", [(3, 4), (4, 5), (3, 7), (4, 4), (1, 1)])
def test_every_start_agrees_with_brute_force(rows, cols):
    b = Board(rows, cols)
    for s in range(b.size):
        got = all_tours_task(rows, cols, b.name(s))
        assert [got["tours"], got["closed"]] == brute(rows, cols, s), b.name(s)


# the 3×5 camel torus (9,266,400 paths) takes the plain search over a minute: slow; the
# 3×4 one (1,036,800, 4 s) stands in for it in the fast suite
@pytest.mark.parametrize("board", [Board(3, 4, "torus"), Board(3, 5, "cylinder"),
                                   Board(3, 4, "cylinder"), Board(4, 4, "plane", (1, 3)),
                                   Board(3, 4, "torus", (1, 3)),
                                   pytest.param(Board(3, 5, "torus", (1, 3)),
                                                marks=pytest.mark.slow)])
def test_other_boards_and_closed_paths_agree_with_brute_force(board):
    closed = 0
    for s in range(board.size):
        got = all_tours_task(board.rows, board.cols, board.name(s), board.topology,
                             board.leaper)
        want = brute(board.rows, board.cols, s, board)
        assert [got["tours"], got["closed"]] == want, (board.describe(), board.name(s))
        closed += want[1]
    assert closed > 0 or board.topology != "torus"          # the cuts meet closed paths too


def test_oeis_5x5_and_6x6():
    five = run_all_tours(5, 5, runner=_serial)
    assert five.totals == {"tours": 1_728, "closed": 0}                  # A165134
    six = run_all_tours(6, 6, runner=_serial)
    d = six.to_dict()
    assert six.totals["tours"] == 6_637_920                              # A165134
    assert d["undirected_paths"] == 3_318_960                            # A390833
    assert d["undirected_closed_tours"] == 9_862                         # A001230
    assert len(six.per_start) == 36 and six.tasks["computed"] == 6


def test_a_board_too_big_is_one_line():
    with pytest.raises(CountError, match="at most 64 squares"):
        run_all_tours(9, 9, runner=_serial)


def _one_word(board):
    return np.ascontiguousarray(CountBoard(board.rows, board.cols,
                                           None if board.is_classic else board).att[:, 0])


def test_colours_stop_starts_on_the_smaller_class_and_nothing_else():
    five = Board(5, 5)
    att = _one_word(five)
    assert colours_allow(att, 25, five.parse("a1")) and colours_allow(att, 25, five.parse("c3"))
    assert not colours_allow(att, 25, five.parse("b1"))               # 12 dark, 13 light
    assert brute(5, 5, five.parse("b1")) == [0, 0]
    six = Board(6, 6)
    assert all(colours_allow(_one_word(six), 36, s) for s in range(36))
    odd_torus = Board(3, 5, "torus")          # wraps an odd side: moves within a colour
    assert all(colours_allow(_one_word(odd_torus), 15, s) for s in range(15))
