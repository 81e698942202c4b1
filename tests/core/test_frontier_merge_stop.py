"""A count through slices stops inside a slice's merge (the rows of its files read back and
added into tables): the merge looks at the stop flag every CHUNK rows, as a cell's rounds
do, so Ctrl-C or SIGTERM stop it within a second or two and the folder keeps only the
progress of the cells finished."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import threading

import pytest

from knightgui_core.frontier import merge as merge
from knightgui_core.frontier.count import SpillPlan, count_frontier
from knightgui_core.frontier.run_folder import OWNER, PROGRESS
from knightgui_core.frontier.word import WORD, Layout
from knightgui_core.system.errors import Cancelled


def _only_progress_left(parent) -> bool:
    """True when ``parent`` holds nothing, or one run folder with only its owner file, its
    progress and the slice files that progress names (the stopped cell's files removed)."""
    runs = list(parent.iterdir())
    if not runs:
        return True
    if len(runs) != 1:
        return False
    with open(runs[0] / PROGRESS) as f:
        needed = {seg[2] for seg in json.load(f)["files"]}
    return {p.name for p in runs[0].iterdir()} == {OWNER, PROGRESS} | needed


def test_a_merge_reads_the_stop_flag_between_chunks(monkeypatch, tmp_path):
    monkeypatch.setattr(merge, "CHUNK", 1 << 9)
    stop = threading.Event()
    after = []

    def absorb(rows, count, tab, mods, io):
        if stop.is_set():
            after.append(count)
        elif rows.shape[0] >= 20_000:          # a big merge: stop it here
            stop.set()
        return WORD.absorb(rows, count, tab, mods, io)

    monkeypatch.setattr(merge, "_layout", lambda words: Layout(1, WORD.expand, absorb,
                                                                WORD.regrow))
    with pytest.raises(Cancelled):
        count_frontier(6, 6, threads=2, spill=SpillPlan(str(tmp_path), slices=2), cancel=stop)
    assert stop.is_set()
    # each of the two threads adds at most the chunk it is in (the block had 40 or more)
    assert len(after) <= 2
    assert _only_progress_left(tmp_path)


_CHILD = textwrap.dedent("""
    import atexit, os, sys
    from knightgui_core.frontier import spill as spill
    from knightgui_core.frontier import merge as merge
    from knightgui_core.frontier.word import WORD, Layout
    merge.CHUNK = 1 << 12
    sig, log = int(sys.argv[2]), sys.argv[3]
    seen = []          # [rows of the block the signal came in, chunks added after the stop]
    leaves = []        # the merge's stop flags, which the caller sets once it hears the signal
    on_threads = spill._on_threads
    spill._on_threads = lambda fn, args, leave, *a, **kw: leaves.append(leave) or on_threads(
        fn, args, leave, *a, **kw)

    def absorb(rows, count, tab, mods, io):
        if seen:
            leaves[-1].wait(60)        # the rest of the merge lasts until the stop is heard
            seen[1] += 1
        elif rows.shape[0] >= 200_000:
            seen.extend([rows.shape[0], 0])
            os.kill(os.getpid(), sig)
        return WORD.absorb(rows, count, tab, mods, io)

    merge._layout = lambda words: Layout(1, WORD.expand, absorb, WORD.regrow)
    atexit.register(lambda: open(log, "w").write(" ".join(map(str, seen))))
    from knightgui.__main__ import main
    sys.exit(main(["study", "count", "--all-tours", "--rows", "6", "--cols", "6", "--method",
                   "frontier", "--spill", sys.argv[1], "--slices", "2"]))
""")


@pytest.mark.parametrize("sig,code,word", [(signal.SIGTERM, 143, "terminated"),
                                           (signal.SIGINT, 130, "interrupted")])
def test_a_signal_during_a_merge_stops_it(tmp_path, sig, code, word):
    folder, log = tmp_path / "spill", tmp_path / "log"
    folder.mkdir()
    p = subprocess.run([sys.executable, "-c", _CHILD, str(folder), str(int(sig)), str(log)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == code and p.stderr.strip().splitlines()[-1] == word, p.stderr[-300:]
    rows, chunks = map(int, log.read_text().split())
    # once the stop is heard, each of the two merging threads adds at most the chunk it is in
    assert rows >= 200_000 and chunks <= 2
    assert _only_progress_left(folder)
