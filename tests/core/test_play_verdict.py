"""A tour by hand (issue 36): the quick verdict's reasons on positions made by hand, and the
rule's finish (the solver's backtracking search begun from the path played)."""
from __future__ import annotations

import random

import pytest
from test_completions import is_finish, plain_count, positions

from knightgui_core.board.squares import Board
from knightgui_core.system.errors import Cancelled
from knightgui_core.walks.hand.completions import completions
from knightgui_core.walks.hand.finish import finish_by_rule
from knightgui_core.walks.hand.verdict import PlayError, ReasonKind, quick_verdict
from knightgui_core.walks.solve import solve

K = ReasonKind
LOST = [  # board, path, the one reason that loses it, the squares it names
    (Board(8, 8), "c2 a3 b1 d2 b3 d4", K.UNREACHABLE, "a1"),        # a1's two ways in used
    (Board(8, 8), "c2 d4 f5 d6 f7 e5", K.ENDS, "a1 h8"),            # two corners, one way each
    (Board(8, 8), "c2 a3 b1 d2 b3", K.DEAD_END, "a1"),              # next, then nowhere
    (Board(8, 8), "b3 d4 c2 a1", K.STUCK, "a1"),
    (Board(6, 6), "e5 f3 e1 c2 a1 b3 a5 c6 b4 a6 c5 e6 f4 d3 f2 d1 b2 a4 b6 d5 f6 e4 d6 f5 d4 "
                  "b5 a3 b1 d2 c4", K.SPLIT, "e3 f1"),
    (Board(5, 5), "b5 a3 b1 d2 e4 c5 a4 b2 d1 e3 c4", K.COLOURS, ""),
]


def _squares(board: Board, text: str) -> list[int]:
    return [board.parse(s) for s in text.split()]


@pytest.mark.parametrize("board, text, kind, named", LOST)
def test_hand_made_lost_positions_say_why(board, text, kind, named):
    p = _squares(board, text)
    v = quick_verdict(board, p)
    fatal = [r for r in v.reasons if not r.closed_only]
    assert v.lost and v.closed_lost and [r.kind for r in fatal] == [kind]
    assert sorted(fatal[0].squares) == sorted(_squares(board, named))
    assert fatal[0].sentence and "\n" not in fatal[0].sentence
    if board.size - len(p) <= 16:
        assert plain_count(board, p) == (0, 0)        # the verdict is a proof
    got = completions(board, p)
    assert (got.extendable, got.open, got.closed) == (False, 0, 0)
    rule = finish_by_rule(board, p)
    assert not rule.found and rule.exhausted


@pytest.mark.parametrize("text, kind, named", [
    ("a1 b3 d4 c2 e3", K.CLOSED_START, "a1"),             # a1's neighbours both used
    ("a1 b3 d4 f5 d6 f7 e5", K.CLOSED_END, "h8 a1"),      # h8 must be last, far from a1
])
def test_positions_that_lose_only_the_closed_tour(text, kind, named):
    board = Board(8, 8)
    p = _squares(board, text)
    v = quick_verdict(board, p)
    assert not v.lost and v.closed_lost
    assert [r.kind for r in v.reasons] == [kind] and v.reasons[0].closed_only
    assert sorted(v.marked) == sorted(_squares(board, named))


def test_a_fresh_start_and_a_covered_board():
    board = Board(8, 8)
    v = quick_verdict(board, [0])
    assert not v.lost and not v.closed_lost and v.reasons == () and v.free == 63
    odd = Board(5, 5)
    v = quick_verdict(odd, [0])
    assert not v.lost and v.closed_lost and v.reasons[0].kind == K.CLOSED_COLOURS
    tour = positions(odd, 0, 1, seed=3)[0]
    v = quick_verdict(odd, tour)
    assert not v.lost and K.CLOSED_FULL in [r.kind for r in v.reasons]


def test_the_verdict_never_loses_a_position_that_has_a_finish():
    rng = random.Random(11)
    for board in (Board(6, 6), Board(5, 6, "cylinder"), Board(6, 6, "torus", (2, 3))):
        for free in (6, 9, 12):
            for p in positions(board, free, 6, seed=rng.randrange(10**6)):
                n_open, n_closed = plain_count(board, p)
                v = quick_verdict(board, p)
                assert not (v.lost and n_open), (board.describe(), p)
                assert not (v.closed_lost and n_closed), (board.describe(), p)


@pytest.mark.parametrize("board, closed", [
    (Board(8, 8), False), (Board(8, 8), True), (Board(6, 6, "torus", (2, 3)), True),
    (Board(7, 6, "cylinder"), False), (Board(10, 10, leaper=(2, 3)), True),
])
def test_from_one_square_the_finish_is_the_solvers_backtracking_search(board, closed):
    res = solve(board.rows, board.cols, start="a1", closed=closed, tie="first",
                method="backtrack", topology=board.topology, leaper=board.leaper,
                node_budget=200_000)
    got = finish_by_rule(board, [0], "first", closed=closed, node_budget=200_000)
    assert got.found == res.ok and got.nodes == res.nodes
    if board.leaper == (1, 2):
        assert got.found
    if got.found:
        assert [0, *got.finish] == [int(s) for s in res.path]
    else:                      # the zebra's closed tour of the 10×10 plane is further away
        assert not got.exhausted and "within 200,000 moves" in got.message


def test_a_prefix_of_the_rules_own_walk_finishes_as_the_walk_does():
    res = solve(8, 8, start="a1", tie="phadke", method="greedy")
    assert res.ok
    walk = [int(s) for s in res.path]
    for k in (1, 20, 50, 63, 64):
        got = finish_by_rule(Board(8, 8), walk[:k], "phadke")
        assert got.found and list(got.finish) == walk[k:] and got.dead_ends == 0


def test_finishes_agree_with_the_count_on_random_positions():
    for board in (Board(8, 8), Board(6, 7), Board(8, 8, "torus")):
        for p in positions(board, 18, 5, seed=board.size):
            count = completions(board, p)
            for closed in (False, True):
                got = finish_by_rule(board, p, "center-far", closed=closed)
                want = count.closed if closed else count.open
                assert got.found == (want > 0) and got.exhausted == (want == 0)
                if got.found:
                    assert is_finish(board, p, got.finish)
                    assert not closed or board.is_knight_move(got.finish[-1], p[0])


def test_budget_cancel_and_refusals():
    board = Board(8, 8)
    got = finish_by_rule(board, [0], node_budget=0)
    assert not got.found and not got.exhausted and "within 0 moves" in got.message
    with pytest.raises(Cancelled):
        finish_by_rule(board, [0], cancel=lambda: True)
    with pytest.raises(PlayError, match="Squirrel"):
        finish_by_rule(board, [0], "squirrel")
    with pytest.raises(PlayError):
        finish_by_rule(board, [0], "no-such-rule")
    with pytest.raises(PlayError, match="budget"):
        finish_by_rule(board, [0], node_budget=-1)
    with pytest.raises(PlayError, match="twice"):
        finish_by_rule(board, [0, 17, 0])


def test_the_examples_in_the_docstrings_hold():
    import doctest

    from knightgui_core.walks.hand import completions as c
    from knightgui_core.walks.hand import finish as r
    from knightgui_core.walks.hand import verdict as v
    for module in (c, r, v):
        result = doctest.testmod(module)
        assert result.attempted >= 3 and result.failed == 0, module.__name__


def test_tiny_boards_of_every_shape_edge_and_piece():
    """Random paths on boards of 1×1 to 5×5, every topology, four leapers (some with no move
    at all): the count, the verdict and the rule's finish agree with the plain search."""
    rng = random.Random(36)
    for _ in range(300):
        board = Board(rng.randint(1, 5), rng.randint(1, 5),
                      rng.choice(["plane", "cylinder", "torus"]),
                      rng.choice([(1, 2), (1, 3), (2, 3), (1, 4)]))
        nbr = [[int(u) for u in row if u >= 0] for row in board.neighbours]
        p = [rng.randrange(board.size)]
        length = rng.randint(max(1, board.size - 11), board.size)
        while len(p) < length:
            step = [u for u in nbr[p[-1]] if u not in p]
            if not step:
                break
            p.append(rng.choice(step))
        want = plain_count(board, p)
        got = completions(board, p, memo_entries=rng.choice([2, 4, 1 << 10]))
        assert (got.open, got.closed) == want, (board, p)
        assert want[0] == 0 or is_finish(board, p, got.example)
        v = quick_verdict(board, p)
        assert not (v.lost and want[0]) and not (v.closed_lost and want[1]), (board, p)
        for closed in (False, True):
            rule = finish_by_rule(board, p, "first", closed=closed)
            n = want[1] if closed else want[0]
            assert rule.found == (n > 0) and rule.exhausted == (n == 0), (board, p, closed)
