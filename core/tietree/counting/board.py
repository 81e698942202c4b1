"""The count engine's board and result types: :class:`CountBoard` (a board's tables and the
count kernels' state, reused from call to call), :class:`SubtreeCount` (what a count found and
the work it left) and :func:`left_of` (that work, read from a stopped count's tie stack).
:mod:`knightgui_core.tietree.counting.subtrees` and
:mod:`knightgui_core.tietree.counting.interleave` count with them.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ...board.squares import Board, BoardError
from ...system.errors import InputError
from . import count_kernel as _k
from . import memo_kernel as _m
from .table import TransTable

__all__ = ["CountBoard", "CountError", "SubtreeCount", "children", "left_of", "MAX_SQUARES"]

#: The count kernel keeps a set of squares in two 64-bit words.
MAX_SQUARES = 128

class CountError(InputError):
    """A board, start square or prefix the count engine cannot take."""


class CountBoard:
    """The tables of one board for the count kernels: ``att`` uint64[N, 2] (attack masks,
    two words), ``mtype`` int8[N, N] (move type of each knight step, 0 elsewhere)."""

    def __init__(self, rows: int, cols: int, board: Board | None = None):
        try:
            self.board = b = Board(rows, cols) if board is None else board
        except BoardError as e:
            raise CountError(str(e)) from None
        n = b.size
        if n > MAX_SQUARES:
            raise CountError(f"the count study takes boards of at most {MAX_SQUARES} squares "
                             f"({rows}x{cols} has {n})")
        self.n = n
        nbr = b.neighbours
        self.att = np.zeros((n, 2), dtype=np.uint64)
        self.mtype = np.zeros((n, n), dtype=np.int8)
        for s in range(n):
            for t in range(8):
                u = int(nbr[s, t])
                if u >= 0:
                    self.att[s, u // 64] |= np.uint64(1 << (u % 64))
                    self.mtype[s, u] = t + 1
        # run state, reused from call to call
        self.path = np.zeros(n + 1, dtype=np.int32)
        self.free = np.zeros((n + 1, 2), dtype=np.uint64)
        self.pend = np.zeros((n + 1, 2), dtype=np.uint64)
        self.ntied = np.zeros(n + 1, dtype=np.int8)
        self.ties = np.zeros(n + 1, dtype=np.int32)
        self.st = np.zeros(_k.ST_SIZE, dtype=np.int64)
        # the memo kernel's state: its scalars, per-tie sums (lengths made when asked for)
        self.mst = np.zeros(_m.ST_SIZE, dtype=np.int64)
        self.ai = np.zeros((n + 1, 3), dtype=np.int64)
        self.af = np.zeros((n + 1, 2), dtype=np.float64)
        self.fw0 = np.zeros(n + 1, dtype=np.int64)
        self._lens: tuple[np.ndarray, np.ndarray] | None = None
        self._none: dict[bool, TransTable] = {}

    def lens_arrays(self, lengths: bool) -> tuple[np.ndarray, np.ndarray]:
        """``al``, ``alp`` for the memo kernel: (N + 1)² with lengths, else 1 × 1."""
        if not lengths:
            return np.zeros((self.n + 1, 1), np.int64), np.zeros((self.n + 1, 1), np.float64)
        if self._lens is None:
            self._lens = (np.zeros((self.n + 1, self.n + 1), np.int64),
                          np.zeros((self.n + 1, self.n + 1), np.float64))
        return self._lens

    def no_table(self, lengths: bool) -> TransTable:
        """An empty table (no buckets): the memo kernel then walks every node."""
        if lengths not in self._none:
            self._none[lengths] = TransTable(self.n, 0, lengths=lengths)
        return self._none[lengths]

    def square(self, value: int | str) -> int:
        """Flat index of a square given as a name (``a1``, ``3,7``) or an index."""
        try:
            return self.board.square(value)
        except BoardError as e:
            raise CountError(f"start: {e}") from None

    def _begin(self, start: int, prefix: Sequence[int]) -> None:
        p = _prefix_array(prefix)
        ev = _k.count_begin(self.att, self.mtype, self.n, start, p, self.path, self.free,
                            self.pend, self.ntied, self.ties, self.st)
        if ev != _k.DONE:
            raise CountError(f"prefix {tuple(int(x) for x in p)} is not a path of ties from "
                             f"{self.board.name(start)}")


def _prefix_array(prefix: Iterable[int]) -> np.ndarray:
    try:
        p = np.asarray(tuple(prefix), dtype=np.int64)
    except (TypeError, ValueError):
        raise CountError(f"a prefix is a list of move types 1..8, got {prefix!r}") from None
    if p.ndim != 1 or (p.size and (p.min() < 1 or p.max() > 8)):
        raise CountError(f"a prefix is a list of move types 1..8, got {prefix!r}")
    return p.astype(np.int8)


@dataclass
class SubtreeCount:
    """What :func:`count_subtrees` found: totals over the subtrees it finished or started,
    forward moves made, and ``rest``: prefixes of the subtrees still to count."""

    tours: int = 0
    closed: int = 0
    dead_ends: int = 0
    forward_moves: int = 0
    rest: list = field(default_factory=list)
    #: probability, over uniformly random tie choices from the start, of a tour / closed tour
    #: inside the subtrees counted
    p_success: float = 0.0
    p_closed: float = 0.0
    #: with lengths: squares visited when stuck -> [dead ends, probability]
    lengths: dict[int, list] = field(default_factory=dict)
    #: table lookups and hits
    probes: int = 0
    hits: int = 0


def left_of(path: np.ndarray, ntied: np.ndarray, ties: np.ndarray, pend: np.ndarray,
            mt: np.ndarray, k: int, ntie: int) -> list[tuple]:
    """The options still stored on a count state's tie stack (its ``ntie`` open ties, the
    search standing at number ``k``), each as the prefix of its subtree, shallowest first."""
    choice: list[int] = []          # choice[i] = move taken at number i when it was a tie
    before: list[tuple] = [()]      # before[j] = prefix of the node at number j (j >= 1)
    for j in range(1, k + 1):
        before.append(tuple(choice))
        if j < k and ntied[j] >= 2:
            choice.append(int(mt[path[j], path[j + 1]]))
    out = []
    for t in range(ntie):
        j = int(ties[t])
        q = int(path[j])
        for w in range(2):
            m = int(pend[j, w])
            while m:
                b = (m & -m).bit_length() - 1
                m &= m - 1
                out.append(before[j] + (int(mt[q, b + 64 * w]),))
    return out


def children(cb: CountBoard, start: int, prefix: tuple) -> tuple[list[tuple], int]:
    """The prefixes of the options tied at the first tie below ``prefix`` (ascending move
    types) and that tie's number; ``([], 0)`` when a tour or a dead end comes first."""
    cb._begin(start, prefix)                # noqa: SLF001 - the engine's own set-up
    types = np.zeros(8, dtype=np.int8)
    got = int(_k.next_tie(cb.att, cb.mtype, cb.path, cb.free, cb.st, types))
    if got == 0:
        return [], 0
    return [prefix + (int(t),) for t in types[:got]], int(cb.st[_k.ST_K])
