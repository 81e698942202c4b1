"""A count through slices stops inside a slice's merge (the rows of its files read back and
added into tables): the merge looks at the stop flag every CHUNK rows, as a cell's rounds
do, so Ctrl-C or SIGTERM stop it within a second or two and the folder is removed."""
from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from knightgui_core.frontier import frontier_spill_merge as merge
from knightgui_core.frontier.frontier_count import count_frontier
from knightgui_core.frontier.frontier_word import WORD, Layout
from knightgui_core.system.errors import Cancelled


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
        count_frontier(6, 6, threads=2, spill=str(tmp_path), slices=2, cancel=stop)
    assert stop.is_set()
    # each of the two threads adds at most the chunk it is in (the block had 40 or more)
    assert len(after) <= 2
    assert list(tmp_path.iterdir()) == []


_CHILD = textwrap.dedent("""
    import atexit, os, sys, time
    from knightgui_core.frontier import frontier_spill_merge as merge
    from knightgui_core.frontier.frontier_word import WORD, Layout
    merge.CHUNK = 1 << 12
    sig, log = int(sys.argv[2]), sys.argv[3]
    seen = []          # [rows of the block the signal came in, chunks added after it]

    def absorb(rows, count, tab, mods, io):
        if seen:
            seen[1] += 1
            time.sleep(0.005)          # the rest of the merge: seconds, not milliseconds
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
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-c", _CHILD, str(folder), str(int(sig)), str(log)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == code and p.stderr.strip().splitlines()[-1] == word, p.stderr[-300:]
    rows, chunks = map(int, log.read_text().split())
    # the signal's block alone had rows // CHUNK chunks left, 5 ms each; a few were added
    assert rows >= 200_000 and chunks < min(60, rows // (1 << 12) // 2)
    assert time.monotonic() - t0 < 60
    assert list(folder.iterdir()) == []


def test_the_folder_waits_for_a_slice_still_on_a_runners_thread(tmp_path, monkeypatch):
    """A stopped run removes its folder only once a slice still being read on another
    thread (the local runner's) has left it: else its last file could land in the folder
    while it is being removed, and the folder would stay."""
    import threading
    import time

    from knightgui_core.frontier import frontier_spill as fs

    def slow_step(spec):
        time.sleep(0.4)
        (tmp_path / "last.u64").write_bytes(b"\0" * 8)
        return {}

    monkeypatch.setattr(fs, "_spill_step", slow_step)
    t = threading.Thread(target=fs.spill_step, args=({"folder": str(tmp_path)},))
    t.start()
    time.sleep(0.1)
    assert not fs.wait_idle(str(tmp_path), 0.05)        # still inside its slice
    assert fs.wait_idle(str(tmp_path), 10.0)
    assert (tmp_path / "last.u64").exists()              # it wrote before it left
    t.join()
    assert str(tmp_path) not in fs._BUSY                 # noqa: SLF001 - nothing left counted
