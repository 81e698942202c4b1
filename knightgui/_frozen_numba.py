"""numba's on-disk cache inside the PyInstaller bundle.

In a frozen app a kernel's ``__code__.co_filename`` is a relative name like
``core/kernels/walk.py`` that does not exist on disk, so numba's ``UserProvidedCacheLocator``
(the one that honours ``NUMBA_CACHE_DIR``, set by ``core._jit``) refuses it and numba falls
back to its own ``~/.cache/numba``, keyed by the current directory. ``FrozenCacheLocator``
accepts frozen functions, anchors the name in the bundle (``sys._MEIPASS``) so the cache key
does not depend on the current directory, and writes to ``numba.config.CACHE_DIR``
(``$KNIGHTGUI_CACHE_DIR`` or ``~/.cache/knightgui/numba``). Entries are stamped with the
executable (numba does that for frozen apps), so a rebuilt bundle recompiles.

The bundle's runtime hook names this class in ``NUMBA_CACHE_LOCATOR_CLASSES`` before numba
is imported; numba imports this module only when it sets up a cached kernel.
"""
from __future__ import annotations

import os
import sys

from numba.core import config
from numba.core.caching import UserProvidedCacheLocator


class FrozenCacheLocator(UserProvidedCacheLocator):
    """``UserProvidedCacheLocator`` for functions whose source lives in the bundle's archive."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, _anchored(py_file))

    @classmethod
    def from_function(cls, py_func, py_file):
        if not (getattr(sys, "frozen", False) and config.CACHE_DIR):
            return None
        self = cls(py_func, py_file)
        try:
            self.ensure_cache_path()
        except OSError:
            return None
        return self


def _anchored(py_file: str) -> str:
    if os.path.isabs(py_file):
        return py_file
    base = getattr(sys, "_MEIPASS", None) or os.path.dirname(os.path.abspath(sys.executable))
    return os.path.join(base, py_file)
