"""Each feature of the window, run in a fresh process after only the warm-up stages the
window says it waits for (``knightgui.window.engine_warmup.stages_for``, ``STUDY_STAGES``), compiles
and loads no kernel of its own: once its stages are done it never pauses for numba."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

_CHILD = r"""
import json, os, sys, time
from PySide6.QtWidgets import QApplication
app = QApplication([])
from numba.core.registry import CPUDispatcher
from knightgui.window import engine_warmup
from knightgui.window.main import MainWindow
from knightgui_core.warmup import STAGES, warm_up

def kernels():
    out = set()
    for name, m in list(sys.modules.items()):
        if name.startswith("knightgui_core"):
            for k, obj in vars(m).items():
                if isinstance(obj, CPUDispatcher) and obj.__module__ == name:
                    out |= {f"{name}.{k}{sig}" for sig in obj.signatures}
    return out

seen = {}
def when_ready(self, names, callback, key):
    seen["stages"] = sorted(set(names))
    warm_up(stages=[s for s in STAGES if s.name in set(names)])
    seen["before"] = kernels()
    callback()
    return True
engine_warmup.EngineWarmUp.when_ready = when_ready

feature = json.loads(sys.argv[1])
win = MainWindow(restore_settings=False)
win.show()
done = []
mark = lambda *a: done.append(1)
if "study" in feature:
    view = win.open_analysis()
    page = view.show_page(feature["study"])
    for attr, value in feature.get("spins", {}).items():
        getattr(page, attr).setValue(value)
    view.runner.worker.studyDone.connect(mark)
    view.runner.worker.failed.connect(mark)
    page.run()
else:
    for step in feature["model"]:
        win.controls.model.update(**step)
    for sig in (win.worker.tourSolved, win.worker.finishedRun, win.worker.failed):
        sig.connect(mark)
    win.act.watch.setChecked(feature.get("watch", False))
    win.solve()
t0 = time.time()
while not done and time.time() - t0 < 300:
    app.processEvents()
    if feature.get("watch") and win.watcher.frames > 3:
        done.append(1)
    time.sleep(0.01)
print(json.dumps({"stages": seen.get("stages"), "done": bool(done),
                  "new": sorted(kernels() - seen.get("before", set()))}))
sys.stdout.flush()
os._exit(0)
"""

FEATURES = {
    "8×8 Solve": {"model": [{}]},
    "100×100 closed": {"model": [{"rows": 100, "cols": 100, "closed": True}]},
    "1000×1000 open": {"model": [{"rows": 1000, "cols": 1000}]},
    "3×40 closed": {"model": [{"rows": 3, "cols": 40, "square": False, "closed": True,
                               "start": "a1"}]},
    "backtrack": {"model": [{"method": "backtrack", "start": "a1"}]},
    "squirrel": {"model": [{"tie": "squirrel", "start": "a1"}]},
    "zebra on the torus": {"model": [{"rows": 10, "cols": 10, "topology": "torus",
                                      "leaper": "2,3", "start": "a1"}]},
    "every tie followed": {"model": [{"mode": "exhaustive", "closed": True, "start": "a8"},
                                     {"end": "c7"}]},
    "every tie followed, 9×9": {"model": [{"rows": 9, "cols": 9, "mode": "exhaustive",
                                           "start": "a1", "limit": 100}]},
    "watch 9×9": {"model": [{"rows": 9, "cols": 9, "mode": "exhaustive", "start": "a1"}],
                  "watch": True},
    "every tie, cylinder": {"model": [{"rows": 6, "cols": 6, "topology": "cylinder",
                                       "mode": "exhaustive", "start": "a1", "limit": 100}]},
    "every tour": {"model": [{"rows": 5, "cols": 5, "mode": "exhaustive", "start": "a1"},
                             {"all_tours": True}]},
    "watch": {"model": [{"rows": 6, "cols": 6, "mode": "exhaustive", "start": "a1"}],
              "watch": True},
    "watch backtracking, torus": {"model": [{"rows": 6, "cols": 6, "topology": "torus",
                                             "leaper": "2,3", "method": "backtrack",
                                             "start": "a1", "closed": True}], "watch": True},
    "move orders": {"study": "Move orders", "spins": {"size_spin": 5}},
    "tie-breaks": {"study": "Tie-breaks", "spins": {"nmax_spin": 8}},
    "tour counts": {"study": "Tour counts", "spins": {"size_spin": 5}},
    "tours by length": {"study": "Tours by length", "spins": {"rows_spin": 5, "to_spin": 8}},
}


@pytest.mark.slow
@pytest.mark.jit_only
@pytest.mark.parametrize("name", list(FEATURES))
def test_a_feature_compiles_nothing_once_its_stages_are_done(name):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    r = subprocess.run([sys.executable, "-c", _CHILD, json.dumps(FEATURES[name])],
                       capture_output=True, text=True, timeout=600, env=env)
    line = next((ln for ln in r.stdout.splitlines() if ln.startswith("{")), None)
    assert line is not None, r.stderr[-2000:]
    got = json.loads(line)
    assert got["done"] and got["stages"], got
    assert got["new"] == [], (got["stages"], got["new"])
