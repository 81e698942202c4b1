"""A result store: one SQLite file of finished study tasks (embedded, no server).

Every finished task of every study (phadke, move-orders, tie-breaks, count, ...) is one row
of the ``tasks`` table::

    key       TEXT PRIMARY KEY   -- the task's stable key, e.g. "move-orders/8x8/first/0-1260"
    study     TEXT               -- "phadke", "move-orders", ...
    params    TEXT               -- the task's parameters, canonical JSON
    result    TEXT               -- what the task returned, canonical JSON
    checksum  TEXT               -- sha256 of key, study, params and result (see row_checksum)
    seconds   REAL               -- how long the task ran (on its worker)
    finished  TEXT               -- UTC time the row was written
    host      TEXT               -- the machine that wrote the row

and the ``meta`` table names the format (``format = knightgui-store``, ``version = 1``).

The file runs in WAL mode and every task is committed in its own transaction, so a run
killed at any moment (Ctrl-C, ``kill -9``, a power cut after the last fsync) leaves every
task finished before it; several processes may write one store at the same time (a busy
writer is waited for, a task both of them computed is kept once). Many studies, families and
board sizes share one file: rows are addressed only by their keys.

Opening a file checks it first (:mod:`.store_file`) and never changes a file that is not a
knightgui store: anything else (a directory, a symbolic link, garbage, a JSON file, a damaged
database, another program's SQLite database) raises :class:`StoreError` naming the file and
what is wrong.

A row is checked when it is read, and any damage raises :class:`StoreError` naming the file
and the row: columns of the wrong type, a checksum that does not match, JSON that does not
parse, another study's or other parameters' row, a result not of its study's shape
(:mod:`.store_shapes`: the check :meth:`ResultStore.put` also applies before it writes, so
that the store never writes a row it would refuse to read).

A store that cannot be written (a read-only file, folder or medium) is opened read-only
(:func:`~.store_file.read_only_uri`): its rows are read as from any store, and a write
raises :class:`StoreError` saying "read-only" (:attr:`ResultStore.read_only` says why).

>>> with ResultStore("results.sqlite") as st:                    # doctest: +SKIP
...     st.put("demo/1", "demo", {"n": 1}, {"answer": 42}, seconds=0.1)
...     st.get("demo/1", {"n": 1})
{'answer': 42}
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import socket
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from .store_file import StoreError, check_store_file, create_store_file, read_only_reason, read_only_uri
from .store_shapes import RowShapeError, check_row_shape

FORMAT = "knightgui-store"
VERSION = 1
#: how long a writer waits for another process holding the store (seconds)
BUSY_TIMEOUT = 60.0

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS tasks (key TEXT PRIMARY KEY, study TEXT NOT NULL, "
    "params TEXT NOT NULL, result TEXT NOT NULL, checksum TEXT NOT NULL, seconds REAL, "
    "finished TEXT, host TEXT)",
    "CREATE INDEX IF NOT EXISTS tasks_study ON tasks (study)",
)


def canonical_json(obj: Any) -> str:
    """The one JSON text of ``obj`` the store writes and checksums: sorted keys, no spaces.
    numpy scalars and arrays are written as numbers and lists."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), default=_jsonable,
                      allow_nan=False)


def _jsonable(o: Any) -> Any:
    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return float(o)
    if isinstance(o, np.bool_):
        return bool(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    if isinstance(o, (tuple, set, frozenset)):
        return list(o)
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")


def row_checksum(key: str, study: str, params_json: str, result_json: str) -> str:
    """sha256 (hex) of the row's four texts joined by NUL bytes: what ``checksum`` holds.
    In the sqlite3 shell, rows can be listed but the checksum is computed in Python."""
    h = hashlib.sha256()
    for part in (key, study, params_json, result_json):
        h.update(part.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()


#: SQLite's primary result codes of an error, and the words of its message where sqlite3 gives
#: no code: the file cannot be written (SQLITE_READONLY); another connection holds it
#: (SQLITE_BUSY, SQLITE_LOCKED)
_READ_ONLY = ((8,), ("readonly",))
_BUSY = ((5, 6), ("locked", "busy"))


def _sqlite_says(e: sqlite3.Error, what: tuple[tuple[int, ...], tuple[str, ...]]) -> bool:
    codes, words = what
    code = getattr(e, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in codes
    return any(w in str(e) for w in words)


class ResultStore:
    """An open store (see the module docstring). Use from one thread; open one per process.

    ``ResultStore(path)`` creates the file when there is none (an empty file counts as
    none); ``readonly=True`` never creates or changes it, and neither does a store that
    cannot be written (see :attr:`read_only`).
    """

    #: why the store is open read-only ("a read-only file", "on a read-only file system",
    #: "opened read-only", ...), or None when it can be written
    read_only: str | None

    def __init__(self, path: str | os.PathLike[str], *, readonly: bool = False):
        self.path = Path(path)
        exists = check_store_file(self.path)
        if readonly and not exists:
            raise StoreError(f"{self.path}: no store there")
        why = read_only_reason(self.path, exists)
        if why and not exists:
            raise StoreError(f"{self.path}: cannot create a store there: read-only ({why})")
        self.read_only = why or ("opened read-only" if readonly else None)
        self._host = socket.gethostname()
        deadline = time.monotonic() + BUSY_TIMEOUT
        while True:
            try:
                self._open(exists, self.read_only is not None)
                return
            except sqlite3.Error as e:
                self.close()
                if _sqlite_says(e, _READ_ONLY) and exists and self.read_only is None:
                    # the system refused a write that access() allowed (ACLs, a network
                    # file system's rules): read what is there
                    self.read_only = "the system refuses to write it"
                    continue
                if _sqlite_says(e, _BUSY) and time.monotonic() < deadline:
                    # another process is creating the store or switching it to WAL: some of
                    # those steps answer SQLITE_BUSY at once instead of calling the busy
                    # handler, so wait here and open again
                    time.sleep(0.02)
                    exists = check_store_file(self.path)
                    continue
                if _sqlite_says(e, _BUSY):
                    raise StoreError(f"{self.path}: the store stayed locked by another "
                                     f"program for {BUSY_TIMEOUT:.0f} s ({e})") from None
                if isinstance(e, sqlite3.DatabaseError):
                    raise StoreError(f"{self.path}: damaged or not a knightgui store "
                                     f"({e})") from None
                raise StoreError(f"{self.path}: cannot open the store ({e})") from None
            except BaseException:
                self.close()
                raise

    def _open(self, exists: bool, readonly: bool) -> None:
        if exists:
            uri, note = (read_only_uri(self.path) if readonly
                         else (self.path.resolve().as_uri() + "?mode=rw", None))
            if note and self.read_only and note not in self.read_only:
                self.read_only += f"; {note}"
            self._db = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT,
                                       isolation_level=None)
            self._check_existing()
        else:
            create_store_file(self.path)
            self._db = sqlite3.connect(str(self.path), timeout=BUSY_TIMEOUT,
                                       isolation_level=None)
        if not readonly:
            # WAL is a property of the file: only the first opener switches it (the switch
            # needs the file to itself and does not wait for it)
            mode = self._db.execute("PRAGMA journal_mode").fetchone()
            if not mode or str(mode[0]).lower() != "wal":
                self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._init_schema()

    # ------------------------------------------------------------------ opening
    def _check_existing(self) -> None:
        db = self._db
        ok = db.execute("PRAGMA quick_check").fetchone()
        if not ok or ok[0] != "ok":
            raise StoreError(f"{self.path}: damaged SQLite database ({ok[0] if ok else '?'})")
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables and self.read_only:
            raise StoreError(f"{self.path}: read-only ({self.read_only}) and not a store yet "
                             "(an empty SQLite database)")
        if not tables:
            return                                   # an empty database: becomes a store
        meta = (dict(db.execute("SELECT name, value FROM meta").fetchall())
                if {"meta", "tasks"} <= tables else {})
        if meta.get("format") != FORMAT:
            raise StoreError(f"{self.path}: an SQLite database of another program, not a "
                             "knightgui store")
        try:
            version = int(meta.get("version", ""))
        except ValueError:
            version = -1
        if version != VERSION:
            raise StoreError(f"{self.path}: knightgui store version {meta.get('version')!r}, "
                             f"this knightgui reads version {VERSION}")
        cols = [r[1] for r in db.execute("PRAGMA table_info(tasks)")]
        need = ("key", "study", "params", "result", "checksum")
        if any(c not in cols for c in need):
            raise StoreError(f"{self.path}: damaged knightgui store (table tasks lacks columns)")

    def _init_schema(self) -> None:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            for sql in _SCHEMA:
                db.execute(sql)
            db.execute("INSERT OR IGNORE INTO meta VALUES ('format', ?)", (FORMAT,))
            db.execute("INSERT OR IGNORE INTO meta VALUES ('version', ?)", (str(VERSION),))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        # a second process may have made the tables first: check what is there now
        self._check_existing()

    def close(self) -> None:
        """Close the file (further calls raise)."""
        db = getattr(self, "_db", None)
        if db is not None:
            with contextlib.suppress(sqlite3.Error):
                db.close()
            self._db = None  # type: ignore[assignment]

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ rows
    def _damaged(self, key: Any, what: str) -> StoreError:
        """The one report of a damaged row: the file, the row, what is wrong."""
        name = repr(key)
        return StoreError(f"{self.path}: row {name if len(name) <= 120 else name[:119] + '…'} "
                          f"{what}")

    def _checked(self, row: tuple[Any, ...], want: tuple[str, Any] | None = None
                 ) -> tuple[Any, Any]:
        """``(params, result)`` of a row ``(key, study, params, result, checksum)``, checked
        in order: column types, checksum, JSON, the task it answers (``want``: study and
        parameters), and the result's shape for its study (:mod:`.store_shapes`)."""
        key = row[0]
        for name, v in zip(("key", "study", "params", "result", "checksum"), row):
            if not isinstance(v, str):
                raise self._damaged(key, f"holds a {name} of the wrong type "
                                         f"({type(v).__name__})")
        _, study, params, result, checksum = row
        if row_checksum(key, study, params, result) != checksum:
            raise self._damaged(key, "does not match its checksum (edited or damaged)")
        if want is not None and (study != want[0] or params != canonical_json(want[1])):
            raise self._damaged(key, "holds another study's or other parameters' result")
        try:
            value = json.loads(result)
        except (ValueError, RecursionError):
            raise self._damaged(key, "holds a result that is not JSON") from None
        try:
            args = json.loads(params)
        except (ValueError, RecursionError):
            raise self._damaged(key, "holds parameters that are not JSON") from None
        try:
            check_row_shape(study, args, value)
        except RowShapeError as e:
            raise self._damaged(key, f"holds a result of the wrong shape ({e})") from None
        return args, value

    def get_many(self, wanted: Mapping[str, tuple[str, Any]]) -> dict[str, Any]:
        """Results of the finished tasks among ``wanted`` (key -> (study, params)), each row
        checked (see the module docstring): :class:`StoreError` if one does not match."""
        return {row[0]: self._checked(row, wanted[row[0]])[1]
                for row in self._rows_of("key, study, params, result, checksum", list(wanted))}

    def missing(self, keys: Iterable[str]) -> list[str]:
        """The keys among ``keys`` without a row, in their order (the rows there are not
        read: :meth:`get_many` reads and checks them)."""
        keys = list(keys)
        there = {row[0] for row in self._rows_of("key", keys)}
        return [k for k in keys if k not in there]

    def _rows_of(self, columns: str, keys: list[str]) -> Iterator[tuple[Any, ...]]:
        """The ``columns`` of the rows of ``keys`` (asked 500 keys at a time); an SQLite error
        becomes :class:`StoreError`."""
        try:
            for i in range(0, len(keys), 500):
                part = keys[i:i + 500]
                q = f"SELECT {columns} FROM tasks WHERE key IN ({','.join('?' * len(part))})"
                for row in self._db.execute(q, part):  # noqa: UP028 - yield from closes the cursor
                    yield row
        except sqlite3.Error as e:
            raise StoreError(f"{self.path}: cannot read the store ({e})") from None

    def get(self, key: str, params: Any, study: str | None = None) -> Any | None:
        """The result of ``key`` (checked as in :meth:`get_many`), or None if not finished.
        ``study`` defaults to the one the row names."""
        if study is None:
            row = self._db.execute("SELECT study FROM tasks WHERE key = ?", (key,)).fetchone()
            if row is None:
                return None
            study = str(row[0])
        return self.get_many({key: (study, params)}).get(key)

    def put(self, key: str, study: str, params: Any, result: Any,
            seconds: float | None = None) -> bool:
        """Write one finished task in its own transaction. A row already there with the same
        key is kept (the tasks are deterministic); returns True if this call wrote the row.
        :class:`StoreError` saying "read-only" when the store cannot be written, and saying
        "wrong shape" (nothing written) when ``result`` is not of its study's shape."""
        if self.read_only:
            raise StoreError(f"{self.path}: read-only ({self.read_only}): task {key!r} cannot "
                             "be written")
        pj, rj = canonical_json(params), canonical_json(result)
        try:
            # the check its reader makes (_checked), on the same texts: a row the store
            # would refuse to read back is never written
            check_row_shape(study, json.loads(pj), json.loads(rj))
        except RowShapeError as e:
            raise StoreError(f"{self.path}: task {key!r} returned a result of the wrong "
                             f"shape for its study ({e}): not written") from None
        when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        try:
            cur = self._db.execute(
                "INSERT INTO tasks (key, study, params, result, checksum, seconds, finished, "
                "host) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(key) DO NOTHING",
                (key, study, pj, rj, row_checksum(key, study, pj, rj), seconds, when,
                 self._host))
        except sqlite3.Error as e:
            if _sqlite_says(e, _READ_ONLY):
                raise StoreError(f"{self.path}: read-only ({e}): task {key!r} cannot be "
                                 "written") from None
            raise StoreError(f"{self.path}: cannot write task {key!r} ({e})") from None
        return cur.rowcount == 1

    def _of_study(self, select: str, study: str | None, order: str = "") -> sqlite3.Cursor:
        """``SELECT ... FROM tasks``, of one study when ``study`` is given."""
        where, args = (" WHERE study = ?", (study,)) if study is not None else ("", ())
        return self._db.execute(f"SELECT {select} FROM tasks{where}{order}", args)

    def count(self, study: str | None = None) -> int:
        """Rows in the store (of one study)."""
        return int(self._of_study("count(*)", study).fetchone()[0])

    def rows(self, study: str | None = None) -> Iterator[dict[str, Any]]:
        """Every row (of one study), checked as in :meth:`get_many`, as dicts
        key/study/params/result/seconds."""
        for row in self._of_study("key, study, params, result, checksum, seconds", study,
                                  " ORDER BY key"):
            params, value = self._checked(row[:5])
            yield {"key": row[0], "study": row[1], "params": params, "result": value,
                   "seconds": row[5]}

    def verify(self) -> int:
        """Check every row (as :meth:`get_many` does); the number of rows (StoreError on
        the first damaged one)."""
        return sum(1 for _ in self.rows())
