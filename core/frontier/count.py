"""Every knight's tour of a ``k`` × ``n`` board counted column by column (the frontier count).

The cells are read column by column, each column top to bottom; a state is what the cells
still in touch with unread ones look like: which have no move yet, which are loose ends of
pieces of path and which ends belong together (the idea of Knuth's DYNAHAM and DYNAHAMP,
TAOCP Pre-Fascicle 8A, written anew here; the cell-by-cell step is
:func:`knightgui_core.frontier.word_kernel.word_expand` up to 7 rows, a state one
word, and :func:`knightgui_core.frontier.pair_kernel.pair_expand` from 8 to 12
rows, two words). The number of states depends
on ``k``, not on ``n``, so long boards cost time in proportion to their length, and one run
over ``n`` columns counts every shorter board on its way.

Counts are exact: each state carries residues modulo 2^64 and primes below 2^62, as many
as a bound on the directed paths of the board needs (:func:`count_bound_bits`, Brégman's
bound on a permanent), and the Chinese remainder theorem joins them into a Python ``int``.

>>> res = count_frontier(6, [6])                      # doctest: +SKIP
>>> res.boards[0].cycles                              # 9,862 closed tours (A175881)
"""
from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..system.control import CancelLike, cancel_requested, raise_if_cancelled
from ..system.errors import InputError
from ..system.limits import available_memory
from .pair import PAIR, PAIR_WINDOW
from .plan import BoardSteps, CountPlan
from .residues import count_bound_bits, crt, moduli_for
from .run_folder import RunFolder
from .spill import (
    SpillError,
    SpillPlan,
    check_spill_parent,
    run_in_process,
    spill_line,
    spilled_cells,
    unwatch_folder,
    wait_idle,
    watch_folder,
)
from .spill_kernel import spill_route
from .word import (
    LOAD,
    WORD,
    Layout,
    first_table,
    grow_word_table,
    keep_word_part,
    new_word_table,
    word_cell,
)
from .word_kernel import WORD_WINDOW

__all__ = ["MAX_ROWS", "MAX_COLS", "FrontierError", "FrontierBoard", "FrontierResult",
           "SpillPlan", "count_frontier", "moduli_for", "count_bound_bits", "crt", "state_estimate",
           "table_bytes"]

#: the window (2k + 1 cells) must fit the two-word step (pieces labelled 3..14 in a nibble)
MAX_ROWS = (PAIR_WINDOW - 1) // 2
#: the longest board a run reads
MAX_COLS = 10_000
#: the most states met at once on a long board, measured (bench/frontier.py) per height
#: and kind; a board not listed is estimated from the growth between the last two heights
#: (height, closed only) → states, without the mirror fold; measured on 3×12, 4×16, 5×40
#: (closed), 5×8 (open), 6×7 (closed), 6×6 (open), 7×22 (closed), 7×7 (open, through slices
#: on disk, inside its sixth column, where the run was stopped: a lower bound) and 8×8
#: (closed, through slices: 585,836,639 with the fold, over :data:`FOLD_SHARE`; a short
#: board, so a lower bound for longer ones)
PEAK_STATES: dict[tuple[int, bool], int] = {
    (3, True): 178, (3, False): 2_152, (4, True): 672, (4, False): 19_583,
    (5, True): 56_497, (5, False): 981_755, (6, True): 1_363_437, (6, False): 22_139_418,
    (7, True): 31_217_848, (7, False): 356_218_289, (8, True): 781_115_519}
#: the most states at once with the mirror fold over those without it, the highest share
#: measured (the fold halves the states at a column's end, less inside a column): 3×12
#: open 0.504, 4×16 0.525, 5×8 0.704, 5×40 closed 0.689, 6×12 closed 0.746
FOLD_SHARE = 0.75


class FrontierError(InputError):
    """A board the frontier count cannot take (too high, too long, or too big for memory);
    ``result``: what a run that outgrew its memory had counted and measured by then."""

    result: FrontierResult | None = None


@dataclass
class FrontierBoard:
    """The counts of one board: ``cycles`` (undirected closed tours) and ``paths``
    (undirected open paths, closed ones included; ``None`` when only cycles were asked)."""

    rows: int
    cols: int
    cycles: int
    paths: int | None


@dataclass
class FrontierResult:
    """Every board asked for, the largest table (states and bytes) and the time."""

    rows: int
    closed_only: bool
    boards: list[FrontierBoard] = field(default_factory=list)
    peak_states: int = 0
    peak_table_bytes: int = 0
    #: the states after each column (its last cell), the first column first
    column_states: list[int] = field(default_factory=list)
    moduli: int = 0
    seconds: float = 0.0
    #: the states read, summed over the cells (the work: each is turned into its successors)
    state_cells: int = 0
    #: a run through slices on disk (:mod:`.spill`): each cell's figures, its
    #: slices' too (empty for a run in memory; a resumed run lists the cells it ran)
    slices: list[dict[str, Any]] = field(default_factory=list)
    #: the cells a spilled run found done in its folder and went on after
    resumed_cells: int = 0


def _later(rows: int, r: int) -> list[tuple[int, int]]:
    return [(r + dr, dc) for dr, dc in ((1, 2), (-1, 2), (2, 1), (-2, 1)) if 0 <= r + dr < rows]


def _step_tables(rows: int, cols: int, odd_ends: bool = False) -> BoardSteps:
    """Per cell ``i``: the window positions of its neighbours read before it (``earlier``,
    int64[N, 4]) and how many knight neighbours each position has still unread after it
    (``unread``, uint8[N, W + 1]) on the ``cols``-column board (a shorter board's last
    cells retire when it is finished: a cell that lacks moves on the longest board lacks
    them on a shorter one too), and which may be an end of a path (``may_end``, uint8[N, W
    + 1]; ``odd_ends``: on boards of odd area only the colour of the corners, which has one
    square more, since a path alternates colours)."""
    k, w = rows, 2 * rows + 1
    n = rows * cols
    nb = np.full((n, 4), -1, np.int64)
    rem = np.zeros((n, w + 1), np.uint8)
    endok = np.ones((n, w + 1), np.uint8)
    later = [[(c + dc) * k + rr for rr, dc in _later(k, r) if c + dc < cols]
             for c, r in (divmod(i, k) for i in range(n))]
    for i in range(n):
        c, r = divmod(i, k)
        q = 0
        for dr, dc, pos in ((-1, 2, 0), (1, 2, 2), (-2, 1, k - 1), (2, 1, k + 3)):
            if 0 <= r + dr < k and c - dc >= 0:
                nb[i, q] = pos
                q += 1
        for t in range(1, w + 1):
            j = i - w + t
            if j >= 0:
                rem[i, t] = sum(1 for x in later[j] if x > i)
                if odd_ends and sum(divmod(j, k)) % 2:
                    endok[i, t] = 0
    return BoardSteps(nb, rem, endok)


def state_estimate(rows: int, closed_only: bool, fold: bool = True) -> int | None:
    """The most states a long board of this height holds at once, measured or extrapolated
    from the two highest measured heights, times :data:`FOLD_SHARE` with the mirror fold
    (``fold``, the count's default); ``None`` when nothing is measured."""
    got = _unfolded_estimate(rows, closed_only)
    return None if got is None else int(got * FOLD_SHARE) if fold else got


def _unfolded_estimate(rows: int, closed_only: bool) -> int | None:
    got = PEAK_STATES.get((rows, closed_only))
    if got is not None:
        return got
    known = sorted(k for k, c in PEAK_STATES if c == closed_only)
    if len(known) < 2 or rows < known[-1]:
        return None
    top, below = known[-1], known[-2]
    both = [(k, c) for k in (top, below) for c in (True, False)]
    ratio = (max(PEAK_STATES[(top, c)] / PEAK_STATES[(below, c)] for c in (True, False))
             if all(x in PEAK_STATES for x in both) else 30.0)
    return int(PEAK_STATES[(top, closed_only)] * max(1.0, ratio) ** (rows - top))


def _layout(rows: int) -> Layout:
    """The table layout of a board ``rows`` high: one-word keys up to 7 rows, two above."""
    return WORD if 2 * rows + 1 <= WORD_WINDOW else PAIR


def table_bytes(rows: int, states: int, m: int) -> int:
    """Bytes the two tables of a cell (the one read and the one filled) take when they hold
    ``states`` states of ``m`` residues each, filled to :data:`.word.LOAD`: a
    slot is the key (one word up to 7 rows, two above) and the residues."""
    return 2 * int(states / LOAD * 1.1 + 64) * 8 * (m + _layout(rows).words)


def warm_up_frontier() -> None:
    """Runs each frontier kernel once (both steps, both regrows, the bound) on tiny boards."""
    from .bound import relaxed_bounds
    mods = np.zeros(1, np.uint64)
    rows = np.array([[1 << 63, 5], [0, 7], [3, 1]], np.uint64)
    routed = spill_route(rows, 1, 2, 2, np.empty_like(rows), np.zeros(5, np.int64))
    got = (count_frontier(3, [4], threads=2).boards[0].paths + 10 * routed,  # one-word keys
           count_frontier(8, [2], closed_only=True).boards[0].cycles,  # two-word keys
           grow_word_table(new_word_table(16, 1, 2), mods, PAIR).shape[0],
           grow_word_table(new_word_table(16, 1), mods).shape[0],
           relaxed_bounds(3, 4).paths[-1])                          # the residues' bound
    if got != (28, 0, 40, 40, 20):
        raise RuntimeError(f"the frontier kernels answered {got} on the warm-up boards")


def _expect(states: int, growth: float) -> int:
    """The states a new table is sized for: the growth of the same row's cell a column
    before."""
    return int(states * growth) + 1


def _word_cells(plan: CountPlan, res: FrontierResult, part: tuple[int, int, int] | None,
                cancel: CancelLike = None) -> Iterator[tuple[int, int, Any]]:
    """Each cell of ``plan``'s board in turn (:func:`.word.word_cell` on the plan's
    layout): its index, the states after it and the finished boards' residues (or None).
    ``part``: as :func:`count_frontier` says."""
    k, m, layout = plan.rows, len(plan.mods), plan.layout
    mods = np.array(plan.mods, np.uint64)
    tables, states = [first_table(m, layout.words)], 1
    growth = [3.0] * k
    for i in range(plan.cells):
        c, r = divmod(i, k)
        step = plan.cell(i)
        held = [sum(t.nbytes for t in tables)]

        def reserve(nbytes: int, c: int = c, states: int = states,
                    held: list[int] = held) -> None:
            held[0] += nbytes
            res.peak_table_bytes = max(res.peak_table_bytes, held[0])
            if held[0] > plan.budget:
                err = FrontierError(
                    f"the frontier count of {k}×{plan.cols} needs a table of more than "
                    f"{held[0] / 2**30:.1f} GiB at column {c + 1} ({states:,} states, "
                    f"{m} residues each) and {plan.budget / 2**30:.1f} GiB may be used")
                err.result = res
                raise err

        try:
            tables, total, got = word_cell(tables, mods, step, _expect(states, growth[r]),
                                           plan.threads, reserve, layout, stop=cancel)
        except RuntimeError as e:
            raise FrontierError(f"{e} at cell {i}") from None
        if step.carry:
            growth[r] = max(0.5, got / max(1, states))
        states = got
        res.peak_states = max(res.peak_states, states)
        if r == k - 1 and part is not None and c + 1 == part[0]:
            states = keep_word_part(tables, part[1], part[2], layout.words)
        yield i, states, total if step.finish else None


def _force_end(steps: BoardSteps, cell: int, k: int, shortest: int, closed_only: bool,
               part: tuple[int, int, int] | None) -> None:
    """Marks ``cell`` as a must-be end of the path (2) from its own cell to the one where
    it retires (position 0, or no unread neighbour left); later its nibble is 0 anyway."""
    if closed_only or part is not None:
        raise FrontierError("the paths from one start are open paths: no closed-only, no part")
    if not 0 <= cell < k * shortest:
        raise FrontierError(f"the start cell {cell} is not on every {k}×n board asked for")
    endok, rem = steps.may_end, steps.unread
    w = endok.shape[1] - 1
    for i in range(cell, min(endok.shape[0], cell + w + 1)):
        t = cell - i + w
        endok[i, t] = 2
        if t == 0 or rem[i, t] == 0:
            break


def _board(k: int, cols: int, total: Any, mods: Sequence[int], closed_only: bool
           ) -> FrontierBoard:
    """A finished board's counts from its residues (``[cycles, paths]``, one a modulus)."""
    cycles = crt([int(x) for x in total[0]], list(mods))
    paths = None if closed_only else crt([int(x) for x in total[1]], list(mods))
    return FrontierBoard(k, cols, cycles, paths)


def count_frontier(rows: int, cols: Sequence[int] | int, *, closed_only: bool = False,
                   memory_limit: int | None = None,
                   progress: Callable[[int, int], None] | None = None,
                   cancel: CancelLike = None,
                   part: tuple[int, int, int] | None = None,
                   threads: int | None = None, end_at: int | None = None,
                   spill: SpillPlan | None = None, fold: bool = True) -> FrontierResult:
    """Count the closed tours (and, unless ``closed_only``, the open paths) of every
    ``rows`` × ``n`` board for ``n`` in ``cols``, in one pass over ``max(cols)`` columns;
    :class:`FrontierError` for a board it cannot take or a table past ``memory_limit``
    (bytes; default: what the machine has free). ``part``: ``(column, index, parts)``
    keeps, after that column, only the states whose key hashes to ``index`` of ``parts``
    (each board is counted from one state of that column, so the parts add up to the
    whole); every length longer than ``column``. ``threads``: the shares of the hash each
    cell is read in, one a thread (default: one a core, at most 8). ``end_at``: only the
    open paths with this cell (``column · rows + row``) as one end, so ``paths`` counts the
    directed paths from it (``cycles`` 0); every length past its column. ``spill``
    (:class:`.spill.SpillPlan`): the states kept on disk between cells, one slice's tables
    in memory at a time, in the count's own folder (:mod:`.run_folder`), removed when the
    count ends and kept with its progress when it stops, so the same call goes on from the
    last cell saved (``resumed_cells``). ``fold``: after each column a state and its
    top-bottom mirror image kept as one, their counts summed (about half the states, the
    same counts); never with ``end_at`` (one end cell is not mirrored)."""
    lengths = sorted({int(cols)} if isinstance(cols, (int, np.integer)) else
                     {int(c) for c in cols})
    if not isinstance(rows, (int, np.integer)) or not 1 <= int(rows) <= MAX_ROWS:
        raise FrontierError(f"the frontier count takes boards 1 to {MAX_ROWS} rows high "
                            f"(the short side), not {rows}")
    k = int(rows)
    if not lengths or lengths[0] < 1 or lengths[-1] > MAX_COLS:
        raise FrontierError(f"board lengths run from 1 to {MAX_COLS} columns")
    if part is not None and not (1 <= part[0] < lengths[0] and 0 <= part[1] < part[2]):
        raise FrontierError(f"a part (column, index, parts) needs a column before the "
                            f"shortest board and an index below the parts, not {part}")
    budget = available_memory() if memory_limit is None else int(memory_limit)
    t0 = time.perf_counter()
    ncols = lengths[-1]
    mods_list = moduli_for(k, lengths, closed_only, cancel)
    m = len(mods_list)
    # a path alternates colours: on an odd board both ends lie on the corners' colour
    odd_ends = k % 2 == 1 and all(x % 2 == 1 for x in lengths)
    steps = _step_tables(k, ncols, odd_ends)
    if end_at is not None:
        _force_end(steps, int(end_at), k, lengths[0], closed_only, part)
    res = FrontierResult(k, closed_only, moduli=m)
    total_cells = k * ncols
    fold = bool(fold) and end_at is None
    plan = CountPlan(k, ncols, frozenset(lengths), tuple(int(q) for q in mods_list),
                     _layout(k), steps, 0 if closed_only else 1,
                     max(1, int(threads)) if threads else min(8, os.cpu_count() or 1),
                     budget, fold)
    states = 1
    cells: Iterator[tuple[int, int, Any]]
    run_folder = None
    sums: list[tuple[int, Any]] = []             # the finished boards' residues
    if spill is None:
        cells = _word_cells(plan, res, part, cancel)
    else:
        if part is not None:
            raise FrontierError("a part of the count is not read through slices on disk")
        report = spill.report
        words = plan.layout.words
        run_folder = RunFolder(spill.folder, {"rows": k, "lengths": lengths,
                                              "closed_only": bool(closed_only), "fold": fold,
                                              "end_at": None if end_at is None else int(end_at),
                                              "mods": [int(q) for q in mods_list],
                                              "words": words},
                               report)
        try:
            check_spill_parent(spill.folder)
            resume = run_folder.open(m + words, words)
        except SpillError as e:
            run_folder.release()
            raise FrontierError(str(e)) from None
        folder = run_folder.path
        if resume is not None:
            done = resume["count"]
            states, res.state_cells = int(done["states"]), int(done["state_cells"])
            res.peak_states, res.column_states = int(done["peak_states"]), done["column_states"]
            res.peak_table_bytes = int(done["peak_table_bytes"])
            sums = [(int(c), t) for c, t in done["sums"]]
            res.boards = [_board(k, c, t, mods_list, closed_only) for c, t in sums]
            res.resumed_cells = int(resume["cell"])
            if report is not None:
                report(f"frontier: going on from {folder}: {res.resumed_cells} of "
                       f"{total_cells} cells were done")

        def save(state: dict[str, Any]) -> None:
            assert run_folder is not None
            run_folder.save({**state, "count": {
                "states": states, "state_cells": res.state_cells,
                "peak_states": res.peak_states, "column_states": res.column_states,
                "peak_table_bytes": res.peak_table_bytes, "sums": sums}})
        # a slice running on this process's threads stops within a round when the run is
        # cancelled or left (Ctrl-C, an error): before its folder is removed
        halt = threading.Event()
        watch_folder(folder, lambda: halt.is_set() or cancel_requested(cancel))

        def record(cell: dict[str, Any]) -> None:
            res.slices.append(cell)
            res.peak_table_bytes = max(res.peak_table_bytes, int(cell["table_bytes"]))
            if report is not None:
                report(spill_line(cell, total_cells))
        cells = spilled_cells(plan, folder, max(1, int(spill.slices)),
                              spill.run_slices or run_in_process, record, resume, save)
    finished = False
    try:
        for i, got, total in cells:
            raise_if_cancelled(cancel, "the frontier count")
            c, r = divmod(i, k)
            res.state_cells += states
            states = got
            res.peak_states = max(res.peak_states, states)
            if r == k - 1:
                res.column_states.append(states)
            if total is not None:
                sums.append((c + 1, [[int(x) for x in row] for row in total]))
                res.boards.append(_board(k, c + 1, total, mods_list, closed_only))
            if progress is not None:
                progress(i + 1, total_cells)
        finished = True
    except SpillError as e:
        raise FrontierError(str(e)) from None
    finally:
        if run_folder is not None:
            halt.set()                  # a slice on a runner's thread leaves within a round
            wait_idle(run_folder.path, 60.0)
            unwatch_folder(run_folder.path)
            run_folder.close(finished)
    res.seconds = time.perf_counter() - t0
    return res
