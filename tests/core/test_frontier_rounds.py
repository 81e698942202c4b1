"""The frontier's threads leave a cell together, however they are scheduled.

A cell is read in rounds between two barriers (:func:`knightgui_core.frontier.word.
word_cell`). A thread that checked "every thread done?" after the second barrier could see a
flag its partner set in the next round and leave while the partner waited at the next
barrier for ever (a 7×22 run hung so under load). Here tiny buffers make each cell take many
rounds, and the threads are scheduled as unevenly as Python allows: a switch every
microsecond and a busy thread competing for the interpreter. Every count must end, with the
one-thread figures.
"""
from __future__ import annotations

import sys
import threading

import pytest

from knightgui_core.frontier import word as frontier_word
from knightgui_core.frontier.count import count_frontier


@pytest.mark.timeout(120)
def test_two_threads_leave_every_cell_together_under_uneven_scheduling(monkeypatch):
    want = count_frontier(4, [6], threads=1).boards[0]
    monkeypatch.setattr(frontier_word, "BUFFER", 16)     # many rounds a cell
    monkeypatch.setattr(frontier_word, "SMALL", 0)       # two threads even on small cells
    stop = threading.Event()

    def busy() -> None:                                  # takes the interpreter in turns
        n = 0
        while not stop.is_set():
            n += 1

    old = sys.getswitchinterval()
    competitor = threading.Thread(target=busy, daemon=True)
    sys.setswitchinterval(1e-6)
    competitor.start()
    try:
        for _ in range(8):
            got = count_frontier(4, [6], threads=2).boards[0]
            assert (got.cycles, got.paths) == (want.cycles, want.paths)
    finally:
        stop.set()
        competitor.join()
        sys.setswitchinterval(old)
