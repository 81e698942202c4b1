"""Counting every Warnsdorff tour from a start square, split into subtrees (the count engine).

Strict rule, no dashes, open tours, every tie followed: the search of
:class:`knightgui_core.tietree.enumeration.enumerator.Enumerator` with no end square, counted
without building a tour.

>>> r = count_subtrees(CountBoard(5, 5), "a1", [()])
>>> (r.tours, r.closed, r.rest)
(32, 0, [])

A *prefix* is a tuple of move types, one per tie met on the way down from the start; it names
a subtree, and the subtrees of one tie's options split the subtree above it. :func:`split`
cuts a start ``depth`` ties down; :func:`count_subtrees` counts subtrees within a budget of
forward moves and hands back what it did not reach as prefixes (``rest``), so a task too big
splits itself; :func:`start_classes` groups the starts the board's symmetries map onto each
other (the same counts). Totals never depend on the split or the budget
(tests/core/test_count.py).

The count runs on :mod:`knightgui_core.tietree.counting.memo_kernel`: with a
:class:`~knightgui_core.tietree.counting.table.TransTable` a tie node met again adds its kept
results, without one the kernel walks the whole tree. Per subtree it also gives the
probability that a walk choosing uniformly among tied squares ends in a tour (``p_success``)
or a closed tour (``p_closed``), relative to the start, and, asked for, the dead ends by
squares visited. With a table, no lengths and a budget of at least :data:`MANY_BUDGET`, the
subtrees are walked several at a time (:mod:`knightgui_core.tietree.counting.interleave`):
the same counts, faster.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import partial

import numpy as np

from ...board.squares import Board
from ...system.control import CancelLike, cancel_requested
from . import count_kernel as _k
from . import memo_kernel as _m
from .board import (
    MAX_SQUARES,
    CountBoard,
    CountError,
    SubtreeCount,
    _prefix_array,
    children,
    left_of,
)
from .interleave import count_many
from .table import TransTable

__all__ = ["CountBoard", "CountError", "SubtreeCount", "count_subtrees", "split",
           "start_classes", "symmetries", "board_symmetries", "MAX_SQUARES"]

#: a count with a table and a budget of at least this many forward moves walks several
#: subtrees in turn (:mod:`.interleave`); a smaller budget is a small piece of work, which
#: the cut into many subtrees would cost more than it saves
MANY_BUDGET = 1 << 16


def count_subtrees(cb: CountBoard, start: int | str, prefixes: Iterable[Sequence[int]],
                   budget: int = 1 << 62, cancel: CancelLike = None,
                   chunk: int = 1 << 20, table: TransTable | None = None,
                   lengths: bool = False) -> SubtreeCount:
    """Count the subtrees ``prefixes`` (each a tuple of move types; ``()`` is the whole
    start) from ``start`` in order, making at most ``budget`` forward moves in all. The work
    not done is returned as prefixes in ``rest`` (shallowest first), so
    ``count(prefixes) == result + count(result.rest)`` always holds (probabilities too, each
    relative to the start). ``cancel()`` is asked every ``chunk`` forward moves; when it is
    true the rest is handed back the same way. ``table``: a transposition table for this
    board (None: walk every node); ``lengths``: also count dead ends by length (the table
    must have been made with lengths too)."""
    s = cb.square(start)
    budget = int(budget)
    if budget < 1:
        raise CountError("the budget must be at least one forward move")
    if table is not None and (table.n != cb.n or table.lengths != bool(lengths)):
        raise CountError("the table was made for another board or without lengths")
    tab = table if table is not None else cb.no_table(bool(lengths))
    prefixes = [tuple(int(x) for x in _prefix_array(p)) for p in prefixes]
    if table is not None and table.buckets > 0 and not lengths and budget >= MANY_BUDGET:
        return count_many(cb, s, prefixes, budget, cancel, chunk, table)
    out = SubtreeCount()
    close = cb.att[s].copy()
    al, alp = cb.lens_arrays(bool(lengths))
    sums = _m.TieSums(cb.ai, cb.af, al, alp, cb.fw0)
    oi = np.zeros(3, np.int64)
    of = np.zeros(2, np.float64)
    ol = np.zeros(al.shape[1], np.int64)
    olp = np.zeros(al.shape[1], np.float64)
    lens_total = np.zeros(al.shape[1], np.int64)
    lensp_total = np.zeros(al.shape[1], np.float64)
    left = budget
    for i, p in enumerate(prefixes):
        if left <= 0 or cancel_requested(cancel):
            out.rest.extend(prefixes[i:])
            break
        cb._begin(s, p)
        root = int(cb.st[_k.ST_K])
        weight = 1.0
        for j in range(1, root):
            if cb.ntied[j] >= 2:
                weight /= float(cb.ntied[j])
        m = cb.mst
        m[:] = 0
        m[_m.ST_K] = root
        m[_m.ST_ROOT] = root
        m[_m.ST_N] = cb.n
        m[_m.ST_START] = s
        m[_m.ST_PHASE] = _m.PH_RUN
        cb.ai[0] = 0
        cb.af[0] = 0.0
        al[0] = 0
        alp[0] = 0.0
        ev = _m.BUDGET
        while left > 0:
            f0 = int(m[_m.ST_FORWARD])
            new0 = int(m[_m.ST_NEW])
            ev = _m.memo_run(cb.att, close, cb.path, cb.free, cb.pend, cb.ntied, cb.ties, m,
                             tab.record, sums, min(left, int(chunk)))
            left -= int(m[_m.ST_FORWARD]) - f0
            if table is not None:
                table.filled += int(m[_m.ST_NEW]) - new0
                table.grow_if_full()
            if ev == _m.DONE or cancel_requested(cancel):
                break
        _m.memo_fold(cb.n, int(m[_m.ST_NTIE]) if ev != _m.DONE else 0, cb.ties, cb.ntied,
                     sums, oi, of, ol, olp)
        out.tours += int(oi[0])
        out.closed += int(oi[1])
        out.dead_ends += int(oi[2])
        out.p_success += weight * float(of[0])
        out.p_closed += weight * float(of[1])
        if lengths:
            lens_total += ol
            lensp_total += weight * olp
        out.forward_moves += int(m[_m.ST_FORWARD])
        out.probes += int(m[_m.ST_PROBES])
        out.hits += int(m[_m.ST_HITS])
        if ev != _m.DONE:
            out.rest.extend(left_of(cb.path, cb.ntied, cb.ties, cb.pend, cb.mtype,
                                    int(m[_m.ST_K]), int(m[_m.ST_NTIE])))
            out.rest.extend(prefixes[i + 1:])
            break
    if lengths:
        out.lengths = {int(j): [int(lens_total[j]), float(lensp_total[j])]
                       for j in np.flatnonzero(lens_total)}
    return out


def split(cb: CountBoard, start: int | str, depth: int) -> list[tuple]:
    """The prefixes ``depth`` ties below ``start`` (fewer ties where a path ends first):
    their subtrees partition the start's."""
    s = cb.square(start)
    if int(depth) < 0:
        raise CountError("the split depth must not be negative")
    level: list[tuple] = [()]
    out: list[tuple] = []
    for _ in range(int(depth)):
        nxt: list[tuple] = []
        for p in level:
            kids, _ = children(cb, s, p)
            if kids:
                nxt.extend(kids)
            else:
                out.append(p)
        level = nxt
    return out + level


def symmetries(rows: int, cols: int, topology: str = "plane") -> list:
    """The board's symmetries as functions ``(col, row) -> (col, row)``: four on a
    rectangle, eight on a square (four on a cylinder, square or not: a diagonal would turn its
    wrapped columns into rows that do not wrap)."""
    r, c = rows - 1, cols - 1
    maps = [lambda x, y: (x, y), lambda x, y: (c - x, y), lambda x, y: (x, r - y),
            lambda x, y: (c - x, r - y)]
    if rows == cols and topology != "cylinder":
        maps += [lambda x, y: (y, x), lambda x, y: (r - y, x), lambda x, y: (y, c - x),
                 lambda x, y: (r - y, c - x)]
    return maps


def board_symmetries(board: Board) -> list[Callable[[int, int], tuple[int, int]]]:
    """Every symmetry of ``board``'s counts as a map ``(col, row) -> (col, row)``: those of
    :func:`symmetries`, after a turn of the wrapped columns on a cylinder (and of the rows on
    a torus), which moves every square's moves with it."""
    rows, cols = board.rows, board.cols
    shifts_c = range(cols) if board.topology in ("cylinder", "torus") else range(1)
    shifts_r = range(rows) if board.topology == "torus" else range(1)
    out: list[Callable[[int, int], tuple[int, int]]] = []
    for m in symmetries(rows, cols, board.topology):
        for dx in shifts_c:
            for dy in shifts_r:
                out.append(partial(_shifted, m, dx, dy, cols, rows))
    return out


def _shifted(m: Callable[[int, int], tuple[int, int]], dx: int, dy: int, cols: int, rows: int,
             x: int, y: int) -> tuple[int, int]:
    return m((x + dx) % cols, (y + dy) % rows)


def start_classes(rows: int, cols: int, starts: Iterable[int],
                  board: Board | None = None) -> dict[int, list[int]]:
    """Representative square (the smallest index of its orbit) -> the given starts it
    stands for, in the order given (the symmetries of ``board`` when given, see
    :func:`board_symmetries`): an n×n cylinder has about n/2 classes and a torus one or
    two."""
    b = Board(rows, cols) if board is None else board
    group = board_symmetries(b)
    out: dict[int, list[int]] = {}
    for s in starts:
        x0, y0 = b.coords(int(s))
        rep = min(b.index(*g(x0, y0)) for g in group)
        out.setdefault(rep, []).append(int(s))
    return out
