"""A bound on the frontier count's totals that is cheap and rigorous: the spanning subgraphs
of the board's knight graph in which every cell has degree 1 or 2, counted exactly
(:func:`.bound_kernel.relaxed_count`).

Every undirected Hamiltonian path of the board is one of those subgraphs with exactly two
cells of degree 1 (a path plus, perhaps, disjoint cycles, each counted once), and every
Hamiltonian cycle one with none (a 2-factor); a directed path is one undirected path read
either way. So the count of a board's open paths is at most ``paths`` and of its closed
tours at most ``cycles``, without knowing either.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from ..system.control import CancelLike, cancel_requested
from ..system.errors import Cancelled
from .bound_kernel import RelaxedBoard, relaxed_regrow, relaxed_step, relaxed_totals

__all__ = ["RelaxedBounds", "relaxed_bounds", "step_tables", "RELAXED_WORDS", "RELAXED_STATES",
           "ROUND"]

#: the widest count, in 64-bit words (a longer board falls back to Brégman's bound)
RELAXED_WORDS = 8
#: the most states a step may hold (7 × 7 open: 8.2 M; each takes 4 to 8 slots of
#: ``8 · (words + 1)`` bytes in the two tables)
RELAXED_STATES = 1 << 24
#: table slots one kernel call reads (a cancel is seen between calls: a few hundredths
#: of a second each on 7 × 7 open)
ROUND = 1 << 16


@dataclass(frozen=True)
class RelaxedBounds:
    """``cycles[c]`` and ``paths[c]``: the subgraphs of the ``rows`` × ``c + 1`` board with
    no and with two cells of degree 1, for every length counted (those before a count
    passed the words or the states passed the cap); the most states held, the time."""

    rows: int
    cycles: tuple[int, ...]
    paths: tuple[int, ...]
    peak_states: int
    seconds: float


def step_tables(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """Per cell (column by column, each top to bottom): how far back each earlier knight
    neighbour is (int64[N, 4], -1 for none) and the cell whose step is the last that can
    touch it (int64[N]: its last neighbour, or itself)."""
    k, n = rows, rows * cols
    back = np.full((n, 4), -1, np.int64)
    retire = np.arange(n, dtype=np.int64)
    for i in range(n):
        c, r = divmod(i, k)
        q = 0
        for dr, dc in ((-1, 2), (1, 2), (-2, 1), (2, 1)):
            if 0 <= r + dr < k and c - dc >= 0:
                j = (c - dc) * k + r + dr
                back[i, q] = i - j
                q += 1
                retire[j] = max(retire[j], i)
    return back, retire


_CACHE: OrderedDict[tuple[int, int, int, int, bool], RelaxedBounds] = OrderedDict()
_CACHE_LOCK = threading.Lock()


def relaxed_bounds(rows: int, cols: int, words: int = RELAXED_WORDS,
                   most: int = RELAXED_STATES, closed_only: bool = False,
                   cancel: CancelLike = None) -> RelaxedBounds:
    """The relaxed counts of every ``rows`` × ``n`` board, ``n`` ≤ ``cols``, in one pass
    (``rows`` is the column's height, at most 13); lengths past the first count wider than
    ``words`` words, or past a step of more than ``most`` states, are left out;
    ``closed_only``: the 2-factors alone (``paths`` all 0), a much smaller count.
    ``cancel`` (:mod:`knightgui_core.system.control`) is read between kernel calls of at
    most :data:`ROUND` slots: :class:`Cancelled` within a fraction of a second, and a
    Ctrl-C is heard as soon. One thread (two were not faster: docs/counts.md). The last 64
    answers are kept."""
    if not (1 <= rows <= 13 and 1 <= cols and 1 <= words and 1 <= most):
        raise ValueError(f"no relaxed bound for {rows}×{cols} in {words} words")
    key = (int(rows), int(cols), int(words), int(most), bool(closed_only))
    with _CACHE_LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    t0 = time.perf_counter()
    back, retire = step_tables(rows, cols)
    totals = np.zeros((cols, 2, words), np.uint64)
    board = RelaxedBoard(back, retire, int(rows), int(words), 0 if closed_only else 2,
                         int(most))
    done, peak = _count(board, totals, cancel)
    joined = [[sum(int(x) << (64 * w) for w, x in enumerate(totals[c, e]))
               for c in range(done)] for e in (0, 1)]
    got = RelaxedBounds(rows, tuple(joined[0]), tuple(joined[1]), peak,
                        time.perf_counter() - t0)
    with _CACHE_LOCK:
        _CACHE[key] = got
        while len(_CACHE) > 64:
            _CACHE.popitem(last=False)
    return got


def _table(slots: int, words: int) -> np.ndarray:
    """An empty table of at least ``slots`` slots (a power of two, at least 16)."""
    cap = 16
    while cap < slots:
        cap *= 2
    return np.zeros((cap, words + 1), np.uint64)


def _cell(tab: np.ndarray, i: int, slots: int, board: RelaxedBoard,
          cancel: CancelLike) -> tuple[np.ndarray, int, int]:
    """Cell ``i`` of ``board`` read from ``tab`` in rounds: the new table, its states and
    the kernel's last answer (0, or 2 and 3 to stop: see :func:`relaxed_step`)."""
    k, words = board.rows, board.words
    nt = _table(slots, words)
    io = np.zeros(3, np.int64)
    fold = 1 if i % k == k - 1 else 0
    lo = 0
    while lo < tab.shape[0]:
        hi = min(lo + ROUND, tab.shape[0])
        if cancel_requested(cancel):
            raise Cancelled("the relaxed bound was cancelled")
        got = relaxed_step(tab, lo, hi, nt, board, i, fold, io)
        if got == 1:
            big = _table(2 * nt.shape[0], words)
            if relaxed_regrow(nt, big, words) < 0:
                raise RuntimeError("the relaxed count's table could not grow")
            nt = big
            continue
        if got != 0:
            if got < 0:
                raise RuntimeError("the relaxed count refused its tables")
            break
        lo = hi
    return nt, int(io[1]), got


def _count(board: RelaxedBoard, totals: np.ndarray,
           cancel: CancelLike) -> tuple[int, int]:
    """The count of ``board``, cell by cell: the columns counted (see :func:`relaxed_bounds`)
    and the most states held. A column's last cell keeps a state and its mirror image as
    one (exact: the rest of the board is its own mirror image)."""
    k, words, most = board.rows, board.words, board.most
    n = board.back.shape[0]
    tab = _table(16, words)
    tab[0, 0] = np.uint64(1) << np.uint64(63)        # slot 0 is as good as any for one key
    tab[0, 1] = 1
    states, peak = 1, 1
    growth = [2.0] * k
    for i in range(n):
        slots = int(2.2 * states * growth[i % k])     # tiny boards grow it too
        nt, filled, got = _cell(tab, i, slots, board, cancel)
        if got != 0 or filled > most:
            return i // k, peak
        growth[i % k] = max(1.0, filled / max(1, states))
        tab, states = nt, filled
        peak = max(peak, states)
        if i % k == k - 1:
            got = relaxed_totals(tab, i, board, totals[i // k])
            if got != 0:
                if got < 0:
                    raise RuntimeError("the relaxed count refused its totals")
                totals[i // k] = 0
                return i // k, peak
    return n // k, peak
