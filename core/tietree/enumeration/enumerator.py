"""Phadke's exhaustive enumeration of Warnsdorff tours — the Python API (docs/spec.md §4, §5).

>>> en = Enumerator(8, 8, start="a8", end="c7")
>>> en.next_solution().index
1
>>> en.count()["solutions"]          # the rest of the run, totals since the start
14258

The state lives in numba arrays (:mod:`knightgui_core.tietree.enumeration.enumerate_kernel`,
or :mod:`knightgui_core.tietree.enumeration.bitboard_kernel` on at most 64 squares);
``advance`` does bounded work and continues, so results never depend on chunk sizes.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from functools import cached_property

import numpy as np

from ...board import dash as _dash
from ...board.dash import DashError, EnumerationError
from ...board.squares import Board, BoardError, SquareSpec
from ...board.tour import Tour
from ...system import limits as _limits
from ...system.control import CancelLike, cancel_requested
from . import enumerate_kernel as _k
from . import guard as _guard
from .engine import Cancelled, Engine, raise_if_cancelled
from .kept_solutions import CompactBlock
from .replay import OptionsReplay
from .search_counts import SearchCounts

__all__ = ["Enumerator", "Solution", "EnumerationError", "DashError", "Cancelled", "list_tails",
           "free_corners", "count_kernel", "Engine", "CompactBlock"]


def count_kernel(rows: int, cols: int, start: SquareSpec, end: SquareSpec | None = None,
                 dashes: Mapping[str, str] | None = None,
                 tail: Iterable[SquareSpec] | None = None, max_steps: int = 1 << 62) -> dict:
    """Count one algorithm from scratch without building Python objects."""
    en = Enumerator(rows, cols, start, end, dashes, tail)
    r = en.engine.count(max_steps)
    return {"solutions": int(r[0]), "dead_ends": int(r[1]), "forward_moves": int(r[2]),
            "exhausted": bool(r[3])}


class Solution:
    """One solution: ``index`` (1-based), ``path`` (int32 flat squares of the whole tour),
    ``mo`` (int8[L+1, 8] options matrix at that moment, slots in columns 1..7, column 0 and
    row 0 unused), ``branch`` (number it branched from the previous solution; 0 for the
    first), ``tour`` and ``numbers`` (built on first use)."""

    __slots__ = ("index", "path", "mo", "branch", "board", "closed", "_method", "__dict__")

    def __init__(self, board, index, path, mo, branch, closed, method):
        self.board, self.index, self.path, self.mo = board, index, path, mo
        self.branch, self.closed, self._method = branch, closed, method

    @cached_property
    def tour(self) -> Tour:
        """The solution as a validated :class:`Tour` (its method names the solution)."""
        return Tour(self.board, self.path, self.closed, dict(self._method, solution=self.index))

    @cached_property
    def numbers(self) -> np.ndarray:
        """``int32[rows, cols]`` move numbers (1-based), row 0 = bottom rank."""
        out = np.empty(self.board.size, dtype=np.int32)
        out[self.path] = np.arange(1, self.board.size + 1, dtype=np.int32)
        return out.reshape(self.board.rows, self.board.cols)

    def mo_entries(self) -> list[tuple[int, int, int]]:
        """Non-empty options-matrix entries as (move number, slot, move type)."""
        ks, slots = np.nonzero(self.mo[:, 1:])
        return [(int(k), int(s) + 1, int(self.mo[k, s + 1])) for k, s in zip(ks, slots)]

    def __repr__(self):
        return f"Solution(index={self.index}, branch={self.branch})"


def _square(board: Board, value, what: str) -> int:
    try:
        return board.square(value)
    except BoardError as e:
        raise EnumerationError(f"{what}: {e}") from None


class Enumerator:
    """Every tour Warnsdorff's rule allows from ``start`` (to ``end`` when given: closed),
    following every tie through the options matrix. See the module docstring."""

    SOLUTION, EXHAUSTED, BUDGET = _k.SOLUTION, _k.EXHAUSTED, _k.BUDGET

    def __init__(self, rows: int = 8, cols: int = 8, start="a8", end=None, dashes=None,
                 tail=None, *, bits=None, cancel: CancelLike = None, board: Board | None = None):
        """``cancel`` (optional): asked between the stages of building a large board's tables,
        :class:`Cancelled` raised when true (a superseded request dropped within a fraction
        of a second at 2000×2000). ``board`` (optional): a :class:`Board` instead of the
        knight on the plane of ``rows`` × ``cols`` (dashes and tails are the plane's only)."""
        self.board = b = _board(rows, cols) if board is None else board
        if not b.is_classic and (tail or any(v not in (None, "off")
                                             for v in (dashes or {}).values())):
            raise EnumerationError(f"corner dashes and tails are for the knight on the plane, "
                                   f"not the {b.describe()}")
        _limits.check_memory(b.size * _guard.BYTES_PER_SQUARE,
                             f"an enumeration on {b.rows}×{b.cols}", EnumerationError)
        raise_if_cancelled(cancel)
        b.neighbours  # noqa: B018 - the first table (cached on the board); then ask again
        raise_if_cancelled(cancel)
        self.start = _square(b, start, "start")
        self.end = None if end is None else _square(b, end, "end")
        self.closed = self.end is not None
        tail_sq = None if tail is None else tuple(_square(b, s, "tail square") for s in tail)
        self.plan = _dash.plan(b, self.start, self.end, dashes, tail_sq)
        self.free_corners = _dash.free_corners(b, self.start, self.end)
        self.dashes = dict(self.plan.states)
        self.tail = tail_sq
        self.chain = self.plan.chain
        self.engine = Engine(b, self.start, self.chain, self.plan.dashed, bits, cancel)
        self.L = self.engine.L
        self._chain_arr = np.asarray(self.chain, dtype=np.int32)
        self._scratch: tuple | None = None
        self._replay: OptionsReplay | None = None
        self._method = {"name": "phadke-enumeration", "start": b.name(self.start),
                        "end": None if self.end is None else b.name(self.end),
                        "dashes": {k: v for k, v in self.dashes.items() if v != "off"},
                        "tail": None if tail_sq is None else [b.name(s) for s in tail_sq]}

    # ----------------------------------------------------------------- counters
    solutions = property(lambda self: int(self.engine.st[_k.ST_SOLUTIONS]))
    dead_ends = property(lambda self: int(self.engine.st[_k.ST_DEAD_ENDS]))
    forward_moves = property(lambda self: int(self.engine.st[_k.ST_FORWARD]))
    exhausted = property(lambda self: int(self.engine.st[_k.ST_PHASE]) == _k.PH_DONE)

    @property
    def method(self) -> dict:
        """How the solutions are made (stored in each tour's ``method``)."""
        return dict(self._method)

    def reset(self) -> None:
        """Back to the start: no solution found yet."""
        self.engine.reset()

    def get_state(self) -> dict:
        """A snapshot of the search (numpy arrays); :meth:`set_state` continues from it."""
        return self.engine.get_state()

    def set_state(self, state: dict) -> None:
        """Continue the search from a :meth:`get_state` snapshot of this enumeration."""
        self.engine.set_state(state)

    # ------------------------------------------------------------------ stepping
    def advance(self, max_steps: int) -> int:
        """At most ``max_steps`` forward moves; returns SOLUTION (read it with
        :meth:`current_solution`), EXHAUSTED or BUDGET."""
        if int(max_steps) < 0:
            raise EnumerationError("max_steps must not be negative")
        return self.engine.advance(max_steps, True)

    def current_solution(self) -> Solution:
        """The solution the last SOLUTION event stopped on; :class:`EnumerationError` when
        the search does not stand on one (before the first step, after a dead end)."""
        if not _guard.at_solution(self.engine):
            raise EnumerationError("no current solution: advance() has not stopped on one")
        return self._solution()

    def _solution(self) -> Solution:
        """The solution the search stands on, which the caller knows (a SOLUTION event): one
        copy of the path and of the options matrix, no second check (bench/enumerate.py
        times a call per solution)."""
        state = self.engine.state
        full = np.empty(self.board.size, dtype=np.int32)   # the path, then the tail
        full[:self.L] = state.path[1:]
        full[self.L:] = self._chain_arr
        mo = state.options.copy()
        mo[:, 0] = 0
        st = state.scalars
        return Solution(self.board, int(st[_k.ST_SOLUTIONS]), full, mo,
                        int(st[_k.ST_SOL_BRANCH]), self.closed, self._method)

    def next_solution(self, max_steps_per_chunk: int = 1_000_000,
                      cancel: CancelLike = None) -> Solution | None:
        """The next solution, or None when exhausted (or cancelled: check ``exhausted``)."""
        while True:
            ev = self.advance(max_steps_per_chunk)
            if ev == self.SOLUTION:
                return self._solution()
            if ev == self.EXHAUSTED:
                return None
            if cancel_requested(cancel):
                return None

    def first(self, k: int, max_steps: int = 1 << 62) -> list[Solution]:
        """The next ``k`` solutions (the first ``k`` on a fresh enumerator), fewer when the
        run is exhausted first. A few kernel calls (blocks of 4,096): no Python work per step."""
        if int(k) < 0:
            raise EnumerationError("k must not be negative")
        out: list[Solution] = []
        k = int(k)
        f0 = self.forward_moves
        while len(out) < k:
            want = min(k - len(out), 4096)
            got = self._block(want, max_steps - (self.forward_moves - f0))
            out.extend(got)
            if len(got) < want:
                break
        return out

    def block(self, k: int,
              max_steps: int = 1 << 62) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
        """The next ``k`` solutions (fewer when exhausted or after ``max_steps`` forward
        moves) as arrays, without a Python object per solution: ``(first, paths, mo,
        branches)`` with ``first`` the 1-based index of ``paths[0]``, ``paths``
        int32[g, N] (each a :attr:`Solution.path`), ``mo`` int8[g, L + 1, 8] (each a
        :attr:`Solution.mo`) and ``branches`` int64[g]."""
        if int(k) < 0:
            raise EnumerationError("k must not be negative")
        first = self.solutions + 1
        paths, mos, branches, _ = self.engine.collect(int(k), max(0, int(max_steps)))
        g = len(paths)
        full = np.empty((g, self.board.size), dtype=np.int32)
        full[:, :self.L] = paths[:, 1:]
        full[:, self.L:] = self._chain_arr
        mos[:, :, 0] = 0
        return first, full, mos, branches

    def block_compact(self, k: int, max_steps: int = 1 << 62,
                      key_every: int = 64) -> CompactBlock:
        """The solutions of :meth:`block` in the compact form the window keeps
        (:class:`CompactBlock`): each as the squares that changed since the previous one,
        every ``key_every``-th whole, their options matrices rebuilt from the paths (the
        block's ``options``): at nearly the speed of counting them."""
        if int(k) < 0 or int(key_every) < 1:
            raise EnumerationError("k must not be negative and key_every must be positive")
        k = int(k)
        n, L = self.board.size, self.L
        wide = 0 if n <= 256 else 1 if n <= 65536 else 2
        size = (1, 2, 4)[wide]
        first = self.solutions + 1
        sc = self._scratch
        if sc is None or sc[2].shape[0] < k:
            sc = self._scratch = (np.empty(k * L * size, dtype=np.uint8),
                                  np.zeros(k + 1, dtype=np.int64),
                                  np.empty(k, dtype=np.int32), np.empty(k, dtype=np.int32))
        got, _ = self.engine.collect_delta(k, max(0, int(max_steps)), key_every, wide, sc)
        squares, sptr, frm, branch = sc
        nb = int(sptr[got])
        sq = squares[:nb].view((np.uint8, "<u2", "<i4")[wide]).copy()
        return CompactBlock(first, sq, sptr[:got + 1] // size, frm[:got].copy(),
                            branch[:got].copy(), self._chain_arr.copy(), L + 1,
                            self.options_replay())

    def options_replay(self) -> OptionsReplay:
        """What rebuilds any solution's options matrix from its path
        (:class:`knightgui_core.tietree.enumeration.replay.OptionsReplay`; made once, shared)."""
        if self._replay is None:
            self._replay = self.engine.replay()
        return self._replay

    def _block(self, k: int, max_steps: int) -> list[Solution]:
        base, full, mos, branches = self.block(k, max_steps)
        b, closed, meth = self.board, self.closed, self._method
        return [Solution(b, base + i, full[i], mos[i], int(branches[i]), closed, meth)
                for i in range(len(full))]

    def __iter__(self):
        block = 16
        while True:
            got = self.first(block)
            yield from got
            if len(got) < block:
                return
            block = min(block * 2, 1024)

    def count(self, progress: Callable[[SearchCounts], object] | None = None,
              cancel: CancelLike = None, chunk: int = 5_000_000) -> SearchCounts:
        """Run on to the end without building solutions. Totals since the start; stops early
        (``exhausted`` False) when ``cancel()`` is true between chunks. ``progress(counters)``
        is called after every chunk."""
        t0 = time.perf_counter()
        chunk = max(1, int(chunk))
        while not self.exhausted:
            self.engine.advance(chunk, False)
            if progress is not None:
                progress(self.engine.counters)
            if cancel_requested(cancel):
                break
        return replace(self.engine.counters, seconds=time.perf_counter() - t0)

    def names(self, squares: Iterable[int]) -> list[str]:
        """Names (``c7``) of flat squares on this board."""
        return [self.board.name(int(s)) for s in squares]


def _board(rows, cols) -> Board:
    try:
        return Board(rows, cols)
    except BoardError as e:
        raise EnumerationError(str(e)) from None


def list_tails(rows: int, cols: int, start: SquareSpec, end: SquareSpec) -> dict:
    """ECD and XCD tails for S and E, each a tuple of square names ending at E."""
    b = _board(rows, cols)
    s, e = _square(b, start, "start"), _square(b, end, "end")
    _dash.plan(b, s, e)  # validates S and E
    t = _dash.list_tails(b, s, e)
    return {kind: [tuple(b.name(q) for q in tail) for tail in t[kind]] for kind in ("ecd", "xcd")}


def free_corners(rows: int, cols: int, start: SquareSpec, end: SquareSpec | None = None) -> dict:
    """Corner name -> None when free (can be dashed), else the reason."""
    b = _board(rows, cols)
    s = _square(b, start, "start")
    e = None if end is None else _square(b, end, "end")
    return _dash.free_corners(b, s, e)
