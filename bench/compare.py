"""Every engine benchmark of bench/ run side by side against an earlier revision, in one run.

    .venv/bin/python bench/compare.py [--before REV] [--rounds N] [--only NAME] [--keep DIR]
                                      [--args "ARGS"] [--no-fill]

``--args`` replaces the arguments of the benchmarks chosen (with ``--only``): the long runs,
such as ``--only frontier --args "--only 7x7 --cap-gb 20" --rounds 1 --no-fill``, the 7×7
frontier count (ten minutes a tree: its compile is a second of it, so ``--no-fill`` skips
the untimed first runs).

The earlier revision (default ``da52b89``, the code before the kernels were written once) is
unpacked with ``git archive`` into a temporary folder. Each benchmark of :data:`BENCHES` that
exists in both trees is run as each tree's own script, with that tree's engine on the path
(``knightgui_core`` and ``knightgui`` are linked to the tree's ``core/`` and ``knightgui/`` in a
folder put first on ``PYTHONPATH``), first once per tree to fill numba's cache (not timed), then
``--rounds`` times alternating before/after. Two figures per benchmark:

* **CPU**: the whole child process's user + system seconds (``os.wait4``), best of the rounds:
  the machine is shared, and CPU time moves less with the load than wall time;
* **figures**: every time the script prints (a number followed by ``µs``, ``ms`` or ``s``) on a
  line that reads the same in both trees once its numbers are blanked out and its spaces
  collapsed, after/before line by
  line; the table gives their median and the worst, and ``--keep DIR`` keeps both outputs.

A ratio above 1 means the code of today is slower. The load average is printed before and after
each benchmark. Benchmarks that need a display, a peer's binary, a store or minutes of work are
not in the list.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

#: (name, script, arguments): short runs of each engine benchmark
BENCHES: list[tuple[str, str, list[str]]] = [
    ("solve", "solve.py", ["--repeat", "7"]),
    ("huge", "huge.py", ["--quick", "--repeat", "3"]),
    ("enumerate", "enumerate.py", ["--repeat", "7", "--no-study"]),
    ("orders", "orders.py", ["--runs", "3"]),
    ("table", "table.py", ["--quick"]),
    ("completions", "completions.py", ["--positions", "5", "--repeat", "1"]),
    ("topology", "topology.py", ["--sizes", "100", "--repeat", "7"]),
    ("stream", "stream.py", ["--solutions", "300000"]),
    ("phadke", "phadke.py", ["--family", "strict"]),
    ("frontier", "frontier.py", ["--only", "5x10"]),
]

_TIME = re.compile(r"(\d[\d,]*\.?\d*)\s*(µs|us|ms|s)\b")
_NUMBER = re.compile(r"\d[\d,]*\.?\d*")
_SCALE = {"µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def unpack(rev: str, into: Path) -> Path:
    """The tree of ``rev`` (its core/, knightgui/ and bench/) in ``into``."""
    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(HERE), "archive", rev, "core", "knightgui",
                              "bench"], capture_output=True, check=False)
    if archive.returncode != 0:
        raise SystemExit(f"git archive {rev}: {archive.stderr.decode().strip()}")
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def shim(tree: Path, into: Path) -> Path:
    """A folder in which ``knightgui_core`` and ``knightgui`` are the tree's packages."""
    into.mkdir(parents=True, exist_ok=True)
    for name, folder in (("knightgui_core", "core"), ("knightgui", "knightgui")):
        link = into / name
        if not link.exists():
            link.symlink_to(tree / folder)
    return into


def run(tree: Path, path: Path, script: str, args: list[str]) -> tuple[float, float, str]:
    """(CPU seconds of the child, wall seconds, its output) of one benchmark run."""
    env = dict(os.environ, PYTHONPATH=str(path), PYTHONDONTWRITEBYTECODE="1")
    env.pop("KNIGHTGUI_KERNELS", None)
    out = tempfile.TemporaryFile()
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, str(tree / "bench" / script), *args], cwd=str(tree),
                            env=env, stdout=out, stderr=subprocess.STDOUT)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    out.seek(0)
    text = out.read().decode(errors="replace")
    if proc.returncode not in (0, 1):        # 1: a bench that says a target was missed
        tail = text.strip().splitlines()[-1:] or ["(no output)"]
        raise RuntimeError(f"{script} in {tree}: exit {proc.returncode}: {tail[0]}")
    return usage.ru_utime + usage.ru_stime, wall, text


def figure_ratios(before: str, after: str) -> list[float]:
    """after/before of every time printed on lines that match once their numbers are blanked."""
    def timed(text: str) -> dict[str, list[list[float]]]:
        lines: dict[str, list[list[float]]] = {}
        for line in text.splitlines():
            times = [float(v.replace(",", "")) * _SCALE[u] for v, u in _TIME.findall(line)]
            if times:
                lines.setdefault(" ".join(_NUMBER.sub("#", line).split()), []).append(times)
        return lines
    old, new = timed(before), timed(after)
    ratios = []
    for key, rows in new.items():
        for a_row, b_row in zip(rows, old.get(key, [])):
            ratios += [a / b for a, b in zip(a_row, b_row) if a > 0 and b > 0]
    return ratios


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", default="da52b89", help="the earlier revision (git)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", help="benchmarks whose name contains this text")
    ap.add_argument("--keep", help="a folder to keep every output in")
    ap.add_argument("--args", help="the arguments of the chosen benchmarks, instead of theirs")
    ap.add_argument("--no-fill", action="store_true",
                    help="no untimed first run per tree (numba's cache already filled)")
    a = ap.parse_args()
    if a.rounds < 1:
        raise SystemExit("--rounds must be at least 1")
    work = Path(tempfile.mkdtemp(prefix="knightgui-compare-"))
    keep = Path(a.keep) if a.keep else None
    if keep:
        keep.mkdir(parents=True, exist_ok=True)
    try:
        old = unpack(a.before, work / "before")
        trees = {"before": (old, shim(old, work / "path-before")),
                 "after": (HERE, shim(HERE, work / "path-after"))}
        print(f"{os.cpu_count()} cores; before = {a.before}, after = this checkout; best of "
              f"{a.rounds} alternating rounds")
        print(f"{'benchmark':12} {'CPU before':>11} {'CPU after':>10} {'ratio':>6} "
              f"{'figures':>8} {'median':>7} {'worst':>6}  load")
        for name, script, args in BENCHES:
            if a.only and a.only not in name:
                continue
            args = a.args.split() if a.args else args
            if not (old / "bench" / script).exists():
                print(f"{name:12} (not in {a.before})")
                continue
            load0 = os.getloadavg()[0]
            cpu = {"before": float("inf"), "after": float("inf")}
            texts: dict[str, str] = {}
            try:
                for tree, path in ([] if a.no_fill else trees.values()):
                    run(tree, path, script, args)              # numba's cache filled
                for _ in range(a.rounds):
                    for side, (tree, path) in trees.items():
                        c, _, texts[side] = run(tree, path, script, args)
                        cpu[side] = min(cpu[side], c)
            except RuntimeError as exc:
                print(f"{name:12} failed: {exc}")
                continue
            if keep:
                for side, text in texts.items():
                    (keep / f"{name}.{side}.txt").write_text(text)
            ratios = figure_ratios(texts["before"], texts["after"])
            fig = (f"{len(ratios):>8} {statistics.median(ratios):>7.2f} {max(ratios):>6.2f}"
                   if ratios else f"{0:>8} {'-':>7} {'-':>6}")
            print(f"{name:12} {cpu['before']:>10.2f}s {cpu['after']:>9.2f}s "
                  f"{cpu['after'] / cpu['before']:>6.2f} {fig}  {load0:.1f}–"
                  f"{os.getloadavg()[0]:.1f}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
