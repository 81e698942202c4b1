"""Quitting the window after an Analysis study takes under a second and leaves no process
behind (issue 35: ~4 s, most of it the interpreter's clean-up after numba, distributed and the
widgets, and the graceful close of a local Dask cluster). The application runs in a process of
its own, through ``knightgui.app.main`` as a user starts it."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

SCRIPT = r"""
import json, multiprocessing, sys, time
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
app = QApplication(["knightgui"])
from knightgui import app as kapp

def study():
    win = next(w for w in app.topLevelWidgets() if type(w).__name__ == "MainWindow")
    view = win.open_analysis()
    page = view.show_page("Move orders")
    page.size_spin.setValue(5)
    page.run()

    def poll():
        if view.running or page.orders_result is None:
            QTimer.singleShot(50, poll)
            return
        if sys.argv[1] == "processes":      # the Tour counts page's 'processes' scheduler
            from knightgui_core.run import clusters
            clusters.local_client("processes", 1).submit(sum, [1, 2]).result()
        kids = [p.pid for p in multiprocessing.active_children()]
        print("KIDS " + json.dumps(kids), flush=True)
        print(f"CLOSE {time.time():.6f}", flush=True)
        win.close()
    poll()

QTimer.singleShot(300, study)
raise SystemExit(kapp.main([]))
"""


def _quit_after_study(tmp_path, mode: str) -> tuple[float, list[int], subprocess.Popen]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT, mode], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    kids: list[int] = []
    closed = None
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("KIDS "):
            kids = json.loads(line[5:])
        if line.startswith("CLOSE "):
            closed = float(line.split()[1])
            break
    try:
        proc.wait(timeout=60)
    finally:
        proc.kill()
    ended = time.time()
    assert closed is not None, proc.stderr.read() if proc.stderr else ""
    return ended - closed, kids, proc


def _gone(pid: int) -> bool:
    """No such process, or a zombie waiting for init to reap it."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except (FileNotFoundError, ProcessLookupError):
        return True


@pytest.mark.slow
def test_quitting_after_a_study_takes_under_a_second(tmp_path):
    seconds, _kids, proc = _quit_after_study(tmp_path, "threads")
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
    assert seconds < 1.0, f"quitting took {seconds:.2f} s"


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_quitting_with_a_cluster_of_processes_is_quick_and_leaves_none(tmp_path):
    seconds, kids, proc = _quit_after_study(tmp_path, "processes")
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
    assert kids, "the cluster of processes made no worker process"
    assert seconds < 1.0, f"quitting took {seconds:.2f} s"
    deadline = time.monotonic() + 5.0
    while not all(_gone(p) for p in kids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(_gone(p) for p in kids), [p for p in kids if not _gone(p)]
