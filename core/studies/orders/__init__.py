"""Move-order analysis (docs/spec.md §7): how often plain Warnsdorff fails, over all 8! move
orders and every start square.

The 40,320 orders are the permutations of the move types 1..8 (docs/spec.md §1) in
lexicographic order (index 0 ``12345678``, 40,319 ``87654321``): :func:`all_orders`,
:func:`order_index`. An order is written as Phadke digits (``12438756``) or as matrix pairs
⟨dx,dy⟩ (dx = row step down, dy = column step): :func:`digits`, :func:`matrix_pairs`.
:func:`run_orders` returns an :class:`OrdersResult`; :func:`replay` gives one walk. Start
squares are flat indices (``row * cols + col``, row 0 at the bottom).
"""
from __future__ import annotations

import csv
import io
import itertools
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ...board import rules as _rules
from ...board.squares import Board, BoardError, SquareSpec
from ...system.control import cancel_requested
from ...system.errors import InputError
from ...system.files import write_text
from ...system.jit import num_threads
from ...walks.result import Walk
from ..json_fields import FieldsJson
from .walk_kernel import one_walk
from .walks import order_set, padded_layout, rank_words, tree_starts, walk_slice

N_ORDERS = 40320
TIES = ("first", "last")
#: Orders per chunk (progress and cancel come between chunks; walks are shared within one)
#: on boards above ``WHOLE_UP_TO`` squares; smaller boards run as one chunk, as chunks of
#: 5040 cost about 1.4× on 8×8 (bench/orders.py --chunk 5040).
DEFAULT_CHUNK = 5040
WHOLE_UP_TO = 64
MAX_SIDE = 16


class OrderError(InputError):
    """A move order or an analysis parameter that is not valid."""


@lru_cache(maxsize=1)
def all_orders() -> np.ndarray:
    """``int8[40320, 8]``: every move order, lexicographic (index 0 = 12345678). Read-only."""
    a = np.array(list(itertools.permutations(range(1, 9))), dtype=np.int8)
    a.setflags(write=False)
    return a


def _parsed(order: object) -> _rules.MoveOrder:
    try:
        return _rules.parse_order(order)
    except _rules.RuleError as e:
        raise OrderError(str(e)) from None


def order_types(order: object) -> np.ndarray:
    """``int8[8]`` move types 1..8 of ``order`` (as
    :func:`knightgui_core.board.rules.parse_order` reads it); :class:`OrderError` if none."""
    return _parsed(order).types_array()


def order_index(order: object) -> int:
    """Index of ``order`` in :func:`all_orders` (its lexicographic rank)."""
    return _parsed(order).rank


def digits(order: object) -> str:
    """Phadke digits of an order, e.g. ``12438756``."""
    return _rules.parse_order(order).digits


def matrix_pairs(order: object) -> str:
    """Matrix-convention pairs ⟨dx,dy⟩ of an order (dx = row step down, dy = column step)."""
    return _rules.parse_order(order).pairs


def _check_board(rows: int, cols: int) -> None:
    for name, v in (("rows", rows), ("cols", cols)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise OrderError(f"{name} must be a whole number, got {v!r}")
        if not 1 <= v <= MAX_SIDE:
            raise OrderError(f"{name} must be between 1 and {MAX_SIDE}, got {v}")


def _order_table(orders: object) -> np.ndarray:
    """``orders`` as a contiguous ``int8[k, 8]`` whose rows are orders, or OrderError."""
    try:
        table = np.ascontiguousarray(orders, dtype=np.int8)
    except (TypeError, ValueError, OverflowError):
        raise OrderError("orders must be an array of shape [k, 8]") from None
    try:
        rank_words(table)
    except ValueError as e:
        raise OrderError(str(e)) from None
    return table


def _check_tie(tie: str) -> int:
    if tie not in TIES:
        raise OrderError(f"tie must be 'first' or 'last', got {tie!r}")
    return 1 if tie == "last" else 0


@dataclass(frozen=True)
class OrdersSummary(FieldsJson):
    """The docs/spec.md §10 figures of a run, the board, the tie rule and whether every
    order ran; ``to_dict()`` begins ``study move-orders --json``."""

    orders: int
    walks: int
    failed_walks: int
    orders_with_failure: int
    max_failures_per_order: int
    closed_walks: int
    closed_share_of_complete: float
    seconds: float
    rows: int
    cols: int
    tie: str
    complete: bool


@dataclass
class OrdersResult:
    """Outcome of the analysis. Arrays are indexed by order index (rows) and flat start square.

    ``lengths`` int16[orders, squares]: squares visited by each walk (complete = ``squares``);
    ``closed`` uint8[orders, squares]: complete and ending a knight move from the start.
    When the run was cancelled ``complete`` is False and the arrays cover the orders done.
    """

    board: Board
    tie: str
    lengths: np.ndarray
    closed: np.ndarray
    seconds: float
    complete: bool = True
    order_table: np.ndarray = field(default_factory=all_orders, repr=False)

    @property
    def squares(self) -> int:
        """Squares of the board (= starts per order)."""
        return self.board.size

    @property
    def orders(self) -> int:
        """Number of orders walked."""
        return int(self.lengths.shape[0])

    @property
    def walks(self) -> int:
        """Number of walks (orders × starts)."""
        return int(self.lengths.size)

    @property
    def failed(self) -> np.ndarray:
        """bool[orders, squares]: walks that did not visit every square."""
        return self.lengths < self.squares

    @property
    def failures_per_order(self) -> np.ndarray:
        """int32[orders]: failed walks of each order."""
        return self.failed.sum(axis=1).astype(np.int32)

    @property
    def failures_per_start(self) -> np.ndarray:
        """int64[squares] by flat square index (row 0 = bottom)."""
        return self.failed.sum(axis=0).astype(np.int64)

    @property
    def closed_per_order(self) -> np.ndarray:
        """int32[orders]: closed walks of each order."""
        return self.closed.sum(axis=1).astype(np.int32)

    @property
    def failed_walks(self) -> int:
        """Walks that did not visit every square."""
        return int(self.failed.sum())

    @property
    def orders_with_failure(self) -> int:
        """Orders with at least one failed walk."""
        return int((self.failures_per_order > 0).sum())

    @property
    def max_failures_per_order(self) -> int:
        """Most failed walks of any one order (0 when none ran)."""
        f = self.failures_per_order
        return int(f.max()) if f.size else 0

    @property
    def closed_walks(self) -> int:
        """Complete walks that end a knight move from their start."""
        return int(self.closed.sum())

    def distribution(self) -> np.ndarray:
        """int64[max + 1]: entry k = number of orders with exactly k failed walks."""
        return np.bincount(self.failures_per_order, minlength=1).astype(np.int64)

    def order(self, index: int) -> np.ndarray:
        """``int8[8]`` move types 1..8 of the order in row ``index``."""
        return np.asarray(self.order_table[int(index)])

    def failed_starts(self, index: int) -> np.ndarray:
        """Flat start squares whose walk failed for order ``index``."""
        return np.flatnonzero(self.failed[int(index)]).astype(np.int32)

    def worst(self, k: int = 10) -> list[dict]:
        """The ``k`` orders with the most failed walks (ties by order index), both notations."""
        f = self.failures_per_order
        idx = np.lexsort((np.arange(f.size), -f))[:max(0, k)]
        out = []
        for i in idx:
            o = self.order(i)
            out.append({"index": int(i), "order": digits(o), "matrix": matrix_pairs(o),
                        "failed_walks": int(f[i]),
                        "failed_starts": [self.board.name(int(s)) for s in self.failed_starts(i)]})
        return out

    def summary(self) -> OrdersSummary:
        """The run's :class:`OrdersSummary`."""
        complete = self.walks - self.failed_walks
        return OrdersSummary(
            orders=self.orders, walks=self.walks, failed_walks=self.failed_walks,
            orders_with_failure=self.orders_with_failure,
            max_failures_per_order=self.max_failures_per_order, closed_walks=self.closed_walks,
            closed_share_of_complete=round(self.closed_walks / complete, 6) if complete else 0.0,
            seconds=round(self.seconds, 4), rows=self.board.rows, cols=self.board.cols,
            tie=self.tie, complete=self.complete)

    def to_json_dict(self, worst: int = 10) -> dict:
        """The summary plus the failure distribution, failures per start square and the
        ``worst`` worst orders, for a JSON file."""
        d = self.summary().to_dict()
        d["distribution"] = self.distribution().tolist()
        d["failures_per_start"] = {self.board.name(s): int(v)
                                   for s, v in enumerate(self.failures_per_start)}
        d["worst_orders"] = self.worst(worst)
        return d

    def to_csv(self) -> str:
        """One row per order: ``index,order,matrix,failed_walks,closed_walks,failed_starts``
        (failed start squares separated by spaces)."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["index", "order", "matrix", "failed_walks", "closed_walks", "failed_starts"])
        fpo, cpo, failed = self.failures_per_order, self.closed_per_order, self.failed
        name = [self.board.name(s) for s in range(self.squares)]
        for i in range(self.orders):
            o = self.order(i)
            starts = " ".join(name[s] for s in np.flatnonzero(failed[i])) if fpo[i] else ""
            w.writerow([i, digits(o), matrix_pairs(o), int(fpo[i]), int(cpo[i]), starts])
        return buf.getvalue()

    def starts_csv(self) -> str:
        """One row per start square: ``square,col,row,failed_walks``."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["square", "col", "row", "failed_walks"])
        w.writerows([self.board.name(s), *self.board.coords(s), int(v)]
                    for s, v in enumerate(self.failures_per_start))
        return buf.getvalue()

    def save_csv(self, filename: str | os.PathLike[str], table: str = "orders") -> Path:
        """Write the ``orders`` or ``starts`` table atomically."""
        if table not in ("orders", "starts"):
            raise OrderError(f"unknown table {table!r} (use 'orders' or 'starts')")
        return write_text(filename, self.to_csv() if table == "orders" else self.starts_csv(),
                          make_parents=True)


def run_orders(n: int = 8, tie: str = "first", *, cols: int | None = None,
               chunk: int | None = None, progress: Callable[[int, int], object] | None = None,
               cancel: Callable[[], bool] | threading.Event | None = None,
               orders: np.ndarray | None = None, shared: bool = True) -> OrdersResult:
    """Walk every move order from every start square of an ``n`` × ``cols`` board.

    ``shared``: orders that resolve every tie alike share one walk (False: each order on
    its own, the reference the tests compare with). ``chunk``: orders per chunk (default
    see :data:`DEFAULT_CHUNK`); ``progress(done, total)`` after each chunk; once ``cancel``
    is set the run stops after the current chunk (``complete=False``). ``orders``: a subset
    (int8[k, 8], repeats allowed) instead of all 40,320.
    """
    rows, cols = n, (n if cols is None else cols)
    _check_board(rows, cols)
    last = _check_tie(tie)
    table = all_orders() if orders is None else _order_table(orders)
    board = Board(rows, cols)
    if chunk is None:
        chunk = table.shape[0] if board.size <= WHOLE_UP_TO else DEFAULT_CHUNK
    chunk = max(1, int(chunk))
    _, offsets, outlets0, to_padded = padded_layout(rows, cols)
    total = table.shape[0]
    lengths = np.zeros((total, board.size), dtype=np.int16)
    closed = np.zeros((total, board.size), dtype=np.uint8)
    t0 = time.perf_counter()
    done = 0
    threads = num_threads()
    # the starts dealt out in turn, so that each thread gets corners and centre alike
    parts = [p for p in (np.arange(t, board.size, threads) for t in range(threads)) if p.size]
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="move-orders") as pool:
        while done < total:
            if cancel_requested(cancel):
                break
            hi = min(total, done + chunk)
            jobs: list[Future[Any]]
            if shared:
                # the chunk's orders share their walks; the starts are split among threads
                oset = order_set(table[done:hi])
                len_t = np.zeros((board.size, oset.count), dtype=np.int16)
                closed_t = np.zeros((board.size, oset.count), dtype=np.uint8)
                jobs = [pool.submit(tree_starts, oset, last, outlets0, offsets, to_padded[p], p,
                                    board.size, len_t, closed_t) for p in parts]
            else:
                # one slice of orders per thread, each walked on its own
                cuts = np.linspace(done, hi, min(threads, hi - done) + 1).astype(np.int64)
                jobs = [pool.submit(walk_slice, table[a:b], last, outlets0, offsets,
                                    to_padded, board.size, lengths[a:b], closed[a:b])
                        for a, b in zip(cuts[:-1], cuts[1:])]
            for job in jobs:
                job.result()
            if shared:
                oset.expand(len_t, lengths[done:hi])
                oset.expand(closed_t, closed[done:hi])
            done = hi
            if progress is not None:
                progress(done, total)
    seconds = time.perf_counter() - t0
    return OrdersResult(board, tie, lengths[:done], closed[:done], seconds,
                        complete=done == total, order_table=table)


def replay(n: int, order: object, tie: str, start: SquareSpec, *,
           cols: int | None = None) -> Walk:
    """One walk of the order from ``start`` (name or flat index), as a
    :class:`~knightgui_core.walks.result.Walk`."""
    rows, cols = n, (n if cols is None else cols)
    _check_board(rows, cols)
    last = _check_tie(tie)
    o = order_types(order)
    board = Board(rows, cols)
    try:
        s = board.square(start)
    except BoardError as e:
        raise OrderError(f"start: {e}") from None
    w, offsets, outlets0, to_padded = padded_layout(rows, cols)
    buf = np.empty(board.size, dtype=np.int32)
    k = int(one_walk(o, last, outlets0, offsets, int(to_padded[s]), board.size, buf))
    pr, pc = np.divmod(buf[:k].astype(np.int64), w)
    path = ((pr - 2) * cols + (pc - 2)).astype(np.int32)
    walk = Walk(board, path, "", {"method": "move-order analysis walk", "order": digits(o),
                                  "tie": tie})
    if walk.complete:
        msg = (f"order {digits(o)} ({tie}) from {board.name(s)}: complete"
               f"{', closed' if walk.closed else ''}, ends on {walk.end}")
    else:
        msg = (f"order {digits(o)} ({tie}) from {board.name(s)}: stuck on {walk.end} "
               f"after {k} of {board.size} squares")
    return replace(walk, message=msg)
