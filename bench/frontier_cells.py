"""The frontier count cell by cell: states after each column, seconds and CPU per state.

    .venv/bin/python bench/frontier_cells.py 6 6                 # 6×6, open paths
    .venv/bin/python bench/frontier_cells.py 7 7 --upto 4 --threads 2
    .venv/bin/python bench/frontier_cells.py 7 8 --closed-only --cap-gb 18
    .venv/bin/python bench/frontier_cells.py 8 5 --closed-only --threads 1 --before fbd6a98^
    .venv/bin/python bench/frontier_cells.py 7 7 --spill /tmp --cap-gb 8      # slices on disk
    .venv/bin/python bench/frontier_cells.py 6 6 --no-fold       # mirror images kept apart

Prints, column by column, the states held after the column's last cell, the wall and CPU
seconds of the column and the CPU per state read (the states of the cell before, summed over
the column's cells), then the counts, the peak states, the largest table and the peak RSS
of the process. ``--upto C`` stops after column C (the board is still ``rows`` × ``cols``,
so the right-edge pruning is that of the whole board). The load average is printed: the
machine may be shared. ``--before REV`` runs the same board twice in one go, each in a
fresh process: first with the engine of ``REV`` (unpacked with ``git archive``), then
with today's, and prints their CPU and µs of CPU per state read side by side. ``--spill
DIR`` keeps the states on disk in slices (at least ``--slices K``, more when a slice would
pass ``--cap-gb``) and prints a line a cell; the states after a cell are then known a cell
late, so the column lines give times only.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from knightgui_core.frontier import count as frontier_count
from knightgui_core.frontier.count import FrontierError, count_frontier


class _Stop(Exception):
    pass


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rows", type=int)
    ap.add_argument("cols", type=int)
    ap.add_argument("--closed-only", action="store_true")
    ap.add_argument("--upto", type=int, default=0, help="stop after this column")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--cap-gb", type=float, default=0.0)
    ap.add_argument("--before", default="", help="also run the engine of this revision")
    ap.add_argument("--spill", default="", help="through slices on disk in a folder here")
    ap.add_argument("--slices", type=int, default=1, help="with --spill: at least this many")
    ap.add_argument("--no-fold", action="store_true",
                    help="keep a state and its top-bottom mirror image apart (no fold)")
    a = ap.parse_args()
    if a.before:
        side_by_side(a.before)
        return
    count_frontier(3, [4], threads=1)                          # compile (or load) first
    if a.rows >= 8:
        count_frontier(8, [2], closed_only=True, threads=1)    # the two-word step too
    print(f"{a.rows}x{a.cols} {'closed' if a.closed_only else 'open'}, threads "
          f"{a.threads or 'default'}, load {os.getloadavg()}", flush=True)
    marks = [(time.perf_counter(), time.process_time())]

    def progress(done: int, total: int) -> None:
        if done % a.rows == 0:
            now = (time.perf_counter(), time.process_time())
            col = done // a.rows
            print(f"  column {col}: wall {now[0] - marks[-1][0]:8.1f} s, "
                  f"CPU {now[1] - marks[-1][1]:8.1f} s" + (
                      f", states after it {states[-1]:,}, at most {max(states):,}"
                      if states else ""), flush=True)
            marks.append(now)
            if a.upto and col >= a.upto:
                raise _Stop

    # the states after each cell, printed with the column's times
    states: list[int] = []
    word_cell = frontier_count.word_cell

    def counted(*args, **kwargs):
        out = word_cell(*args, **kwargs)
        states.append(out[2])
        return out

    frontier_count.word_cell = counted
    t0, c0 = time.perf_counter(), time.process_time()
    cap = int(a.cap_gb * 2**30) if a.cap_gb else None
    try:
        spill = ({"spill": a.spill, "slices": a.slices, "report": print} if a.spill else {})
        if a.no_fold:
            spill["fold"] = False
        res = count_frontier(a.rows, [a.cols], closed_only=a.closed_only, memory_limit=cap,
                             progress=progress, threads=a.threads or None, **spill)
        print("  counts:", [(b.cols, b.cycles, b.paths) for b in res.boards])
    except _Stop:
        res = None
    except FrontierError as e:
        print("  refused:", e)
        res = e.result
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    print(f"  wall {wall:.1f} s, CPU {cpu:.1f} s, peak RSS {rss:.2f} GiB, "
          f"load {os.getloadavg()}")
    if res is not None:
        print(f"  states after each column {res.column_states}, peak {res.peak_states:,}, "
              f"largest table {res.peak_table_bytes / 2**30:.2f} GiB, "
              f"states read {res.state_cells:,} "
              f"({cpu / max(1, res.state_cells) * 1e6:.3f} µs CPU each)")


def side_by_side(rev: str) -> None:
    """This script run on the engine of ``rev``, then on today's, in fresh processes."""
    from compare import HERE, shim, unpack  # bench/compare.py, beside this script

    args = [x for i, x in enumerate(sys.argv[1:])
            if x != "--before" and sys.argv[i] != "--before" and not x.startswith("--before=")]
    got = {}
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"before": shim(unpack(rev, Path(tmp) / "tree"), Path(tmp) / "path"),
                 "now": shim(HERE, Path(tmp) / "here")}
        for name, path in trees.items():
            env = dict(os.environ, PYTHONPATH=str(path), PYTHONDONTWRITEBYTECODE="1")
            print(f"== {name} ({rev if name == 'before' else 'working tree'})", flush=True)
            out = subprocess.run([sys.executable, __file__, *args], env=env, text=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            print(out.stdout, end="", flush=True)
            cpu = re.findall(r"CPU ([\d.]+) s, peak RSS", out.stdout)
            per = re.findall(r"\(([\d.]+) µs CPU each\)", out.stdout)
            got[name] = (float(cpu[-1]) if cpu else None, float(per[-1]) if per else None)
    print(f"side by side: CPU {got['before'][0]} s -> {got['now'][0]} s, "
          f"µs of CPU per state read {got['before'][1]} -> {got['now'][1]}"
          + (f" ({got['before'][1] / got['now'][1]:.2f}x)"
             if got["before"][1] and got["now"][1] else ""))


if __name__ == "__main__":
    main()
