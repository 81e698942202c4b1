"""The one way knightgui writes and reads files.

Writing (:func:`write_bytes`, :func:`write_text`, :func:`atomic_writer`):

- the target, if it exists, must be a regular file: a symbolic link (to anything), a
  folder, a device node, a FIFO or a socket is refused before anything is written;
- the data go to a temporary file ``.NAME.RANDOM.tmp`` in the target's folder (so that the
  rename stays on one file system), created with ``O_CREAT | O_EXCL | O_NOFOLLOW``: a link
  or file planted at any name is never opened;
- the temporary file is flushed, ``fsync``-ed and renamed over the target (the target is
  replaced only by a whole file); the folder is synced after the rename;
- on any failure (a full disk, an exception in the caller's block, a ``KeyboardInterrupt``
  from Ctrl-C or a terminating signal turned into one) the temporary file is removed and the
  target is left as it was; the error says so;
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
import secrets
import signal
import stat
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from .errors import ResourceError
from .limits import available_memory
from .text import MAX_JSON_DEPTH, strict_loads

__all__ = ["FileRefused", "write_bytes", "write_text", "atomic_writer", "read_bytes",
           "read_text", "read_json", "open_regular", "check_write_target",
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
    return next((name for test, name in _KIND if test(mode)), "not a regular file")


def _display(path: Path) -> str:
    s = str(path)
    return s if len(s) <= 120 else "…" + s[-119:]


def _os_refused(verb: str, p: Path, e: OSError) -> FileRefused:
    """The one sentence of an ``OSError`` from the system: ``cannot VERB PATH: why``."""
    return FileRefused(e.errno or errno.EIO, f"cannot {verb} {_display(p)}: {e.strerror or e}", p)


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


def check_write_target(path: str | os.PathLike) -> os.stat_result | None:
    """The ``lstat`` of ``path`` when it is an existing regular file, ``None`` when nothing
    is there yet. Raises :class:`FileRefused` for anything else: a symbolic link (whatever
    it points at: the writer replaces names, and a link is never written through), a
    folder, a device, a FIFO, a socket."""
    p = Path(path)
    try:
        st = os.lstat(p)
    except FileNotFoundError:
        return None
    except ValueError:
        raise FileRefused(errno.EINVAL, f"{_display(p)!r} is not a usable file name", p) \
            from None
    except OSError as e:
        raise _os_refused("write", p, e) from None
    if stat.S_ISLNK(st.st_mode):
        raise FileRefused(errno.ELOOP, f"{_display(p)} is a symbolic link, not a regular "
                          "file; nothing was written", p)
    if not stat.S_ISREG(st.st_mode):
        raise FileRefused(errno.EISDIR if stat.S_ISDIR(st.st_mode) else errno.EINVAL,
                          f"{_display(p)} is {_kind(st.st_mode)}, not a regular file; "
                          "nothing was written", p)
    return st


#: the signals whose handlers may raise (Ctrl-C, and the command line's SIGTERM/SIGHUP):
#: held in this thread while a temporary file is created or renamed
_HELD = frozenset(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP")
                  if hasattr(signal, n))


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Signals of :data:`_HELD` sent to this thread wait until the block ends (main thread,
    POSIX; elsewhere a no-op). This narrows, not closes, the window for a raising handler: a
    signal sent to the process while this thread holds it goes to another thread, and the
    main thread may then run the handler inside the block. The writer is therefore correct
    with the handler raising anywhere; holding only makes that rare."""
    if not hasattr(signal, "pthread_sigmask") or \
            threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _random_token() -> str:
    return secrets.token_hex(6)


_OPEN_FLAGS = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
               | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


def _create_temporary(p: Path, made: list[str]) -> int:
    """The descriptor of a new, empty file ``.NAME.RANDOM.tmp`` in ``p``'s folder, created
    exclusively: a name that exists already (a planted link, a file) is never opened, another
    is drawn. Its mode is ``0o666`` less the umask, as ``open(..., "w")`` gives. The name is
    put in ``made`` before the file exists, so that an exception raised the moment the file
    is made (a signal's handler runs right after ``os.open`` returns) still leaves the
    caller its name to remove."""
    for _ in range(100):
        made.append(os.path.join(p.parent, f".{p.name[:80]}.{_random_token()}.tmp"))
        try:
            return os.open(made[-1], _OPEN_FLAGS, 0o666)
        except FileExistsError:
            made.pop()                  # someone else's file: never removed
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(p.parent))


@contextlib.contextmanager
def atomic_writer(path: str | os.PathLike, mode: str = "wb", *, encoding: str = "utf-8",
                  make_parents: bool = False) -> Iterator[IO]:
    """A file object, for data of any size in flat memory, whose contents replace ``path``
    when the ``with`` block ends normally (see the module). ``mode`` is ``"wb"`` or ``"w"``
    (text, ``encoding``, no newline translation); ``make_parents`` creates missing folders
    (else a missing folder is an error). When the block raises, the temporary file is
    removed, ``path`` is left untouched and the error is raised again (an ``OSError`` from
    the disk as :class:`FileRefused` saying so)."""
    if mode not in ("wb", "w"):
        raise ValueError(f"mode must be 'wb' or 'w', got {mode!r}")
    p = _target_path(path)
    st = check_write_target(p)
    if make_parents:
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise FileRefused(e.errno or errno.EIO, f"cannot create the folder "
                              f"{_display(p.parent)}: {e.strerror or e}", p) from None
    made: list[str] = []  # the temporary file's name, from before it exists to the rename
    fd = -1              # the descriptor until a file object owns it
    try:
        with _signals_held():
            fd = _create_temporary(p, made)
        tmp = made[0]
        if st is not None:
            with contextlib.suppress(OSError):   # a file system without modes: the default
                os.fchmod(fd, stat.S_IMODE(st.st_mode))
        raw = os.fdopen(fd, "wb", closefd=True)
        fd = -1
        f: IO = raw if mode == "wb" else io.TextIOWrapper(raw, encoding=encoding, newline="")
        try:
            yield f
            f.flush()
            os.fsync(raw.fileno())
        finally:
            f.close()
        check_write_target(p)   # what is there now is still a regular file, or nothing
        with _signals_held():
            os.replace(tmp, p)
            made.clear()
    except OSError as e:
        if isinstance(e, FileRefused):
            raise
        what = "the disk is full" if e.errno in (errno.ENOSPC, errno.EDQUOT) else \
            (e.strerror or str(e))
        raise FileRefused(e.errno or errno.EIO, f"cannot write {_display(p)}: {what}; "
                          "the file was left as it was", p) from None
    finally:
        if fd >= 0:
            with contextlib.suppress(OSError):
                os.close(fd)
        for name in made:
            with contextlib.suppress(OSError):
                os.unlink(name)
    _sync_dir(p.parent)


def _sync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        dfd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(dfd)
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
        raise _os_refused("open", p, e) from None
    _check_readable(p, st, limit, memory_factor)
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise _os_refused("open", p, e) from None
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
        chunks: list[bytes] = []
        total = 0
        while True:
            try:
                b = f.read(min(1 << 22, limit + 1 - total))
            except OSError as e:
                raise _os_refused("read", p, e) from None
            if not b:
                return b"".join(chunks)
            chunks.append(b)
            total += len(b)
            if total > limit:
                raise FileRefused(errno.EFBIG, f"{_display(p)} grew past "
                                  f"{_size(limit)} while read; refused", p)


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
    bytes; :data:`PARSE_MEMORY_FACTOR`) parsed by :func:`~knightgui_core.system.text.strict_loads`.
    :class:`FileRefused` (an ``OSError``) for the file,
    :class:`~knightgui_core.system.text.JsonRefused` (a ``ValueError``) for its contents."""
    return strict_loads(read_bytes(path, limit, memory_factor=PARSE_MEMORY_FACTOR), max_depth)
