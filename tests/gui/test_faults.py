"""Faults a user can cause (issue 9): closing the window during a solve, an enumeration or a
study; 200 superseding requests in a row; cancel at random moments. Each ends with no thread
left running, no Qt warning, and a window that still works. `make stress` (KNIGHTGUI_STRESS=1)
runs the long versions."""
from __future__ import annotations

import os
import random
import threading

from PySide6.QtCore import QtMsgType

from knightgui.request.model import Mode
from knightgui.worker import Request
from knightgui_core.board.squares import Board
from knightgui_core.board.tie_rule import TieRule
from knightgui_core.board.tour import check_path

from gui_helpers import BENIGN_QT, wait_until

STRESS = os.environ.get("KNIGHTGUI_STRESS") == "1"
SUPERSEDE = 200
RANDOM_CANCELS = 100 if STRESS else 20


def qt_problems(qtlog):
    return [r.message for r in qtlog.records
            if r.type != QtMsgType.QtDebugMsg and not any(b in r.message for b in BENIGN_QT)]


def still_works(window, qtbot):
    """A fresh 8×8 solve after the fault shows a valid tour."""
    window.results.submit(Request(rows=8, cols=8, start=1))
    wait_until(qtbot, lambda: not window.results.running, timeout=60)
    assert (window.view.rows, window.view.cols) == (8, 8)
    assert window.view.path[0] == 1                    # b1
    assert check_path(window.results.board, window.view.path) is None


def enumeration(rows=10):
    return Request(rows=rows, cols=rows, mode=Mode.EXHAUSTIVE, start=0, keep=500)


def test_close_during_a_huge_single_solve(window, qtbot, qtlog):
    window.results.submit(Request(rows=2000, cols=2000, closed=True, start=0))
    qtbot.wait(30)
    window.close()
    assert not window.worker.isRunning()
    assert qt_problems(qtlog) == []


def test_close_during_an_enumeration(window, qtbot, qtlog):
    window.results.submit(enumeration())
    wait_until(qtbot, lambda: window.results.found > 100, timeout=60)
    window.close()
    assert not window.worker.isRunning()
    assert qt_problems(qtlog) == []


def test_close_during_a_study(window, qtbot, qtlog):
    view = window.open_analysis()
    page = view.page("Move orders")
    page.size_spin.setValue(11)
    page.run_orders()
    # the study runs on the runner's in-process cluster: count threads once its tasks run
    # (the cluster's own threads live as long as the process and are reused)
    wait_until(qtbot, lambda: view.running and page.progress.value() > 0, timeout=60)
    qtbot.wait(100)
    assert view.running                               # closed mid-study
    before = set(threading.enumerate())
    window.close()
    assert not view.running and not view.runner.worker.isRunning()
    assert not view.runner.walker.isRunning()
    # nothing of ours is left running; the runner's cluster may start a helper thread of its
    # own while it cancels (daemon threads, as long-lived as the process)
    new = [t for t in set(threading.enumerate()) - before if t.is_alive()]
    assert all(t.daemon for t in new), [t.name for t in new]
    assert not window.worker.isRunning()
    assert qt_problems(qtlog) == []


def test_200_superseding_requests_in_a_row(window, qtbot, qtlog):
    rng = random.Random(9)
    last = None
    for i in range(SUPERSEDE):
        if i % 3 == 0:
            req = enumeration(rng.choice([8, 9, 10]))
        else:
            n = rng.randint(5, 60)
            req = Request(rows=n, cols=n + rng.randint(0, 3), start=0,
                          tie=TieRule.parse(rng.choice(["phadke", "first", "center-far", "random"])),
                          seed=i, closed=bool(rng.getrandbits(1)) and n % 2 == 0)
        last = req
        window.results.submit(req)
        if i % 20 == 0:
            qtbot.wait(1)             # let some of them start before the next one lands
    if last.mode == "exhaustive":
        window.results.cancel()
    wait_until(qtbot, lambda: window.worker.busy_gen == 0, timeout=60)
    assert window.worker.isRunning()  # idle, waiting for work
    still_works(window, qtbot)
    assert qt_problems(qtlog) == []


def test_cancel_at_random_moments(window, qtbot, qtlog):
    rng = random.Random(3)
    for _ in range(RANDOM_CANCELS):
        req = enumeration(rng.choice([8, 10])) if rng.random() < 0.7 else \
            Request(rows=300, cols=300, closed=True, start=Board(300, 300).parse("c3"))
        window.results.submit(req)
        qtbot.wait(rng.randint(0, 60))
        window.results.cancel()
        assert not window.results.running
    wait_until(qtbot, lambda: window.worker.busy_gen == 0, timeout=30)
    still_works(window, qtbot)
    assert qt_problems(qtlog) == []
