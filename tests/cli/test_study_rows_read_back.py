"""A study reads back every row it wrote: the store checks a result with one shape, its
study's, when it writes it and when it reads it (knightgui_core.run.store_shapes)."""
from __future__ import annotations

import json
import sqlite3

import pytest

from knightgui.cli import run
from knightgui_core.run.store import ResultStore, StoreError
from knightgui_core.run.store_shapes import SHAPES
from knightgui_core.studies import count_study

pytestmark = pytest.mark.timeout(120)


def _last_json(capsys) -> dict:
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def test_a_count_split_by_task_moves_reads_its_own_rows_back(tmp_path, capsys):
    """8×8 from d4, no fold, a budget just past the interleaved count's: a stopped task
    hands back far more than 7 subtrees a square (the subtrees the interleave cut and did not
    start), which the re-run must read, not refuse."""
    st = tmp_path / "s.sqlite"
    argv = ["study", "count", "--size", "8", "--starts", "d4", "--no-fold", "--task-moves",
            "65536", "--table-mb", "16", "--json", "--store", str(st)]
    assert run(argv) == 0
    first = _last_json(capsys)
    assert first["totals"]["tours"] == 510_410
    total = first["tasks"]["total"]
    con = sqlite3.connect(st)
    biggest = max(len(g) for (r,) in con.execute("SELECT result FROM tasks")
                  for g in json.loads(r)["next"])
    con.close()
    assert biggest > 7 * 64                     # the case a per-square bound refused
    code = run(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    again = json.loads(out.strip().splitlines()[-1])
    assert again["tasks"] == {"total": total, "from_store": total, "computed": 0}
    assert again["totals"] == first["totals"] and again["per_start"] == first["per_start"]


def test_the_store_writes_no_row_it_would_refuse_to_read(tmp_path):
    """put() checks a result with the shape its reader checks: a result of the wrong shape is
    refused in one line and nothing is written."""
    assert SHAPES[count_study.STUDY] is count_study.result_shape_of
    task = count_study.make_task(5, 5, "a1", [[]], 1000)
    good = count_study.count_task(5, 5, "a1", [[]], 1000)
    bad = dict(good, next=[[[9]]])
    with ResultStore(tmp_path / "s.sqlite") as st:
        with pytest.raises(StoreError) as e:
            st.put(task.key, task.study, task.params, bad)
        assert "\n" not in str(e.value) and "wrong shape" in str(e.value)
        assert repr(task.key) in str(e.value) and "1..8" in str(e.value)
        assert st.count() == 0
        assert st.put(task.key, task.study, task.params, good)
        assert st.get_many({task.key: (task.study, task.params)}) == {
            task.key: json.loads(json.dumps(good))}


@pytest.mark.parametrize("target", ["dangling", "a store", "a side file"])
def test_a_store_path_that_is_a_link_exits_2_and_writes_nothing(tmp_path, capsys, target):
    """--store through a symbolic link: refused in one line, exit 2; nothing is made or
    changed where the link points."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    aim = elsewhere / "victim.sqlite"
    link = tmp_path / "s.sqlite"
    if target == "a store":
        with ResultStore(aim) as st:
            st.put("demo/1", "demo", {"n": 1}, {"answer": 42})
    if target == "a side file":             # the store is a file, its log a dangling link
        (tmp_path / "s.sqlite-wal").symlink_to(aim)
    else:
        link.symlink_to(aim)
    before = sorted((p.name, p.stat().st_mtime_ns, p.read_bytes())
                    for p in elsewhere.iterdir())
    code = run(["study", "move-orders", "--size", "5", "--json", "--store", str(link)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1, err
    assert "symbolic link" in err[0] and str(link) in err[0], err
    assert sorted((p.name, p.stat().st_mtime_ns, p.read_bytes())
                  for p in elsewhere.iterdir()) == before
    assert target != "a side file" or not link.exists()
    with pytest.raises(StoreError, match="symbolic link"):
        ResultStore(link, readonly=True)


def test_a_new_store_is_made_without_following_a_link_planted_after_the_look(tmp_path):
    """The file of a new store is made with O_EXCL | O_NOFOLLOW: a link put at its path
    after the store looked (and found nothing) is refused, its target left unmade."""
    from knightgui_core.run.store_file import check_store_file, create_store_file
    p, aim = tmp_path / "s.sqlite", tmp_path / "victim"
    assert check_store_file(p) is False
    p.symlink_to(aim)
    with pytest.raises(StoreError, match="symbolic link"):
        create_store_file(p)
    assert not aim.exists()


def test_a_census_row_holds_whole_tours_of_its_board(tmp_path):
    """The semi-magic census's shape, on a real 8×8 tour: written and read back as it is;
    a tour with a square twice, or off the board, is refused before it is written."""
    from knightgui_core.studies.magic import census as magic_census
    half = [2, 8, 25, 19, 4, 14, 31, 21, 36, 46, 63, 53, 47, 30, 15, 5, 11, 1, 18, 35, 20, 37,
            54, 60, 50, 56, 41, 24, 34, 40, 57, 51]       # tests/core/test_semimagic_search.py
    tour = half + [63 - v for v in half]
    task = magic_census.census_tasks(8, "half-turn")[0]
    with ResultStore(tmp_path / "s.sqlite") as st:
        for bad in ([tour[:-1] + [tour[0]]], [tour[:-1] + [64]], [tour[:-1]]):
            with pytest.raises(StoreError, match=r"result.tours\[0\] is not a tour of the 8×8"):
                st.put(task.key, task.study, task.params, {"tours": bad, "nodes": 9})
        assert st.count() == 0
        st.put(task.key, task.study, task.params, {"tours": [tour, tour[::-1]], "nodes": 9})
        assert st.get_many({task.key: (task.study, task.params)})[task.key]["tours"] == [
            tour, tour[::-1]]
