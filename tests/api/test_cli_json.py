"""Each command's ``--json`` line is the ``to_dict()`` of its result type: the keys the
command-line reference lists for it (``knightgui/commands/json_shapes.py``), and, where the
Python API answers the same question, the API's ``result.to_dict()`` itself (timings
aside). Small boards only."""
import json

import pytest

import knightgui_core as kg
from knightgui.cli import run
from knightgui.commands.json_shapes import SHAPES
from knightgui_core import Board

TIMINGS = {"seconds", "wall_seconds"}
FAMILIES = {"strict", "cd", "semi", "ecd", "xcd"}


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
        run([*argv, "--json"])
        out, _ = capsys.readouterr()
        return json.loads(out.strip().splitlines()[-1])
    return call


@pytest.fixture(scope="module")
def tour_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("tour") / "t.json"
    kg.solve(Board(6, 6), start="a1").tour.save(path)
    return str(path)


#: per documented shape: a small run of the command, and the API's answer (None: only the
#: engine's own function answers it)
RUNS = {
    "knightgui solve": (("solve", "--rows", "6", "--cols", "6", "--start", "a1"),
                        lambda: kg.solve(Board(6, 6), start="a1")),
    "knightgui enumerate": (("enumerate", "--rows", "6", "--cols", "6", "--start", "a1",
                             "--end", "c2"),
                            lambda: kg.warnsdorff_tours(Board(6, 6), "a1", end="c2").count()),
    "knightgui enumerate --list-tails": (
        ("enumerate", "--start", "b8", "--end", "a6", "--list-tails"),
        lambda: kg.corner_tails(Board(8, 8), "b8", "a6")),
    "knightgui enumerate --all-tours": (
        ("enumerate", "--rows", "5", "--cols", "5", "--start", "a1", "--all-tours"), None),
    "knightgui check FILE": (("check", "{tour_file}"), lambda f: kg.check_tour(f)),
    "knightgui check --path": (
        ("check", "--rows", "5", "--cols", "5", "--path", "a1 b3 c5", "--completions"),
        lambda: kg.check_path(Board(5, 5), ["a1", "b3", "c5"], completions=True)),
    "knightgui study count": (("study", "count", "--size", "5", "--starts", "a1,c3",
                               "--lengths"),
                              lambda: kg.count_warnsdorff_tours(Board(5, 5), "a1,c3",
                                                                lengths=True)),
    "knightgui study count --all-tours (visited-set counter)": (
        ("study", "count", "--rows", "4", "--cols", "5", "--all-tours", "--method", "visited"),
        lambda: kg.count_tours(Board(4, 5), method="visited")),
    "knightgui study count --all-tours (frontier)": (
        ("study", "count", "--rows", "5", "--cols", "5", "--all-tours", "--method", "frontier"),
        lambda: kg.count_tours(Board(5, 5), method="frontier")),
    "knightgui study count --all-tours --starts": (
        ("study", "count", "--all-tours", "--rows", "5", "--cols", "5", "--starts", "a1"),
        None),
    "knightgui study count --all-tours --boards-up-to": (
        ("study", "count", "--all-tours", "--boards-up-to", "12"), None),
    "knightgui study count --all-tours --cols-from --cols-to": (
        ("study", "count", "--all-tours", "--rows", "3", "--cols-from", "4", "--cols-to", "7"),
        None),
    "knightgui study count --all-tours --symmetry": (
        ("study", "count", "--size", "6", "--all-tours", "--symmetry", "half-turn"),
        lambda: kg.study_symmetric(Board(6, 6), "half-turn")),
    "knightgui study phadke": (("study", "phadke", "--family", "strict"),
                               lambda: kg.study_phadke("strict")),
    "knightgui study move-orders": (("study", "move-orders", "--size", "5"),
                                    lambda: kg.study_move_orders(Board(5, 5))),
    "knightgui study move-orders --walk": (
        ("study", "move-orders", "--size", "5", "--walk", "12345678"), None),
    "knightgui study tie-breaks": (
        ("study", "tie-breaks", "--max", "9", "--rules", "phadke,first,random", "--trials", "2"),
        lambda: kg.study_tie_breaks(9, rules=["phadke", "first", "random"], trials=2)),
    "knightgui study uncrossed": (("study", "uncrossed", "--rows", "6", "--cols", "6"),
                                  lambda: kg.study_uncrossed(Board(6, 6))),
    "knightgui study semimagic": (("study", "semimagic", "--size", "6", "--symmetry",
                                   "half-turn"),
                                  lambda: kg.study_semimagic(6, symmetry="half-turn")),
    "knightgui study semimagic --census": (("study", "semimagic", "--size", "5", "--census"),
                                           lambda: kg.study_semimagic(5, census=True)),
}

#: more runs whose --json must be the API's answer: other boards, other outcomes
MORE = [
    (("solve", "--rows", "8", "--cols", "8", "--start", "c3", "--tie", "pohl"),
     lambda: kg.solve(Board(8, 8), start="c3", tie="pohl")),
    (("solve", "--rows", "4", "--cols", "4"), lambda: kg.solve(Board(4, 4))),
    (("solve", "--rows", "5", "--cols", "5", "--start", "b1"),
     lambda: kg.solve(Board(5, 5), start="b1")),
    (("solve", "--rows", "5", "--cols", "6", "--topology", "torus"),
     lambda: kg.solve(Board(5, 6, "torus"))),
    (("solve", "--rows", "4", "--cols", "4", "--leaper", "1,3"),
     lambda: kg.solve(Board(4, 4, "plane", "1,3"))),
    (("enumerate", "--start", "a8", "--end", "c7"),
     lambda: kg.warnsdorff_tours(Board(8, 8), "a8", end="c7").count()),
    (("enumerate", "--rows", "6", "--cols", "6", "--start", "a1", "--no-table"),
     lambda: kg.warnsdorff_tours(Board(6, 6), "a1").count()),
    (("study", "count", "--size", "6"), lambda: kg.count_warnsdorff_tours(Board(6, 6))),
    (("study", "count", "--size", "5", "--all-tours"), lambda: kg.count_tours(Board(5, 5))),
    (("check", "--rows", "6", "--cols", "6", "--path", "a1 c2 e1 f3"),
     lambda: kg.check_path(Board(6, 6), ["a1", "c2", "e1", "f3"])),
]


def _argv(argv, tour_file):
    return tuple(tour_file if a == "{tour_file}" else a for a in argv)


def _ask(ask, tour_file):
    return ask(tour_file) if ask.__code__.co_argcount else ask()


def test_every_documented_shape_is_run_here():
    assert [s.command for s in SHAPES] == list(RUNS)


@pytest.mark.parametrize("shape", SHAPES, ids=[s.command for s in SHAPES])
def test_the_json_has_the_documented_keys(cli_json, tour_file, shape):
    argv, _ = RUNS[shape.command]
    got = list(cli_json(*_argv(argv, tour_file)))
    assert [k for k in got if k in shape.keys] == list(shape.keys)
    extra = set(got) - set(shape.keys) - set(shape.optional)
    assert extra <= (FAMILIES if shape.more.startswith("one record per family") else set())
    if shape.more.startswith("one record per family"):
        assert extra


WITH_API = [(c, *RUNS[c]) for c in RUNS if RUNS[c][1] is not None]


@pytest.mark.parametrize("command,argv,ask", WITH_API, ids=[c for c, _, _ in WITH_API])
def test_the_json_is_the_apis_to_dict(cli_json, tour_file, command, argv, ask):
    want = without_timings(_ask(ask, tour_file).to_dict())
    assert without_timings(cli_json(*_argv(argv, tour_file))) == want


@pytest.mark.parametrize("argv,ask", MORE, ids=[" ".join(a) for a, _ in MORE])
def test_other_outcomes_are_the_apis_to_dict_too(cli_json, argv, ask):
    assert without_timings(cli_json(*argv)) == without_timings(ask().to_dict())


def test_the_shapes_say_what_they_hold(cli_json):
    """The values behind the keys: a found tour, a proof, a count, a listing."""
    d = cli_json("solve", "--rows", "5", "--cols", "5", "--start", "b1")
    assert (d["valid"], d["answer"], d["path"]) == (False, "no", [])
    d = cli_json("solve", "--rows", "6", "--cols", "6")
    assert d["valid"] and d["answer"] == "yes" and len(d["path"]) == 36
    d = cli_json("enumerate", "--rows", "5", "--cols", "5", "--start", "a1", "--all-tours")
    assert (d["solutions"], d["closed"], d["exhausted"]) == (304, 0, True)
    d = cli_json("enumerate", "--rows", "5", "--cols", "5", "--start", "a1", "--first", "2")
    assert len(d["first"]) == 2 and d["first"][0]["path"][0] == "a1"
