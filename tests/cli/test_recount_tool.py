"""docs/tools/recount.py, the check on a long count's store: finished tasks recounted, directly,
without the table and in every image under the start's symmetries, must equal the stored
figures; a tampered figure is caught."""
import json
import runpy
import sqlite3
from pathlib import Path

import pytest

from knightgui.cli import run

RECOUNT = runpy.run_path(str(Path(__file__).parents[2] / "docs" / "tools" / "recount.py"))["main"]


def _store(path, *extra):
    assert run(["study", "count", "--size", "7", "--starts", "d4,c3", "--store", str(path),
                "--task-moves", "3000", "--json", *extra]) == 0
    return path


@pytest.fixture
def store(tmp_path, capsys):
    path = _store(tmp_path / "s.sqlite")
    capsys.readouterr()
    return path


def test_stored_tasks_recount_the_same_in_every_image(store, capsys):
    args = ["--store", str(store), "--size", "7", "--seconds", "0,100", "--tasks", "3"]
    assert RECOUNT(args + ["--start", "d4", "--plain"]) == 0
    out = capsys.readouterr().out
    assert "7 symmetries keep the start" in out and out.count("ok ") == 3
    assert "image 7" in out and "plain" in out and "all equal" in out
    assert RECOUNT(args + ["--start", "c3"]) == 0             # a diagonal square: one mirror
    out = capsys.readouterr().out
    assert "1 symmetries keep the start" in out and "image 1" in out and "BAD" not in out


def test_a_task_batching_several_subtrees_is_their_sum(tmp_path, capsys):
    store = _store(tmp_path / "plain.sqlite", "--no-table")   # without a table the split
    capsys.readouterr()                                       # is the same in every run
    con = sqlite3.connect(store)              # only batched tasks in the --seconds range
    con.execute("UPDATE tasks SET seconds = CASE WHEN key LIKE '%;%' THEN 50 ELSE 0 END")
    con.commit()
    n = con.execute("SELECT count(*) FROM tasks WHERE key LIKE 'count/v2/7x7/d4/%;%'"
                    ).fetchone()[0]
    con.close()
    assert n >= 1
    assert RECOUNT(["--store", str(store), "--size", "7", "--start", "d4", "--seconds",
                    "10,100", "--tasks", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("ok ") == min(n, 2) and ";" in out and "all equal" in out


def test_a_tampered_figure_is_caught(store, capsys):
    con = sqlite3.connect(store)
    rows = con.execute("SELECT key, result FROM tasks WHERE key LIKE 'count/v2/7x7/d4/%'")
    for key, res in rows.fetchall():              # every task one dead end off
        r = json.loads(res)
        r["dead_ends"] += 1
        con.execute("UPDATE tasks SET result = ? WHERE key = ?", (json.dumps(r), key))
    con.commit()
    con.close()
    assert RECOUNT(["--store", str(store), "--size", "7", "--start", "d4", "--seconds",
                    "0,100", "--tasks", "2"]) == 1
    out = capsys.readouterr().out
    assert out.count("BAD") == 2 and "2 of 2 differ" in out


def test_bad_input_is_one_line_and_exit_2(tmp_path, store, capsys):
    assert RECOUNT(["--store", str(tmp_path / "none"), "--size", "7", "--start", "d4"]) == 2
    assert RECOUNT(["--store", str(store), "--size", "7", "--start", "d4",
                    "--seconds", "soon"]) == 2
    assert RECOUNT(["--store", str(store), "--size", "7", "--start", "a1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(e.startswith("recount: ") for e in err)
