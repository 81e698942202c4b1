"""The one way knightgui writes and reads files.

Writing (:func:`write_bytes`, :func:`write_text`, :func:`atomic_writer`):

- the target, if it exists, must be a regular file (or a link to one): a directory, device
  node, FIFO or socket is refused before anything is written;
- the data go to a temporary file created exclusively (``O_EXCL``, random name, in the
  target's folder so that the rename stays on one file system): a link planted at any name
  is never followed;
- the temporary file is flushed, ``fsync``-ed and renamed over the target; the folder is
  synced after the rename;
- on any failure (a full disk, an interrupted write, an exception in the caller's block) the
  temporary file is removed and the target is left as it was; the error says so;
- a new file follows the umask (as ``open(..., "w")`` would); an overwritten file keeps its
  permission bits.

Reading (:func:`read_bytes`, :func:`read_text`, :func:`read_json`, :func:`open_regular`):
the path must name a regular file (checked with ``stat`` before the open, and with ``fstat``
on the opened descriptor, which is opened with ``O_NONBLOCK`` so that a FIFO swapped in
between cannot block); files above a size limit are refused before a byte is read, and the
read itself stops at the limit; a caller that parses the file into Python objects gives the
memory that takes per byte (``memory_factor``) and a file that would not fit in the memory
available is refused before it is read. JSON is parsed only within bounds (nesting, numbers:
:func:`~knightgui_core.system.text.strict_loads`).

Errors are :class:`FileRefused` (an ``OSError``: callers that catch ``OSError`` keep working)
with one readable sentence in ``strerror``.
"""
from __future__ import annotations

import contextlib
import errno
import io
import os
import stat
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from .errors import ResourceError
from .limits import available_memory
from .text import MAX_JSON_DEPTH, strict_loads

__all__ = ["FileRefused", "write_bytes", "write_text", "atomic_writer", "read_bytes",
           "read_text", "read_json", "open_regular", "check_write_target", "new_file_mode",
           "DEFAULT_READ_LIMIT", "PARSE_MEMORY_FACTOR"]

#: Files above this size are refused by :func:`read_bytes` unless the caller says otherwise.
DEFAULT_READ_LIMIT = 256 * 1024 * 1024
#: What parsing a file into Python objects (``json.loads``, a tour CSV's rows) takes, in
#: bytes of memory per byte of file, measured: 41 for a 700×700 tour in JSON (4.7 MB, 195 MB
#: more resident once read), 32 for the same tour in CSV, 21 for a solutions JSON (42 MB).
PARSE_MEMORY_FACTOR = 48

_KIND = ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"),
         (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
         (stat.S_ISSOCK, "a socket"))


class FileRefused(ResourceError, OSError):
    """A file that knightgui will not write or read (a device, a FIFO, a folder, too big),
    or a write that failed and left the target untouched. ``str()`` is one sentence."""

    def __init__(self, err: int, message: str, filename: str | os.PathLike | None = None):
        super().__init__(err, message)
        self.filename = None if filename is None else os.fspath(filename)

    def __str__(self) -> str:
        return str(self.strerror)


def _kind(mode: int) -> str:
    for test, name in _KIND:
        if test(mode):
            return name
    return "not a regular file"


def _display(path: Path) -> str:
    s = str(path)
    return s if len(s) <= 120 else "…" + s[-119:]


def check_write_target(path: str | os.PathLike) -> os.stat_result | None:
    """The ``stat`` of ``path`` when it is an existing regular file (or a link to one),
    ``None`` when nothing is there yet. Raises :class:`FileRefused` for anything else."""
    p = Path(path)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        if os.path.islink(p):
            raise FileRefused(errno.ENOENT, f"{_display(p)} is a link to nothing; "
                              "not written", p) from None
        return None
    except ValueError:
        raise FileRefused(errno.EINVAL, f"{_display(p)!r} is not a usable file name", p) \
            from None
    except OSError as e:
        raise FileRefused(e.errno or errno.EIO, f"cannot write {_display(p)}: "
                          f"{e.strerror or e}", p) from None
    if not stat.S_ISREG(st.st_mode):
        raise FileRefused(errno.EISDIR if stat.S_ISDIR(st.st_mode) else errno.EINVAL,
                          f"{_display(p)} is {_kind(st.st_mode)}, not a regular file; "
                          "nothing was written", p)
    return st


_umask_lock = threading.Lock()


def _umask() -> int:
    try:   # Linux ≥ 4.7: read without changing it (os.umask would, for a moment, per process)
        with open("/proc/self/status", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    with _umask_lock:
        old = os.umask(0o022)
        os.umask(old)
    return old


def new_file_mode() -> int:
    """Permission bits a new file gets (``0o666`` less the umask), as ``open`` would give."""
    return 0o666 & ~_umask()


def _target_path(path: str | os.PathLike) -> Path:
    try:
        p = Path(path)
        os.fspath(p).encode("utf-8", "surrogateescape")
    except (TypeError, ValueError):
        raise FileRefused(errno.EINVAL, f"{path!r} is not a usable file name") from None
    if "\0" in str(p):
        raise FileRefused(errno.EINVAL, f"{str(p)!r} is not a usable file name", p)
    if not p.name or p.name in (".", ".."):
        raise FileRefused(errno.EISDIR, f"{_display(p)} names a folder, not a file", p)
    return p


@contextlib.contextmanager
def atomic_writer(path: str | os.PathLike, mode: str = "wb", *, encoding: str = "utf-8",
                  make_parents: bool = False) -> Iterator[IO]:
    """A file object whose contents replace ``path`` when the ``with`` block ends normally.

    ``mode`` is ``"wb"`` (binary) or ``"w"`` (text, ``encoding``, no newline translation).
    Use it to stream data of any size with flat memory. ``make_parents``: create missing
    folders (else a missing folder is an error). When the block raises (or the disk
    fills), the temporary file is removed, ``path`` is left untouched, and the error is
    raised again (an ``OSError`` from the disk becomes :class:`FileRefused` saying so).
    """
    if mode not in ("wb", "w"):
        raise ValueError(f"mode must be 'wb' or 'w', got {mode!r}")
    p = _target_path(path)
    st = check_write_target(p)
    parent = p.parent
    if make_parents:
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise FileRefused(e.errno or errno.EIO, f"cannot create the folder "
                              f"{_display(parent)}: {e.strerror or e}", p) from None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name[:80]}.", suffix=".tmp", dir=parent)
    except OSError as e:
        raise FileRefused(e.errno or errno.EIO, f"cannot write {_display(p)}: "
                          f"{e.strerror or e}", p) from None
    ok = False
    try:
        try:
            os.fchmod(fd, stat.S_IMODE(st.st_mode) if st is not None else new_file_mode())
        except OSError:
            pass   # a file system without permissions (FAT...): the default serves
        raw = os.fdopen(fd, "wb", closefd=True)
        f: IO = raw if mode == "wb" else io.TextIOWrapper(raw, encoding=encoding, newline="")
        try:
            yield f
            f.flush()
            os.fsync(raw.fileno())
        finally:
            f.close()
        # the target may have been swapped for a device while we wrote: look again
        check_write_target(p)
        os.replace(tmp, p)
        ok = True
    except OSError as e:
        if isinstance(e, FileRefused):
            raise
        what = "the disk is full" if e.errno in (errno.ENOSPC, errno.EDQUOT) else \
            (e.strerror or str(e))
        raise FileRefused(e.errno or errno.EIO, f"cannot write {_display(p)}: {what}; "
                          "the file was left as it was", p) from None
    finally:
        if not ok:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    _sync_dir(parent)


def _sync_dir(folder: Path) -> None:
    try:
        dfd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)


def write_bytes(path: str | os.PathLike, data: bytes | bytearray | memoryview, *,
                make_parents: bool = False) -> Path:
    """Replace ``path`` with ``data`` atomically (see the module). Returns the path."""
    with atomic_writer(path, "wb", make_parents=make_parents) as f:
        f.write(data)
    return Path(path)


def write_text(path: str | os.PathLike, text: str, encoding: str = "utf-8", *,
               make_parents: bool = False) -> Path:
    """Replace ``path`` with ``text`` (UTF-8, newlines as given) atomically."""
    return write_bytes(path, text.encode(encoding), make_parents=make_parents)


def open_regular(path: str | os.PathLike, limit: int = DEFAULT_READ_LIMIT, *,
                 memory_factor: int = 0) -> IO[bytes]:
    """The regular file ``path`` opened for binary reading, after the checks of
    :func:`read_bytes` (a regular file, at most ``limit`` bytes; ``memory_factor``: the file
    times this must fit in the memory available). For readers that take only what a
    header says (a ``.npy`` file is memory-mapped from this very descriptor)."""
    p = _target_path(path)
    try:
        st = os.stat(p)
    except ValueError:
        raise FileRefused(errno.EINVAL, f"{str(p)!r} is not a usable file name", p) from None
    except OSError as e:
        raise FileRefused(e.errno or errno.EIO, f"cannot open {_display(p)}: "
                          f"{e.strerror or e}", p) from None
    _check_readable(p, st, limit, memory_factor)
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise FileRefused(e.errno or errno.EIO, f"cannot open {_display(p)}: "
                          f"{e.strerror or e}", p) from None
    try:
        _check_readable(p, os.fstat(fd), limit, memory_factor)   # the same file we looked at
        return os.fdopen(fd, "rb", closefd=True)
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path: str | os.PathLike, limit: int = DEFAULT_READ_LIMIT, *,
               memory_factor: int = 0) -> bytes:
    """The contents of the regular file ``path``, at most ``limit`` bytes.

    Refused at once (:class:`FileRefused`): a missing file, a folder, a device, a FIFO, a
    socket, a file above ``limit`` bytes (or one that grows past it while read), and, with
    ``memory_factor``, a file whose size times that factor (what parsing it will take)
    exceeds the memory available.
    """
    with open_regular(path, limit, memory_factor=memory_factor) as f:
        p = Path(path)
        try:
            chunks, total = [], 0
            while True:
                b = f.read(min(1 << 22, limit + 1 - total))
                if not b:
                    break
                chunks.append(b)
                total += len(b)
                if total > limit:
                    raise FileRefused(errno.EFBIG, f"{_display(p)} grew past "
                                      f"{_size(limit)} while read; refused", p)
            return b"".join(chunks)
        except FileRefused:
            raise
        except OSError as e:
            raise FileRefused(e.errno or errno.EIO, f"cannot read {_display(p)}: "
                              f"{e.strerror or e}", p) from None


def _size(n: int) -> str:
    return f"{n / 2**20:.0f} MiB" if n >= 2**20 else f"{n:,} bytes"


def _check_readable(p: Path, st: os.stat_result, limit: int, memory_factor: int = 0) -> None:
    if not stat.S_ISREG(st.st_mode):
        raise FileRefused(errno.EINVAL, f"{_display(p)} is {_kind(st.st_mode)}, not a "
                          "regular file; refused", p)
    if st.st_size > limit:
        raise FileRefused(errno.EFBIG, f"{_display(p)} is {_size(st.st_size)}; files above "
                          f"{_size(limit)} are refused", p)
    need = st.st_size * memory_factor
    if need > (1 << 26) and need > (avail := available_memory()):
        raise FileRefused(errno.ENOMEM, f"{_display(p)} is {_size(st.st_size)}; reading it "
                          f"needs about {_size(need)} of memory and {_size(avail)} is "
                          "available; refused", p)


def read_text(path: str | os.PathLike, limit: int = DEFAULT_READ_LIMIT,
              encoding: str = "utf-8", *, memory_factor: int = 0) -> str:
    """:func:`read_bytes` decoded; a decoding error becomes :class:`FileRefused`."""
    raw = read_bytes(path, limit, memory_factor=memory_factor)
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as e:
        raise FileRefused(errno.EILSEQ, f"{_display(Path(path))} is not {encoding.upper()} "
                          f"text (bad byte at offset {e.start})", path) from None


def read_json(path: str | os.PathLike, limit: int = DEFAULT_READ_LIMIT, *,
              max_depth: int = MAX_JSON_DEPTH) -> Any:
    """The JSON document in the regular file ``path``: :func:`read_bytes` (at most ``limit``
    bytes, and the memory parsing takes, :data:`PARSE_MEMORY_FACTOR` times the file, checked
    before a byte is read) parsed by :func:`~knightgui_core.system.text.strict_loads`
    (nesting, ``NaN``/``Infinity``, numbers beyond float or int64 refused before or while
    parsing). :class:`FileRefused` (an ``OSError``) for the file,
    :class:`~knightgui_core.system.text.JsonRefused` (a ``ValueError``) for its contents."""
    return strict_loads(read_bytes(path, limit, memory_factor=PARSE_MEMORY_FACTOR), max_depth)
