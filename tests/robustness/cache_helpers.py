"""A tiny kernel module and a fresh process that runs it, for the kernel cache's tests.

Every rule of the kernel cache (the private folder, the fallback folders, the seals, the
tolerance of broken entries, the kernel files' stamp in every index) is installed by
:mod:`knightgui_core.system.jit` for every numba cache file of the process, not for the
engine's kernels alone. So the tests exercise it on two one-line kernels of a module written
into a temporary folder: a cold cache compiles them in a fraction of a second, where the
engine's kernels take tens of seconds, and a cache of them is a handful of small files.

numba keeps a module's entries in ``<cache root>/<key>/<folder>_<sha1 of the folder's path>``
and checks each entry against its source file's time and size, so the tests of one module
share one kernel module (written once, never touched) and copy its cache between roots.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import knightgui_core.system.jit as jit

KEY = jit.cache_key()
MODULE = "kg_tiny_kernels"

_SOURCE = '''"""Two kernels for the cache tests: ``twice`` calls ``add``."""
from knightgui_core.system.jit import njit


@njit
def add(a, b):
    return a + b


@njit
def twice(a):
    return add(a, a)
'''

#: what the kernels answer, as the child prints it
ANSWER = [42, 3.5]

_CHILD = f"""
import json
import {MODULE} as k
import knightgui_core.system.jit as jit
answer = [k.twice(21), k.add(1.5, 2.0)]
stats = [f.stats for f in (k.add, k.twice)]
print(json.dumps({{"answer": answer, "cache": str(jit.CACHE_DIR),
                  "hits": sum(sum(s.cache_hits.values()) for s in stats),
                  "misses": sum(sum(s.cache_misses.values()) for s in stats)}}))
"""


def write_kernels(folder: Path) -> Path:
    """The kernel module in ``folder`` (made if missing); returns the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{MODULE}.py").write_text(_SOURCE)
    return folder


def numba_folder(kernels: Path) -> str:
    """The name of the folder numba caches the kernels of ``kernels`` in, inside a root's
    key folder (numba's ``_CacheLocator.get_suitable_cache_subpath``)."""
    d = os.path.dirname(os.path.abspath(kernels / f"{MODULE}.py"))
    return f"{os.path.basename(d)}_{hashlib.sha1(d.encode()).hexdigest()}"


class Run:
    """A finished child: its exit status, stdout, stderr and report (None when it printed
    none): ``answer``, ``cache`` (the folder it cached in), ``hits`` and ``misses``."""

    def __init__(self, r: subprocess.CompletedProcess):
        self.returncode, self.stdout, self.stderr = r.returncode, r.stdout, r.stderr
        last = r.stdout.strip().splitlines()[-1:] if r.stdout.strip() else []
        try:
            self.report = json.loads(last[0]) if last else None
        except ValueError:
            self.report = None

    @property
    def warnings(self) -> list[str]:
        """The lines on stderr (the cache says each failure as one warning line)."""
        return [ln for ln in self.stderr.splitlines() if ln.strip()]

    def __repr__(self) -> str:
        return (f"Run(returncode={self.returncode}, stdout={self.stdout[-500:]!r}, "
                f"stderr={self.stderr[-2000:]!r})")


def run_kernels(kernels: Path, home: Path, *, preexec=None, **env: str) -> Run:
    """A fresh process that imports the kernel module of ``kernels`` and calls both kernels,
    in a clean environment (``HOME`` and ``TMPDIR`` in ``home``, no variable of the caller's)
    plus ``env``; ``KNIGHTGUI_CACHE_DIR`` and the rest are the test's to give."""
    (home / "tmp").mkdir(parents=True, exist_ok=True)
    base = {"PATH": "/usr/bin:/bin", "HOME": str(home), "TMPDIR": str(home / "tmp"),
            "PYTHONPATH": str(kernels), "PYTHONDONTWRITEBYTECODE": "1"}
    r = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True,
                       timeout=300, env={**base, **env}, cwd=str(home), preexec_fn=preexec)
    return Run(r)


def assert_right(run: Run, max_warnings: int = 1) -> Run:
    """The child gave the kernels' answer, with at most ``max_warnings`` lines on stderr."""
    assert run.returncode == 0 and run.report is not None, run
    assert run.report["answer"] == ANSWER, run
    assert len(run.warnings) <= max_warnings, run
    return run


def fill_cache(kernels: Path, home: Path) -> Path:
    """A cache root in ``home`` holding the kernels' entries, sealed, written by one child."""
    root = home / "cache"
    r = assert_right(run_kernels(kernels, home, KNIGHTGUI_CACHE_DIR=str(root)), 0)
    assert r.report["misses"] > 0 and r.report["cache"] == str(root / KEY), r
    assert len(list(entries(root, "*.nbc"))) > 1 and any(entries(root, "*.nbc.seal"))
    return root


def entries(root: Path, pattern: str) -> list[Path]:
    """The cache files under ``root``'s key folder whose name matches ``pattern``."""
    return sorted((root / KEY).rglob(pattern))
