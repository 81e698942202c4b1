"""The first use of each window feature with an empty numba cache.

    .venv/bin/python bench/first_use.py                   # every feature, asked for at launch
    .venv/bin/python bench/first_use.py --scenario both   # and once the warm-up is over
    .venv/bin/python bench/first_use.py --features closed100 orders
    .venv/bin/python bench/first_use.py --code DIR        # another checkout of knightgui

Each feature runs in a fresh process with a fresh cache (``KNIGHTGUI_CACHE_DIR``, a new
temporary folder), in the window (offscreen), after the first frame, with the warm-up
started as the application starts it. Two scenarios:

* ``launch`` — the feature is asked for at once (a newcomer who presses Solve straight away);
* ``ready`` — the feature is asked for once the warm-up thread has ended.

For each run: the seconds from the request to its result, the longest stretch of that wait
with no "preparing the engine" message in the status bar (``silent``), and the longest time
the GUI thread did not answer (``frozen``). Targets: no stretch over 0.5 s without
a progress message at launch, and the README card's features (:data:`CARD`) answered within
15 s of the request at launch; the exit status is 1 when a feature misses one or never ends.
Each run compiles the engine from nothing: run one at a time.
``--code DIR`` runs the checkout in DIR instead of this one (``DIR/knightgui_core`` and
``DIR/knightgui_resources`` must point at its ``core`` and ``resources``).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _targets import check, verdict

ROOT = Path(__file__).resolve().parent.parent
#: the longest wait without "preparing the engine" in the status bar, seconds
TARGET_SILENT = 0.5
#: the features of the README's card (a 100×100 tour, the a8→c7 enumeration whose solution
#: 1981 it shows) answer within this many seconds of the request at launch, empty cache
CARD = ("closed100", "exhaustive")
TARGET_CARD = 15.0

#: feature → what it does in the window (see _trigger)
FEATURES = {
    "solve8": "8×8 tour (Solve with the defaults)",
    "closed100": "100×100 closed tour",
    "closed1000": "1000×1000 closed tour (construction)",
    "backtrack": "8×8 by the backtrack method",
    "squirrel": "8×8, Squirrel–Cull's tie rule",
    "zebra_torus": "10×10 torus, zebra",
    "exhaustive": "8×8 every tie followed, a8→c7 closed",
    "every_tour": "5×5 every tour (any rule) from a1",
    "watch": "Watch: 6×6 every tie followed",
    "watch_torus": "Watch: 6×6 torus zebra, backtracking",
    "orders": "Analysis: move orders, 5×5",
    "tiebreaks": "Analysis: tie-breaks, n ≤ 8",
    "counts": "Analysis: tour counts, 5×5 corners",
}


def _trigger(win, feature: str, done: list) -> None:
    """Ask the window for ``feature``; ``done`` gets an item when its result is in."""
    m = win.controls.model
    mark = lambda *_a: done.append(time.perf_counter())  # noqa: E731
    single = {"solve8": {}, "closed100": dict(rows=100, cols=100, closed=True),
              "closed1000": dict(rows=1000, cols=1000, closed=True),
              "backtrack": dict(method="backtrack", start="a1"),
              "squirrel": dict(tie="squirrel", start="a1"),
              "zebra_torus": dict(rows=10, cols=10, topology="torus", leaper="2,3", start="a1")}
    if feature in single:
        m.update(**single[feature])
        win.worker.tourSolved.connect(mark)
        win.worker.failed.connect(mark)
        win.solve()
    elif feature in ("exhaustive", "every_tour"):
        if feature == "exhaustive":
            m.update(mode="exhaustive", closed=True, start="a8")
            m.update(end="c7")
        else:
            m.update(rows=5, cols=5, mode="exhaustive", start="a1")
            m.update(all_tours=True)
        win.worker.finishedRun.connect(mark)
        win.worker.failed.connect(mark)
        win.solve()
    elif feature in ("watch", "watch_torus"):
        if feature == "watch":
            m.update(rows=6, cols=6, mode="exhaustive", start="a1")
        else:
            m.update(rows=6, cols=6, topology="torus", leaper="2,3", method="backtrack",
                     start="a1", closed=True)
        win.act.watch.setChecked(True)
        win.solve()

        def frame() -> None:
            if win.watcher.frames > 0 and not done:
                mark()
        win._bench_poll = frame
    else:
        view = win.open_analysis()
        title = {"orders": "Move orders", "tiebreaks": "Tie-breaks", "counts": "Tour counts"}
        page = view.show_page(title[feature])
        page.size_spin.setValue(5) if feature != "tiebreaks" else page.nmax_spin.setValue(8)
        if feature == "counts":
            page.starts_combo.setCurrentText("corners")
        view.runner.worker.studyDone.connect(mark)
        view.runner.worker.failed.connect(mark)
        page.run()


def _said(win) -> str:
    """What the status bar says: its message and any visible label in it."""
    from PySide6.QtWidgets import QLabel
    bar = win.statusBar()
    texts = [bar.currentMessage()]
    texts += [w.text() for w in bar.findChildren(QLabel) if w.isVisible()]
    return " | ".join(t for t in texts if t)


def child(feature: str, scenario: str) -> dict:
    """One run in this process (fresh cache set by the parent); the figures as a dict."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication
    app = QApplication([])
    from knightgui import app as kapp
    from knightgui.window.main import MainWindow
    win = MainWindow(restore_settings=False)
    win.show()
    t_show = time.perf_counter()
    while not win._painted:
        app.processEvents()
    thread = kapp.start_warm_up()
    if scenario == "ready":
        while thread.is_alive():
            app.processEvents()
            time.sleep(0.02)
        for _ in range(20):
            app.processEvents()
            time.sleep(0.01)
    warm_s = time.perf_counter() - t_show
    done: list[float] = []
    t0 = time.perf_counter()
    _trigger(win, feature, done)
    last = t0
    frozen = silent = 0.0
    quiet_since = t0
    said = set()
    while not done and time.perf_counter() - t0 < 900:
        app.processEvents()
        poll = getattr(win, "_bench_poll", None)
        if poll is not None:
            poll()
        now = time.perf_counter()
        frozen = max(frozen, now - last)
        last = now
        text = _said(win)
        said.add(text[:120])
        if "preparing the engine" in text.lower():
            quiet_since = now
        silent = max(silent, now - quiet_since)
        time.sleep(0.01)
    t1 = done[0] if done else time.perf_counter()
    silent = max(silent, t1 - quiet_since) if done else silent
    out = {"feature": feature, "scenario": scenario, "seconds": t1 - t0,
           "silent": min(silent, t1 - t0), "frozen": frozen, "before_request": warm_s,
           "finished": bool(done), "said": sorted(said)[:8]}
    win.close()
    return out


def run_one(feature: str, scenario: str, code: str | None) -> dict:
    """``feature`` in a fresh process with an empty cache."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen",
               KNIGHTGUI_CACHE_DIR=tempfile.mkdtemp(prefix="kg-first-use-"),
               XDG_CONFIG_HOME=tempfile.mkdtemp(prefix="kg-config-"))
    if code:
        env["PYTHONPATH"] = code
    r = subprocess.run([sys.executable, __file__, "--child", feature, "--scenario", scenario],
                       env=env, capture_output=True, text=True, timeout=1800,
                       cwd=code or str(ROOT))
    line = next((ln for ln in r.stdout.splitlines() if ln.startswith("{")), None)
    if line is None:
        return {"feature": feature, "scenario": scenario, "error": r.stderr[-800:]}
    return json.loads(line)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--features", nargs="*", default=list(FEATURES), choices=list(FEATURES))
    ap.add_argument("--scenario", choices=("launch", "ready", "both"), default="launch")
    ap.add_argument("--code", default=None, help="the checkout to measure (default: this one)")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        print(json.dumps(child(a.child, a.scenario)), flush=True)
        os._exit(0)          # a warm-up thread still compiling must not crash the exit
    scenarios = ("launch", "ready") if a.scenario == "both" else (a.scenario,)
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores", flush=True)
    for f in a.features:
        for s in scenarios:
            load = os.getloadavg()[0]
            r = run_one(f, s, a.code)
            if "error" in r:
                print(f"{f:12} {s:7} failed: {r['error']} [{check(f, False)}]", flush=True)
                continue
            if not r["finished"] or (s == "launch" and r["silent"] > TARGET_SILENT):
                check(f, False)
            elif s == "launch" and f in CARD:
                check(f"{f} (over {TARGET_CARD:g} s)", r["seconds"] <= TARGET_CARD)
            print(f"{f:12} {s:7} {r['seconds']:7.2f} s  silent {r['silent']:6.2f} s  "
                  f"frozen {r['frozen']:6.2f} s  (warm-up ran {r['before_request']:.1f} s "
                  f"before; load {load:.1f}){'' if r['finished'] else ' NOT FINISHED'}  "
                  f"{FEATURES[f]}", flush=True)
            print("    said: " + " / ".join(r["said"]), flush=True)
    print(f"targets: at most {TARGET_SILENT} s without a progress message at launch, the "
          f"card's {', '.join(CARD)} within {TARGET_CARD:g} s")
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
