"""Looking at a store's file from outside, before SQLite opens it (:mod:`.store`).

A path is a new store (nothing there, or an empty file), an existing SQLite database, or
something refused in one line naming the file and what it is: a directory, FIFO, socket or
device node (looked at with ``os.lstat``, never opened), a symbolic link (whether it
points at a store, at nothing or anywhere else: a store is opened only as the regular file
at its own path, or made there fresh, so that no link decides where SQLite writes), garbage,
a JSON file, a truncated or damaged database. A database another process is writing is
never judged by its size (its ``-wal`` or ``-journal`` is beside it), and one that looks
truncated is looked at again for a moment before it is called so.

A store that cannot be written — a read-only file, a file in a folder that cannot be
written, a file on a read-only medium (:func:`read_only_reason`) — is opened read-only
(:func:`read_only_uri`), so that finished tasks can still be read from it.
"""
from __future__ import annotations

import os
import stat
import time
from pathlib import Path

from ..system.errors import ResourceError

__all__ = ["SQLITE_MAGIC", "SETTLE_SECONDS", "SIDE_FILES", "StoreError", "check_store_file",
           "create_store_file", "read_only_reason", "read_only_uri"]

SQLITE_MAGIC = b"SQLite format 3\x00"
#: the files SQLite makes beside a database (its write-ahead log, its index, its journal)
SIDE_FILES = ("-wal", "-shm", "-journal")
#: open(2) flags that refuse a symbolic link as the last part of a path (0 where the system
#: has none)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class StoreError(ResourceError):
    """The store cannot be used; the message names the file and what is wrong (one line)."""


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


#: how long a file that looks truncated is watched before it is called so: another process
#: may be writing it (a checkpoint copies page 1, with the new size, before the pages it counts)
SETTLE_SECONDS = 0.5


class _LooksTruncated(StoreError):
    """Shorter than its header says: truncated, or being written by another connection."""


def check_store_file(path: str | os.PathLike[str]) -> bool:
    """Look at ``path`` without changing it. True: a file to open as an existing store;
    False: no file (or an empty one) — a new store will be made there.
    :class:`StoreError` for anything else. A file that looks truncated is looked at again for
    up to :data:`SETTLE_SECONDS` (another process may be in the middle of writing it)."""
    p = Path(path)
    deadline = time.monotonic() + SETTLE_SECONDS
    while True:
        try:
            return _look(p)
        except _LooksTruncated as e:
            if time.monotonic() >= deadline:
                raise StoreError(str(e)) from None
            time.sleep(0.01)


def _look(p: Path) -> bool:
    """One look at ``p`` for :func:`check_store_file`."""
    busy = _in_use(p)               # before the size is read: a writer may finish meanwhile
    for suffix in ("", *SIDE_FILES):
        if os.path.islink(f"{p}{suffix}"):
            raise StoreError(f"{p}{suffix}: is a symbolic link; give the path of the store "
                             "itself (a store is opened only as a regular file)")
    try:
        st = os.lstat(p)
    except FileNotFoundError:
        parent = _folder(p)
        if not parent.is_dir():
            raise StoreError(f"{p}: cannot create a store: folder {parent} does not exist") \
                from None
        return False
    except OSError as e:
        raise StoreError(f"{p}: cannot read: {e.strerror or e}") from None
    if not stat.S_ISREG(st.st_mode):
        raise StoreError(f"{p}: is {_kind(st.st_mode)}, not a knightgui store")
    if st.st_size == 0:
        return False
    try:
        with os.fdopen(os.open(p, os.O_RDONLY | _NOFOLLOW), "rb") as f:
            head = f.read(100)
    except OSError as e:
        raise StoreError(f"{p}: cannot read: {e.strerror or e}") from None
    if not head.startswith(SQLITE_MAGIC):
        stripped = head.lstrip()
        if stripped[:1] in (b"{", b"["):
            raise StoreError(f"{p}: is a JSON file, not a knightgui store")
        raise StoreError(f"{p}: is not a knightgui store (not an SQLite database)")
    if len(head) < 100:
        raise _LooksTruncated(f"{p}: truncated SQLite database ({st.st_size} bytes)")
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    if page < 512 or page & (page - 1):
        raise StoreError(f"{p}: damaged SQLite database (page size {page})")
    pages = int.from_bytes(head[28:32], "big")
    valid = head[24:28] == head[92:96]          # the in-header size is current
    if busy or _in_use(p):
        # another connection is writing: a checkpoint copies the pages in order, page 1 (the
        # header, with the new size) first, so the file is briefly shorter than its header
        # says. The size cannot be judged from outside then; SQLite's quick_check does it.
        return True
    if st.st_size % page or (valid and pages and st.st_size < pages * page):
        raise _LooksTruncated(f"{p}: truncated SQLite database ({st.st_size:,} bytes, "
                              f"{pages:,} pages of {page} expected)")
    return True


def create_store_file(path: str | os.PathLike[str]) -> None:
    """Make an empty file at ``path`` for a new store, never through a symbolic link (made
    there meanwhile, or left dangling): ``O_CREAT | O_EXCL | O_NOFOLLOW``. A regular file
    that another process has just made is left as it is; anything else raises
    :class:`StoreError`."""
    p = Path(path)
    try:
        os.close(os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o666))
    except FileExistsError:
        _look(p)                    # a link or a FIFO made meanwhile is refused here
    except OSError as e:
        raise StoreError(f"{p}: cannot create a store: {e.strerror or e}") from None


def _in_use(p: Path) -> bool:
    """Whether SQLite's side files of ``p`` exist: a write-ahead log (``-wal``) or a
    rollback journal (``-journal``) — another connection has the database open for writing
    (or left a log that the next opener replays)."""
    return any(os.path.lexists(f"{p}{suffix}") for suffix in ("-wal", "-journal"))


def _folder(p: Path) -> Path:
    return p.parent if str(p.parent) else Path(".")


def read_only_reason(path: str | os.PathLike[str], exists: bool) -> str | None:
    """Why the store at ``path`` cannot be written (a few words), or None when it can.
    ``exists``: :func:`check_store_file`'s answer (an empty file is no store, but a
    read-only one cannot become one). A WAL database is written through two files beside it
    (``-wal``, ``-shm``), so a writable file in a folder that cannot be written is read-only
    too. Asked of the system (``statvfs``, ``access``), so root is refused only where the
    system refuses root: a read-only medium, an immutable file or folder (``chattr +i``)."""
    p = Path(path)
    folder = _folder(p)
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return "on a read-only file system"
    except OSError:
        pass                        # the folder's own checks below say what is wrong
    if (exists or os.path.exists(p)) and not os.access(p, os.W_OK):
        return "a read-only file"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"its folder {folder} cannot be written"
    return None


def read_only_uri(path: str | os.PathLike[str]) -> tuple[str, str | None]:
    """The ``file:`` URI that opens the store at ``path`` read-only without making or
    changing anything beside it (SQLite: wal.html, "Read-Only Databases"; uri.html), and a
    note when part of the store cannot be read that way (else None).

    A WAL database is read through its ``-shm`` index, which SQLite creates when it is
    missing (and leaves behind with the read-only file's mode, so that the owner's next write
    is refused). So a database with its ``-wal`` and ``-shm`` beside it (a writer is at work,
    or was killed), or with a log that holds pages where a ``-shm`` can be made, is opened
    ``mode=ro``: SQLite reads the log and takes its locks. A database without a log is
    opened ``immutable=1``: no lock, no ``-shm``, nothing made. A log without its ``-shm`` in
    a folder that cannot be written cannot be read at all: the database file is read alone,
    and the note says so."""
    p = Path(path)
    try:
        log = os.stat(f"{p}-wal").st_size > 0
        wal = True
    except OSError:
        log = wal = False
    shm = os.path.lexists(f"{p}-shm")
    uri = p.resolve().as_uri()
    if (wal and shm) or (log and os.access(_folder(p), os.W_OK | os.X_OK)):
        return uri + "?mode=ro", None
    note = (f"the tasks in {p.name}-wal cannot be read without {p.name}-shm" if log
            else None)
    return uri + "?mode=ro&immutable=1", note
