"""A result's ``to_dict()`` is the JSON the matching command prints (timings aside): the
commands listed here could print ``to_dict()`` as their ``--json``. ``solve`` and
``enumerate`` print a subset of it (the result adds the board and the squares)."""
import json

import pytest

import knightgui_core as kg
from knightgui.cli import run
from knightgui_core import Board

TIMINGS = {"seconds", "wall_seconds"}


def without_timings(o):
    if isinstance(o, dict):
        return {k: without_timings(v) for k, v in o.items() if k not in TIMINGS}
    if isinstance(o, list):
        return [without_timings(v) for v in o]
    return o


@pytest.fixture
def cli_json(capsys, monkeypatch):
    monkeypatch.delenv("KNIGHTGUI_SCHEDULER", raising=False)

    def call(*argv):
        run(list(argv))
        out, _ = capsys.readouterr()
        return without_timings(json.loads(out.strip().splitlines()[-1]))
    return call


SAME = [
    (("study", "count", "--size", "6"), lambda: kg.count_warnsdorff_tours(Board(6, 6))),
    (("study", "count", "--size", "5", "--starts", "a1,c3", "--lengths"),
     lambda: kg.count_warnsdorff_tours(Board(5, 5), "a1,c3", lengths=True)),
    (("study", "count", "--rows", "4", "--cols", "5", "--all-tours"),
     lambda: kg.count_tours(Board(4, 5))),
    (("study", "count", "--size", "5", "--all-tours"), lambda: kg.count_tours(Board(5, 5))),
    (("study", "count", "--size", "6", "--all-tours", "--symmetry", "half-turn"),
     lambda: kg.study_symmetric(Board(6, 6), "half-turn")),
    (("study", "phadke", "--family", "strict"), lambda: kg.study_phadke("strict")),
    (("study", "move-orders", "--size", "5"), lambda: kg.study_move_orders(Board(5, 5))),
    (("study", "tie-breaks", "--max", "9", "--rules", "phadke,first,random", "--trials", "2"),
     lambda: kg.study_tie_breaks(9, rules=["phadke", "first", "random"], trials=2)),
    (("study", "uncrossed", "--rows", "6", "--cols", "6"),
     lambda: kg.study_uncrossed(Board(6, 6))),
    (("study", "semimagic", "--size", "6", "--symmetry", "half-turn"),
     lambda: kg.study_semimagic(6, symmetry="half-turn")),
]


@pytest.mark.parametrize("argv,ask", SAME, ids=[" ".join(a[:4]) for a, _ in SAME])
def test_to_dict_is_the_commands_json(cli_json, argv, ask):
    assert without_timings(ask().to_dict()) == cli_json(*argv, "--json")


@pytest.mark.parametrize("argv,ask", [
    (("solve", "--rows", "8", "--cols", "8", "--start", "c3", "--tie", "pohl"),
     lambda: kg.solve(Board(8, 8), start="c3", tie="pohl")),
    (("solve", "--rows", "4", "--cols", "4"), lambda: kg.solve(Board(4, 4))),
    (("enumerate", "--start", "a8", "--end", "c7"),
     lambda: kg.warnsdorff_tours(Board(8, 8), "a8", end="c7").count()),
], ids=["solve", "solve, no tour", "enumerate"])
def test_the_commands_json_is_part_of_to_dict(cli_json, argv, ask):
    got = without_timings(ask().to_dict())
    want = cli_json(*argv, "--json")
    assert {k: got[k] for k in want} == want
