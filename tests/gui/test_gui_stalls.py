"""The GUI thread never stalls for half a second (issue 35): choosing wrapping edges or another
piece built the neighbour table on the GUI thread (its kernel loads numba: 0.7–1.5 s), and the first
opening of the Analysis view imported the studies and made every plot at once (1.3–2 s).

Each case runs in a fresh process (numba not loaded yet, the kernel cache warm), with a 20 ms
heartbeat timer whose longest gap is the longest stall of the event loop."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

PRELUDE = r"""
import json, os, sys, time
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
app = QApplication([])
from knightgui.settings import use_folder
use_folder(os.environ["XDG_CONFIG_HOME"])     # the test's own tmp_path
from knightgui.window.main import MainWindow
w = MainWindow(restore_settings=False)
w.resize(1280, 820)
w.show()
c = w.controls
beat = {"last": 0.0, "max": 0.0}
def tick():
    now = time.perf_counter()
    beat["max"] = max(beat["max"], now - beat["last"])
    beat["last"] = now
hb = QTimer()
hb.setInterval(20)
hb.timeout.connect(tick)
def measure(action, until, timeout=60.0):
    app.processEvents()
    beat["last"], beat["max"] = time.perf_counter(), 0.0
    hb.start()
    action()
    t0 = time.perf_counter()
    while not until() and time.perf_counter() - t0 < timeout:
        app.processEvents()
        time.sleep(0.002)
    end = time.perf_counter() + 0.3        # what follows the action, a moment more
    while time.perf_counter() < end:
        app.processEvents()
        time.sleep(0.002)
    hb.stop()
    return beat["max"]
"""

EDGES = PRELUDE + r"""
import threading
from functools import cached_property
from knightgui_core.board.squares import Board
on_gui = []                     # a neighbour table built: on the GUI thread?
table = Board.neighbours.func
def neighbours(self):
    on_gui.append(threading.current_thread() is threading.main_thread())
    return table(self)
Board.neighbours = cached_property(neighbours)
Board.neighbours.__set_name__(Board, "neighbours")
out = {}
def edges():
    c.closed.setChecked(True)
    c.topology.setCurrentIndex(c.topology.findData("cylinder"))
out["cylinder"] = measure(edges, lambda: True)
out["ends"] = list(c.model.end_choices())
def piece():
    c.piece.setCurrentIndex(c.piece.findData("2,3"))
    c.topology.setCurrentIndex(c.topology.findData("torus"))
out["zebra torus"] = measure(piece, lambda: True)
out["tables on the GUI thread"] = sum(on_gui)
out["note"] = c.note.text()
print("RESULT " + json.dumps(out), flush=True)
"""

ANALYSIS = PRELUDE + r"""
out = {"said": ""}
def trigger():
    w.act.analysis.trigger()
    out["said"] = w.statusBar().currentMessage()
def ready():
    v = w.analysis
    return v is not None and not v._waiting
out["gap"] = measure(trigger, ready)
v = w.analysis
out["visible"] = v is not None and v.isVisible()
out["pages"] = sorted(v._built) if v is not None else []
print("RESULT " + json.dumps(out), flush=True)
"""


def _run(script: str, tmp_path) -> dict:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path))
    r = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                       text=True, timeout=300)
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("RESULT ")]
    assert r.returncode == 0 and lines, r.stderr[-3000:]
    return json.loads(lines[-1][7:])


@pytest.fixture(scope="module")
def warm_tables():
    """The kernel cache holds the wrapping boards' table (so a stall would be loading, not
    compiling)."""
    from knightgui_core.board.squares import Board
    for board in (Board(8, 8, "cylinder"), Board(8, 8, "torus", (2, 3))):
        assert board.neighbours.shape == (64, 8)


def test_wrapping_edges_and_another_piece_never_build_a_table_on_the_gui_thread(
        tmp_path, warm_tables):
    out = _run(EDGES, tmp_path)
    assert out["tables on the GUI thread"] == 0, out
    assert out["cylinder"] < 0.5 and out["zebra torus"] < 0.5, out
    # the end squares of a closed tour from a8 on the cylinder, the moves across the edge
    # (to g7 and h6) among them
    assert sorted(out["ends"]) == ["b6", "c7", "g7", "h6"], out["ends"]


@pytest.mark.slow
def test_the_first_analysis_view_says_it_prepares_and_never_freezes(tmp_path, warm_tables):
    out = _run(ANALYSIS, tmp_path)
    assert out["said"] == "Preparing the Analysis view…"
    from knightgui.analysis.pages import PAGES
    assert out["visible"] and out["pages"] == sorted(p.title for p in PAGES)
    assert out["gap"] < 0.5, f"the GUI thread stalled {out['gap']:.2f} s"
