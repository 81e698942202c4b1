"""A store that cannot be written is read, not called damaged (issue 34, part 5).

A read-only file, a file in a folder that cannot be written, a file on a read-only medium:
a finished study is read back from it and printed exactly as from a writable store, nothing
is made beside it (no ``-wal``, no ``-shm``), and a study that would have to add tasks says
"read-only" in one line (exit 2) before computing anything.

Real read-only conditions: as root, chmod stops nothing, so a file or folder is made
immutable (``chattr +i``; a read-only bind mount where the file system has no such flag)
and the medium is a tmpfs remounted read-only; otherwise chmod (and no medium: mounting
needs root). Each case first checks that a write really fails."""
from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path

import pytest

from knightgui.cli import run
from knightgui_core.run.store import ResultStore, StoreError

pytestmark = pytest.mark.timeout(180)
ROOT = os.geteuid() == 0
STUDIES = (["study", "move-orders", "--size", "5"],
           ["study", "phadke", "--family", "strict"])


def _sh(*cmd: str) -> bool:
    return subprocess.run(cmd, capture_output=True).returncode == 0


@contextlib.contextmanager
def _read_only(target: Path):
    """``target`` (a file or a folder) made read-only for this process, for real."""
    if not ROOT:
        mode = target.stat().st_mode
        target.chmod(0o555 if target.is_dir() else 0o444)
        try:
            yield
        finally:
            target.chmod(mode)
    elif _sh("chattr", "+i", str(target)):
        try:
            yield
        finally:
            _sh("chattr", "-i", str(target))
    else:                                   # no immutable flag here: a read-only bind mount
        if not (_sh("mount", "--bind", str(target), str(target))
                and _sh("mount", "-o", "remount,bind,ro", str(target))):
            _sh("umount", str(target))
            pytest.skip("cannot make a file read-only for root here")
        try:
            yield
        finally:
            _sh("umount", str(target)) or _sh("umount", "-l", str(target))


@contextlib.contextmanager
def _medium(files: list[Path]):
    """A tmpfs holding copies of ``files`` (with their -wal and -shm), remounted read-only;
    yields its folder."""
    if not ROOT:
        pytest.skip("a read-only medium needs root (mount)")
    d = Path(tempfile.mkdtemp(prefix="kg-ro-"))
    if not _sh("mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(d)):
        d.rmdir()
        pytest.skip("cannot mount a tmpfs here")
    try:
        for f in files:
            for side in (f, Path(f"{f}-wal"), Path(f"{f}-shm")):
                if side.exists():
                    shutil.copy(side, d / side.name)
        assert _sh("mount", "-o", "remount,ro", str(d))
        yield d
    finally:
        _sh("umount", str(d)) or _sh("umount", "-l", str(d))
        d.rmdir()


def _cannot_write(kind: str, store: Path) -> None:
    """The read-only condition holds: the file cannot be written, or nothing can be made
    beside it."""
    with pytest.raises(OSError):
        if kind == "file":
            open(store, "ab").close()
        else:
            open(store.parent / f"{store.name}-probe", "xb").close()


def _state(folder: Path) -> dict:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


def _masked(text: str) -> str:
    """The output without what a run's timing changes."""
    text = re.sub(r"(?m)^\s*seconds .*$", "seconds #", text)
    text = re.sub(r" in \d+(\.\d+)? s\b", " in # s", text)
    return re.sub(r'"seconds": ?[0-9.e-]+', '"seconds":#', text)


def _outputs(capsys, store: Path) -> list[tuple[int, str]]:
    out = []
    for argv in STUDIES:
        for extra in ([], ["--json"]):
            code = run([*argv, *extra, "--store", str(store)])
            got = capsys.readouterr()
            out.append((code, _masked(got.out)))
            assert code == 0, got.err[-600:]
    return out


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A store holding both studies, made by the command line and closed."""
    p = tmp_path_factory.mktemp("finished") / "s.sqlite"
    for argv in STUDIES:
        assert run([*argv, "--store", str(p)]) == 0
    return p


@pytest.fixture
def baseline(finished, tmp_path, capsys):
    """What the studies print when read from a writable copy of the store."""
    p = tmp_path / "writable" / "s.sqlite"
    p.parent.mkdir()
    shutil.copy(finished, p)
    out = _outputs(capsys, p)
    assert all('"from_store":' not in o or '"computed":0' in o for _, o in out)
    return out


@contextlib.contextmanager
def _placed(kind: str, finished: Path, tmp_path: Path):
    """The finished store made read-only the ``kind`` way; yields its path."""
    if kind == "medium":
        with _medium([finished]) as d:
            yield d / finished.name
        return
    d = tmp_path / kind
    d.mkdir()
    p = d / finished.name
    shutil.copy(finished, p)
    with _read_only(p if kind == "file" else d):
        yield p


KINDS = {"file": "a read-only file", "folder": "cannot be written",
         "medium": "on a read-only file system"}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_finished_study_reads_back_as_from_a_writable_store(finished, baseline, tmp_path,
                                                              capsys, kind):
    with _placed(kind, finished, tmp_path) as p:
        _cannot_write(kind, p)
        before = _state(p.parent)
        with ResultStore(p) as st:
            assert st.read_only is not None and KINDS[kind] in st.read_only
            assert st.verify() == st.count() > 0
        assert _outputs(capsys, p) == baseline
        assert _state(p.parent) == before          # nothing changed, nothing made beside it


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_study_that_must_write_says_read_only_in_one_line(finished, tmp_path, capsys, kind):
    with _placed(kind, finished, tmp_path) as p:
        before = _state(p.parent)
        code = run(["study", "move-orders", "--size", "6", "--store", str(p)])
        err = capsys.readouterr().err
        lines = err.strip().splitlines()
        assert code == 2 and len(lines) == 1, err[-600:]
        assert lines[0].startswith(f"--store: {p}: read-only (") and KINDS[kind] in lines[0]
        assert "8 of 8 tasks are not in it" in lines[0] and "damaged" not in lines[0]
        with ResultStore(p) as st:
            with pytest.raises(StoreError, match=r"read-only \(.*\): task 'x' cannot be "
                                                 "written"):
                st.put("x", "demo", {}, 1)
            why = st.read_only
        if kind != "file":                         # a new store where nothing can be made
            new = p.parent / "new.sqlite"
            code = run(["study", "move-orders", "--size", "5", "--store", str(new)])
            err = capsys.readouterr().err.strip()
            assert code == 2 and err == (f"--store: {new}: cannot create a store there: "
                                         f"read-only ({why})")
        assert _state(p.parent) == before


def test_opening_read_only_on_purpose_makes_nothing_beside_the_file(finished, tmp_path):
    """``readonly=True`` on a writable store: the same rows, and no -wal or -shm left
    behind (SQLite's mode=ro makes both, and a -shm with a read-only file's mode then
    refuses its owner's next write)."""
    p = tmp_path / "s.sqlite"
    shutil.copy(finished, p)
    before = _state(tmp_path)
    with ResultStore(p, readonly=True) as st:
        assert st.read_only == "opened read-only" and st.verify() == st.count() > 0
    assert _state(tmp_path) == before
    with ResultStore(p) as st:                     # and it is still writable afterwards
        assert st.read_only is None and st.put("x", "demo", {}, 1)


def _killed_writer(p: Path) -> ResultStore:
    """A store whose last rows are only in its -wal, as a killed writer leaves it (the
    writer is left open: closing it would move the rows into the file)."""
    st = ResultStore(p)
    for i in range(4):
        st.put(f"k{i}", "demo", {"i": i}, {"v": i})
    st._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    st._db.execute("PRAGMA wal_autocheckpoint=0")
    for i in range(4, 9):
        st.put(f"k{i}", "demo", {"i": i}, {"v": i})
    assert Path(f"{p}-wal").stat().st_size > 0
    return st


def test_a_log_on_a_read_only_medium_is_read_through_its_shm(tmp_path):
    p = tmp_path / "w.sqlite"
    writer, n = _killed_writer(p), 9
    try:
        with _read_only(p):                        # a read-only file, its log beside it
            names = sorted(x.name for x in tmp_path.iterdir())
            with ResultStore(p) as st:
                assert st.read_only == "a read-only file" and st.count() == st.verify() == n
            assert sorted(x.name for x in tmp_path.iterdir()) == names
        with _medium([p]) as d:
            before = _state(d)
            with ResultStore(d / p.name) as st:
                assert st.count() == st.verify() == n
                assert st.get("k8", {"i": 8}) == {"v": 8}
                assert st.read_only == "on a read-only file system"
            assert _state(d) == before
        os.remove(f"{p}-shm")                      # the log alone: SQLite cannot read it
        with _medium([p]) as d:
            with ResultStore(d / p.name) as st:
                assert st.count() == 4
                assert st.read_only == ("on a read-only file system; the tasks in "
                                        "w.sqlite-wal cannot be read without w.sqlite-shm")
    finally:
        writer.close()


def test_an_empty_read_only_file_is_no_store_and_cannot_become_one(tmp_path, capsys):
    d = tmp_path / "d"
    d.mkdir()
    p = d / "empty.sqlite"
    p.write_bytes(b"")
    db = d / "nothing.sqlite"                      # an SQLite database without tables
    sqlite3.connect(db).execute("PRAGMA user_version=1").connection.close()
    with _read_only(d):
        for f, words in ((p, "cannot create a store there: read-only"),
                         (db, "not a store yet (an empty SQLite database)")):
            code = run(["study", "move-orders", "--size", "5", "--store", str(f)])
            err = capsys.readouterr().err.strip()
            assert code == 2 and str(f) in err and words in err, err
            assert len(err.splitlines()) == 1


def test_json_reports_the_same_tasks_from_a_read_only_store(finished, tmp_path, capsys):
    with _placed("file", finished, tmp_path) as p:
        assert run(["study", "move-orders", "--size", "5", "--json", "--store", str(p)]) == 0
        d = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        assert d["tasks"] == {"total": 8, "from_store": 8, "computed": 0}
