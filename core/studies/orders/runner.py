"""The move-order study on the runner: each task walks a slice of the 40,320 orders from
every start of one board with one tie rule.

Keys name the board, tie rule and slice (``move-orders/v1/8x8/first/0-5040``; a subset of
orders adds its digest, ``.../set-1a2b3c4d5e6f/0-12``). The slice size depends on the board
only: 8 slices up to 64 squares (one first move type each: they share the most walks,
``bench/orders.py --through-runner``), 64 up to 144, 160 above. A store written with the
earlier 16 slices is still read (:func:`orders_tasks`). :func:`run_study` puts the packed
results back into the :class:`~knightgui_core.studies.orders.OrdersResult` that
:func:`~knightgui_core.studies.orders.run_orders` returns.
"""
from __future__ import annotations

import hashlib
import time
from typing import Any

import numpy as np

from ...board.squares import Board
from ...run.runner import CancelArg, ProgressFn, RunReport, Task, pack_array, run_tasks, unpack_array
from ...run.store import ResultStore
from ...run.store_shapes import RowShapeError, board_squares, obj, packed, result_shape, whole
from . import (
    N_ORDERS,
    OrderError,
    OrdersResult,
    _check_board,
    _check_tie,
    _order_table,
    all_orders,
)
from .walks import shared_walks

STUDY = "move-orders"
VERSION = 1


#: orders per task on boards up to 64 squares in stores written before the 8 slices
OLD_SLICE = N_ORDERS // 16


def slice_size(squares: int) -> int:
    """Orders per task on a board of ``squares`` squares (divides 40,320)."""
    if squares <= 64:
        return N_ORDERS // 8
    if squares <= 144:
        return N_ORDERS // 64
    return N_ORDERS // 160


def walk_orders(rows: int, cols: int, last: int, orders: np.ndarray) -> dict[str, Any]:
    """Walk ``orders`` (int8[k, 8]) from every start (runs on a worker):
    ``{"lengths": packed int16[k, squares], "closed": packed uint8[k, squares]}``."""
    table = np.ascontiguousarray(orders, dtype=np.int8)
    lengths, closed = shared_walks(rows, cols, int(last), table)
    return {"lengths": pack_array(lengths), "closed": pack_array(closed)}


@result_shape(STUDY)
def result_shape_of(params: Any, result: Any) -> None:
    """Check :func:`walk_orders`'s result: packed (orders, squares) arrays, lengths in
    1..squares, closed 0 or 1."""
    p, squares = board_squares(params)
    lo = whole(obj(p, "the parameters", ("from", "to"))["from"], "the parameters' from", 0,
               N_ORDERS)
    k = whole(p["to"], "the parameters' to", lo, N_ORDERS) - lo
    r = obj(result, "the result", ("lengths", "closed"))
    lengths = packed(r["lengths"], "result.lengths", "i", 2, (k, squares))
    closed = packed(r["closed"], "result.closed", "u", 1, (k, squares))
    if lengths.size and (int(lengths.min()) < 1 or int(lengths.max()) > squares):
        raise RowShapeError(f"result.lengths holds walks outside 1..{squares}")
    if closed.size and int(closed.max()) > 1:
        raise RowShapeError("result.closed holds values other than 0 and 1")


def _table(orders: np.ndarray | None) -> tuple[np.ndarray, str]:
    if orders is None:
        return all_orders(), ""
    table = _order_table(orders)
    digest = hashlib.sha256(table.tobytes()).hexdigest()[:12]
    return table, f"set-{digest}/"


def orders_tasks(n: int = 8, tie: str = "first", *, cols: int | None = None,
                 orders: np.ndarray | None = None,
                 store: ResultStore | None = None) -> list[Task]:
    """The tasks of the study of an ``n`` × ``cols`` board (``orders``: a subset). A slice
    whose two :data:`OLD_SLICE` halves are both in ``store`` becomes those two tasks."""
    rows, cols = n, (n if cols is None else cols)
    _check_board(rows, cols)
    last = _check_tie(tie)
    table, tag = _table(orders)
    size = slice_size(rows * cols)

    def task(lo: int, hi: int) -> Task:
        key = f"{STUDY}/v{VERSION}/{rows}x{cols}/{tie}/{tag}{lo}-{hi}"
        params = {"rows": rows, "cols": cols, "tie": tie, "orders": tag.rstrip("/") or "all",
                  "from": lo, "to": hi}
        return Task(key, STUDY, params, walk_orders, (rows, cols, last, np.array(table[lo:hi])))

    cuts = [(lo, min(table.shape[0], lo + size)) for lo in range(0, table.shape[0], size)]
    halves = {(lo, hi): [task(lo, lo + OLD_SLICE), task(lo + OLD_SLICE, hi)]
              for lo, hi in cuts
              if store is not None and size == 2 * OLD_SLICE and hi - lo > OLD_SLICE}
    there: set[str] = set()
    if store is not None and halves:
        keys = [t.key for pair in halves.values() for t in pair]
        there = set(keys) - set(store.missing(keys))
    tasks: list[Task] = []
    for lo, hi in cuts:
        pair = halves.get((lo, hi), [])
        if pair and all(t.key in there for t in pair):
            tasks += pair
        else:
            tasks.append(task(lo, hi))
    return tasks


def assemble(n: int, tie: str, tasks: list[Task], report: RunReport, *,
             cols: int | None = None, orders: np.ndarray | None = None,
             seconds: float = 0.0) -> OrdersResult:
    """The :class:`OrdersResult` of a run: the orders of the tasks that finished, in task
    order (a cancelled run on a cluster keeps every one that did)."""
    rows, cols = n, (n if cols is None else cols)
    table, _ = _table(orders)
    board = Board(rows, cols)
    parts_len, parts_closed, parts_table = [], [], []
    done = 0
    for t in tasks:
        value = report.results.get(t.key)
        if value is None:
            continue
        ln, cl = unpack_array(value["lengths"]), unpack_array(value["closed"])
        k = t.params["to"] - t.params["from"]
        if ln.shape != (k, board.size) or cl.shape != (k, board.size):
            raise OrderError(f"task {t.key}: result has the wrong shape")
        parts_len.append(ln.astype(np.int16, copy=False))
        parts_closed.append(cl.astype(np.uint8, copy=False))
        parts_table.append(table[t.params["from"]:t.params["to"]])
        done += k
    lengths = (np.concatenate(parts_len) if parts_len
               else np.zeros((0, board.size), dtype=np.int16))
    closed = (np.concatenate(parts_closed) if parts_closed
              else np.zeros((0, board.size), dtype=np.uint8))
    complete = done == table.shape[0]
    kept = table if complete else (np.concatenate(parts_table) if parts_table
                                   else table[:0])
    return OrdersResult(board, tie, lengths, closed, seconds, complete=complete,
                        order_table=kept)


def run_study(n: int = 8, tie: str = "first", *, cols: int | None = None,
              orders: np.ndarray | None = None, store: ResultStore | None = None,
              scheduler: Any = None, progress: ProgressFn | None = None,
              cancel: CancelArg = None, workers: int | None = None) -> tuple[OrdersResult, RunReport]:
    """:func:`~knightgui_core.studies.orders.run_orders` on the runner, with a store and any
    scheduler; ``progress(done, total)`` counts tasks."""
    t0 = time.perf_counter()
    tasks = orders_tasks(n, tie, cols=cols, orders=orders, store=store)
    report = run_tasks(tasks, store=store, scheduler=scheduler, progress=progress,
                       cancel=cancel, workers=workers)
    res = assemble(n, tie, tasks, report, cols=cols, orders=orders,
                   seconds=time.perf_counter() - t0)
    return res, report
