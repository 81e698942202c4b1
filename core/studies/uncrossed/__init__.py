"""The longest uncrossed knight's path and cycle on an m×n board, found and proved.

A knight's move is drawn as the segment between the centres of its two squares. A path (or
cycle) is *uncrossed* when no two of its segments meet except at a shared end square (it
visits no square twice). :func:`longest_uncrossed` finds the greatest number of moves such a
path or cycle can have, proves it by an exhaustive branch-and-bound search
(:mod:`knightgui_core.studies.uncrossed.search_kernel`), and counts the longest ones: as sets of
moves on the board (``total``) and up to the board's symmetries (``count``: 8 on a square
board, 4 on an oblong one). Published lengths: OEIS A003192 (paths on n×n) and A157416
(cycles); docs/structure.md sets them beside the figures found here.

A path is searched from one square of each orbit of the symmetries only: every path has a
turned or mirrored copy that starts there, and the copies are merged when counted.

>>> r = longest_uncrossed(3, 3)
>>> r.length, r.count
(2, 2)
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import numpy as np

from ...board.canonical import symmetry_maps
from ...system.control import CancelLike, ProgressFn, cancel_requested
from ...system.errors import Cancelled, InputError

__all__ = ["UncrossedError", "UncrossedResult", "longest_uncrossed", "move_segments",
           "crossing_table", "MAX_SIDE", "canonical_moves"]

#: the longest side searched (9×9 is the stretch: hours on this machine)
MAX_SIDE = 12
#: longest paths kept to be told apart up to symmetry; more and ``count`` is unknown
KEEP = 20_000


class UncrossedError(InputError):
    """A board the search does not take (too small, too large), or too many longest paths
    to count."""


@dataclass(frozen=True)
class UncrossedResult:
    """What the search proved: ``length`` (moves of the longest uncrossed path or cycle),
    ``count`` (how many longest ones up to the board's symmetries), ``total`` (how many as
    move sets on the board), ``path`` (one of them, flat squares ``row * cols + col``; a
    cycle's first square is not repeated), ``nodes`` and ``seconds`` of the proof."""

    rows: int
    cols: int
    cycle: bool
    length: int
    count: int
    total: int
    path: list[int]
    nodes: int
    seconds: float
    longest: list[list[int]] = field(default_factory=list, repr=False)

    def to_dict(self) -> dict:
        """The result as JSON-ready values (exact ints)."""
        return {"rows": self.rows, "cols": self.cols, "cycle": self.cycle,
                "length": self.length, "count": self.count, "total": self.total,
                "path": list(self.path), "nodes": self.nodes,
                "seconds": round(self.seconds, 3)}


def move_segments(rows: int, cols: int) -> np.ndarray:
    """``int64[E, 2]``: the board's knight moves as square pairs ``(a, b)``, ``a < b``, in a
    fixed order (the edge numbers of the crossing table)."""
    out = []
    for a in range(rows * cols):
        r, c = divmod(a, cols)
        for dr, dc in ((1, -2), (1, 2), (2, -1), (2, 1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < rows and 0 <= cc < cols:
                out.append((a, rr * cols + cc))
    return np.array(out, dtype=np.int64).reshape(-1, 2)


def crossing_table(rows: int, cols: int, edges: np.ndarray) -> np.ndarray:
    """``bool[E, E]``: whether the segments of two moves cross. Knight segments hold no
    lattice point inside and two that share a square cannot overlap, so they cross exactly
    when each one's ends lie strictly on both sides of the other's line."""
    x = edges % cols
    y = edges // cols
    ax, ay, bx, by = x[:, 0], y[:, 0], x[:, 1], y[:, 1]

    def side(px, py, qx, qy, rx, ry):      # sign of the turn p → q → r
        return np.sign((qx - px) * (ry - py) - (qy - py) * (rx - px))

    P, Q = (ax[:, None], ay[:, None], bx[:, None], by[:, None]), (ax[None, :], ay[None, :],
                                                                    bx[None, :], by[None, :])
    d1 = side(*P, Q[0], Q[1])
    d2 = side(*P, Q[2], Q[3])
    d3 = side(*Q, P[0], P[1])
    d4 = side(*Q, P[2], P[3])
    return (d1 * d2 < 0) & (d3 * d4 < 0)


def _tables(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The kernel's arrays: neighbours int64[N, 8] (-1 none), their edge numbers, the
    crossing bitsets uint64[E, W] and the squares' colours."""
    n = rows * cols
    edges = move_segments(rows, cols)
    nbr = np.full((n, 8), -1, np.int64)
    eid = np.full((n, 8), -1, np.int64)
    fill = np.zeros(n, np.int64)
    for e, (a, b) in enumerate(edges):
        for s, t in ((a, b), (b, a)):
            nbr[s, fill[s]] = t
            eid[s, fill[s]] = e
            fill[s] += 1
    cr = crossing_table(rows, cols, edges)
    words = max(1, (len(edges) + 63) // 64)
    cross = np.zeros((len(edges), words), np.uint64)
    for e in range(len(edges)):
        for f in np.flatnonzero(cr[e]):
            cross[e, f >> 6] |= np.uint64(1) << np.uint64(f & 63)
    sq = np.arange(n)
    colour = ((sq // cols + sq % cols) & 1).astype(np.int64)
    return nbr, eid, cross, colour


def canonical_moves(rows: int, cols: int, squares: list[int], cycle: bool
                    ) -> tuple[tuple[tuple[int, int], ...], int]:
    """The smallest image of the path's (or cycle's) move set under the board's symmetries,
    and how many distinct images the set has."""
    seq = list(squares) + ([squares[0]] if cycle else [])
    images = set()
    for g in symmetry_maps(rows, cols):
        moves = tuple(sorted((min(int(g[a]), int(g[b])), max(int(g[a]), int(g[b])))
                             for a, b in zip(seq, seq[1:])))
        images.add(moves)
    return min(images), len(images)


def _starts(rows: int, cols: int, cycle: bool) -> np.ndarray:
    """Where the search starts: every square for cycles (each is searched as its lowest
    square), one square of each symmetry orbit for paths."""
    n = rows * cols
    if cycle:
        return np.arange(n)
    maps = symmetry_maps(rows, cols)
    return np.array(sorted({int(maps[:, s].min()) for s in range(n)}), dtype=np.int64)


def _load(kernel) -> None:
    """Call ``kernel`` once on a one-square board (compiles or loads it)."""
    nbr, eid, cross, colour = _tables(1, 1)
    kernel(nbr, eid, cross, colour, 0, False, np.zeros(4, np.int64),
           np.full((1, 2), -1, np.int64), 0, np.zeros(1, np.uint8))


def _watch(cancel: CancelLike, stop: np.ndarray, done: threading.Event) -> None:
    """Set ``stop[0]`` (which the running kernel reads) as soon as ``cancel`` asks."""
    while not done.wait(0.05):
        if cancel_requested(cancel):
            stop[0] = 1
            return


def longest_uncrossed(rows: int, cols: int, cycle: bool = False,
                      cancel: CancelLike = None, node_limit: int = 0,
                      floor: int = 0, progress: ProgressFn | None = None) -> UncrossedResult:
    """The longest uncrossed knight's path (or ``cycle``) on ``rows``×``cols``, proved
    longest, with the longest ones counted (:class:`UncrossedResult`). Sides from 1 to
    :data:`MAX_SIDE`; ``cancel`` is asked between start squares (raises
    :class:`~knightgui_core.system.errors.Cancelled`) and ``progress(done, total)`` told
    the start squares searched; ``node_limit`` > 0 stops the proof after that many nodes with
    :class:`UncrossedError`; ``floor``: a length known to be reached (the search counts from
    it)."""
    from .search_kernel import BEST, FOUND, KEPT, NODES, uncrossed_search
    for name, v in (("rows", rows), ("cols", cols)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 1 <= v <= MAX_SIDE:
            raise UncrossedError(f"{name} must be a whole number from 1 to {MAX_SIDE}, got {v!r}")
    if isinstance(node_limit, bool) or not isinstance(node_limit, int) or node_limit < 0:
        raise UncrossedError(f"node_limit must be a whole number ≥ 0, got {node_limit!r}")
    rows, cols = int(rows), int(cols)
    nbr, eid, cross, colour = _tables(rows, cols)
    n = rows * cols
    counters = np.zeros(4, np.int64)
    counters[BEST] = floor
    out = np.full((KEEP, n + 1), -1, np.int64)
    _load(uncrossed_search)           # numba's cache read is not part of the proof's time
    t0 = time.perf_counter()
    starts = _starts(rows, cols, cycle)
    stop = np.zeros(1, np.uint8)
    done = threading.Event()
    if cancel is not None:
        threading.Thread(target=_watch, args=(cancel, stop, done), daemon=True,
                         name="uncrossed-cancel").start()
    try:
        for i, s in enumerate(starts):
            if progress is not None:
                progress(i, len(starts))
            if cancel_requested(cancel) or stop[0]:
                raise Cancelled("the uncrossed search was cancelled")
            if not uncrossed_search(nbr, eid, cross, colour, int(s), bool(cycle), counters,
                                    out, int(node_limit), stop):
                if stop[0]:
                    raise Cancelled("the uncrossed search was cancelled")
                raise UncrossedError(f"the proof needs more than {node_limit} nodes")
    finally:
        done.set()
    if progress is not None:
        progress(len(starts), len(starts))
    seconds = time.perf_counter() - t0
    if counters[FOUND] > KEEP:
        raise UncrossedError(f"more than {KEEP} longest {'cycles' if cycle else 'paths'} "
                             f"on {cols}×{rows}: too many to tell apart")
    classes: dict[tuple, int] = {}
    firsts: dict[tuple, list[int]] = {}
    for row in out[:int(counters[KEPT])]:
        squares = [int(v) for v in row if v >= 0]
        key, images = canonical_moves(rows, cols, squares, cycle)
        classes[key] = images
        firsts.setdefault(key, squares)
    length = int(counters[BEST])
    keys = sorted(classes)
    return UncrossedResult(rows, cols, bool(cycle), length, len(keys),
                           sum(classes.values()), firsts[keys[0]] if keys else [],
                           int(counters[NODES]), seconds, [firsts[k] for k in keys])
