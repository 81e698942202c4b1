"""Hostile environment variables: each is refused with one warning line and the default is
used, or (a frozen app without its compiled kernels) one clear line; never a traceback."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from knightgui_core.system.environment import MAX_THREADS, check_environment

#: the hostile values; each process below takes one value of each variable at most (numba
#: reads its variables once, at import), every value of every variable in some process
BAD = [
    {"NUMBA_NUM_THREADS": "0", "NUMBA_BOUNDSCHECK": "maybe", "KNIGHTGUI_KERNELS": "bogus",
     "KNIGHTGUI_CACHE_DIR": ""},
    {"NUMBA_NUM_THREADS": "-3", "NUMBA_OPT": "11", "KNIGHTGUI_KERNELS": "aot",
     "KNIGHTGUI_CACHE_DIR": "/dev/null"},
    {"NUMBA_NUM_THREADS": "abc", "NUMBA_THREADING_LAYER": "bogus"},
    {"NUMBA_NUM_THREADS": str(10**40), "NUMBA_DISABLE_JIT": "yes"},
]


def _says(name, value):
    """What the warning line about ``name=value`` holds (a cache folder that cannot be used
    is named by its path, where the cache is chosen)."""
    return "/dev/null" if value == "/dev/null" else f"{name}="


def _check(env, tmp_path):
    """Run ``knightgui check`` on a tour file (a command that imports the engine and runs one
    kernel, quick to compile even in an empty cache) with ``env`` on top of a clean environment:
    none of the caller's NUMBA_ or KNIGHTGUI_ settings, no PYTHONPATH (under ``make
    bundle-test`` it points at the compiled kernels, which the "aot without its module" case
    must not find), and a temporary folder of the test's own (a fallback cache starts empty)."""
    e = {k: v for k, v in os.environ.items()
         if not k.startswith(("NUMBA_", "KNIGHTGUI_")) and k not in ("PYTHONPATH", "TMPDIR")}
    (tmp_path / "tmp").mkdir()
    e.update(env, TMPDIR=str(tmp_path / "tmp"))
    tour = tmp_path / "tour.json"
    tour.write_text(json.dumps({"format": "knightgui-tour", "version": 1, "rows": 5, "cols": 5,
                                "closed": False, "path": _FIVE}))
    return subprocess.run([sys.executable, "-m", "knightgui", "check", "--json", str(tour)],
                          env=e, capture_output=True, text=True, timeout=600)


#: an open tour of the 5×5 board, as (row, column) pairs
_FIVE = [[0, 0], [2, 1], [4, 0], [3, 2], [4, 4], [2, 3], [0, 4], [1, 2], [3, 3], [1, 4],
         [0, 2], [1, 0], [3, 1], [4, 3], [2, 4], [0, 3], [1, 1], [3, 0], [4, 2], [3, 4],
         [1, 3], [0, 1], [2, 2], [4, 1], [2, 0]]


@pytest.mark.parametrize("env", BAD, ids=lambda env: "+".join(env))
def test_bad_value_is_one_warning_and_the_default(env, tmp_path):
    """Every bad value of ``env`` is one warning line of its own, and the command runs on the
    defaults: its right answer, no traceback."""
    r = _check(env, tmp_path)
    assert "Traceback" not in r.stderr, r.stderr
    assert r.returncode == 0, r.stderr
    # a value that sends the kernels to another cache may compile them: that notice is no
    # warning (the fallback cache of the test's own temporary folder starts empty)
    warnings = [ln for ln in r.stderr.splitlines()
                if ln.strip() and "compiling the engine (once)" not in ln]
    assert all(ln.startswith("knightgui: warning:") for ln in warnings), r.stderr
    for name, value in env.items():
        said = [ln for ln in warnings if _says(name, value) in ln]
        if (name, value) == ("KNIGHTGUI_CACHE_DIR", ""):
            assert len(said) <= 1, r.stderr
        else:
            assert len(said) == 1, (name, value, r.stderr)
    assert len(warnings) <= len(env), r.stderr
    assert '"valid":true' in r.stdout.splitlines()[-1]


def test_every_variable_is_tried():
    """The processes above try every variable the environment check and the kernel mode
    read."""
    from knightgui_core.system import environment
    names = {n for env in BAD for n in env}
    assert names >= set(environment._CHOICES) | {"NUMBA_NUM_THREADS", "KNIGHTGUI_CACHE_DIR",
                                                 "KNIGHTGUI_KERNELS"}


def test_check_environment_in_a_dict():
    env = {"NUMBA_NUM_THREADS": "0", "NUMBA_OPT": "3", "NUMBA_BOUNDSCHECK": "1",
           "KNIGHTGUI_CACHE_DIR": " "}
    assert sorted(check_environment(env)) == ["KNIGHTGUI_CACHE_DIR", "NUMBA_NUM_THREADS"]
    assert env == {"NUMBA_OPT": "3", "NUMBA_BOUNDSCHECK": "1"}
    assert check_environment({"NUMBA_NUM_THREADS": str(MAX_THREADS)}) == []
