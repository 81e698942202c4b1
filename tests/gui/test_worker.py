"""The solver thread: newest request wins, cancel is prompt, closing mid-run is clean (no
thread left, no Qt warnings)."""
from __future__ import annotations

import threading
import time

from PySide6.QtCore import QtMsgType

from knightgui.request.model import Mode
from knightgui.worker import Request, SolverThread
from knightgui_core.board.squares import Board

from gui_helpers import BENIGN_QT, wait_until

A8 = Board(8, 8)          # requests carry flat indices: a1 is 0 on every board
LONG = Request(rows=10, cols=10, mode=Mode.EXHAUSTIVE, start=0, keep=500)  # ~10^8+ tours


def _qt_problems(qtlog):
    return [r.message for r in qtlog.records
            if r.type != QtMsgType.QtDebugMsg and not any(b in r.message for b in BENIGN_QT)]


def test_cancel_mid_enumeration_leaves_the_thread_idle(qtbot):
    w = SolverThread()
    progress = []
    w.progress.connect(lambda g, st: progress.append(st))
    gen = w.submit(LONG)
    wait_until(qtbot, lambda: progress and progress[-1].solutions > 1000, timeout=60)
    t0 = time.monotonic()
    w.cancel()
    wait_until(qtbot, lambda: w.busy_gen == 0, timeout=5)
    assert time.monotonic() - t0 < 1.0               # abort between bounded chunks
    n = len(progress)
    qtbot.wait(150)
    assert all(p is not None for p in progress) and len(progress) <= n + 1
    assert w.isRunning()                             # idle, waiting for work
    assert w.stop(5000) and not w.isRunning()
    assert gen < w.generation


def test_newest_request_supersedes_the_running_one(qtbot):
    w = SolverThread()
    seen = []
    w.tourSolved.connect(lambda g, res: seen.append((g, res)))
    w.finishedRun.connect(lambda g, st: seen.append((g, st)))
    w.submit(LONG)
    qtbot.wait(100)
    gen = w.submit(Request(rows=8, cols=8, start=0))
    wait_until(qtbot, lambda: any(g == gen for g, _ in seen), timeout=60)
    assert [g for g, _ in seen] == [gen]             # the long run never reported an end
    assert seen[0][1].ok
    assert w.stop(5000)


def test_closing_the_window_mid_run_is_clean(window, qtbot, qtlog):
    c = window.controls
    c.mode.setCurrentIndex(c.mode.findData("exhaustive"))
    c.closed.setChecked(False)
    c.rows.setValue(10)
    c.start.setText("a1")
    c.start.editingFinished.emit()
    c.keep.setValue(500)
    window.solve()
    wait_until(qtbot, lambda: window.results.found > 1000, timeout=60)
    assert window.worker.isRunning() and window.results.running
    threads_before = threading.active_count()
    t0 = time.monotonic()
    window.close()
    assert time.monotonic() - t0 < 2.0
    assert not window.worker.isRunning()
    assert threading.active_count() <= threads_before
    assert _qt_problems(qtlog) == []


def test_cancel_button_in_the_window(window, qtbot, qtlog):
    c = window.controls
    c.mode.setCurrentIndex(c.mode.findData("exhaustive"))
    c.rows.setValue(10)
    c.start.setText("a1")
    c.start.editingFinished.emit()
    c.keep.setValue(300)
    window.solve()
    assert c.cancel_btn.isEnabled()
    wait_until(qtbot, lambda: len(window.results.store) >= 300, timeout=60)
    c.cancel_btn.click()
    assert not window.results.running and not c.cancel_btn.isEnabled()
    assert "Cancelled" in window.counter.text()
    wait_until(qtbot, lambda: window.worker.busy_gen == 0, timeout=5)
    found = window.results.found
    qtbot.wait(100)
    assert window.results.found == found             # a cancelled run reports nothing more
    assert window.results.next()                     # stored solutions stay steppable
    assert "Cancelled" in window.counter.text()
    assert _qt_problems(qtlog) == []


def test_engine_refusal_becomes_a_dialog(window, qtbot, dialogs):
    from knightgui.worker import Request
    window.results.submit(Request(rows=8, cols=8, mode=Mode.EXHAUSTIVE, start=A8.parse("a8"),
                                  end=A8.parse("e4"), closed=True))
    wait_until(qtbot, lambda: not window.results.running, timeout=30)
    assert dialogs and dialogs[-1][0] == "Cannot solve"
    assert "knight move" in dialogs[-1][1]


def test_studies_follow_the_same_request_restart_abort_pattern(qtbot):
    from knightgui.worker import StudyRequest
    w = SolverThread()
    done, progress = [], []
    w.studyDone.connect(lambda g, r: done.append((g, r)))
    w.studyProgress.connect(lambda g, d, t: progress.append((g, d, t)))

    def slow(progress, cancel):
        n = 0
        while not cancel():
            n += 1
            time.sleep(0.001)
            progress(n, 10**9)
        return ("partial", n)

    g1 = w.submit(StudyRequest("slow", slow))
    wait_until(qtbot, lambda: progress, timeout=30)
    g2 = w.submit(StudyRequest("quick", lambda progress, cancel: "quick"))   # supersedes
    wait_until(qtbot, lambda: any(g == g2 for g, _ in done), timeout=30)
    assert (g2, "quick") in done
    first = [r for g, r in done if g == g1]
    assert first and first[0][0] == "partial" and first[0][1] > 0   # the old run stopped
    assert all(g in (g1, g2) for g, _, _ in progress)
    # cancel: the thread stays, idle, and the cancelled study's partial result is sent
    g3 = w.submit(StudyRequest("slow", slow))
    wait_until(qtbot, lambda: any(g == g3 for g, _, _ in progress), timeout=30)
    t0 = time.monotonic()
    w.cancel()
    wait_until(qtbot, lambda: any(g == g3 for g, _ in done), timeout=5)
    assert time.monotonic() - t0 < 1.0
    assert w.isRunning()
    assert w.stop(5000) and not w.isRunning()


def test_a_request_superseding_a_huge_exhaustive_build_is_served_and_the_build_dropped(qtbot):
    """An exhaustive request on a large board spends its first moments building tables; a
    newer request arriving then must not wait for the whole build (it is asked to stop
    between stages) and the dropped build reports nothing."""
    w = SolverThread()
    seen = []
    w.tourSolved.connect(lambda g, res: seen.append((g, res)))
    w.finishedRun.connect(lambda g, st: seen.append((g, st)))
    w.progress.connect(lambda g, st: seen.append((g, st)))
    w.failed.connect(lambda g, msg, bad: seen.append((g, msg)))
    w.submit(Request(rows=1500, cols=1500, mode=Mode.EXHAUSTIVE, start=0, keep=10))
    wait_until(qtbot, lambda: w.busy_gen != 0, timeout=10)
    gen = w.submit(Request(rows=8, cols=8, start=0))
    wait_until(qtbot, lambda: any(g == gen for g, _ in seen), timeout=60)
    assert {g for g, _ in seen} == {gen}             # the big request never reported
    assert w.stop(5000)
