"""A bound on the frontier count's totals that is cheap and rigorous: the spanning subgraphs
of the board's knight graph in which every cell has degree 1 or 2, counted exactly
(:func:`.frontier_bound_kernel.relaxed_count`).

Every undirected Hamiltonian path of the board is one of those subgraphs with exactly two
cells of degree 1 (a path plus, perhaps, disjoint cycles, each counted once), and every
Hamiltonian cycle one with none (a 2-factor); a directed path is one undirected path read
either way. So the count of a board's open paths is at most ``paths`` and of its closed
tours at most ``cycles``, without knowing either.
"""
from __future__ import annotations

import functools
import time
from dataclasses import dataclass

import numpy as np

from .frontier_bound_kernel import relaxed_count

__all__ = ["RelaxedBounds", "relaxed_bounds", "RELAXED_ROWS", "RELAXED_WORDS",
           "RELAXED_STATES"]

#: the highest board the bound is computed for (measured: docs/counts.md)
RELAXED_ROWS = 7
#: the widest count, in 64-bit words (a longer board falls back to Brégman's bound)
RELAXED_WORDS = 8
#: the most states a step may hold (7 × 7 open: 8.2 M; each takes 4 to 8 slots of
#: ``8 · (words + 1)`` bytes in the two tables)
RELAXED_STATES = 1 << 24


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


@functools.lru_cache(maxsize=64)
def relaxed_bounds(rows: int, cols: int, words: int = RELAXED_WORDS,
                   most: int = RELAXED_STATES, closed_only: bool = False) -> RelaxedBounds:
    """The relaxed counts of every ``rows`` × ``n`` board, ``n`` ≤ ``cols``, in one pass
    (``rows`` is the column's height, at most 13); lengths past the first count wider than
    ``words`` words, or past a step of more than ``most`` states, are left out;
    ``closed_only``: the 2-factors alone (``paths`` all 0), a much smaller count."""
    if not (1 <= rows <= 13 and 1 <= cols and 1 <= words and 1 <= most):
        raise ValueError(f"no relaxed bound for {rows}×{cols} in {words} words")
    t0 = time.perf_counter()
    back, retire = step_tables(rows, cols)
    totals = np.zeros((cols, 2, words), np.uint64)
    io = np.zeros(2, np.int64)
    done = relaxed_count(back, retire, rows, words, most, 0 if closed_only else 2,
                         totals, io)
    if done < 0:
        raise RuntimeError(f"the relaxed count refused its tables ({rows}×{cols})")
    joined = [[sum(int(x) << (64 * w) for w, x in enumerate(totals[c, e]))
               for c in range(done)] for e in (0, 1)]
    return RelaxedBounds(rows, tuple(joined[0]), tuple(joined[1]), int(io[0]),
                         time.perf_counter() - t0)
