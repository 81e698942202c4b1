"""``knightgui check --path … --completions`` (issue 36): the JSON keys, exact counts against
a plain count written here, the budget's null with a reason, and the refusals (exit 2, one
line)."""
from __future__ import annotations

import json

import pytest

from knightgui.cli import run
from knightgui_core.board.squares import Board
from knightgui_core.walks.hand.finish import finish_by_rule


def _last(capsys) -> dict:
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def _plain(board: Board, path: list[int]) -> tuple[int, int]:
    nbr = [[int(u) for u in row if u >= 0] for row in board.neighbours]
    seen = set(path)
    counts = [0, 0]

    def walk(v: int) -> None:
        if len(seen) == board.size:
            counts[0] += 1
            counts[1] += path[0] in nbr[v]
            return
        for u in nbr[v]:
            if u not in seen:
                seen.add(u)
                walk(u)
                seen.remove(u)

    walk(path[-1])
    return counts[0], counts[1]


def _tour(board: Board) -> list[int]:
    got = finish_by_rule(board, [0], "center-far")
    assert got.found
    return [0, *got.finish]


@pytest.mark.parametrize("board, keep", [
    (Board(6, 6), 20), (Board(8, 8), 48), (Board(6, 6, "torus"), 22),
    (Board(10, 10, "torus", (2, 3)), 88), (Board(7, 8, "cylinder"), 42),
])
def test_the_counts_are_exact_and_the_example_finishes_the_tour(board, keep, capsys):
    path = _tour(board)[:keep]
    names = " ".join(board.name(s) for s in path)
    a, b = board.leaper
    assert run(["check", "--rows", str(board.rows), "--cols", str(board.cols), "--path", names,
                "--topology", board.topology, "--leaper", f"{a},{b}", "--completions",
                "--json"]) == 0
    d = _last(capsys)
    assert {"extendable", "completions", "example", "reason", "verdict", "path"} <= set(d)
    assert d["extendable"] is True and d["reason"] is None
    want = _plain(board, path)
    assert (d["completions"]["open"], d["completions"]["closed"]) == want and want[0] > 0
    whole = path + [board.parse(s) for s in d["example"]]
    assert sorted(whole) == list(range(board.size))
    assert all(board.is_knight_move(x, y) for x, y in zip(whole, whole[1:]))


def test_a_lost_path_is_exit_1_with_zero_finishes(capsys):
    assert run(["check", "--path", "c2 a3 b1 d2 b3 d4", "--completions", "--json"]) == 1
    d = _last(capsys)
    assert d["extendable"] is False and d["completions"] == {"open": 0, "closed": 0}
    assert d["example"] is None and d["verdict"]["lost"]
    assert d["verdict"]["reasons"][0]["squares"] == ["a1"]
    assert run(["check", "--path", "c2 a3 b1 d2 b3 d4"]) == 1       # the verdict alone
    out = capsys.readouterr().out
    assert "lost: a1 can no longer be reached" in out


def test_past_the_budget_the_count_is_null_with_a_reason(capsys):
    assert run(["check", "--rows", "8", "--cols", "8", "--path", "a1", "--completions",
                "--budget", "0.3", "--json"]) == 0
    d = _last(capsys)
    assert d["completions"] is None and "within 0.3 s" in d["reason"]
    assert d["extendable"] is True and len(d["example"]) == 63


def test_the_summary_reads_as_text(capsys):
    path = " ".join(Board(6, 6).name(s) for s in _tour(Board(6, 6))[:24])
    assert run(["check", "--rows", "6", "--cols", "6", "--path", path, "--completions"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("6×6: a path of 24 squares") and "finishes:" in out
    assert "for example:" in out


@pytest.mark.parametrize("argv, what", [
    (["--path", "a1 b3 a1"], "twice"),
    (["--path", "a1 b2"], "not a move"),
    (["--path", "a1 i9"], "off the 8×8"),
    (["--path", "a1 b3 x"], "not a square"),
    (["--path", "a1 c2", "--leaper", "zebra"], "not a move of the zebra"),
    (["--path", ""], "empty"),
    (["--path", "a1", "--budget", "0", "--completions"], "--budget"),
    (["--path", "a1", "--budget", "nan", "--completions"], "--budget"),
    (["--path", "a1", "--budget", "5"], "--completions"),
    (["--path", "a1", "--rows", "0"], "--rows"),
    (["--path", "a1", "--topology", "klein"], "topology"),
    (["--completions"], "--path"),
    (["tour.json", "--path", "a1"], "not both"),
    (["--path", "a1", "--rows", "101", "--cols", "101", "--completions"], "at most"),
    (["--path", "a1", "--rows", "10000", "--cols", "10000"], "at most 4,000,000"),
])
def test_refusals_are_one_line_and_exit_2(argv, what, capsys):
    assert run(["check", *argv, "--json"]) == 2
    cap = capsys.readouterr()
    err = cap.err.strip().splitlines()
    assert len(err) == 1 and what in err[0] and cap.out == ""
