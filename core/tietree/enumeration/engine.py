"""The kernel state of one enumeration (:class:`Engine`): board tables, dash plan and the
numba arrays of the search, with the calls that advance it, behind
:class:`knightgui_core.tietree.enumeration.enumerator.Enumerator`.
"""
from __future__ import annotations

import numpy as np

from ...board.dash import EnumerationError
from ...board.squares import Board
from ...system.control import CancelLike
from ...system.control import raise_if_cancelled as _raise_if_cancelled
from ...system.errors import Cancelled
from . import bitboard_kernel as _k64
from . import enumerate_kernel as _k
from . import guard as _guard
from . import keep_kernel as _keep
from .replay import OptionsReplay
from .search_counts import SearchCounts

__all__ = ["Cancelled", "Engine", "raise_if_cancelled"]


def raise_if_cancelled(cancel: CancelLike) -> None:
    """Raise :class:`Cancelled` when ``cancel`` asks to stop (building an enumeration is
    given up: a window closing, or a newer request)."""
    _raise_if_cancelled(cancel, "building the enumeration")


class Engine:
    """The kernel state of one algorithm: the two records every kernel call takes,
    ``tables`` (read only) and ``state`` (written in place), of the array state
    (:class:`~knightgui_core.tietree.enumeration.enumerate_kernel.Tables`, ``State``) or the
    bitboard (``BitTables``, ``BitState``; ``bits=None``: on at most 64 squares).
    ``cancel`` is asked between the stages that build the tables (each about 0.1 s at
    2000×2000) and raises :class:`Cancelled`."""

    def __init__(self, board: Board, start: int, chain: tuple, dashed: tuple, bits=None,
                 cancel: CancelLike = None):
        self.board = board
        self.start = int(start)
        self.chain = tuple(int(s) for s in chain)
        self.dashed = tuple(int(s) for s in dashed)
        n = board.size
        self.L = n - len(self.chain)
        self.nbr = board.neighbours
        raise_if_cancelled(cancel)
        self.nl, self.ntype, self.ncount, self.dl, self.dcount = _k.tables(self.nbr, self.dashed)
        raise_if_cancelled(cancel)
        if self.chain:
            first = self.chain[0]
            adj = np.zeros(n, dtype=np.int8)
            for u in self.nbr[first]:
                if u >= 0:
                    adj[u] = 1
        else:
            adj = np.ones(n, dtype=np.int8)
        self.adj_end = adj
        self.bits_mode = (n <= 64) if bits is None else bool(bits)
        self.tables: _k.Tables | _k64.BitTables
        self.state: _k.State | _k64.BitState
        if self.bits_mode:
            self.tables = t = _k64.bit_tables(self.nbr, self.nl, self.ntype, self.ncount,
                                              self.dashed, np.flatnonzero(adj))
            self.att, self.tslot = t.attacks, t.slot
            self.masks = np.array([t.dashed, t.ends], dtype=np.uint64)
        else:
            self.tables = _k.Tables(self.nbr, self.nl, self.ntype, self.ncount, self.dl,
                                    self.dcount, adj)
            self.dashed_mask = np.zeros(n, dtype=np.int8)
            self.dashed_mask[list(self.dashed)] = 1
            self.reserved_mask = np.zeros(n, dtype=np.int8)
            self.reserved_mask[list(self.chain)] = 1
        self.reset()

    def reset(self) -> None:
        """Fresh search state: only the start numbered, no solution found yet."""
        if self.bits_mode:
            self.state = _k64.new_bits_state(self.board.size, self.chain, self.start, self.L)
        else:
            self.state = _k.State(*_k.new_state(self.tables, self.dashed_mask,
                                                self.reserved_mask, self.start, self.L))

    # the search state's arrays by the names a saved state gives them (get_state)
    path = property(lambda self: self.state.path)
    mo = property(lambda self: self.state.options)
    ties = property(lambda self: self.state.ties)
    st = property(lambda self: self.state.scalars)
    key = property(lambda self: self.state.score)
    bits = property(lambda self: self.state.board_at)

    _STATE = ("path", "mo", "ties", "st")

    def _names(self) -> tuple[str, ...]:
        return self._STATE + (("bits",) if self.bits_mode else ("key",))

    def get_state(self) -> dict:
        """Copies of the mutable arrays (enough to continue later with :meth:`set_state`)."""
        return {n: getattr(self, n).copy() for n in self._names()}

    def set_state(self, state: dict) -> None:
        """Continue from a :meth:`get_state` of an engine of the same algorithm."""
        names = self._names()
        for n in names:
            cur = getattr(self, n)
            a = np.asarray(state[n])
            if a.shape != cur.shape or a.dtype != cur.dtype:
                raise EnumerationError(f"saved state '{n}' does not fit this enumeration "
                                       f"(shape {a.shape}, expected {cur.shape})")
        _guard.check_state(self, state)   # the kernels trust their state: check every index
        new = {n: np.array(state[n], dtype=getattr(self, n).dtype, copy=True) for n in names}
        board = new["bits"] if self.bits_mode else new["key"]
        cls = _k64.BitState if self.bits_mode else _k.State
        self.state = cls(board, new["path"], new["mo"], new["ties"], new["st"])

    def _args(self) -> tuple:
        """The kernels' first two arguments: the search's tables and its state."""
        return self.tables, self.state

    def advance(self, max_steps: int, stop_on_solution: bool = True) -> int:
        """Run the kernel for at most ``max_steps`` forward moves; returns its event
        (SOLUTION, EXHAUSTED or BUDGET)."""
        fn = _k64.advance_bits if self.bits_mode else _k.advance_kernel
        return int(fn(self.tables, self.state, int(max_steps), bool(stop_on_solution)))

    def collect(self, k: int, max_steps: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        """Up to ``k`` further solutions: (paths int32[g, L+1], mo int8[g, L+1, 8],
        branches int64[g], last event)."""
        out_path = np.zeros((k, self.L + 1), dtype=np.int32)
        out_mo = np.zeros((k, self.L + 1, 8), dtype=np.int8)
        out_branch = np.zeros(k, dtype=np.int64)
        fn = _k64.collect_bits if self.bits_mode else _k.collect_kernel
        got, ev = fn(self.tables, self.state, int(k), int(max_steps), out_path, out_mo,
                     out_branch)
        return out_path[:got], out_mo[:got], out_branch[:got], int(ev)

    def collect_delta(self, k: int, max_steps: int, key_every: int, wide: int,
                      out: tuple) -> tuple[int, int]:
        """Up to ``k`` further solutions written as changes from the previous one by
        :func:`knightgui_core.tietree.enumeration.keep_kernel.collect_delta` into ``out`` =
        (squares, sptr, frm, branch), caller-owned and reused; returns (solutions, last
        event)."""
        fn = _keep.collect_delta_bits if self.bits_mode else _keep.collect_delta
        r = int(fn(self.tables, self.state, int(k), int(max_steps), int(key_every), int(wide),
                   *out))
        if r < 0:
            raise RuntimeError("collect_delta_bits needs one byte a square")   # a bug
        return r // 4, r % 4

    def replay(self) -> OptionsReplay:
        """An :class:`OptionsReplay` of this algorithm: its fixed tables and a start state of
        its own."""
        n = self.board.size
        if self.bits_mode:
            return OptionsReplay(n, self.L, self.start, self.chain, bitboard=(
                self.tslot, self.ntype, self.att, self.masks,
                _k64.initial_bits(n, self.chain, self.start)))
        key0 = _k.new_state(self.tables, self.dashed_mask, self.reserved_mask, self.start,
                            self.L)[0]
        return OptionsReplay(n, self.L, self.start, self.chain, general=(
            self.nl, self.ntype, self.ncount, self.dl, self.dcount, key0))

    def count(self, max_steps: int = 1 << 62) -> np.ndarray:
        """Run a fresh copy of this algorithm (not this engine's state) without Python
        objects: int64[4] = (solutions, dead ends, forward moves, exhausted)."""
        if self.bits_mode:
            bits0 = _k64.initial_bits(self.board.size, self.chain, self.start)
            return _k64.count_bits(self.tables, bits0, self.start, self.L, int(max_steps))
        return _k.count_kernel(self.tables, self.dashed_mask, self.reserved_mask, self.start,
                               self.L, int(max_steps))

    @property
    def counters(self) -> SearchCounts:
        """``solutions``, ``dead_ends``, ``forward_moves`` and ``exhausted`` so far."""
        st = self.st
        return SearchCounts(solutions=int(st[_k.ST_SOLUTIONS]),
                            dead_ends=int(st[_k.ST_DEAD_ENDS]),
                            forward_moves=int(st[_k.ST_FORWARD]),
                            exhausted=int(st[_k.ST_PHASE]) == _k.PH_DONE)
