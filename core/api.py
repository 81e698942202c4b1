"""The front door: one :class:`~knightgui_core.board.squares.Board` and a few functions for
what the window and the command line do, each returning one typed result.

>>> import knightgui_core as kg
>>> board = kg.Board(8, 8)
>>> kg.solve(board, start="a1").found
True
>>> kg.warnsdorff_tours(board, "a8", end="c7").count().solutions
14258

Every function takes the board first; squares are names (``"c7"``, ``"ab12"``),
``"col,row"`` text (1-based), flat indices or 0-based ``(col, row)`` pairs. The board's
``topology`` (``plane``, ``cylinder``, ``torus``) and ``leaper`` (the knight ``(1, 2)``, the
camel ``(1, 3)``…) go wherever the engine takes them; a function that takes only the knight
on the plane says so with an :class:`~knightgui_core.system.errors.InputError`.

The studies (:func:`count_warnsdorff_tours`, :func:`count_tours` and the ``study_*``
functions) run as tasks of :mod:`knightgui_core.run.runner`. ``client`` picks where:
``None`` runs them embedded, on this machine's cores in this process; a
``distributed.Client`` runs them on its cluster (the caller keeps and closes it); a string
is a scheduler's address (``tcp://HOST:8786``) or ``threads`` / ``processes`` for a local
Dask cluster. ``store`` (a file name, or an open
:class:`~knightgui_core.run.store.ResultStore`) keeps each finished task, so the same call
again reads them back instead of computing them.

Errors: bad input raises :class:`~knightgui_core.system.errors.InputError` (a
``ValueError``) with one sentence; a cluster or store that cannot serve raises
:class:`~knightgui_core.system.errors.ResourceError`. This module wraps the engine and adds
no algorithm: each function is the same call the matching command makes, so the two agree.
The engine is imported inside the functions, which keeps ``import knightgui_core`` light.
"""
from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import numpy as np

from .api_results import (
    EnumerationCount,
    MoveOrderStudy,
    PhadkeStudy,
    SemimagicStudy,
    SymmetricCount,
    TieBreakStudy,
    TourCount,
    TourResult,
    UncrossedStudy,
    WarnsdorffCount,
)
from .board.squares import Board, SquareSpec
from .board.tour import Tour
from .system.errors import InputError

if TYPE_CHECKING:
    from .run.store import ResultStore
    from .tietree.enumeration.enumerator import Enumerator

__all__ = ["WarnsdorffTours", "count_tours", "count_warnsdorff_tours", "solve",
           "study_move_orders", "study_phadke", "study_semimagic", "study_symmetric",
           "study_tie_breaks", "study_uncrossed", "warnsdorff_tours"]

def _check_board(board: object) -> Board:
    """``board`` when it is a :class:`Board`; :class:`InputError` otherwise (the sentence
    shows how to make one)."""
    if not isinstance(board, Board):
        raise InputError(f"expected a Board, e.g. Board(8, 8), got {type(board).__name__}")
    return board


def _classic(board: Board, what: str) -> None:
    """:class:`InputError` unless ``board`` is the knight on the plane (``what`` needs it)."""
    if not board.is_classic:
        raise InputError(f"{what} takes the knight on the plane, not the {board.describe()}")


@contextmanager
def _opened(store: Any) -> Iterator[ResultStore | None]:
    """The store to hand the runner: ``None``, an open store as it is (its owner closes
    it), or the store at a path, opened here and closed when the block ends."""
    if store is None or not isinstance(store, (str, os.PathLike)):
        yield store
        return
    from .run.store import ResultStore
    with ResultStore(store) as opened:
        yield opened


# ------------------------------------------------------------------------- one tour
def solve(board: Board, start: SquareSpec | None = None, *, closed: bool = False,
          tie: str = "phadke", order: str = "12345678", seed: int = 0,
          method: str = "auto", node_budget: int | None = None) -> TourResult:
    """One tour of ``board`` by Warnsdorff's rule with the tie rule ``tie``.

    Parameters
    ----------
    board : Board
        The board, its edges and its piece.
    start : square, optional
        The first square (default the bottom-left corner, ``a1``).
    closed : bool
        Ask for a closed tour (its last square a move from the first).
    tie : str
        The tie rule (``phadke``, ``first``, ``last``, ``random``, ``center-far``,
        ``lookahead``, ``pohl``, ``squirrel``…; docs/explanation/tie-breaks.md).
    order : str
        The move order of the order-based rules, 8 digits.
    seed : int
        The seed of the random rules: the same seed gives the same tour.
    method : str
        ``auto`` (the rule's walk, then a search or the construction when it fails),
        ``greedy`` (the walk alone), ``backtrack`` or ``construct``.
    node_budget : int, optional
        The backtracking search's node budget.

    Returns
    -------
    TourResult
        ``found`` with the tour, or not with the reason in ``message``. A board or start on
        which no tour of the kind exists is answered this way too, at once, with the proof:
        that is an answer, not bad input.

    Raises
    ------
    InputError
        A square off the board, an unknown rule, order or method.

    Examples
    --------
    >>> from knightgui_core import Board, solve
    >>> r = solve(Board(8, 8), start="a1", tie="phadke")
    >>> r.found, r.tour.board.size, r.start
    (True, 64, 'a1')
    >>> r = solve(Board(5, 5), start="b1")       # a proof, not a search
    >>> r.found, r.message.split(":")[0]
    (False, 'no open tour of 5×5 starts on b1')
    >>> solve(Board(8, 8), start="a1", method="greedy", tie="first").to_dict()["valid"]
    True
    """
    from .walks.solve import NoTourError
    from .walks.solve import solve as engine_solve
    b = _check_board(board)
    s = 0 if start is None else b.square(start)
    try:
        res = engine_solve(b.rows, b.cols, start=s, closed=closed, tie=tie, order=order,
                           seed=seed, method=method, node_budget=node_budget,
                           topology=b.topology, leaper=b.leaper)
    except NoTourError as e:
        return TourResult(b, b.name(s), bool(closed), None, "", str(e))
    return TourResult(b, b.name(s), bool(closed), res.tour if res.ok else None, res.method,
                      res.message, int(res.nodes), int(res.stuck_at), res.moves,
                      float(res.seconds), res.info.get("rule_walk"))


# ------------------------------------------------------- every Warnsdorff tour, one start
class WarnsdorffTours(Iterator[Tour]):
    """Every Warnsdorff tour from one square, in the order of Phadke's enumeration, as an
    iterator of :class:`~knightgui_core.board.tour.Tour` s: stop reading whenever you like
    (the search goes only as far as the tours read, in blocks). Made by
    :func:`warnsdorff_tours`.

    :meth:`count` runs the enumeration to its end without building tours and returns its
    counters from the beginning (the tours already read included); the iterator is then
    spent."""

    def __init__(self, enumerator: Enumerator):
        self._en = enumerator
        self._buffer: deque[Any] = deque()
        self._block = 16
        self._done = False

    @property
    def board(self) -> Board:
        """The board searched."""
        return self._en.board

    def __iter__(self) -> WarnsdorffTours:
        return self

    def __next__(self) -> Tour:
        if not self._buffer and not self._done:
            got = self._en.first(self._block)
            self._done = len(got) < self._block
            self._block = min(self._block * 2, 1024)
            self._buffer.extend(got)
        if not self._buffer:
            raise StopIteration
        return self._buffer.popleft().tour

    def count(self) -> EnumerationCount:
        """Run on to the end without building tours: the counters since the beginning."""
        self._buffer.clear()
        self._done = True
        c = self._en.count()
        en, b = self._en, self._en.board
        return EnumerationCount(b, b.name(en.start), None if en.end is None else b.name(en.end),
                                int(c.solutions), int(c.dead_ends), int(c.forward_moves),
                                bool(c.exhausted), float(c.seconds or 0.0))


def warnsdorff_tours(board: Board, start: SquareSpec, end: SquareSpec | None = None, *,
                     dashes: Mapping[str, str] | None = None) -> WarnsdorffTours:
    """Every tour Warnsdorff's rule allows from ``start``, every tie followed (Phadke's
    exhaustive enumeration through the options matrix).

    Parameters
    ----------
    board : Board
        The board (dashes are the knight's on the plane only).
    start : square
        The first square.
    end : square, optional
        The last square, a move from ``start``: the closed tours through that move. Without
        it: the open tours.
    dashes : mapping, optional
        Phadke's corner dashes, corner name to state (``off``, ``A``, ``B``, ``full``).

    Returns
    -------
    WarnsdorffTours
        An iterator of the tours, lazily searched; ``.count()`` counts the rest.

    Examples
    --------
    >>> from itertools import islice
    >>> from knightgui_core import Board, warnsdorff_tours
    >>> tours = warnsdorff_tours(Board(8, 8), "a8", end="c7")
    >>> [t.closed for t in islice(tours, 3)]
    [True, True, True]
    >>> tours.count().solutions                  # every one, the three read included
    14258
    >>> sum(1 for _ in warnsdorff_tours(Board(5, 5), "a1"))
    32
    """
    from .tietree.enumeration.enumerator import Enumerator
    b = _check_board(board)
    return WarnsdorffTours(Enumerator(b.rows, b.cols, start, end, dashes, board=b))


# ------------------------------------------------------------------------- the counts
def count_warnsdorff_tours(board: Board, starts: str | Sequence[SquareSpec] = "all", *,
                           lengths: bool = False, client: Any = None, store: Any = None,
                           workers: int | None = None) -> WarnsdorffCount:
    """Every Warnsdorff tour from each start (strict rule, no dashes, open, every tie
    followed), counted by states, with Knuth's odds: the exact probability that the walk
    breaking every tie uniformly at random completes a tour (and a closed one).

    Parameters
    ----------
    board : Board
        The board (at most 128 squares).
    starts : str or sequence of squares
        ``all`` (default), ``corners``, names such as ``"a1,c3"``, or a list of squares.
    lengths : bool
        Also count the dead ends by squares visited when stuck (``dead_end_lengths`` in
        :meth:`~WarnsdorffCount.to_dict`).
    client, store, workers
        Where the tasks run and where they are kept (module docstring); ``workers``: cores
        of this machine, when it runs them.

    Returns
    -------
    WarnsdorffCount
        Totals over the starts, ``p_success`` and ``p_closed`` for a uniformly random start,
        ``per_start``; ``to_dict()`` is ``knightgui study count --json``.

    Examples
    --------
    >>> from knightgui_core import Board, count_warnsdorff_tours
    >>> c = count_warnsdorff_tours(Board(8, 8))
    >>> c.tours, c.closed, len(c.starts)
    (7894584, 1188384, 64)
    >>> round(c.p_success, 3)                    # Knuth: 97.9 %
    0.979
    >>> c5 = count_warnsdorff_tours(Board(5, 5), "a1")
    >>> c5.per_start["a1"]["tours"], c5.p_success  # every random walk from a1 completes
    (32, 1.0)
    """
    from .studies.count_study import run_count
    b = _check_board(board)
    t0 = time.perf_counter()
    with _opened(store) as st:
        res = run_count(b.rows, b.cols, starts, store=st, scheduler=client, workers=workers,
                        lengths=lengths, board=None if b.is_classic else b)
    data = res.to_json()
    t = data["totals"]
    return WarnsdorffCount(b, tuple(res.per_start), int(t["tours"]), int(t["closed"]),
                           int(t["dead_ends"]), float(t["p_success"]), float(t["p_closed"]),
                           res.per_start, time.perf_counter() - t0, data=data)


def count_tours(board: Board, *, closed: bool = False, method: str = "auto",
                client: Any = None, store: Any = None,
                workers: int | None = None) -> TourCount:
    """Every tour of ``board``, Warnsdorff's or not: the open paths through every square and
    the closed tours, by the visited-set counter (at most 64 squares, any piece and
    topology) or the frontier count (the knight on the plane, column by column, any length).

    Parameters
    ----------
    board : Board
        The board.
    closed : bool
        Only the closed tours are wanted: the frontier then skips the open paths
        (``directed_paths`` is ``None``); the visited-set counter counts both anyway.
    method : str
        ``auto`` (the faster for the board, said in ``method_reason``), ``visited`` or
        ``frontier``.
    client, store, workers
        As for the studies (module docstring); the visited-set counter runs as tasks, the
        frontier count in this process (it takes neither).

    Returns
    -------
    TourCount
        ``directed_paths``, ``undirected_paths``, ``closed_tours`` (undirected cycles);
        ``to_dict()`` is ``knightgui study count --all-tours --json``.

    Examples
    --------
    >>> from knightgui_core import Board, count_tours
    >>> c = count_tours(Board(5, 5))             # OEIS A165134: 1,728
    >>> c.directed_paths, c.closed_tours, c.method
    (1728, 0, 'frontier')
    >>> count_tours(Board(5, 5), method="visited").directed_paths
    1728
    >>> count_tours(Board(3, 4), method="frontier").undirected_paths
    8
    """
    from .studies.all_tours import run_all_tours
    from .studies.tour_methods import choose_method, frontier_records, run_frontier
    b = _check_board(board)
    t0 = time.perf_counter()
    how, why = choose_method(b.rows, b.cols, str(method).strip().lower(),
                             classic=b.is_classic, closed_only=bool(closed))
    if how == "visited":
        with _opened(store) as st:
            res = run_all_tours(b.rows, b.cols, store=st, scheduler=client, workers=workers,
                                board=None if b.is_classic else b)
        data = {**res.to_json(), "method": how, "method_reason": why}
        directed: int | None = int(data["totals"]["tours"])
        undirected: int | None = int(data["undirected_paths"])
    else:
        k, n = min(b.rows, b.cols), max(b.rows, b.cols)
        fr = run_frontier(k, [n], closed_only=bool(closed))
        rec = frontier_records(fr, transposed=b.rows > b.cols)[0]
        data = {"study": "all-tours", **rec, "topology": b.topology, "leaper": list(b.leaper),
                "method": how, "method_reason": why, "closed_only": bool(closed),
                "peak_states": fr.peak_states, "peak_table_bytes": fr.peak_table_bytes,
                "column_states": list(fr.column_states), "slices": list(fr.slices),
                "resumed_cells": fr.resumed_cells,
                "seconds": round(time.perf_counter() - t0, 3)}
        tours = rec["totals"]["tours"]
        directed = None if tours is None else int(tours)
        undirected = None if rec["undirected_paths"] is None else int(rec["undirected_paths"])
    return TourCount(b, directed, undirected, int(data["undirected_closed_tours"]), how, why,
                     time.perf_counter() - t0, data=data)


# ------------------------------------------------------------------------- the studies
def study_phadke(family: str = "strict", *, client: Any = None, store: Any = None,
                 workers: int | None = None) -> PhadkeStudy:
    """Phadke's 1981 study of the closed 8×8 tour: every algorithm of ``family`` counted,
    beside the figure his paper prints.

    Parameters
    ----------
    family : str
        ``strict`` (53 runs), ``cd`` (736), ``semi`` (10,144), ``ecd``, ``xcd`` or ``all``
        (22,432).
    client, store, workers
        Where the tasks run and where they are kept (module docstring).

    Returns
    -------
    PhadkeStudy
        The family's totals; ``to_dict()`` is ``knightgui study phadke --json``.

    Examples
    --------
    >>> from knightgui_core import study_phadke
    >>> s = study_phadke("strict")
    >>> s.algorithms, s.solutions, s.solutions == s.paper_solutions
    (53, 989931, True)
    >>> s.full_board
    5732056
    """
    from .studies import phadke as P
    from .studies.phadke.runner import run_study
    from .studies.phadke.tables import family_records
    if family not in ("strict", "cd", "semi", "ecd", "xcd", "all"):
        raise InputError(f"family {str(family)[:20]!r}: one of strict, cd, semi, ecd, xcd, all")
    algos = P.algorithms(family)
    with _opened(store) as st:
        res, report = run_study(algos, store=st, scheduler=client, workers=workers)
    data: dict[str, Any] = {"study": "phadke", "family": family,
                            "seconds": round(res.seconds, 3), "tasks": report.tasks_json()}
    data.update(family_records(res))
    mine = data.get(family) or {"algorithms": len(res.counts),
                                "solutions": sum(c[0] for c in res.counts.values()),
                                "paper_solutions": None}
    return PhadkeStudy(family, int(mine["algorithms"]), int(mine["solutions"]),
                       mine.get("paper_solutions"), mine.get("full_board"),
                       mine.get("paper_full_board"), float(res.seconds), data=data)


def study_move_orders(board: Board, *, tie: str = "first", worst: int = 10,
                      client: Any = None, store: Any = None,
                      workers: int | None = None) -> MoveOrderStudy:
    """Plain Warnsdorff over all 8! = 40,320 move orders from every start square, ties to
    the first (or last) tied move in the order: how often the walk fails.

    Parameters
    ----------
    board : Board
        The knight on the plane, sides of at most 16.
    tie : str
        ``first`` or ``last``.
    worst : int
        How many of the worst orders ``to_dict()`` lists.
    client, store, workers
        Where the tasks run and where they are kept (module docstring).

    Returns
    -------
    MoveOrderStudy
        The failures; ``to_dict()`` is ``knightgui study move-orders --json``.

    Examples
    --------
    >>> from knightgui_core import Board, study_move_orders
    >>> s = study_move_orders(Board(5, 5))
    >>> s.orders, s.walks, s.failed_walks
    (40320, 1008000, 631680)
    """
    from .studies.orders.runner import run_study
    b = _check_board(board)
    _classic(b, "the move-order study")
    with _opened(store) as st:
        res, report = run_study(b.rows, tie, cols=b.cols, store=st, scheduler=client,
                                workers=workers)
    data = {"study": "move-orders", **res.to_json_dict(worst=int(worst)),
            "tasks": report.tasks_json()}
    return MoveOrderStudy(b, tie, int(data["orders"]), int(data["walks"]),
                          int(data["failed_walks"]), int(data["orders_with_failure"]),
                          int(data["closed_walks"]), float(res.seconds), data=data)


def study_tie_breaks(n_max: int, *, n_min: int = 5, rules: Sequence[str] | None = None,
                     starts: str = "corner", sample: int = 16, seed: int = 0,
                     order: str = "12345678", trials: int = 1, table: bool = False,
                     client: Any = None, store: Any = None) -> TieBreakStudy:
    """The greedy walk (no backtracking) of each tie rule on every n×n board from ``n_min``
    to ``n_max``: does it complete a tour?

    Parameters
    ----------
    n_max, n_min : int
        The sides.
    rules : sequence of str, optional
        The tie rules (default every rule of :func:`solve`, and the construction).
    starts : str
        ``corner`` (a1), ``corners``, ``all`` or ``sample`` (``sample`` squares per side).
    seed, trials : int
        The random rules' first seed and how many seeds per side.
    order : str
        The move order of the order-based rules.
    table : bool
        Put the per-side table in ``to_dict()``.
    client, store
        Where the tasks run and where they are kept (module docstring).

    Returns
    -------
    TieBreakStudy
        ``success_rate`` and ``first_failing_n`` per rule; ``to_dict()`` is
        ``knightgui study tie-breaks --json``.

    Examples
    --------
    >>> from knightgui_core import study_tie_breaks
    >>> s = study_tie_breaks(8, rules=["phadke", "first"])
    >>> s.success_rate["phadke"], s.first_failing_n["first"]
    (1.0, None)
    """
    from .studies.tiebreaks import run_tiebreaks
    with _opened(store) as st:
        res = run_tiebreaks(int(n_max), n_min=int(n_min),
                            rules=None if rules is None else list(rules), starts=starts,
                            sample=sample, seed=seed, order=order, trials=trials, store=st,
                            scheduler=client)
    summary = res.summary()
    return TieBreakStudy(tuple(res.rules), int(n_min), int(n_max),
                         {r: s.success_rate for r, s in summary.items()},
                         {r: s.first_failing_n for r, s in summary.items()},
                         float(res.seconds), data=res.to_json_dict(table=table))


def study_symmetric(board: Board, symmetry: str = "half-turn", *, closed_only: bool = False,
                    client: Any = None, store: Any = None,
                    workers: int | None = None) -> SymmetricCount:
    """The tours of ``board`` that ``symmetry`` maps onto themselves: its open paths and
    closed tours, counted over the orbits of the board's squares.

    Parameters
    ----------
    board : Board
        The board (another leaper on the plane too).
    symmetry : str
        ``half-turn``, ``quarter-turn``, ``mirror-rows``, ``mirror-cols`` or ``diagonal``.
    closed_only : bool
        Count the closed tours alone.
    client, store, workers
        Where the tasks run and where they are kept (module docstring).

    Returns
    -------
    SymmetricCount
        ``open_paths``, ``closed_tours`` (undirected); ``to_dict()`` is
        ``knightgui study count --all-tours --symmetry S --json``.

    Examples
    --------
    >>> from knightgui_core import Board, study_symmetric
    >>> s = study_symmetric(Board(6, 6), "half-turn")
    >>> s.closed_tours, s.open_paths             # Jelliss: 17 × 4 + 5 × 2
    (78, 0)
    """
    from .studies.symmetric_count import run_symmetric
    b = _check_board(board)
    with _opened(store) as st:
        res = run_symmetric(b.rows, b.cols, str(symmetry).strip().lower(),
                            closed_only=closed_only, board=None if b.is_classic else b,
                            store=st, scheduler=client, workers=workers)
    return SymmetricCount(b, res.symmetry, res.paths, res.closed, int(res.orbits),
                          float(res.seconds), data=res.to_json())


def study_uncrossed(board: Board, *, cycle: bool = False,
                    node_limit: int = 0) -> UncrossedStudy:
    """The longest uncrossed knight's path (or closed ``cycle``) of ``board``, proved
    longest, and how many there are. It runs in this process (one search, no tasks).

    Parameters
    ----------
    board : Board
        The knight on the plane.
    cycle : bool
        The longest uncrossed cycle instead of path.
    node_limit : int
        Give up with :class:`InputError` after this many search nodes (0: no limit).

    Returns
    -------
    UncrossedStudy
        ``length`` in moves and one longest ``path``; ``to_dict()`` is
        ``knightgui study uncrossed --json`` (without its ``wall_seconds``).

    Examples
    --------
    >>> from knightgui_core import Board, study_uncrossed
    >>> study_uncrossed(Board(6, 6)).length      # OEIS A003192
    17
    >>> study_uncrossed(Board(5, 5), cycle=True).length
    8
    """
    from .studies.uncrossed import longest_uncrossed
    b = _check_board(board)
    _classic(b, "the uncrossed search")
    r = longest_uncrossed(b.rows, b.cols, cycle=cycle, node_limit=int(node_limit))
    names = tuple(b.name(s) for s in r.path)
    data = {**r.to_json_dict(), "path": list(names), "squares": list(r.path)}
    return UncrossedStudy(b, bool(cycle), int(r.length), int(r.count), int(r.total), names,
                          float(r.seconds), data=data)


def study_semimagic(size: int = 8, *, symmetry: str = "none", closed: bool = False,
                    nested: bool = False, limit: int = 1, seconds: float | None = None,
                    node_limit: int = 0, start: SquareSpec | None = None,
                    census: bool = False, client: Any = None,
                    store: Any = None) -> SemimagicStudy:
    """Semi-magic knight's tours of a ``size`` × ``size`` board (numbered along the tour,
    every row and column adds up to one total), found from scratch or proved not to exist.

    Parameters
    ----------
    size : int
        The board's side, 2 to 16.
    symmetry : str
        ``none``, or ``half-turn``: only the closed tours the half turn keeps.
    closed : bool
        Closed tours only (without a symmetry).
    nested : bool
        Each quarter of the board semi-magic too.
    limit, seconds, node_limit
        Stop after this many tours, seconds or search nodes (0: no node limit).
    start : square, optional
        Number 1 on this square only (default one of each symmetry orbit).
    census : bool
        Every tour of the family, one runner task per start (``client`` and ``store`` are
        used then); ``limit``, ``seconds``, ``node_limit`` and ``start`` are not.

    Returns
    -------
    SemimagicStudy
        ``status`` and the ``tours``; ``to_dict()`` is ``knightgui study semimagic --json``
        (``--census`` too).

    Examples
    --------
    >>> from knightgui_core import study_semimagic
    >>> s = study_semimagic(6, symmetry="half-turn")
    >>> s.status, s.tours                        # a proof: none exists
    ('none', ())
    """
    b = Board(size, size) if isinstance(size, int) and not isinstance(size, bool) else None
    if b is None or not 2 <= size <= 16:
        raise InputError(f"size must be a whole number from 2 to 16, got {size!r}")
    if symmetry not in ("none", "half-turn"):
        raise InputError(f"symmetry {str(symmetry)[:20]!r}: none or half-turn")
    mode = "half-turn" if symmetry == "half-turn" else ("closed" if closed else "open")
    if census:
        from .studies.magic.census import run_census
        with _opened(store) as st:
            c = run_census(size, mode, nested, store=st, scheduler=client)
        tours = tuple(tuple(b.name(s) for s in t) for t in c.tours)
        data = {**c.to_json_dict(), "tours": [list(t) for t in tours], "squares": c.tours}
        status = ("found" if c.numbered else "none") if c.complete else "cancelled"
        return SemimagicStudy(size, mode, status, tours, int(c.nodes), float(c.seconds),
                              data=data)
    from .board.magic import line_sums
    from .studies.magic.search import search_magic
    starts = None if start is None else [b.square(start)]
    r = search_magic(size, size, mode, limit=int(limit), seconds=seconds,
                     node_limit=int(node_limit), starts=starts, nested=nested)
    tours = tuple(tuple(b.name(s) for s in t) for t in r.tours)
    sums = [line_sums(Tour(b, np.asarray(t)).numbers()) for t in r.tours]
    data = {**r.to_json_dict(), "size": size, "symmetry": symmetry, "closed": mode != "open",
            "nested": nested, "tours": [list(t) for t in tours], "squares": r.tours,
            "kinds": [x.kind for x in sums], "diagonal_sums": [list(x.diagonals) for x in sums],
            "starts": [b.name(s) for s in r.starts],
            "proved_none": r.status == "none" and not r.tours}
    return SemimagicStudy(size, mode, r.status, tours, int(r.nodes), float(r.seconds),
                          data=data)
