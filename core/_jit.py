"""One place that configures numba for the whole engine.

* The on-disk cache goes to a writable folder: ``$KNIGHTGUI_CACHE_DIR`` or
  ``$NUMBA_CACHE_DIR`` when set, else the user's cache directory
  (``~/.cache/knightgui/numba`` on Linux). A bundled app cannot write beside its modules,
  so this also makes the second launch of a frozen app warm.
* If that folder cannot be written (read-only, full), a temporary one is used and a note
  is logged: the app compiles instead of crashing.
* ``njit`` is numba's with ``cache=True, nogil=True`` by default, so every kernel releases the
  GIL and the GUI thread keeps painting while a solver thread computes.

Import this module before numba anywhere in ``core``.
"""
from __future__ import annotations

import logging
import os
import sys
import tempfile
from pathlib import Path

log = logging.getLogger("knightgui.jit")


def _user_cache_root() -> Path:
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "knightgui" / "cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "knightgui"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "knightgui"


def _writable(d: Path) -> bool:
    try:
        d.mkdir(parents=True, exist_ok=True)
        probe = tempfile.NamedTemporaryFile(dir=d, prefix=".probe", delete=True)
        probe.close()
        return True
    except OSError:
        return False


def choose_cache_dir() -> Path:
    wanted = os.environ.get("KNIGHTGUI_CACHE_DIR") or os.environ.get("NUMBA_CACHE_DIR")
    d = Path(wanted) if wanted else _user_cache_root() / "numba"
    if _writable(d):
        return d
    fallback = Path(tempfile.gettempdir()) / f"knightgui-numba-{os.getuid() if hasattr(os, 'getuid') else 'user'}"
    log.warning("numba cache folder %s is not writable; compiling into %s instead", d, fallback)
    if not _writable(fallback):
        fallback = Path(tempfile.mkdtemp(prefix="knightgui-numba-"))
    return fallback


def _looks_like_pickle(blob: bytes) -> bool:
    # protocol-2+ pickles start with PROTO (0x80) and end with STOP ('.')
    return len(blob) > 3 and blob[0] == 0x80 and blob[-1:] == b"."


def scrub_cache(d: Path) -> int:
    """Remove cache entries that cannot be read back (a torn write, a disk error, garbage):
    numba itself would raise on them instead of compiling afresh. Each index and data file
    is checked for an intact pickle frame (protocol header, STOP at the end) without being
    loaded, which keeps start-up fast. Returns the number of files removed."""
    removed = 0
    for idx in d.rglob("*.nbi"):
        stem = idx.name[: -len(".nbi")]
        datas = list(idx.parent.glob(stem + ".*.nbc"))
        try:
            if all(_looks_like_pickle(p.read_bytes()) for p in [idx, *datas]):
                continue
        except OSError:
            continue  # another process replaced it meanwhile
        for bad in [idx, *datas]:
            try:
                bad.unlink()
                removed += 1
            except OSError:
                pass
    if removed:
        log.warning("numba cache in %s had %d unreadable files; they were removed and the "
                    "kernels will be compiled again", d, removed)
    return removed


CACHE_DIR = choose_cache_dir()
os.environ["NUMBA_CACHE_DIR"] = str(CACHE_DIR)

import numba  # noqa: E402  (after NUMBA_CACHE_DIR is set)
from numba import prange  # noqa: E402,F401

numba.config.CACHE_DIR = str(CACHE_DIR)
scrub_cache(CACHE_DIR)


def njit(*args, **kwargs):
    """``numba.njit`` with ``cache=True`` and ``nogil=True`` unless told otherwise."""
    kwargs.setdefault("cache", True)
    kwargs.setdefault("nogil", True)
    if args and callable(args[0]) and len(args) == 1 and not kwargs.get("_sig"):
        return numba.njit(**kwargs)(args[0])
    return numba.njit(*args, **kwargs)
