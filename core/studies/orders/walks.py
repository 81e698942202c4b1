"""How the move-order study walks: the padded board, and many orders from many starts, each
order on its own (:func:`walk_slice`) or sharing the walks of orders that resolve their ties
alike (:func:`tree_starts`, :func:`shared_walks`).

A group of orders is a word of constraints (byte y: the move types that come before type y);
a finished walk's orders are listed from it by lexicographic rank. :class:`OrderSet` is a set
of orders as the kernel reads it.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ...board.squares import DCOL, DROW
from .tree_kernel import ByStart, OrderGroup, PaddedBoard, TailTable, TieBranches, order_codes, orders_tree
from .walk_kernel import FRAME, orders_chunk

__all__ = ["padded_layout", "walk_slice", "rank_words", "tail_table",
           "OrderSet", "order_set", "tree_starts", "shared_walks"]

@lru_cache(maxsize=16)
def padded_layout(rows: int, cols: int) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """``(width, offsets, outlets0, to_padded)`` of the padded board: ``offsets`` int32[8]
    the step of move types 1..8, ``outlets0`` as in :mod:`.walk_kernel`, ``to_padded``
    int32[rows * cols] the padded index of each flat square."""
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


def rank_words(orders: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(ranks, words)`` int64[k] of ``orders`` (int8[k, 8], each row the move types 1..8
    once each): each order's lexicographic rank (its row in
    :func:`knightgui_core.studies.orders.all_orders`) and its word of constraints (byte y: the
    types that come before type y + 1, bit t for type t + 1; bit 63 never set); ValueError
    when it is not such a table."""
    table = np.ascontiguousarray(orders, dtype=np.int8).view()
    if table.ndim != 2 or table.shape[1] != 8:
        raise ValueError("orders must be an array of shape [k, 8]")
    table.setflags(write=False)     # one argument type for the kernel
    ranks = np.empty(table.shape[0], dtype=np.int64)
    words = np.empty(table.shape[0], dtype=np.int64)
    if int(order_codes(table, ranks, words)) != 0:
        raise ValueError("each order must hold the move types 1..8 once each")
    return ranks, words


@lru_cache(maxsize=1)
def tail_table() -> tuple[np.ndarray, np.ndarray]:
    """The last four places of an order, for :func:`orders_tree`: for each pattern of
    constraints among four types a < b < c < d (bit 3i + j': the j-th of the others must come
    before the i-th, j' = j without i), the lexicographic ranks 0..23 of their 24 orders that
    keep it. ``(toff int32[4097], tflat int8[t])``: pattern p's ranks are
    ``tflat[toff[p]:toff[p + 1]]``."""
    perms = np.array(list(itertools.permutations(range(4))), dtype=np.int64)
    place = np.argsort(perms, axis=1)            # place[r, x]: where x stands in order r
    keeps = np.zeros(24, dtype=np.int64)         # bit 3i + j': the order puts j before i
    for i in range(4):
        others = [j for j in range(4) if j != i]
        for jj, j in enumerate(others):
            keeps |= (place[:, j] < place[:, i]).astype(np.int64) << (3 * i + jj)
    patterns = np.arange(4096, dtype=np.int64)
    ok = (patterns[:, None] & ~keeps[None, :]) == 0
    toff = np.zeros(4097, dtype=np.int32)
    toff[1:] = np.cumsum(ok.sum(axis=1))
    tflat = np.nonzero(ok)[1].astype(np.int8)
    for a in (toff, tflat):
        a.setflags(write=False)
    return toff, tflat


@dataclass(frozen=True)
class OrderSet:
    """A set of orders as :func:`orders_tree` reads it: ``word`` the constraints all of them
    keep, ``row_of`` int32 the compact row of the order of rank ``rlo + i`` (-1: not in the
    set), ``count`` distinct orders, and ``inverse`` each given order's compact row."""

    word: int
    rlo: int
    row_of: np.ndarray
    count: int
    inverse: np.ndarray

    def expand(self, by_start: np.ndarray, out: np.ndarray) -> None:
        """Copy a kernel output (``[starts, count]``, by compact row) into ``out``
        (``[orders, starts]``, by given row)."""
        if self.inverse.size == self.count and (self.inverse == np.arange(self.count)).all():
            out[...] = by_start.T
        else:
            out[...] = by_start.T[self.inverse]


def order_set(orders: np.ndarray) -> OrderSet:
    """The :class:`OrderSet` of ``orders`` (int[k, 8], move types 1..8, in any order,
    repeats allowed); ValueError when a row is not an order."""
    ranks, words = rank_words(orders)
    if ranks.size == 0:
        return OrderSet(0, 0, np.zeros(0, dtype=np.int32), 0, np.zeros(0, dtype=np.int64))
    uniq, inverse = np.unique(ranks, return_inverse=True)
    rlo = int(uniq[0])
    row_of = np.full(int(uniq[-1]) - rlo + 1, -1, dtype=np.int32)
    row_of[uniq - rlo] = np.arange(uniq.size, dtype=np.int32)
    word = int(np.bitwise_and.reduce(words))
    return OrderSet(word, rlo, row_of, int(uniq.size), inverse.reshape(-1))


def tree_starts(orders: OrderSet, last: int, outlets0: np.ndarray, offsets: np.ndarray,
                starts: np.ndarray, cols_of: np.ndarray, squares: int,
                len_by_start: np.ndarray, closed_by_start: np.ndarray) -> int:
    """The shared walks of every order of ``orders`` from each start of ``starts`` (padded
    indices); row ``cols_of[i]`` of ``len_by_start`` int16[squares, count] and
    ``closed_by_start`` uint8[same] receives start i's (:meth:`OrderSet.expand` turns them
    into the study's arrays). Returns the number of distinct walks made."""
    if len_by_start.shape[1] != orders.count or closed_by_start.shape != len_by_start.shape:
        raise ValueError("the outputs must have a row per start and a column per order")
    toff, tflat = tail_table()
    snap = np.empty((squares + 1, outlets0.shape[0]), dtype=np.int32)
    stack = np.empty((8 * (squares + 1), 4), dtype=np.int64)
    walks = int(orders_tree(OrderGroup(int(orders.word), int(orders.rlo), orders.row_of),
                            int(last),
                            PaddedBoard(outlets0, offsets, int(squares)),
                            np.ascontiguousarray(starts, dtype=np.int64),
                            np.ascontiguousarray(cols_of, dtype=np.int64),
                            TailTable(toff, tflat), TieBranches(snap, stack),
                            ByStart(len_by_start, closed_by_start)))
    if walks < 0:
        raise ValueError("orders_tree: arguments that do not fit together")
    return walks


def shared_walks(rows: int, cols: int, last: int,
                 table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every order of ``table`` (int8[k, 8]) from every start, in this thread, sharing walks:
    (lengths int16[k, squares], closed uint8[k, squares]) as :func:`run_orders` gives them."""
    _, offsets, outlets0, to_padded = padded_layout(rows, cols)
    squares = rows * cols
    oset = order_set(table)
    len_t = np.zeros((squares, oset.count), dtype=np.int16)
    closed_t = np.zeros((squares, oset.count), dtype=np.uint8)
    tree_starts(oset, last, outlets0, offsets, to_padded, np.arange(squares), squares, len_t,
                closed_t)
    lengths = np.empty((table.shape[0], squares), dtype=np.int16)
    closed = np.empty((table.shape[0], squares), dtype=np.uint8)
    oset.expand(len_t, lengths)
    oset.expand(closed_t, closed)
    return lengths, closed
