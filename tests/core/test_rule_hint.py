"""A tour by hand: the hint is the rule's own next move and its ties."""
from __future__ import annotations

import pytest

from knightgui_core.board.rules import candidates_at
from knightgui_core.board.squares import Board
from knightgui_core.board.tie_rule import TieRule
from knightgui_core.walks.hand.hint import rule_hint
from knightgui_core.walks.hand.verdict import PlayError
from knightgui_core.walks.solve import solve

DETERMINISTIC = ("phadke", "first", "last", "center-far", "lookahead", "pohl")
BOARDS = [(8, 8, "plane", (1, 2)), (6, 7, "plane", (1, 2)), (8, 8, "torus", (1, 2)),
          (10, 10, "torus", (2, 3)), (7, 7, "cylinder", (1, 2))]


@pytest.mark.parametrize("tie", DETERMINISTIC)
@pytest.mark.parametrize("rows, cols, topology, leaper", BOARDS)
def test_the_hint_is_the_rules_next_move_all_along_its_walk(rows, cols, topology, leaper, tie):
    board = Board(rows, cols, topology, leaper)
    res = solve(rows, cols, start=0, tie=tie, method="greedy", topology=topology,
                leaper=leaper)
    walk = [int(s) for s in res.path]
    assert len(walk) > 10
    for k in range(1, len(walk)):
        h = rule_hint(board, walk[:k], tie)
        assert h.choice == walk[k], (k, board.name(walk[k]))
        # the ties: every move with the fewest onward moves, as the animation counts them
        cands = candidates_at(board, walk, k + 1)
        fewest = min(o for _s, o in cands)
        assert sorted(h.ties) == sorted(s for s, o in cands if o == fewest)
        assert sorted(h.ranked) == sorted(cands)


def test_no_move_left_and_switching_rules():
    b = Board(8, 8)
    stuck = [b.parse(s) for s in "b3 d4 c2 a1".split()]
    h = rule_hint(b, stuck, "first")
    assert h.choice == -1 and h.ties == () and h.ranked == ()
    h = rule_hint(b, [0], "squirrel")
    assert h.rule is TieRule.PHADKE and "Squirrel" in h.note and h.choice >= 0


@pytest.mark.parametrize("path, tie", [([0, 0], "phadke"), ([0, 1], "phadke"),
                                       ([0], "no-such-rule"), ([99], "phadke")])
def test_bad_input_is_one_sentence(path, tie):
    with pytest.raises(PlayError) as e:
        rule_hint(Board(8, 8), path, tie)
    assert "\n" not in str(e.value)
