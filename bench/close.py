"""How long closing the window, or superseding a request, waits for the solver (a
target 0.5 s at any board size, in any mode). Offscreen window, one fresh process per case
(so the first large allocations of the process are part of what is measured).

    .venv/bin/python bench/close.py [--sizes 1000,2000] [--after 50,1500]

Prints, per board size, mode and delay after the request: the seconds ``window.close()``
took, and the seconds an 8×8 request waited when it superseded a search.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

CHILD = r"""
import json, sys, tempfile, time
from PySide6.QtWidgets import QApplication
app = QApplication([])
from knightgui.settings import use_folder
use_folder(tempfile.mkdtemp())      # closing saves the settings: never into the user's own
from knightgui.window.main import MainWindow
from knightgui.request.model import Mode
from knightgui.worker import Request
n, mode, after, what = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
w = MainWindow(restore_settings=False)
w.show()
w.results.submit(Request(rows=8, cols=8, start=1))          # b1: kernels loaded
while w.results.running:
    app.processEvents()
req = (Request(rows=n, cols=n, mode=Mode.EXHAUSTIVE, start=0, keep=10) if mode == "open"
       else Request(rows=n, cols=n, mode=Mode.EXHAUSTIVE, start=0, end=2 * n + 1, keep=10)
       if mode == "closed" else Request(rows=n, cols=n, closed=True, start=0))
w.results.submit(req)
t_end = time.perf_counter() + after / 1000
while time.perf_counter() < t_end:
    app.processEvents()
t = time.perf_counter()
if what == "close":
    w.close()
else:
    w.results.submit(Request(rows=8, cols=8, start=1))
    while w.results.running:
        app.processEvents()
    w.close()
print(json.dumps({"seconds": time.perf_counter() - t}))
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,2000")
    ap.add_argument("--after", default="50,1500", help="ms between the request and the close")
    a = ap.parse_args()
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}")
    for n in (int(x) for x in a.sizes.split(",")):
        for mode in ("open", "closed", "single"):
            for after in (int(x) for x in a.after.split(",")):
                for what in ("close", "supersede"):
                    r = subprocess.run([sys.executable, "-c", CHILD, str(n), mode, str(after),
                                        what], capture_output=True, text=True, timeout=600)
                    try:
                        s = json.loads(r.stdout.strip().splitlines()[-1])["seconds"]
                        fig = f"{s:6.3f} s  {'ok' if s <= 0.5 else 'over 0.5 s'}"
                    except (IndexError, ValueError, KeyError):
                        fig = "failed: " + (r.stderr.strip().splitlines() or ["?"])[-1]
                    print(f"{n}×{n} {mode:6} {what:9} after {after:5} ms: {fig}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
