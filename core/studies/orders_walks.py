"""How the move-order study walks: the padded board, and the walks of many orders from many
starts, each order on its own (:func:`walk_slice`) or sharing the walks of the orders that
resolve their ties alike (:func:`tree_starts`, :func:`shared_walks`). The kernels are in
:mod:`knightgui_core.studies.orders_kernel`; :mod:`knightgui_core.studies.orders` is the
study around them.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..board.squares import DCOL, DROW
from .orders_kernel import FRAME, orders_chunk, orders_tree

__all__ = ["padded_layout", "walk_slice", "rank_table", "precedence_table", "tree_starts",
           "shared_walks"]


@lru_cache(maxsize=16)
def padded_layout(rows: int, cols: int) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """Tables for the padded board.

    Returns ``(width, offsets, outlets0, to_padded)``:
    ``offsets`` int32[8] is the padded-index step of move types 1..8 (index t - 1);
    ``outlets0`` int32[(rows + 4) * width] as described in the module docstring;
    ``to_padded`` int32[rows * cols] maps a flat board square (``row * cols + col``) to its
    padded index.
    """
    if rows < 1 or cols < 1:
        raise ValueError("board must have at least one row and one column")
    w = cols + 4
    offsets = (DROW.astype(np.int64) * w + DCOL.astype(np.int64)).astype(np.int32)
    sq = np.arange(rows * cols, dtype=np.int64)
    to_padded = ((sq // cols + 2) * w + (sq % cols + 2)).astype(np.int32)
    outlets0 = np.full((rows + 4) * w, FRAME, dtype=np.int32)
    onboard = np.zeros((rows + 4) * w, dtype=np.bool_)
    onboard[to_padded] = True
    for p in to_padded:
        outlets0[p] = int(onboard[p + offsets].sum())
    return w, offsets, outlets0, to_padded


def walk_slice(orders: np.ndarray, last: int, outlets0: np.ndarray, offsets: np.ndarray,
               starts: np.ndarray, squares: int, out_len: np.ndarray,
               out_closed: np.ndarray) -> None:
    """Walk each order of ``orders`` on its own from every start (:func:`orders_chunk`)."""
    part = orders.view()
    part.setflags(write=False)   # one argument type for the kernel (knightgui_core.kernel_exports)
    orders_chunk(part, last, outlets0, offsets, starts, squares, out_len, out_closed)


def rank_table(orders: np.ndarray, last: int) -> np.ndarray:
    """``int8[k, 8]``: the rank of move type t + 1 in each order (0 wins a tie): its position
    in the order, or 7 minus it when ties go to the last tied move."""
    k = orders.shape[0]
    rankt = np.empty((k, 8), dtype=np.int8)
    pos = np.broadcast_to(np.arange(8, dtype=np.int8), (k, 8))
    rankt[np.arange(k)[:, None], orders.astype(np.int64) - 1] = (7 - pos) if last else pos
    return rankt


def precedence_table(orders: np.ndarray, last: int) -> np.ndarray:
    """``int64[k]``: each order's precedence bits, bit ``8a + b`` set when move type a + 1
    wins a tie with b + 1 (ranks before it, :func:`rank_table`); bit 63 is never set."""
    rankt = rank_table(orders, last).astype(np.int64)
    prec = np.zeros(orders.shape[0], dtype=np.int64)
    for a in range(8):
        for b in range(8):
            if a != b:
                prec |= (rankt[:, a] < rankt[:, b]).astype(np.int64) << (8 * a + b)
    return prec


def tree_starts(prec: np.ndarray, outlets0: np.ndarray, offsets: np.ndarray,
                starts: np.ndarray, cols_of: np.ndarray, squares: int, out_len: np.ndarray,
                out_closed: np.ndarray) -> int:
    """The shared walks of every order of ``prec`` (:func:`precedence_table`) from each start
    of ``starts`` (padded indices; ``cols_of`` their columns in the outputs)."""
    prec = np.ascontiguousarray(prec, dtype=np.int64)
    k = prec.shape[0]
    cols_of = np.asarray(cols_of)
    if prec.ndim != 1:
        raise ValueError("prec must be one precedence word per order")
    if out_len.shape[0] != k or out_closed.shape[0] != k or (
            cols_of.size and not 0 <= int(cols_of.min()) <= int(cols_of.max()) < out_len.shape[1]):
        raise ValueError("out_len and out_closed must have a row per order and a column per start")
    idx = np.empty(k, dtype=np.int64)
    tmp = np.empty(k, dtype=np.int64)
    snap = np.empty((squares + 1, outlets0.shape[0]), dtype=np.int32)
    stack = np.empty((8 * (squares + 1), 5), dtype=np.int64)
    walks = 0
    for s, j in zip(starts, cols_of):
        walks += int(orders_tree(prec, outlets0, offsets, int(s), squares, int(j), idx, tmp,
                                 snap, stack, out_len, out_closed))
    return walks


def shared_walks(rows: int, cols: int, last: int,
                 table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every order of ``table`` (int8[k, 8]) from every start of a rows × cols board, in
    this thread, the orders sharing their walks: (lengths int16[k, squares], closed
    uint8[k, squares]) as :func:`run_orders` gives them. A runner task calls this."""
    _, offsets, outlets0, to_padded = padded_layout(rows, cols)
    squares = rows * cols
    lengths = np.zeros((table.shape[0], squares), dtype=np.int16)
    closed = np.zeros((table.shape[0], squares), dtype=np.uint8)
    tree_starts(precedence_table(table, last), outlets0, offsets, to_padded, np.arange(squares),
                 squares, lengths, closed)
    return lengths, closed
