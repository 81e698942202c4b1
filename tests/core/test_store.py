"""The SQLite result store: rows, checksums, hostile files left untouched, two writers."""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
import threading

import pytest

from knightgui_core.run.store import ResultStore, StoreError, check_store_file, row_checksum


def _fill(path, n=50, study="demo", prefix="k"):
    with ResultStore(path) as st:
        for i in range(n):
            assert st.put(f"{prefix}{i}", study, {"i": i}, {"v": [i, i * i]}, seconds=0.01)


def test_rows_round_trip_wal_and_one_row_per_task(tmp_path):
    p = tmp_path / "s.sqlite"
    _fill(p, 20)
    with ResultStore(p) as st:
        assert st.count() == 20 and st.count("demo") == 20 and st.count("other") == 0
        assert st.get("k3", {"i": 3}) == {"v": [3, 9]}
        assert st.get("missing", {"i": 3}) is None
        assert not st.put("k3", "demo", {"i": 3}, {"v": [3, 9]})   # kept once
        assert st.verify() == 20
    con = sqlite3.connect(p)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    key, study, params, result, checksum = con.execute(
        "SELECT key, study, params, result, checksum FROM tasks WHERE key='k3'").fetchone()
    assert (study, json.loads(params), json.loads(result)) == ("demo", {"i": 3}, {"v": [3, 9]})
    assert checksum == row_checksum(key, study, params, result)
    con.close()


def test_studies_share_a_store_without_touching_each_others_rows(tmp_path):
    p = tmp_path / "s.sqlite"
    _fill(p, 10, study="a", prefix="a/")
    _fill(p, 7, study="b", prefix="b/")
    with ResultStore(p) as st:
        assert st.count("a") == 10 and st.count("b") == 7
        assert [r["key"] for r in st.rows("b")] == sorted(f"b/{i}" for i in range(7))
        with pytest.raises(StoreError, match="other parameters"):
            st.get_many({"a/1": ("a", {"i": 2})})
        with pytest.raises(StoreError, match="another study"):
            st.get_many({"a/1": ("b", {"i": 1})})


def test_edited_row_fails_its_checksum(tmp_path):
    p = tmp_path / "s.sqlite"
    _fill(p, 5)
    con = sqlite3.connect(p)
    con.execute("UPDATE tasks SET result = '{\"v\":[2,5]}' WHERE key = 'k2'")
    con.commit()
    con.close()
    with ResultStore(p) as st:
        assert st.get("k1", {"i": 1}) == {"v": [1, 1]}
        with pytest.raises(StoreError) as e:
            st.get("k2", {"i": 2})
    msg = str(e.value)
    assert str(p) in msg and "checksum" in msg and "\n" not in msg


def _hostile(tmp_path, kind):
    if kind == "garbage":
        p = tmp_path / "g.sqlite"
        p.write_bytes(bytes(range(256)) * 40)
    elif kind == "json":
        p = tmp_path / "ck.json"
        p.write_text('{"format": "knightgui-phadke-checkpoint", "done": []}')
    elif kind == "truncated":
        p = tmp_path / "t.sqlite"
        _fill(tmp_path / "full.sqlite", 300)
        con = sqlite3.connect(tmp_path / "full.sqlite")
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.close()
        raw = (tmp_path / "full.sqlite").read_bytes()
        p.write_bytes(raw[:len(raw) // 2])
    elif kind == "short":
        p = tmp_path / "short.sqlite"
        p.write_bytes(b"SQLite format 3\x00\x10\x00")
    elif kind == "other-db":
        p = tmp_path / "other.sqlite"
        con = sqlite3.connect(p)
        con.execute("CREATE TABLE tasks (x)")
        con.commit()
        con.close()
    elif kind == "directory":
        p = tmp_path / "dir.sqlite"
        p.mkdir()
    elif kind == "fifo":
        p = tmp_path / "fifo.sqlite"
        os.mkfifo(p)
    else:
        raise AssertionError(kind)
    return p


KINDS = {"garbage": "not an SQLite database", "json": "JSON file", "truncated": "truncated",
         "short": "truncated", "other-db": "another program", "directory": "directory",
         "fifo": "FIFO"}


def _snapshot(p):
    if p.is_dir() or not p.is_file():
        st = os.stat(p)
        return (st.st_mode, st.st_mtime_ns)
    return (p.read_bytes(), os.stat(p).st_mtime_ns)


@pytest.mark.timeout(20)
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_hostile_files_are_refused_in_one_line_and_left_untouched(tmp_path, kind):
    p = _hostile(tmp_path, kind)
    before = _snapshot(p)
    with pytest.raises(StoreError) as e:
        ResultStore(p)
    msg = str(e.value)
    assert str(p) in msg and KINDS[kind] in msg and "\n" not in msg
    assert _snapshot(p) == before
    assert sorted(x.name for x in tmp_path.iterdir() if x.name.startswith(p.name)) == [p.name]


@pytest.mark.timeout(20)
def test_a_store_being_written_is_not_judged_by_its_size(tmp_path):
    """While another connection checkpoints, the file is briefly shorter than its header says
    (page 1 is copied first): with SQLite's log beside it, the size check steps aside and
    SQLite itself judges the file — a truly damaged one is still one clear line."""
    p = _hostile(tmp_path, "truncated")
    with pytest.raises(StoreError, match="truncated"):          # alone, it is refused
        check_store_file(p)
    wal = tmp_path / f"{p.name}-wal"
    wal.write_bytes(b"")
    assert check_store_file(p) is True
    with pytest.raises(StoreError) as e:
        ResultStore(p, readonly=True)
    assert str(p) in str(e.value) and "\n" not in str(e.value)


@pytest.mark.timeout(20)
def test_a_file_that_settles_is_not_called_truncated(tmp_path):
    """The other half of that race: the writer finishes between our reading the size and
    looking for its log. A file that looks truncated is watched for a moment; one that
    becomes whole is a store, one that stays short is refused."""
    full = _hostile(tmp_path, "truncated").parent / "full.sqlite"
    p, whole = tmp_path / "settles.sqlite", full.read_bytes()
    p.write_bytes(whole[:len(whole) // 2])
    (tmp_path / "whole.tmp").write_bytes(whole)
    swap = threading.Timer(0.1, os.replace, (tmp_path / "whole.tmp", p))
    swap.start()
    try:
        assert check_store_file(p) is True
    finally:
        swap.join()


CHECKPOINTER = textwrap.dedent("""
    import sys
    from knightgui_core.run.store import ResultStore
    with ResultStore(sys.argv[1]) as st:
        st._db.execute("PRAGMA wal_autocheckpoint=1")     # a checkpoint after every commit
        for i in range(1500):
            st.put(f"k/{i}", "demo", {"i": i}, {"v": "x" * 500})
""")


@pytest.mark.timeout(120)
def test_a_store_is_never_refused_while_another_process_checkpoints_it(tmp_path):
    """The race that failed a CI run: a second opener looked at the file while the first
    checkpointed and called it truncated (before the fix, about 1 look in 120 was refused)."""
    p = tmp_path / "s.sqlite"
    ResultStore(p).close()
    writer = subprocess.Popen([sys.executable, "-c", CHECKPOINTER, str(p)],
                              stderr=subprocess.PIPE, text=True)
    looks, refused = 0, []
    while writer.poll() is None:
        looks += 1
        try:
            check_store_file(p)
        except StoreError as e:
            refused.append(str(e))
    assert writer.returncode == 0, writer.stderr.read() if writer.stderr else ""
    assert looks > 100 and refused == []
    with ResultStore(p, readonly=True) as st:
        assert st.count() == 1500 and st.verify() == 1500


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="no /dev/null")
def test_device_node_is_refused():
    with pytest.raises(StoreError, match="character device"):
        ResultStore("/dev/null")


def test_missing_folder_and_empty_file(tmp_path):
    with pytest.raises(StoreError, match="does not exist"):
        ResultStore(tmp_path / "no" / "s.sqlite")
    e = tmp_path / "empty.sqlite"
    e.write_bytes(b"")
    with ResultStore(e) as st:            # an empty file becomes a store
        st.put("x", "demo", {}, 1)
    with ResultStore(e, readonly=True) as st:
        assert st.get("x", {}) == 1


WRITER = textwrap.dedent("""
    import sys
    from knightgui_core.run.store import ResultStore
    path, who = sys.argv[1], sys.argv[2]
    with ResultStore(path) as st:
        for i in range(300):
            st.put(f"shared/{i}", "demo", {"i": i}, {"v": i})     # both write these
            st.put(f"{who}/{i}", "demo", {"i": i}, {"v": i})      # and their own
""")


def test_two_processes_writing_one_store_lose_nothing(tmp_path):
    p = tmp_path / "s.sqlite"
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(p), who],
                              stderr=subprocess.PIPE, text=True) for who in ("a", "b")]
    for pr in procs:
        _, err = pr.communicate(timeout=120)
        assert pr.returncode == 0, err
    with ResultStore(p) as st:
        assert st.count() == 900 and st.verify() == 900
        keys = {r["key"] for r in st.rows()}
    assert keys == ({f"shared/{i}" for i in range(300)} | {f"a/{i}" for i in range(300)}
                    | {f"b/{i}" for i in range(300)})



OPENER = textwrap.dedent("""
    import sys, pathlib, time
    from knightgui_core.run.store import ResultStore
    folder, who, other = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    give_up = time.monotonic() + 60        # the other process may have died: never wait on
    for i in range(30):          # both processes race to create each of these stores
        (folder / f"{who}{i}").touch()
        while not (folder / f"{other}{i}").exists():   # start each one together
            if time.monotonic() > give_up:
                sys.exit(f"{other} never reached store {i}")
            time.sleep(0.0005)
        with ResultStore(folder / f"s{i}.sqlite") as st:
            st.put(who, "demo", {}, i)
""")


def test_two_processes_creating_the_same_stores_both_succeed(tmp_path):
    # creating a store and switching it to WAL can meet SQLITE_BUSY without the busy handler
    # being called (seen in CI: "database is locked" reported as a damaged store)
    procs = [subprocess.Popen([sys.executable, "-c", OPENER, str(tmp_path), who, other],
                              stderr=subprocess.PIPE, text=True)
             for who, other in (("a", "b"), ("b", "a"))]
    try:
        for pr in procs:
            _, err = pr.communicate(timeout=120)
            assert pr.returncode == 0, err
    finally:
        for pr in procs:            # a failed run leaves no process behind
            if pr.poll() is None:
                pr.kill()
                pr.wait()
    for i in range(30):
        with ResultStore(tmp_path / f"s{i}.sqlite", readonly=True) as st:
            assert st.get("a", {}) == i and st.get("b", {}) == i
