"""Looking at a store's file from outside, before SQLite opens it (:mod:`.store`).

A path is a new store (nothing there, or an empty file), an existing SQLite database, or
something refused in one line naming the file and what it is: a directory, FIFO, socket or
device node (looked at with ``os.stat``, never opened), garbage, a JSON file, a truncated or
damaged database. A database another process is writing is never judged by its size (its
``-wal`` or ``-journal`` is beside it), and one that looks truncated is looked at again for a
moment before it is called so.
"""
from __future__ import annotations

import os
import stat
import time
from pathlib import Path

from ..system.errors import ResourceError

__all__ = ["SQLITE_MAGIC", "SETTLE_SECONDS", "StoreError", "check_store_file"]

SQLITE_MAGIC = b"SQLite format 3\x00"


class StoreError(ResourceError):
    """The store cannot be used; the message names the file and what is wrong (one line)."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    return "not a regular file"


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
    try:
        st = os.stat(p)
    except FileNotFoundError:
        parent = p.parent if str(p.parent) else Path(".")
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
        with open(p, "rb") as f:
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


def _in_use(p: Path) -> bool:
    """Whether SQLite's side files of ``p`` exist: a write-ahead log (``-wal``) or a
    rollback journal (``-journal``) — another connection has the database open for writing
    (or left a log that the next opener replays)."""
    return any(os.path.lexists(f"{p}{suffix}") for suffix in ("-wal", "-journal"))
