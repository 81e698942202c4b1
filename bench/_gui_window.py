"""The main window's longer measurements for bench/gui.py: solutions kept by the window
against the engine's count (``--keep``), stepping through new tours only (``--new-only``),
Watch on 100×100 (``--watch``); each also runs at the end of the full benchmark."""
from __future__ import annotations

import statistics
import sys
import tempfile
import time

from _gui_common import quiet_offscreen_notices, report
from _targets import check, verdict


def exhaustive(c, size: int, start: str, keep: int = 0) -> None:
    """Set the controls ``c`` to every open tour from ``start`` on a size×size board,
    keeping at least ``keep`` solutions."""
    c.mode.setCurrentIndex(c.mode.findData("exhaustive"))
    c.closed.setChecked(False)
    c.rows.setValue(size)
    c.cols.setValue(size)
    if keep:
        c.keep.setValue(max(c.keep.value(), keep))
    c.start.setText(start)
    c.start.editingFinished.emit()


def main_window(app):
    """The main window on fresh settings, 1400×900, shown."""
    from knightgui.settings import use_folder
    use_folder(tempfile.mkdtemp())
    from knightgui.window.main import MainWindow
    w = MainWindow(restore_settings=False)
    w.resize(1400, 900)
    w.show()
    app.processEvents()
    return w


def step_times(app, action, n: int, cpu: list[float] | None = None) -> list[float]:
    """Wall ms of ``n`` triggers of ``action`` (a key's action), each with the repaint it
    causes; their CPU ms appended to ``cpu``."""
    wall = []
    for _ in range(n):
        t, c0 = time.perf_counter(), time.process_time()
        action.trigger()
        app.processEvents()
        wall.append((time.perf_counter() - t) * 1000)
        if cpu is not None:
            cpu.append((time.process_time() - c0) * 1000)
    return wall


def p95(values: list[float]) -> float:
    return sorted(values)[int(0.95 * len(values))]


def new_only_steps(w, app) -> None:
    """Open tours from a1 on 8×8 (137,300 solutions; a1 lies on a diagonal, so mirror
    images repeat): 2,000 presses of Next with "new tours only" on, each a step to the next
    solution that is no earlier tour turned, mirrored or reversed (canonical forms worked
    out as the steps need them), against 2,000 plain steps."""
    c = w.controls
    exhaustive(c, 8, "a1", keep=137_300)
    c.end.setCurrentIndex(0)
    w.solve()
    t0 = time.monotonic()
    while w.results.running and time.monotonic() - t0 < 300:
        app.processEvents()
        time.sleep(0.001)
    r = w.results
    assert r.exhausted and len(r.store) == 137_300, (r.found, len(r.store))
    for new_only in (False, True):
        r.set_new_only(new_only)
        r.first()
        app.processEvents()
        steps = step_times(app, w.act.next, 2000)
        what = "new tours only" if new_only else "every solution"
        report(f"8×8 a1 open, step ({what}, wall)", steps, 16)
        print(f"{'':<46} wall p95 {p95(steps):.2f} ms; reached solution "
              f"{r.current + 1:,}; {r.classes.classes if r.classes else 0:,} different tours "
              f"among the first {r.classes.classified if r.classes else 0:,}")
    # the second half repeats the first (mirror images): from the last solution, Previous
    # with new tours only must compare every solution kept before it
    t = time.perf_counter()
    w.act.last.trigger()
    app.processEvents()
    secs = time.perf_counter() - t
    print(f"{'8×8 a1 open: Last, said what it repeats':<46} {secs * 1000:8.1f} ms, comparing "
          f"all {len(r.store):,} solutions: {r.tour.method.get('same_as') if r.tour else ''}")
    w.act.prev.trigger()
    app.processEvents()
    report("8×8 a1 open, Previous with new tours only", step_times(app, w.act.prev, 200), 16)
    r.set_new_only(False)


def watch_fps(w, app) -> None:
    """Watch on 100×100 from a1 (open tours): frames painted a second while the search runs,
    at 10,000 moves/s and as fast as painting allows, over 3 s each; the board repaints each
    frame (partial path, marks, counters; the options matrix every 0.1 s)."""
    c = w.controls
    exhaustive(c, 100, "a1")
    w.act.watch.setChecked(True)
    vp = w.view.viewport()
    painted = [0]

    from PySide6.QtCore import QEvent, QObject

    class Count(QObject):
        def eventFilter(self, obj, ev):
            if ev.type() == QEvent.Type.Paint:
                painted[0] += 1
            return False
    counter = Count()
    vp.installEventFilter(counter)
    runs = [(speed, label, None) for speed, label in ((10_000, "10,000 moves/s"), (0, "max"))]
    # the backtracking walk watched: the giraffe on the 100×100 plane backs up all the time
    runs += [(speed, f"backtrack, giraffe, {label}", "1,4")
             for speed, label in ((10_000, "10,000 moves/s"), (0, "max"))]
    for speed, label, leaper in runs:
        if leaper is not None:
            c.model.update(mode="single", method="backtrack", leaper=leaper)
        w.act.watch_speed.setValue(speed)
        w.solve()
        t0 = time.perf_counter()
        painted[0] = 0
        frames0 = w.watcher.frames
        while time.perf_counter() - t0 < 3.0:
            app.processEvents()
            time.sleep(0.001)
        secs = time.perf_counter() - t0
        moves = w.watcher.last.forward_moves if w.watcher.last else 0
        fps = painted[0] / secs
        print(f"{'Watch 100×100, ' + label:<54} {fps:8.1f} board repaints/s "
              f"({(w.watcher.frames - frames0) / secs:.1f} watch frames/s, {moves / secs:,.0f} "
              f"moves/s)  target ≥ 30 frames/s  ratio {30 / max(fps, 1e-9):.2f} "
              f"[{check(f'Watch 100×100, {label}', fps >= 30)}]")
        w.cancel()
    vp.removeEventFilter(counter)
    w.act.watch.setChecked(False)
    c.model.update(mode="single", method="auto", leaper="1,2")


def keep_only(measure=None) -> int:
    from PySide6.QtWidgets import QApplication
    app = QApplication(sys.argv[:1])
    quiet_offscreen_notices()
    w = main_window(app)
    (measure or keep_rate)(w, app)
    w.close()
    return verdict()


def keep_rate(w, app) -> None:
    """Open tours from d5 on 8×8 (510,410 solutions): the window finds and keeps every one
    (solver thread → compact runs → the store), against the engine counting the same run in
    this process. The two alternate, five times each after a warm-up of both, so a load that
    comes and goes on the shared machine falls on both alike; medians. Prints one line,
    then the stepping p95 over the kept run."""
    import random

    from PySide6.QtCore import QEventLoop, QTimer

    from knightgui_core.tietree.enumeration.enumerator import Enumerator
    Enumerator(8, 8, start="d5").block_compact(3)         # compiled / loaded before timing
    c = w.controls
    exhaustive(c, 8, "d5", keep=510_410)

    def count() -> tuple[int, float]:
        en = Enumerator(8, 8, start="d5")
        t0 = time.perf_counter()
        total = en.count()["solutions"]
        return total, time.perf_counter() - t0

    def window_run() -> float:
        loop = QEventLoop()     # the window's own event loop, idle between signals
        w.worker.finishedRun.connect(loop.quit)
        QTimer.singleShot(600_000, loop.quit)
        t0 = time.perf_counter()
        w.solve()
        loop.exec()
        secs = time.perf_counter() - t0
        w.worker.finishedRun.disconnect(loop.quit)
        app.processEvents()
        return secs

    count()
    window_run()                # warm-up: the window's first run paints everything once
    counts, runs = [], []
    for _ in range(5):
        total, secs = count()
        counts.append(secs)
        runs.append(window_run())
    e_rate = total / statistics.median(counts)
    secs = statistics.median(runs)
    store = w.results.store
    kept = len(store)
    assert w.results.found == total == 510_410 and kept == total, (w.results.found, kept)
    r_rate = kept / secs
    mb = store.nbytes() / 2**20
    print(f"window keeps solutions: {r_rate:,.0f}/s; engine counts: {e_rate:,.0f}/s; "
          f"ratio R/E = {r_rate / e_rate:.2f} (target ≥ 0.5: "
          f"{check('window keeps solutions', r_rate / e_rate >= 0.5)}); memory {mb:.1f} MB for "
          f"{kept:,} solutions "
          f"({store.nbytes() / kept:.0f} bytes each, {store.reserved_bytes() / 2**20:.1f} MB "
          f"allocated)")
    steps = []
    rng = random.Random(5)
    for _ in range(300):
        i = rng.randrange(kept)
        t = time.perf_counter()
        w.results.show_solution(i)
        app.processEvents()
        steps.append((time.perf_counter() - t) * 1000)
    print(f"{'d5 open: jump to a random kept solution':<46} p95 "
          f"{p95(steps):.2f} ms over {len(steps)} jumps (target ≤ 16 ms: "
          f"{check('jump to a kept solution', p95(steps) <= 16)})")
