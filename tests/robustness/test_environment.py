"""Hostile environment variables: each is refused with one warning line and the default is
used, or (a frozen app without its compiled kernels) one clear line; never a traceback."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from knightgui_core.system.environment import MAX_THREADS, check_environment

CMD = [sys.executable, "-m", "knightgui", "solve", "--rows", "8", "--cols", "8", "--json"]


def _solve(env):
    """Run a solve with ``env`` on top of a clean environment: none of the caller's NUMBA_ or
    KNIGHTGUI_ settings, and no PYTHONPATH (under ``make bundle-test`` it points at the
    compiled kernels, which the "aot without its module" case must not find)."""
    e = {k: v for k, v in os.environ.items()
         if not k.startswith(("NUMBA_", "KNIGHTGUI_")) and k != "PYTHONPATH"}
    e.update(env)
    return subprocess.run(CMD, env=e, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("env", [
    {"NUMBA_NUM_THREADS": "0"}, {"NUMBA_NUM_THREADS": "-3"}, {"NUMBA_NUM_THREADS": "abc"},
    {"NUMBA_NUM_THREADS": str(10**40)}, {"NUMBA_BOUNDSCHECK": "maybe"},
    {"NUMBA_OPT": "11"}, {"NUMBA_THREADING_LAYER": "bogus"}, {"NUMBA_DISABLE_JIT": "yes"},
    {"KNIGHTGUI_KERNELS": "bogus"}, {"KNIGHTGUI_KERNELS": "aot"},
    {"KNIGHTGUI_CACHE_DIR": ""}, {"KNIGHTGUI_CACHE_DIR": "/dev/null"},
])
def test_bad_value_is_one_warning_and_the_default(env):
    r = _solve(env)
    assert "Traceback" not in r.stderr, r.stderr
    assert r.returncode == 0, r.stderr
    # a value that sends the kernels to another cache may compile them: that notice is no
    # warning (it shows in a fresh checkout, whose fallback cache is still empty)
    warnings = [ln for ln in r.stderr.splitlines()
                if ln.strip() and "compiling the engine (once)" not in ln]
    assert len(warnings) <= 1 and all(ln.startswith("knightgui: warning:") for ln in warnings)
    if env != {"KNIGHTGUI_CACHE_DIR": ""}:
        assert len(warnings) == 1, r.stderr
    assert '"valid":true' in r.stdout.splitlines()[-1]


def test_check_environment_in_a_dict():
    env = {"NUMBA_NUM_THREADS": "0", "NUMBA_OPT": "3", "NUMBA_BOUNDSCHECK": "1",
           "KNIGHTGUI_CACHE_DIR": " "}
    assert sorted(check_environment(env)) == ["KNIGHTGUI_CACHE_DIR", "NUMBA_NUM_THREADS"]
    assert env == {"NUMBA_OPT": "3", "NUMBA_BOUNDSCHECK": "1"}
    assert check_environment({"NUMBA_NUM_THREADS": str(MAX_THREADS)}) == []
