"""The play model, without a display: moves, refusals, undo/redo, click-back,
hint, verdict, answers, finish, saving."""
from __future__ import annotations

import json

import pytest

from knightgui.play.model import PlayModel, PlayRefused
from knightgui_core.board.squares import Board
from knightgui_core.walks.hand.completions import completions
from knightgui_core.walks.solve import solve


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def sq(m: PlayModel, names: str) -> list[int]:
    return [m.board.parse(s) for s in names.split()]


def played(names: str, board: Board | None = None, clock=None) -> PlayModel:
    m = PlayModel(board or Board(8, 8), clock or Clock())
    for s in sq(m, names):
        m.play(s)
    return m


def test_moves_legal_squares_and_observers():
    m = PlayModel(Board(8, 8))
    seen: list[frozenset] = []
    m.observe(seen.append)
    assert m.legal() == () and m.verdict is None and m.hint() is None
    assert m.click(m.board.parse("a1")) == "Move 1: a1"
    assert sorted((m.name(s), o) for s, o in m.legal()) == [("b3", 5), ("c2", 5)]
    m.click(m.board.parse("c2"))
    assert m.path == tuple(sq(m, "a1 c2"))
    assert ("e1", 3) in {(m.name(s), o) for s, o in m.legal()}
    assert seen and all("path" in c for c in seen)
    assert m.verdict is not None and not m.verdict.lost


@pytest.mark.parametrize("target, words", [("c3", "is not a move of the knight"),
                                            ("h8", "is not a move of the knight")])
def test_a_non_move_is_refused_in_one_line(target, words):
    m = played("a1 b3")
    with pytest.raises(PlayRefused) as e:
        m.play(m.board.parse(target))
    assert words in str(e.value) and "\n" not in str(e.value)
    assert m.path == tuple(sq(m, "a1 b3"))
    with pytest.raises(PlayRefused):
        m.play(99)


def test_undo_redo_and_click_back():
    m = played("a1 b3 c5 d7 f8")
    assert m.undo() and m.undo()
    assert m.path == tuple(sq(m, "a1 b3 c5")) and m.redo_squares == tuple(sq(m, "d7 f8"))
    assert m.redo() and m.path[-1] == m.board.parse("d7")
    assert m.undone == 2
    # a click on a visited square takes the path back to it; the rest can be redone
    msg = m.click(m.board.parse("b3"))
    assert "Back to move 2" in msg and m.path == tuple(sq(m, "a1 b3"))
    assert m.redo_squares == tuple(sq(m, "c5 d7 f8"))    # f8 was never redone
    assert m.undone == 4
    # playing the square undone keeps the redo stack; another move drops it
    m.play(m.board.parse("c5"))
    assert m.redo_squares == tuple(sq(m, "d7 f8"))
    m.play(m.board.parse("a4"))
    assert m.redo_squares == () and not m.redo()
    assert "stands on" in m.click(m.board.parse("a4"))
    with pytest.raises(PlayRefused):
        m.back_to(0)


def test_hint_follows_the_tie_rule_and_is_cleared_by_a_move():
    m = played("a1")
    m.set_rule("first")
    h = m.show_hint()
    assert h is not None and m.hint_shown
    assert m.name(h.choice) == "b3" and sorted(m.name(s) for s in h.ties) == ["b3", "c2"]
    m.set_rule("last")
    h2 = m.hint()
    assert h2 is not None and m.name(h2.choice) == "c2"
    m.play(h2.choice)
    assert not m.hint_shown


def test_lost_position_is_marked_by_the_verdict():
    m = played("c2 a3 b1 d2 b3 d4")          # a1's two ways in are used
    v = m.verdict
    assert v is not None and v.lost and m.board.parse("a1") in v.marked


def test_answers_about_an_old_path_are_dropped():
    m = played("a1 b3 c5")
    old = m.path
    ans = completions(m.board, list(old), 5.0, count=False)
    m.play(m.board.parse("d7"))
    assert not m.set_answer(old, ans) and m.answer is None
    assert m.set_answer(m.path, completions(m.board, list(m.path), 5.0, count=False))
    assert m.answer is not None and m.answer.extendable


def test_a_finished_tour_is_recognised_with_time_and_undos():
    clock = Clock()
    res = solve(6, 6, start=0, closed=True)
    path = [int(s) for s in res.path]
    m = PlayModel(Board(6, 6), clock)
    for s in path[:-1]:
        m.play(s)
        clock.t += 2.0
    m.undo()
    m.redo()
    msg = m.play(path[-1])
    assert m.finished and m.closed
    assert msg.startswith("A closed tour of the 6×6 board") and "1 move undone" in msg
    assert "1 min 10 s" in msg     # 35 moves 2 s apart after the first
    with pytest.raises(PlayRefused):
        m.play(0)


def test_extend_appends_a_finish_that_can_be_undone():
    m = played("a1 b3 c5", Board(6, 6))
    res = solve(6, 6, start=0, method="backtrack")
    m2 = PlayModel(Board(6, 6), Clock())
    p = [int(s) for s in res.path]
    m2.play(p[0])
    m2.extend(p[1:])
    assert m2.finished
    m2.undo()
    assert len(m2.path) == 35 and m2.redo_squares == (p[-1],)
    with pytest.raises(PlayRefused):
        m.extend([m.board.parse("a1")])


def test_save_and_restore_keeps_path_redo_and_play():
    b = Board(10, 10, "torus", (2, 3))
    clock = Clock()
    m = PlayModel(b, clock)
    for s in (0, b.neighbours[0][0]):
        m.play(int(s))
    nxt = next(int(u) for u in b.neighbours[m.path[-1]] if u >= 0 and u not in m.path)
    m.play(nxt)
    clock.t += 30
    m.undo()
    d = json.loads(json.dumps(m.to_dict()))
    assert d["partial"] is True and d["topology"] == "torus" and d["leaper"] == [2, 3]
    r = PlayModel.from_dict(d, clock)
    assert r.board == b and r.path == m.path and r.redo_squares == (nxt,)
    assert r.undone == 1 and r.seconds() == pytest.approx(30.0)


@pytest.mark.parametrize("bad", [None, [], {"format": "x"},
                                 {"format": "knightgui-tour", "version": 1, "rows": 8,
                                  "cols": 8, "path": [[0, 0], [1, 1]]},
                                 {"format": "knightgui-tour", "version": 1, "rows": 8,
                                  "cols": 8, "path": [[0, 0], [9, 9]]},
                                 {"format": "knightgui-tour", "version": 1, "rows": -1,
                                  "cols": 8, "path": [[0, 0]]}])
def test_bad_positions_are_one_line(bad):
    with pytest.raises(ValueError) as e:
        PlayModel.from_dict(bad)
    assert "\n" not in str(e.value)


def test_a_bad_redo_is_dropped():
    m = played("a1 b3")
    d = m.to_dict()
    d["redo"] = [[5, 5]]
    r = PlayModel.from_dict(d)
    assert r.path == m.path and r.redo_squares == ()
