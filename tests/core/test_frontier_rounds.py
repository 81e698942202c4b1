"""The frontier's threads leave a cell together, however late one of them is scheduled.

A cell is read in rounds between two barriers (:func:`knightgui_core.frontier.word.
word_cell`). A thread that checked "every thread done?" after the second barrier could see a
flag its partner set in the next round and leave while the partner waited at the next
barrier for ever (a 7×22 run hung so at load 7). Here one thread is held back after every
second barrier, with tiny buffers so that a cell takes many rounds; a barrier with a
timeout turns a hang into an error.
"""
from __future__ import annotations

import threading
import time

import pytest

from knightgui_core.frontier import word as frontier_word
from knightgui_core.frontier.count import count_frontier

_Barrier = threading.Barrier


@pytest.mark.parametrize("late", [0, 1])
def test_a_late_thread_does_not_strand_its_partner(monkeypatch, late):
    want = count_frontier(4, [6], threads=1).boards[0]
    order: list[int] = []
    waits: dict[int, int] = {}

    class LateBarrier(_Barrier):
        def __init__(self, parties, action=None, timeout=None):
            super().__init__(parties, action, timeout=10.0)

        def wait(self, timeout=None):
            got = super().wait(timeout)
            me = threading.get_ident()
            if me not in order:
                order.append(me)
            waits[me] = waits.get(me, 0) + 1
            if waits[me] % 2 == 0 and order.index(me) == late:
                time.sleep(0.01)      # the partner runs its next round meanwhile
            return got

    monkeypatch.setattr(frontier_word, "BUFFER", 16)
    monkeypatch.setattr(frontier_word, "SMALL", 0)
    monkeypatch.setattr(frontier_word.threading, "Barrier", LateBarrier)
    got = count_frontier(4, [6], threads=2).boards[0]
    assert (got.cycles, got.paths) == (want.cycles, want.paths)
    assert max(waits.values()) > 4           # the cells took several rounds
