"""Where numba's on-disk kernel cache lives, and what of it is trusted.

numba's cache is a folder of pickles, and unpickling runs whatever code the file names, so an
entry is loaded only when three rules hold:

**The folder is private.** Every folder from the cache root (``$KNIGHTGUI_CACHE_DIR`` or
``$NUMBA_CACHE_DIR`` when set, else the user's cache folder) down to the folder numba writes
into is owned by this user and writable by nobody else, and a world-writable parent of the
root has the sticky bit (nobody else can rename the root away). A root that breaks the rule,
or cannot be written, is not used: the kernels go to ``knightgui-numba-<uid>`` in the
temporary directory (mode 0700, used again only while it is a real folder, not a link, of
this user's with no group or other permission), else to a fresh ``mkdtemp`` folder for this
run. Folders knightgui creates have mode 0700.

**Each file is the one this process family wrote under that name.** Beside every index
(``.nbi``) and data (``.nbc``) file numba writes, knightgui writes a seal ``<file>.seal``: the
file's name and the SHA-256 of its bytes, compared before numba unpickles the file. A file
without a seal, with another file's seal, or with other bytes is never unpickled: it is a
cache miss (compiled again, rewritten sealed), so a planted or foreign entry costs a compile.

**An entry is as fresh as every kernel file.** numba checks an entry against its own source
file alone, but a kernel inlines kernels of other files (the table's loop takes the count
kernel's forced moves): every index also holds :func:`kernel_sources_stamp`, and an index
with another stamp is a miss.
"""
from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import re
import stat
import sys
import tempfile
from pathlib import Path
from typing import Any

from .errors import ResourceError

log = logging.getLogger("knightgui.jit")

SEAL = ".seal"
_warned = False


def cache_warning(what: str, e: BaseException) -> None:
    """One line on stderr (through logging) the first time the cache fails; silence after."""
    global _warned
    if _warned:
        return
    _warned = True
    log.warning("knightgui: warning: the kernel cache could not be %s (%s: %s); compiling "
                "instead", what, type(e).__name__, str(e)[:160])


def user_cache_root() -> Path:
    """The user's cache folder for knightgui, by the platform's convention."""
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "knightgui" / "cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "knightgui"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "knightgui"


def _uid() -> int | None:
    return os.geteuid() if hasattr(os, "geteuid") else None


def untrusted(p: Path, *, private: bool = False) -> str | None:
    """Why the folder ``p`` may hold files someone else wrote, or None if it may not: it must
    be a folder owned by this user that no group or other user can write (``private``: that
    no group or other user can use at all, nor a link)."""
    uid = _uid()
    try:
        st = os.lstat(p) if private else os.stat(p)
    except OSError as e:
        return f"{p}: {e.strerror or e}"
    if not stat.S_ISDIR(st.st_mode):
        return f"{p} is not a folder"
    if uid is None:                       # Windows: the user's own profile folder is trusted
        return None
    if st.st_uid != uid:
        return f"{p} belongs to another user (uid {st.st_uid})"
    loose = 0o077 if private else 0o022
    if st.st_mode & loose:
        return f"{p} can be {'used' if private else 'written'} by others " \
               f"(mode {stat.S_IMODE(st.st_mode):o})"
    return None


def _parent_unsafe(p: Path) -> str | None:
    """A parent that others may write without the sticky bit lets them swap ``p``."""
    try:
        st = os.stat(p.parent)
    except OSError:
        return None
    if _uid() is not None and st.st_mode & 0o002 and not st.st_mode & stat.S_ISVTX:
        return f"{p.parent} can be written by anyone"
    return None


def _make(d: Path) -> None:
    """``d`` and its missing parents, each new folder with mode 0700."""
    missing = []
    q = d
    while not q.exists() and q != q.parent:
        missing.append(q)
        q = q.parent
    for m in reversed(missing):
        with contextlib.suppress(FileExistsError):
            m.mkdir(mode=0o700)


def _writable(d: Path) -> bool:
    try:
        _make(d)
        tempfile.NamedTemporaryFile(dir=d, prefix=".probe", delete=True).close()
        return True
    except OSError:
        return False


def trust_chain(top: Path, d: Path) -> str | None:
    """Why the folders from ``top`` down to ``d`` (and the folders inside ``d``) cannot be
    trusted with kernels, or None."""
    chain = [top, *reversed([p for p in d.parents if top in p.parents]), d] if d != top else [top]
    why = _parent_unsafe(top) or next(filter(None, map(untrusted, chain)), None)
    if why:
        return why
    try:
        subs = [s for s in d.iterdir() if s.is_dir()]
    except OSError as e:
        return f"{d}: {e.strerror or e}"
    return next(filter(None, map(untrusted, subs)), None)


def _private_fallback(key: str) -> Path:
    uid = _uid()
    base = Path(tempfile.gettempdir()) / f"knightgui-numba-{uid if uid is not None else 'user'}"
    with contextlib.suppress(OSError):
        base.mkdir(mode=0o700)
    d = base / key
    if untrusted(base, private=True) is None and _writable(d) and trust_chain(base, d) is None:
        return d
    return Path(tempfile.mkdtemp(prefix="knightgui-numba-"))


_KEY_SHAPE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*-[^/]*-py\d+\.\d+-numba[^/]*")


def cache_root() -> Path:
    """The root of the kernel cache: ``$KNIGHTGUI_CACHE_DIR``, else ``$NUMBA_CACHE_DIR``, else
    the user's cache folder. The engine exports ``NUMBA_CACHE_DIR`` as its own keyed folder
    (``<root>/<key>``) for numba, and every process it starts inherits that variable: a folder
    named like a key is taken as ``<root>/<key>`` and its parent is the root, so a child
    process shares its parent's cache instead of nesting a cold ``<key>/<key>`` folder."""
    own = os.environ.get("KNIGHTGUI_CACHE_DIR")
    if own:
        return Path(own)
    inherited = os.environ.get("NUMBA_CACHE_DIR")
    if inherited:
        p = Path(inherited)
        return p.parent if _KEY_SHAPE.fullmatch(p.name) else p
    return user_cache_root() / "numba"


def choose_cache_dir(key: str) -> Path:
    """The folder numba's on-disk cache goes to: the subfolder ``key`` of :func:`cache_root`
    when it can be written and is private (see the module), else a private temporary folder,
    with one warning line."""
    top = cache_root()
    d = top / key
    why = "it is not writable" if not _writable(d) else trust_chain(top, d)
    if why is None:
        return d
    fallback = _private_fallback(key)
    log.warning("knightgui: warning: the numba cache folder %s is not used (%s); compiling "
                "into %s instead", str(d)[:120], str(why)[:160], fallback)
    return fallback


# --- seals: each file's name and hash, checked before numba unpickles it --------------------

def _seal_text(path: str, data: bytes) -> str:
    return f"{os.path.basename(path)} {hashlib.sha256(data).hexdigest()}\n"


def write_sealed(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` and its seal, each through a private temporary file and an
    atomic rename (as numba writes its own files)."""
    for target, blob in ((path, data), (path + SEAL, _seal_text(path, data).encode())):
        tmp = f"{target}.tmp.{os.urandom(8).hex()}"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(blob)
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise


class UnsealedEntry(ResourceError, OSError):
    """A cache file whose seal is missing or does not match its bytes."""


class NoSeal(UnsealedEntry):
    """A cache file without a seal: written before seals existed, or not by knightgui. A
    quiet miss (an old cache is compiled again once without a warning)."""


def read_sealed(path: str) -> bytes:
    """The bytes of ``path`` if its seal vouches for them; else :class:`UnsealedEntry` (the
    file is not unpickled); a missing file raises ``FileNotFoundError``."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        with open(path + SEAL, encoding="ascii") as f:
            seal = f.read(200)
    except (OSError, ValueError) as e:
        raise NoSeal(f"{os.path.basename(path)} has no seal") from e
    if seal != _seal_text(path, data):
        raise UnsealedEntry(f"{os.path.basename(path)} does not match its seal")
    return data


def _unsealed(e: UnsealedEntry) -> None:
    if not isinstance(e, NoSeal):
        cache_warning("trusted", e)


def kernel_sources_stamp(root: Path | None = None) -> tuple[int, int, int]:
    """How many kernel modules (``*_kernel.py`` and the jit module) the engine under ``root``
    has, their newest modification time (ns) and their summed size: every index's stamp."""
    top = root if root is not None else Path(__file__).resolve().parents[1]
    newest = total = count = 0
    for f in [*top.rglob("*_kernel.py"), top / "system" / "jit.py"]:
        try:
            st = f.stat()
        except OSError:
            continue
        newest, total, count = max(newest, st.st_mtime_ns), total + st.st_size, count + 1
    return count, newest, total


def seal_numba_cache_files() -> None:
    """Make numba's index/data cache files read and write through seals, and create numba's
    per-source folders with mode 0700."""
    import pickle

    from numba.core import caching

    cls: Any = caching.IndexDataCacheFile
    if getattr(cls, "_knightgui_sealed", False):
        return
    kernels = kernel_sources_stamp()

    def _load_index(self: Any) -> dict[Any, Any]:
        try:
            data = read_sealed(self._index_path)
        except FileNotFoundError:
            return {}
        except UnsealedEntry as e:
            _unsealed(e)
            return {}
        version_end = _pickle_end(data)
        if pickle.loads(data[:version_end]) != self._version:
            return {}
        stamp, overloads = pickle.loads(data[version_end:])
        return overloads if stamp == (self._source_stamp, kernels) else {}

    def _save_index(self: Any, overloads: dict[Any, Any]) -> None:
        body = self._dump(((self._source_stamp, kernels), overloads))
        write_sealed(self._index_path, pickle.dumps(self._version, protocol=-1) + body)

    def _load_data(self: Any, name: str) -> Any:
        try:
            data = read_sealed(self._data_path(name))
        except UnsealedEntry as e:
            _unsealed(e)
            raise
        return pickle.loads(data)

    def _save_data(self: Any, name: str, data: Any) -> None:
        write_sealed(self._data_path(name), self._dump(data))

    cls._load_index, cls._save_index = _load_index, _save_index
    cls._load_data, cls._save_data = _load_data, _save_data
    cls._knightgui_sealed = True

    locator: Any = caching._CacheLocator

    def ensure_cache_path(self: Any) -> None:
        path = Path(self.get_cache_path())
        _make(path)
        tempfile.TemporaryFile(dir=path).close()

    locator.ensure_cache_path = ensure_cache_path


def _pickle_end(data: bytes) -> int:
    """Where the first pickle in ``data`` ends (the version numba writes before the index),
    found without unpickling: the index of the byte after its STOP opcode."""
    import pickletools
    for op, _arg, pos in pickletools.genops(data):
        if op.name == "STOP" and pos is not None:
            return pos + 1
    raise UnsealedEntry("the index has no version")
