"""The engine's one warm-up: named stages, one per feature of the window, that together call
every exported kernel, reported n of m through a callback."""
import json
import subprocess
import sys
import threading

import pytest

from knightgui_core import kernel_exports, warmup
from knightgui_core.warmup import STAGES, Stage, warm_up


@pytest.mark.jit_only
def test_warm_up_loads_the_window_kernels():
    from knightgui_core.studies.orders.tree_kernel import orders_tree
    from knightgui_core.studies.orders.walk_kernel import one_walk
    from knightgui_core.tietree.enumeration import bitboard_kernel as k64
    from knightgui_core.tietree.enumeration import enumerate_kernel as k
    from knightgui_core.walks import walk_kernel as walk

    assert warm_up() >= 0.0
    for fn in (k.advance_kernel, k.collect_kernel, k.count_kernel, k64.advance_bits,
               k64.collect_bits, k64.count_bits, k64.count_batch_bits, walk.greedy_walk,
               orders_tree, one_walk):
        assert fn.signatures, fn


def test_core_has_one_warm_up():
    """No other module of the engine or the app defines a warm-up of its own."""
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[2]
    found = [str(p.relative_to(root)) for d in ("core", "knightgui") for p in (root / d).rglob("*.py")
             if re.search(r"^def (warm_up|exercise)\b", p.read_text(), re.M)]
    assert found == ["core/warmup.py"], found


def test_the_stages_name_every_exported_kernel_once_named():
    every = {f"{m}.{n}" for m, names in kernel_exports.EXPORTS.items() for n in names}
    named = [k for s in STAGES for k in s.kernels]
    assert set(named) == every, (sorted(every - set(named)), sorted(set(named) - every))
    names = [s.name for s in STAGES]
    assert len(set(names)) == len(names) and all(names)
    # the window's features, each its own stage (what the status bar names while it waits)
    for feature in ("tours", "closed tours", "every tie followed", "watch", "backtracking",
                    "other boards and pieces", "huge boards", "move orders",
                    "tie-break studies", "tour counts", "every tour"):
        assert feature in names


_CHILD = r"""
import json, sys
from numba.core.registry import CPUDispatcher
from knightgui_core import kernel_exports as ex, warmup

def compiled():
    out = set()
    for mod, names in ex.EXPORTS.items():
        m = sys.modules.get("knightgui_core." + mod)
        for n in names:
            if m is not None and ex.python_signatures(getattr(m, n)):
                out.add(mod + "." + n)
    return sorted(out)

calls = []
warmup.warm_up(lambda done, total, name: calls.append([done, total, name, compiled()]))
print(json.dumps(calls))
"""


@pytest.mark.jit_only
def test_progress_counts_n_of_m_and_each_stage_leaves_its_kernels_compiled():
    """In a fresh process (nothing compiled or loaded before): the callback counts 0, 1, …, m
    with the stage starting, and when a stage is reported done, every kernel it names has its
    signature; at the end, every exported kernel has."""
    r = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True,
                       timeout=900)
    assert r.returncode == 0, r.stderr[-2000:]
    calls = json.loads(r.stdout.strip().splitlines()[-1])
    m = len(STAGES)
    assert [c[0] for c in calls] == list(range(m + 1))          # monotonic, one step each
    assert {c[1] for c in calls} == {m}
    assert [c[2] for c in calls] == [s.name for s in STAGES] + [""]
    assert calls[0][3] == []                                   # nothing before the first
    for stage, after in zip(STAGES, calls[1:]):
        missing = set(stage.kernels) - set(after[3])
        assert not missing, (stage.name, sorted(missing))
    every = {f"{m}.{n}" for m, names in kernel_exports.EXPORTS.items() for n in names}
    assert set(calls[-1][3]) == every


def _fake(names, ran, fail=()):
    def make(name):
        def run():
            ran.append(name)
            if name in fail:
                raise RuntimeError(name)
        return run
    return [Stage(n, make(n), ()) for n in names]


def test_stages_asked_for_go_first_and_a_failing_stage_still_counts():
    ran: list[str] = []
    calls: list[tuple] = []
    wanted: list[str] = []

    def progress(done, total, name):
        calls.append((done, total, name))
        if name == "b":
            wanted.append("d")            # a feature asks for d while b runs
    warm_up(progress, _fake("abcd", ran, fail="b"), first=lambda: wanted)
    assert ran == ["a", "b", "d", "c"]
    assert calls == [(0, 4, "a"), (1, 4, "b"), (2, 4, "d"), (3, 4, "c"), (4, 4, "")]
    with pytest.raises(RuntimeError, match="b"):
        warm_up(None, _fake("abc", [], fail="b"), strict=True)


def test_each_stage_is_named_before_it_runs_even_if_asked_for_at_the_start():
    """A feature asked for after the first report but before the first stage (the window
    asks while numba loads) runs first and is the stage the report names: the window marks
    a stage done by the name reported before it."""
    ran: list[str] = []
    calls: list[tuple] = []
    wanted: list[str] = []

    def progress(done, total, name):
        calls.append((done, name, tuple(ran)))
        wanted[:] = ["c"]                 # asked for once the first report is shown
    warm_up(progress, _fake("abc", ran), first=lambda: wanted)
    assert ran == ["c", "a", "b"]
    started = [(n, r) for d, n, r in calls if n]
    for stage in ran:        # the last name reported before a stage runs is that stage
        before = [n for n, r in started if stage not in r and len(r) == ran.index(stage)]
        assert before[-1] == stage, (stage, calls)
    assert calls[-1] == (3, "", ("c", "a", "b"))


def test_a_failing_progress_callback_stops_nothing():
    ran: list[str] = []

    def progress(done, total, name):
        raise ValueError("a display that broke")
    warm_up(progress, _fake("ab", ran))
    assert ran == ["a", "b"]


def test_with_kernels_compiled_ahead_of_time_nothing_runs(monkeypatch):
    """The bundle has no numba: its warm-up reports every stage done and runs none."""
    ran: list[str] = []
    calls: list[tuple] = []
    monkeypatch.setattr(warmup, "STAGES", tuple(_fake("abc", ran)))
    monkeypatch.setattr(warmup, "compiled_ahead", lambda: True)
    warm_up(lambda *c: calls.append(c))
    assert ran == [] and calls == [(0, 3, "a"), (3, 3, "")]


def test_first_is_read_from_another_thread_between_stages():
    """What the window does: the stages a feature waits for are set from the GUI thread
    while the warm-up runs in its own."""
    gate = threading.Event()
    ran: list[str] = []
    wanted: tuple[str, ...] = ()
    stages = [Stage("a", gate.wait, ()), *_fake("bcd", ran)]
    t = threading.Thread(target=warm_up, args=(None, stages),
                         kwargs={"first": lambda: wanted})
    t.start()
    wanted = ("c", "d")
    gate.set()
    t.join(30)
    assert ran == ["c", "d", "b"]
