"""Environment variables that knightgui and numba read, checked before numba is imported.

Each variable with a value that cannot serve is dropped (so numba and knightgui use their
default) with one warning line on the ``knightgui.env`` logger — printed on stderr when the
program has configured no logging (Python's last-resort handler prints the message alone):

==========================  ==================================================================
``NUMBA_NUM_THREADS``       a whole number from 1 to :data:`MAX_THREADS`; else the default
                            (the number of cores). numba raises at import on ``0``.
``NUMBA_BOUNDSCHECK``       ``0`` or ``1``
``NUMBA_OPT``               ``0`` … ``3`` or ``max``
``NUMBA_DISABLE_JIT``       ``0`` or ``1``
``NUMBA_THREADING_LAYER``   ``default``, ``safe``, ``forksafe``, ``threadsafe``, ``tbb``,
                            ``omp``, ``workqueue``
``KNIGHTGUI_CACHE_DIR``,    a usable folder name (no NUL byte, not empty); whether it can be
``NUMBA_CACHE_DIR``         written is checked where it is used (:mod:`knightgui_core.system.jit`
                            falls back to a temporary folder with a warning)
==========================  ==================================================================

``KNIGHTGUI_KERNELS`` is checked in :mod:`knightgui_core.system.jit` (``jit`` or ``aot``; ``aot``
without the compiled module falls back to numba with a warning outside a frozen app).
"""
from __future__ import annotations

import logging
import os
from collections.abc import MutableMapping

from .errors import ResourceError

__all__ = ["check_environment", "MAX_THREADS", "KernelsMissing"]

log = logging.getLogger("knightgui.env")

#: More threads than this is taken for a typing error (numba would try to start them all).
MAX_THREADS = 1024

_CHOICES = {
    "NUMBA_BOUNDSCHECK": {"0", "1"},
    "NUMBA_DISABLE_JIT": {"0", "1"},
    "NUMBA_OPT": {"0", "1", "2", "3", "max"},
    "NUMBA_THREADING_LAYER": {"default", "safe", "forksafe", "threadsafe", "tbb", "omp",
                              "workqueue"},
}


class KernelsMissing(ResourceError, ImportError):
    """The compiled kernels a frozen app needs are not there (one sentence)."""


def _shown(value: str) -> str:
    v = value if len(value) <= 40 else value[:39] + "…"
    return repr(v)


def check_environment(environ: MutableMapping[str, str] | None = None) -> list[str]:
    """Drop the variables above whose values cannot serve, each with one warning. Returns
    the names dropped. ``environ`` defaults to ``os.environ`` (modified in place)."""
    env = os.environ if environ is None else environ
    dropped = []

    def drop(name, why):
        value = env.pop(name, "")
        if env is not os.environ:
            os.environ.pop(name, None)
        log.warning("knightgui: warning: %s=%s %s; ignored (the default is used)",
                    name, _shown(value), why)
        dropped.append(name)

    v = env.get("NUMBA_NUM_THREADS")
    if v is not None:
        s = v.strip()
        if not (s.isascii() and s.isdigit() and 1 <= int(s) <= MAX_THREADS):
            drop("NUMBA_NUM_THREADS", f"is not a whole number from 1 to {MAX_THREADS}")
    for name, allowed in _CHOICES.items():
        v = env.get(name)
        if v is not None and v.strip().lower() not in allowed:
            drop(name, f"is not one of {', '.join(sorted(allowed))}")
    for name in ("KNIGHTGUI_CACHE_DIR", "NUMBA_CACHE_DIR"):
        v = env.get(name)
        if v is not None and ("\0" in v or not v.strip()):
            drop(name, "is not a folder name")
    return dropped
