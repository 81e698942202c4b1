"""The command line says "knightgui: compiling the engine (once)…" on stderr when a compile
takes over a second (an empty cache), never on stdout and never when the kernels come from
the cache; ``knightgui warmup`` compiles every stage once, with its progress on stderr."""
import json
import os
import subprocess
import sys

import pytest

from knightgui.compile_notice import NOTICE

# numba compiles only in the jit mode: the bundle's kernels (KNIGHTGUI_KERNELS=aot) are built
# ahead of time, so there is nothing to announce there
pytestmark = pytest.mark.jit_only

_CLI = [sys.executable, "-m", "knightgui"]


def _run(argv, cache, timeout=300):
    env = dict(os.environ, KNIGHTGUI_CACHE_DIR=str(cache))
    return subprocess.run(_CLI + argv, env=env, capture_output=True, text=True,
                          timeout=timeout)


def test_an_empty_cache_is_said_on_stderr_once_and_never_in_json(tmp_path):
    r = _run(["solve", "--rows", "5", "--cols", "5", "--json"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stderr.splitlines() == [NOTICE]
    assert NOTICE not in r.stdout
    assert json.loads(r.stdout)["valid"] is True          # stdout is the JSON object alone
    again = _run(["solve", "--rows", "5", "--cols", "5", "--json"], tmp_path)
    assert again.returncode == 0 and again.stderr == ""   # loaded from the cache: nothing said
    assert json.loads(again.stdout)["path"] == json.loads(r.stdout)["path"]
    refused = _run(["solve", "--rows", "0", "--cols", "5"], tmp_path / "other")
    assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1   # its one line


def test_warmup_reports_each_stage_n_of_m(capsys, monkeypatch):
    """``knightgui warmup`` as the command line runs it, on the engine's stages with their
    work left out: the command runs each stage once and says it, n of m, on stderr. That
    each stage leaves its kernels compiled is tests/core/test_warmup.py's."""
    from knightgui.cli import run
    from knightgui_core import warmup
    ran = []
    stages = tuple(warmup.Stage(s.name, lambda name=s.name: ran.append(name), s.kernels)
                   for s in warmup.STAGES)
    monkeypatch.setattr(warmup, "STAGES", stages)
    assert run(["warmup"]) == 0
    out, err = capsys.readouterr()
    lines = err.splitlines()
    m = len(stages)
    want = [f"knightgui: preparing the engine — {n} of {m} ({s.name})"
            for n, s in enumerate(stages)]
    assert lines[:-1] == want, lines
    assert lines[-1].startswith("knightgui: the engine is ready (") and out == ""
    assert ran == [s.name for s in stages]
