"""Helper processes share a warm-up's stages with the caller: they take from the back, the
caller from the front, and a helper that fails, dies or never starts leaves its stage to the
caller (who never waits for a helper that is gone)."""
from __future__ import annotations

import logging
import sys
import time

import numpy as np
import pytest

from knightgui_core import warmup
from knightgui_core.system.stage_helpers import StageHelpers
from knightgui_core.warmup import STAGES, Stage, warm_up

NAMES = [f"stage {i}" for i in range(6)]


def _helper(tmp_path, answer: str = "done", pause: float = 0.05) -> list[str]:
    """A helper that writes each name it is given to ``got`` and answers ``answer``."""
    got = tmp_path / "got"
    script = (f"import sys, time\n"
              f"for line in sys.stdin:\n"
              f"    open({str(got)!r}, 'a').write(line)\n"
              f"    time.sleep({pause})\n"
              f"    print({answer!r}, line.strip(), flush=True)\n")
    return [sys.executable, "-c", script]


def _take_all(pool: StageHelpers) -> list[str]:
    out = []
    while (name := pool.take()) is not None:
        out.append(name)
    pool.close()
    return out


@pytest.mark.timeout(60)
def test_the_helper_takes_from_the_back_and_the_caller_gets_every_stage_once(tmp_path):
    pool = StageHelpers(_helper(tmp_path, pause=0.3), NAMES, 1)
    taken = _take_all(pool)
    assert sorted(taken) == sorted(NAMES)                 # each stage once, none lost
    assert taken[0] == NAMES[0]                           # the caller starts at the front
    assert pool.by_helpers and pool.by_helpers[0] == NAMES[-1]   # the helper at the back
    given = (tmp_path / "got").read_text().splitlines()
    assert given == pool.by_helpers == [n for n in reversed(NAMES) if n in given]


@pytest.mark.timeout(60)
def test_a_wanted_stage_comes_first_unless_a_helper_runs_it(tmp_path):
    pool = StageHelpers(_helper(tmp_path, pause=1.0), NAMES, 1)
    assert pool.take([NAMES[3], NAMES[-1]]) == NAMES[3]   # the last one runs in the helper
    rest = _take_all(pool)
    assert sorted(rest + [NAMES[3]]) == sorted(NAMES)


@pytest.mark.timeout(60)
def test_the_stages_a_feature_waits_for_compile_side_by_side(tmp_path):
    """Two stages wanted: the caller takes the first, the helper the other (not the back),
    and the caller then waits for the helper's stage rather than starting one not wanted."""
    pool = StageHelpers(_helper(tmp_path, pause=1.0), NAMES, 1, wanted=[NAMES[1], NAMES[2]])
    assert pool.take([NAMES[1], NAMES[2]]) == NAMES[1]
    got = tmp_path / "got"
    while not got.exists():
        time.sleep(0.01)
    assert got.read_text().splitlines() == [NAMES[2]]
    assert pool.take([NAMES[2]]) == NAMES[2]          # after the helper, not NAMES[0]
    assert pool.by_helpers == [NAMES[2]]
    rest = _take_all(pool)
    assert sorted(rest + NAMES[1:3]) == sorted(NAMES)


@pytest.mark.timeout(60)
def test_a_failed_stage_is_the_callers_and_never_given_to_a_helper_again(tmp_path):
    pool = StageHelpers(_helper(tmp_path, answer="failed"), NAMES, 1)
    assert sorted(_take_all(pool)) == sorted(NAMES)
    assert pool.by_helpers == []
    given = (tmp_path / "got").read_text().splitlines()
    assert len(given) == len(set(given)) >= 1


@pytest.mark.timeout(60)
@pytest.mark.parametrize("command", [[sys.executable, "-c", "import sys; sys.exit(3)"],
                                     ["/nonexistent/knightgui-helper"]])
def test_a_helper_that_dies_or_never_starts_leaves_everything_to_the_caller(command):
    pool = StageHelpers(command, NAMES, 2)
    assert sorted(_take_all(pool)) == sorted(NAMES)
    assert pool.by_helpers == []


def test_stages_of_the_callers_own_run_here_in_their_order():
    ran: list[str] = []
    fake = [Stage(n, lambda n=n: ran.append(n), ()) for n in NAMES]
    warm_up(stages=fake, jobs=4)
    assert ran == NAMES


def _helper_lines(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if "helper process compiled" in r.getMessage()]


@pytest.mark.jit_only
@pytest.mark.timeout(600)
def test_a_parallel_warm_up_reports_every_stage_and_a_helper_takes_the_last(monkeypatch,
                                                                             caplog):
    """The engine's own stages with one helper process, started as soon as something
    compiles during the warm-up (here a fresh function, compiled as the second stage is
    reported): every stage is reported and run here, the helper did the last."""
    from numba import njit
    monkeypatch.setattr(warmup, "SLOW_STAGE", 0.0)

    @njit
    def fresh(a):                                  # never cached: it compiles here
        return np.unique(np.sort(a)).size + np.argmax(np.cumsum(a))

    reports: list[tuple[int, int, str]] = []

    def progress(*report) -> None:
        reports.append(report)
        if report[0] == 1 and report[2]:
            fresh(np.arange(5.0))

    with caplog.at_level(logging.INFO, logger="knightgui.warmup"):
        warm_up(progress, jobs=2)
    assert reports[-1] == (len(STAGES), len(STAGES), "")
    started = [name for _, _, name in reports if name]
    assert sorted(set(started)) == sorted(s.name for s in STAGES)
    by_helper = _helper_lines(caplog)
    assert by_helper and STAGES[-1].name in by_helper[0]


@pytest.mark.jit_only
@pytest.mark.timeout(600)
def test_a_warm_restart_starts_no_helper(caplog):
    """With every kernel in the cache (the suite's is warm) nothing compiles, so no helper
    process is started, however long a stage takes to load on a busy machine: a helper
    would only load the same kernels."""
    warm_up(jobs=2)                                  # whatever was not loaded yet
    with caplog.at_level(logging.INFO, logger="knightgui.warmup"):
        warm_up(jobs=2)
    assert _helper_lines(caplog) == []


def test_the_helper_loop_answers_each_stage(monkeypatch, capsys):
    ran: list[str] = []
    fake = (Stage("a", lambda: ran.append("a"), ()), Stage("b", lambda: 1 / 0, ()))
    monkeypatch.setattr(warmup, "STAGES", fake)
    warmup._serve(["a\n", "b\n"])
    assert capsys.readouterr().out.splitlines() == ["done a", "failed b"]
    assert ran == ["a"]
