"""A tour by hand: is the path still a tour's beginning, and how many ways are
there to finish it? Exact, on every board and piece.

:func:`completions` answers for a path (its first square where the player began, its last
where the knight stands) with a :class:`Completions`: whether some finish visits every
free square (``extendable``), the number of finishes (``open``: every order of the free
squares that the piece can walk from the last square) and of those ending a move from the
first square (``closed``: each closes the tour), and one finish as an example. The search
is the kernel of :mod:`knightgui_core.walks.hand.completions_kernel`: Warnsdorff's order first,
the conditions of :func:`knightgui_core.walks.hand.verdict.quick_verdict` at every node, and when
at most 64 squares are free (on any board) a table of the positions already counted.

The search runs in chunks of a few milliseconds, asking ``cancel``
(:mod:`knightgui_core.system.control`) and the clock between them; past ``budget_seconds``
the counts are None with a ``reason``.

>>> from knightgui_core.board.squares import Board
>>> b = Board(5, 5)
>>> c = completions(b, [b.parse(s) for s in "a1 b3 a5 c4 e5 d3 e1 c2 a3 b1 d2 e4 c5 a4".split()])
>>> c.extendable, c.open, c.closed, " ".join(b.name(s) for s in c.example)
(True, 6, 0, 'b2 d1 e3 d5 b4 a2 c1 e2 c3 b5 d4')
"""
from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...board.squares import Board, SquareSpec
from ...system.control import CancelLike, raise_if_cancelled
from . import completions_kernel as _k
from .verdict import PlayError, Verdict, board_colours, play_path, quick_verdict

__all__ = ["Completions", "completions", "COMPLETIONS_MAX", "MEMO_ENTRIES"]

#: the largest board the exact search takes (its work per node grows with the free squares)
COMPLETIONS_MAX = 10_000
#: slots of the table of positions (at most 64 free squares): 28 bytes each
MEMO_ENTRIES = 1 << 20
#: a chunk of the search lasts about this long (seconds) between two looks at cancel
CHUNK_SECONDS = 0.01


@dataclass(frozen=True)
class Completions:
    """The finishes of a path. ``extendable``: some finish exists (None: not known within
    the budget); ``open``: the number of finishes, ``closed``: of those, the ones whose last
    square is a move from the path's first square (both None when not counted: past the
    budget, or asked not to count); ``example``: the squares of one finish after the path's
    last square, or None; ``reason``: why something is unknown ("" when all is known);
    ``verdict``: :func:`~knightgui_core.walks.hand.verdict.quick_verdict` of the path;
    ``nodes``: forward moves the search tried; ``seconds``: wall time."""

    extendable: bool | None
    open: int | None
    closed: int | None
    example: tuple[int, ...] | None
    reason: str
    verdict: Verdict
    nodes: int = 0
    seconds: float = 0.0

    @property
    def counted(self) -> bool:
        """Whether ``open`` and ``closed`` are exact numbers."""
        return self.open is not None


def completions(board: Board, path: Sequence[SquareSpec] | np.ndarray,
                budget_seconds: float = 60.0, cancel: CancelLike = None, *,
                count: bool = True, memo_entries: int = MEMO_ENTRIES) -> Completions:
    """Every finish of ``path`` (squares in order; checked by
    :func:`~knightgui_core.walks.hand.verdict.play_path`) on ``board``, within ``budget_seconds``
    of wall time; ``cancel`` stops it between chunks (raises
    :class:`~knightgui_core.system.errors.Cancelled`). ``count=False`` stops at the first
    finish (the answer to "can I still finish?" without the numbers). ``memo_entries``: the
    slots of the table of positions, a power of two (used when at most 64 squares are free).
    :class:`PlayError` for a path that is not one, a board above :data:`COMPLETIONS_MAX`
    squares, a budget that is not a positive number."""
    t0 = time.perf_counter()
    p = play_path(board, path)
    if board.size > COMPLETIONS_MAX:
        raise PlayError(f"counting finishes takes boards of at most {COMPLETIONS_MAX:,} "
                        f"squares, not {board.size:,}")
    if isinstance(budget_seconds, bool) or not isinstance(budget_seconds, (int, float)) \
            or not math.isfinite(budget_seconds) or budget_seconds <= 0:
        raise PlayError(f"the budget must be a positive number of seconds, not "
                        f"{budget_seconds!r:.30}")
    if isinstance(memo_entries, bool) or not isinstance(memo_entries, int) \
            or memo_entries < 2 or memo_entries & (memo_entries - 1) or memo_entries > 1 << 28:
        raise PlayError(f"memo_entries must be a power of two from 2 to 2^28, not "
                        f"{memo_entries!r:.30}")
    verdict = quick_verdict(board, p)
    if verdict.lost:
        return Completions(False, 0, 0, None, "", verdict, 0, time.perf_counter() - t0)
    raise_if_cancelled(cancel, "counting the finishes")
    search = _Search(board, p, count, memo_entries if verdict.free <= 64 else 1)
    chunk = 256
    # at least one chunk runs, however long loading the kernels took: a budget spent before
    # the search started would answer "nothing searched" on a busy machine
    while not search.done:
        raise_if_cancelled(cancel, "counting the finishes")
        t = time.perf_counter()
        search.run(chunk)
        took = time.perf_counter() - t
        if time.perf_counter() - t0 >= budget_seconds:
            break
        if took < CHUNK_SECONDS / 2 and chunk < 1 << 24:
            chunk *= 2
        elif took > CHUNK_SECONDS * 2 and chunk > 16:
            chunk //= 2
    return search.result(verdict, budget_seconds, count, time.perf_counter() - t0)


class _Search:
    """The kernel's state arrays for one path (sized and typed as the kernel reads them)."""

    def __init__(self, board: Board, p: np.ndarray, count: bool, cap: int):
        n = board.size
        colour = board_colours(board)
        two = colour is not None
        self.nbr = board.neighbours
        self.colour = colour if colour is not None else np.zeros(n, dtype=np.int8)
        self.squares = _k.FreeSquares(np.empty(n, dtype=np.uint8), np.empty(n, dtype=np.int32),
                                      np.empty(n, dtype=np.int32), np.empty(n, dtype=np.int32),
                                      np.zeros(n, dtype=np.int32), np.zeros(1, dtype=np.uint64))
        self.branches = _k.Branches(np.empty(n, dtype=np.int32), np.empty((n, 8), dtype=np.int32),
                                    np.zeros((n, 4), dtype=np.int64), np.empty(n, dtype=np.int64),
                                    np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int32))
        self.table = _k.Positions(np.empty(cap, dtype=np.uint64), np.empty(cap, dtype=np.int32),
                                  np.empty((cap, 2), dtype=np.int64))
        self.example = np.empty(n, dtype=np.int32)
        self.st = np.zeros(_k.CS_FIELDS, dtype=np.int64)
        _k.completions_begin(self.nbr, self.colour, np.ascontiguousarray(p, dtype=np.int32),
                             two, cap > 1, bool(count), self.squares, self.branches,
                             self.table, self.st)

    @property
    def done(self) -> bool:
        return bool(self.st[_k.CS_DONE])

    def run(self, max_nodes: int) -> None:
        _k.completions_run(self.nbr, self.colour, int(max_nodes), self.squares, self.branches,
                           self.table, self.example, self.st)

    def result(self, verdict: Verdict, budget: float, count: bool,
               seconds: float) -> Completions:
        st = self.st
        nodes = int(st[_k.CS_NODES])
        found = bool(st[_k.CS_FOUND])
        example = (tuple(int(s) for s in self.example[:int(st[_k.CS_EXLEN])])
                   if found else None)
        if self.done and not st[_k.CS_OVERFLOW] and (count or not found):
            n_open, n_closed = int(st[_k.CS_OPEN]), int(st[_k.CS_CLOSED])
            return Completions(n_open > 0, n_open, n_closed, example, "", verdict, nodes,
                               seconds)
        if st[_k.CS_OVERFLOW]:
            reason = "more finishes than a 64-bit count holds (2^63 - 1)"
        elif self.done:
            reason = "not counted: the search stopped at the first finish"
        elif found:
            reason = (f"the count did not finish within {budget:g} s ({nodes:,} moves "
                      "searched); a finish exists")
        else:
            reason = (f"no finish found and none ruled out within {budget:g} s ({nodes:,} "
                      "moves searched)")
        return Completions(True if found else None, None, None, example, reason, verdict,
                           nodes, seconds)
