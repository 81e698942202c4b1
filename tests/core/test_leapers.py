"""Other boards and pieces (issue 27 items 1–2): the plane, the cylinder and the torus, any
(a, b)-leaper — neighbour tables, Warnsdorff's enumeration, every path, what is known about
tours, the files — checked against a plain validator written here."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

from knightgui_core.board.squares import Board, BoardError, parse_leaper
from knightgui_core.board.tour import Tour, TourError
from knightgui_core.tietree.alltours.all_tours_list import AllToursLister
from knightgui_core.tietree.alltours.existence_search import existence_answer
from knightgui_core.tietree.enumeration.enumerator import EnumerationError, Enumerator

LEAPERS = [(1, 2), (1, 3), (2, 3), (1, 4)]
TOPOLOGIES = ["plane", "cylinder", "torus"]


def plain_moves(rows, cols, topology, leaper, s):
    """The squares an (a, b)-leaper reaches from ``s``, worked out from scratch."""
    a, b = leaper
    c, r = s % cols, s // cols
    out = set()
    for dc, dr in ((a, b), (b, a)):
        for sc in (1, -1):
            for sr in (1, -1):
                cc, rr = c + sc * dc, r + sr * dr
                if topology in ("cylinder", "torus"):
                    cc %= cols
                if topology == "torus":
                    rr %= rows
                if 0 <= cc < cols and 0 <= rr < rows and rr * cols + cc != s:
                    out.add(rr * cols + cc)
    return out


def plain_is_tour(rows, cols, topology, leaper, path, closed=False):
    path = [int(s) for s in path]
    if sorted(path) != list(range(rows * cols)):
        return False
    steps = list(zip(path, path[1:])) + ([(path[-1], path[0])] if closed else [])
    return all(v in plain_moves(rows, cols, topology, leaper, u) for u, v in steps)


@pytest.mark.parametrize("topology", TOPOLOGIES)
@pytest.mark.parametrize("leaper", LEAPERS + [(2, 5), (3, 4)])
@pytest.mark.parametrize("rows,cols", [(5, 5), (4, 7), (8, 8)])
def test_the_neighbour_table_is_the_plain_moves(topology, leaper, rows, cols):
    b = Board(rows, cols, topology, leaper)
    for s in range(b.size):
        got = [int(u) for u in b.neighbours[s] if u >= 0]
        assert len(got) == len(set(got))                       # one edge per pair
        assert set(got) == plain_moves(rows, cols, topology, leaper, s)
        assert b.degree[s] == len(got)


@pytest.mark.parametrize("topology", TOPOLOGIES)
@pytest.mark.parametrize("leaper", LEAPERS)
def test_warnsdorff_tours_on_every_topology_and_leaper_are_tours(topology, leaper):
    found = 0
    for rows, cols in ((6, 6), (5, 6), (7, 7)):
        b = Board(rows, cols, topology, leaper)
        for start in (0, b.size // 2):
            for sol in Enumerator(rows, cols, start=start, board=b).first(20):
                assert plain_is_tour(rows, cols, topology, leaper, sol.path)
                found += 1
    if (leaper[0] + leaper[1]) % 2 == 0 and topology == "plane":
        assert found == 0                                      # colour-bound: never a tour
    if (topology, leaper) in (("torus", (2, 3)), ("plane", (1, 2)), ("torus", (1, 2))):
        assert found > 0


def test_closed_warnsdorff_tours_on_the_torus_close():
    b = Board(6, 6, "torus")
    end = int(next(u for u in b.neighbours[0] if u >= 0))
    sols = Enumerator(6, 6, start=0, end=end, board=b).first(30)
    assert sols
    for sol in sols:
        assert plain_is_tour(6, 6, "torus", (1, 2), sol.path, closed=True)


def test_per_start_counts_on_a_cylinder_are_equal_along_a_wrapped_row():
    rows, cols = 5, 6
    b = Board(rows, cols, "cylinder")
    counts = {}
    for s in range(b.size):
        en = Enumerator(rows, cols, start=s, board=b)
        en.count()
        counts[s] = en.solutions
    for r in range(rows):
        row = {counts[r * cols + c] for c in range(cols)}
        assert len(row) == 1, (r, row)                         # translation symmetry
    assert any(counts.values())


def test_every_path_on_a_torus_agrees_with_a_plain_search():
    b = Board(3, 4, "torus", (1, 2))
    want = []

    def go(path, seen):
        if len(path) == b.size:
            want.append(tuple(path))
            return
        for u in sorted(plain_moves(3, 4, "torus", (1, 2), path[-1])):
            if u not in seen:
                go(path + [u], seen | {u})
    go([0], {0})
    got = [tuple(int(s) for s in p) for p in AllToursLister(3, 4, 0, board=b).first(10**6)]
    assert got == want and want


@pytest.mark.parametrize("rows,cols,topology,leaper,closed,answer", [
    (8, 8, "plane", (1, 2), True, "yes"),
    (4, 4, "plane", (1, 2), False, "no"),
    (5, 5, "torus", (1, 2), True, "yes"),
    (8, 8, "plane", (1, 3), False, "no"),          # a + b even
    (8, 8, "torus", (2, 4), False, "no"),
    (5, 6, "torus", (1, 3), False, "yes"),         # a wrap across 5 rows changes colour
    (9, 9, "plane", (2, 6), False, "no"),          # even; also gcd 2
    (3, 3, "plane", (1, 4), False, "no"),          # no move from a corner
    (6, 6, "plane", (2, 3), False, "no"),          # search exhausted
    (6, 6, "torus", (2, 3), True, "yes"),          # search finds one
    (5, 6, "cylinder", (1, 2), True, "yes"),
])
def test_what_is_known_and_what_a_search_finds(rows, cols, topology, leaper, closed, answer):
    b = Board(rows, cols, topology, leaper)
    ans = existence_answer(b, closed, budget=5_000_000)
    assert ans.answer == answer, ans.why
    assert ans.why and "\n" not in ans.why
    if ans.tour is not None:
        assert plain_is_tour(rows, cols, topology, leaper, ans.tour, closed)


def test_the_torus_theorem_agrees_with_the_search_on_small_tori():
    for m in range(2, 6):
        for n in range(m, 6):
            b = Board(m, n, "torus")
            assert existence_answer(b, True).answer == "yes"       # Watkins
            lister = AllToursLister(m, n, 0, board=b)
            closed = any(b.is_knight_move(int(p[-1]), int(p[0]))
                         for p in lister.first(200_000))
            assert closed, (m, n)


def test_a_search_that_runs_out_of_nodes_says_so():
    ans = existence_answer(Board(10, 10, "plane", (2, 3)), False, budget=50)
    assert ans.answer == "not known" and "gave up after 50 nodes" in ans.why


@pytest.mark.parametrize("value,match", [((1, 1), "differ"), ((0, 2), "at least 1"),
                                         ("x", "two whole numbers"), ((1, 2, 3), "two whole"),
                                         ((-1, 2), "at least 1"), ((1, 200), "at most 100")])
def test_bad_leapers_get_one_line(value, match):
    with pytest.raises(BoardError, match=match):
        parse_leaper(value)


def test_names_and_order_of_a_leaper():
    assert parse_leaper("zebra") == (2, 3) == parse_leaper("3,2") == parse_leaper([3, 2])
    with pytest.raises(BoardError, match="topology"):
        Board(8, 8, "sphere")


def test_files_carry_the_board_and_old_files_read_as_the_knights_plane(tmp_path):
    b = Board(6, 6, "torus", (2, 3))
    sol = Enumerator(6, 6, start=0, board=b).first(1)[0]
    tour = Tour(b, sol.path)
    for ext in (".json", ".csv"):
        p = tour.save(tmp_path / f"t{ext}")
        back = Tour.load(p)
        assert back.board == b and np.array_equal(back.path, tour.path)
    d = json.loads((tmp_path / "t.json").read_text())
    assert d["topology"] == "torus" and d["leaper"] == [2, 3]
    plain = Tour(Board(5, 5), Enumerator(5, 5, start="a1").first(1)[0].path)
    d = json.loads(plain.to_json())
    assert "topology" not in d and "leaper" not in d              # old files unchanged
    assert Tour.from_json_dict(d).board == Board(5, 5)
    d["topology"] = "klein"
    with pytest.raises(TourError, match="topology"):
        Tour.from_json_dict(d)
    d["topology"], d["leaper"] = "torus", [2, 2]
    with pytest.raises(TourError, match="differ"):
        Tour.from_json_dict(d)


def test_dashes_stay_the_knights_on_the_plane():
    with pytest.raises(EnumerationError, match="plane"):
        Enumerator(8, 8, start="a8", dashes={"h1": "full"}, board=Board(8, 8, "torus"))
    assert math.isfinite(Board(8, 8, "torus").degree.mean())


def test_the_count_study_on_a_cylinder_and_a_torus_agrees_with_the_enumeration():
    from knightgui_core.studies.count_study import CountOptions, run_count, task_key
    for b in (Board(5, 6, "cylinder"), Board(4, 5, "torus", (2, 3)), Board(5, 5, "cylinder")):
        res = run_count(b.rows, b.cols, "all", runner=None, scheduler="threads",
                        options=CountOptions(board=b))
        for s in range(b.size):
            en = Enumerator(b.rows, b.cols, start=s, board=b)
            en.count()
            assert res.per_start[b.name(s)]["tours"] == en.solutions, (b, s)
    # the keys of other boards differ from the knight's plane's; the plane's are unchanged
    plane = task_key(5, 6, "a1", [()], 100)
    assert plane == "count/v2/5x6/a1/m100/-"
    assert task_key(5, 6, "a1", [()], 100, board=Board(5, 6, "cylinder")) != plane


def test_a_square_cylinder_has_four_symmetries_not_eight():
    from knightgui_core.board.canonical import board_maps, canonical_id
    from knightgui_core.tietree.counting.subtrees import start_classes
    assert len(board_maps(Board(6, 6, "cylinder"))) == 4
    assert len(board_maps(Board(6, 6, "torus"))) == 8
    cyl = Board(5, 5, "cylinder")
    classes = start_classes(5, 5, range(25), cyl)
    # a1 and e5 are images under the half turn; b1 and a2 only under a diagonal, which is no
    # symmetry of a cylinder
    rep = {s: r for r, members in classes.items() for s in members}
    assert rep[cyl.parse("b1")] != rep[cyl.parse("a2")]
    assert rep[cyl.parse("a1")] == rep[cyl.parse("e5")]
    sol = Enumerator(5, 5, start=0, board=cyl).first(1)[0]
    closes = cyl.is_knight_move(int(sol.path[-1]), int(sol.path[0]))     # across the wrap
    assert canonical_id(cyl, sol.path).startswith("C5x5-" if closes else "O5x5-")


@pytest.mark.parametrize("rows,cols,topology,leaper", [(4, 4, "torus", (1, 2)),
                                                       (3, 5, "cylinder", (1, 2)),
                                                       (3, 4, "torus", (2, 3))])
def test_the_all_tours_study_on_other_boards_agrees_with_the_listing(rows, cols, topology,
                                                                     leaper):
    from knightgui_core.studies.all_tours import run_all_tours
    b = Board(rows, cols, topology, leaper)
    res = run_all_tours(rows, cols, runner=None, workers=1, board=b)
    assert not res.cancelled and res.to_dict()["topology"] == topology
    for s in range(b.size):
        lister, tours, closed = AllToursLister(rows, cols, s, board=b), 0, 0
        while not lister.done:
            block = np.asarray(lister.block(4096, 10**9))
            if len(block):
                tours += len(block)
                back = {(int(u), int(v)) for u in range(b.size)
                        for v in plain_moves(rows, cols, topology, leaper, u)}
                closed += sum((int(p[-1]), int(p[0])) in back for p in block)
        assert res.per_start[b.name(s)] == {"tours": tours, "closed": closed}, b.name(s)


@pytest.mark.parametrize("ext", [".json", ".csv"])
def test_solutions_files_of_another_board_name_it(tmp_path, ext):
    from knightgui_core.tietree.enumeration.solution_reader import open_solutions
    from knightgui_core.tietree.enumeration.solution_writer import write_solutions
    b = Board(5, 6, "cylinder", (1, 2))
    en = Enumerator(5, 6, start="a1", board=b)
    out = write_solutions(en, tmp_path / f"s{ext}", limit=20)
    assert out["written"] == 20
    sf = open_solutions(tmp_path / f"s{ext}")
    assert sf.board == b and len(sf) == 20
    for i in range(len(sf)):
        assert plain_is_tour(5, 6, "cylinder", (1, 2), sf.path(i))
    plane = Enumerator(5, 6, start="a1")                    # the knight's plane: as before
    write_solutions(plane, tmp_path / f"p{ext}", limit=3)
    text = (tmp_path / f"p{ext}").read_text()
    assert "topology" not in text and open_solutions(tmp_path / f"p{ext}").board == Board(5, 6)


def test_a_npy_solutions_file_of_another_board_is_refused_in_one_line(tmp_path):
    from knightgui_core.tietree.enumeration.solution_writer import write_solutions
    en = Enumerator(5, 6, start="a1", board=Board(5, 6, "torus"))
    with pytest.raises(EnumerationError, match="use .json or .csv") as e:
        write_solutions(en, tmp_path / "s.npy", limit=5)
    assert "\n" not in str(e.value) and not (tmp_path / "s.npy").exists()


def test_a_solutions_file_naming_an_unknown_board_is_refused(tmp_path):
    from knightgui_core.tietree.enumeration.solution_reader import open_solutions
    from knightgui_core.tietree.enumeration.solution_writer import write_solutions
    write_solutions(Enumerator(5, 6, start="a1", board=Board(5, 6, "torus")),
                    tmp_path / "s.json", limit=2)
    d = json.loads((tmp_path / "s.json").read_text())
    d["topology"] = "klein"
    (tmp_path / "bad.json").write_text(json.dumps(d))
    with pytest.raises(EnumerationError, match="the file's board"):
        open_solutions(tmp_path / "bad.json")
