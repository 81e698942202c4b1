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
functions) run as tasks of :mod:`knightgui_core.run.runner`. ``client`` picks where: ``None``
runs them embedded, on this machine's cores in this process; a ``distributed.Client`` on its
cluster (the caller keeps and closes it); a string is a scheduler's address
(``tcp://HOST:8786``) or ``threads`` / ``processes`` for a local Dask cluster. ``store`` (a
file name, or an open :class:`~knightgui_core.run.store.ResultStore`) keeps each finished
task, so the same call again reads them back instead of computing them.

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
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .api_results import (
    CornerTails,
    EnumerationCount,
    MoveOrderStudy,
    OrderWalk,
    PathVerdict,
    PhadkeStudy,
    SemimagicStudy,
    StartPathCount,
    SymmetricCount,
    TieBreakStudy,
    TourCheck,
    TourCount,
    TourCountTable,
    TourResult,
    UncrossedStudy,
    WarnsdorffCount,
    _board_dict,
)
from .board.squares import Board, SquareSpec
from .board.tour import Tour
from .system.errors import InputError

if TYPE_CHECKING:
    from .board.rules import MoveOrder
    from .board.tie_rule import TieRule
    from .tietree.enumeration.enumerator import Enumerator

__all__ = ["WarnsdorffTours", "check_path", "check_tour", "corner_tails", "count_tours",
           "count_warnsdorff_tours", "solve", "study_move_orders", "study_phadke",
           "study_semimagic", "study_symmetric", "study_tie_breaks", "study_uncrossed",
           "warnsdorff_tours"]

def _check_board(board: object, classic: str = "") -> Board:
    """``board`` when it is a :class:`Board`, and the knight on the plane when ``classic``
    names what needs it; :class:`InputError` otherwise (the sentence says what to give)."""
    if not isinstance(board, Board):
        raise InputError(f"expected a Board, e.g. Board(8, 8), got {type(board).__name__}")
    if classic and not board.is_classic:
        raise InputError(f"{classic} takes the knight on the plane, not the {board.describe()}")
    return board


def _run(task: Callable[..., Any], store: Any, client: Any, *args: Any, **kwargs: Any) -> Any:
    """``task(*args, **kwargs)`` with ``client`` as its scheduler and ``store``: ``None``, an
    open store as it is (its owner closes it), or the store at a path, open for the call."""
    if store is None or not isinstance(store, (str, os.PathLike)):
        return task(*args, store=store, scheduler=client, **kwargs)
    from .run.store import ResultStore
    with ResultStore(store) as opened:
        return task(*args, store=opened, scheduler=client, **kwargs)


# ------------------------------------------------------------------------- one tour
def solve(board: Board, start: SquareSpec | None = None, *, closed: bool = False,
          tie: str | TieRule = "phadke", order: str | MoveOrder = "12345678", seed: int = 0,
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
    tie : str or TieRule
        The tie rule (``phadke``, ``first``, ``last``, ``random``, ``center-far``,
        ``lookahead``, ``pohl``, ``squirrel``…; docs/explanation/tie-breaks.md).
    order : str or MoveOrder
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
        that is an answer, not bad input. ``answer`` and ``why`` say whether a tour of the
        kind exists (on the board, or from ``start`` when it is given): a theorem, the tour
        found, or on another board or piece when the methods find none from the default
        start, an exhaustive search within ``node_budget``.

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
    from .board.existence import known_answer
    from .walks.solve import NoTourError
    from .walks.solve import solve as engine_solve
    b = _check_board(board)
    s = 0 if start is None else b.square(start)
    closed = bool(closed)
    known, why = known_answer(b, closed)
    if known is False:
        return TourResult(b, b.name(s), closed, None, "", why, answer="no", why=why)
    try:
        res = engine_solve(b.rows, b.cols, start=s, closed=closed, tie=tie, order=order,
                           seed=seed, method=method, node_budget=node_budget,
                           topology=b.topology, leaper=b.leaper)
    except NoTourError as e:
        return TourResult(b, b.name(s), closed, None, "", str(e), answer="no", why=str(e))
    if res.ok:
        answer = "yes"
        if known is None:            # no rule decides in advance: the tour itself is the proof
            why = f"this tour proves one exists ({res.message})"
    elif known is None and method == "auto" and start is None:
        from .tietree.alltours.existence_search import SEARCH_BUDGET, existence_answer
        ans = existence_answer(b, closed, node_budget or SEARCH_BUDGET)
        answer, why = ans.answer, ans.why
    else:        # the knight's plane: a closed tour starts anywhere, an open one not always
        answer = "yes" if known and b.is_classic and (closed or start is None) else "not known"
    return TourResult(b, b.name(s), closed, res.tour if res.ok else None, res.method,
                      res.message, int(res.nodes), int(res.stuck_at), int(res.moves),
                      float(res.seconds), res.info.get("rule_walk"), answer=answer, why=why)


# ------------------------------------------------------- every Warnsdorff tour, one start
class WarnsdorffTours(Iterator[Tour]):
    """Every Warnsdorff tour from one square (:func:`warnsdorff_tours`), in the order of
    Phadke's enumeration, as an iterator of :class:`~knightgui_core.board.tour.Tour` s,
    searched in blocks only as far as they are read.

    :meth:`count` runs on to the end without building tours and returns the counters from
    the beginning (the tours read included); the iterator is then spent."""

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
        return enumeration_result(self._en, float(c.seconds or 0.0))


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
    from .studies.count_study import CountOptions, run_count
    b = _check_board(board)
    t0 = time.perf_counter()
    options = CountOptions(lengths=bool(lengths), board=None if b.is_classic else b)
    res = _run(run_count, store, client, b.rows, b.cols, starts, options=options,
               workers=workers)
    return warnsdorff_count_result(b, res, time.perf_counter() - t0)


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
    from .studies.tour_methods import choose_method, run_frontier
    b = _check_board(board)
    t0 = time.perf_counter()
    how, why = choose_method(b.rows, b.cols, str(method).strip().lower(),
                             classic=b.is_classic, closed_only=bool(closed))
    if how == "visited":
        res = _run(run_all_tours, store, client, b.rows, b.cols, workers=workers,
                   board=None if b.is_classic else b)
        return tour_count_visited(b, res, why, time.perf_counter() - t0)
    k, n = min(b.rows, b.cols), max(b.rows, b.cols)
    fr = run_frontier(k, [n], closed_only=bool(closed))
    return tour_count_frontier(b, fr, why, bool(closed), time.perf_counter() - t0)


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
    if family not in ("strict", "cd", "semi", "ecd", "xcd", "all"):
        raise InputError(f"family {str(family)[:20]!r}: one of strict, cd, semi, ecd, xcd, all")
    algos = P.algorithms(family)
    res, report = _run(run_study, store, client, algos, workers=workers)
    return phadke_result(family, res, report.tasks_json())


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
    b = _check_board(board, classic="the move-order study")
    res, report = _run(run_study, store, client, b.rows, tie, cols=b.cols, workers=workers)
    return move_order_result(b, tie, res, int(worst), report.tasks_json())


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
    res = _run(run_tiebreaks, store, client, int(n_max), n_min=int(n_min),
               rules=None if rules is None else list(rules), starts=starts, sample=sample,
               seed=seed, order=order, trials=trials)
    return tie_break_result(res, int(n_min), int(n_max), table=bool(table))


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
    res = _run(run_symmetric, store, client, b.rows, b.cols, str(symmetry).strip().lower(),
               closed_only=closed_only, board=None if b.is_classic else b, workers=workers)
    return symmetric_result(b, res)


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
        ``knightgui study uncrossed --json``.

    Examples
    --------
    >>> from knightgui_core import Board, study_uncrossed
    >>> study_uncrossed(Board(6, 6)).length      # OEIS A003192
    17
    >>> study_uncrossed(Board(5, 5), cycle=True).length
    8
    """
    from .studies.uncrossed import longest_uncrossed
    b = _check_board(board, classic="the uncrossed search")
    t0 = time.perf_counter()
    r = longest_uncrossed(b.rows, b.cols, cycle=cycle, node_limit=int(node_limit))
    return uncrossed_result(b, r, time.perf_counter() - t0)


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
        c = _run(run_census, store, client, size, mode, nested)
        return census_result(c)
    from .studies.magic.search import search_magic
    starts = None if start is None else [b.square(start)]
    r = search_magic(size, size, mode, limit=int(limit), seconds=seconds,
                     node_limit=int(node_limit), starts=starts, nested=nested)
    return semimagic_result(size, symmetry, mode, nested, r)


# ------------------------------------------------------ what a tour file or a played path is
def check_tour(file: str | os.PathLike[str]) -> TourCheck:
    """Read a tour file (JSON or CSV, docs/reference/file-formats.md) and check its path.

    Returns
    -------
    TourCheck
        ``valid`` with its figures, or not with ``why`` (the file is read, its path is not a
        tour); ``to_dict()`` is ``knightgui check FILE --json``.

    Raises
    ------
    InputError
        A file that cannot be read as a tour file (:class:`~knightgui_core.board.tour.TourError`).

    Examples
    --------
    >>> import tempfile, os
    >>> from knightgui_core import Board, check_tour, solve
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = os.path.join(folder.name, "t.json")
    >>> _ = solve(Board(5, 5)).tour.save(path)
    >>> c = check_tour(path)
    >>> c.valid, c.to_dict()["magic"]
    (True, 'none')
    >>> folder.cleanup()
    """
    from .board.canonical import canonical_id, symmetry_order
    from .board.magic import line_sums
    from .board.tour import NotATourError
    name = str(file)
    try:
        tour = Tour.load(file)
    except NotATourError as e:
        return TourCheck(name, False, str(e), data={"valid": False, "file": name, "why": str(e)})
    data = {"valid": True, "file": name, "why": None, **_board_dict(tour.board),
            "closed": bool(tour.closed), "closed_path": tour.is_closed_path,
            "squares": tour.board.size, "method": tour.method,
            "canonical": canonical_id(tour.board, tour.path),
            "symmetry": symmetry_order(tour.board, tour.path),
            **line_sums(tour.numbers()).to_dict()}
    return TourCheck(name, True, None, tour, data=data)


def check_path(board: Board, squares: Sequence[SquareSpec], *, completions: bool = False,
               budget: float = 60.0) -> PathVerdict:
    """Whether a path played by hand on ``board`` can still become a tour: the quick verdict
    (each reason it cannot, one sentence with its squares) and with ``completions`` the exact
    number of ways to finish it, within ``budget`` seconds.

    Returns
    -------
    PathVerdict
        ``lost``, ``closed_lost``, ``free``; with ``completions`` also ``extendable`` and
        the counts; ``to_dict()`` is ``knightgui check --path … --json``.

    Raises
    ------
    InputError
        A square off the board, squares that are not a path of the board's piece.

    Examples
    --------
    >>> from knightgui_core import Board, check_path
    >>> v = check_path(Board(5, 5), ["a1", "b3", "c5"], completions=True)
    >>> v.lost, v.extendable, v.open > 0
    (False, True, True)
    """
    from .walks.hand.verdict import play_path, quick_verdict
    b = _check_board(board)
    path = play_path(b, [b.square(s) for s in squares])
    verdict = quick_verdict(b, path)
    names = tuple(b.name(int(s)) for s in path)
    data: dict[str, Any] = {
        **_board_dict(b), "path": list(names), "free": verdict.free,
        "verdict": {"lost": verdict.lost, "closed_lost": verdict.closed_lost,
                    "reasons": [{"kind": r.kind.value, "sentence": r.sentence,
                                 "squares": [b.name(s) for s in r.squares],
                                 "closed_only": r.closed_only} for r in verdict.reasons]}}
    counted: tuple[Any, ...] = ()
    if completions:
        from .walks.hand.completions import completions as count_completions
        res = count_completions(b, path, budget_seconds=float(budget))
        data.update({
            "extendable": res.extendable,
            "completions": {"open": res.open, "closed": res.closed} if res.counted else None,
            "example": None if res.example is None else [b.name(s) for s in res.example],
            "reason": res.reason or None, "nodes": res.nodes, "seconds": round(res.seconds, 4)})
        counted = (res.extendable, res.open if res.counted else None,
                   res.closed if res.counted else None, float(res.seconds))
    return PathVerdict(b, names, verdict.free, verdict.lost, verdict.closed_lost, *counted,
                       data=data)


def corner_tails(board: Board, start: SquareSpec, end: SquareSpec) -> CornerTails:
    """What Phadke's closed enumeration from ``start`` to ``end`` can add: which corners are
    free for a dash, and the end-corner-dash tails (ECD and XCD) there are.

    Examples
    --------
    >>> from knightgui_core import Board, corner_tails
    >>> t = corner_tails(Board(8, 8), "b8", "a6")
    >>> t.free_corners["h1"] is None, "c2-a1-b3-c5-a6" in t.xcd
    (True, True)
    """
    from .tietree.enumeration.enumerator import free_corners, list_tails
    b = _check_board(board, classic="the corner dashes")
    s, e = b.square(start), b.square(end)
    tails = list_tails(b.rows, b.cols, s, e)
    return CornerTails(b, b.name(s), b.name(e), free_corners(b.rows, b.cols, s, e),
                       tuple("-".join(t) for t in tails["ecd"]),
                       tuple("-".join(t) for t in tails["xcd"]))


# ------------------------------------------------- the typed results of the engine's answers
# The studies above and the commands that drive the engine themselves (progress, Ctrl-C) build
# their results here, so one place shapes every ``to_dict()``. They take engine objects, so
# they stay out of ``__all__``.

def enumeration_result(enumerator: Any, seconds: float,
                       first: Sequence[Any] | None = None) -> EnumerationCount:
    """An :class:`~knightgui_core.tietree.enumeration.enumerator.Enumerator`'s counters as
    they stand; with ``first``, the solutions it listed."""
    en, b = enumerator, enumerator.board
    listed = None if first is None else tuple(
        {"index": s.index, "branch": s.branch, "path": en.names(s.path),
         "numbers": s.numbers[::-1].tolist(), "mo": s.mo_entries()} for s in first)
    return EnumerationCount(b, b.name(en.start), None if en.end is None else b.name(en.end),
                            int(en.solutions), int(en.dead_ends), int(en.forward_moves),
                            bool(en.exhausted), float(seconds), first=listed)


def warnsdorff_count_result(board: Board, res: Any, seconds: float,
                            distinct: Any = None) -> WarnsdorffCount:
    """A count study's ``CountResult`` as a :class:`WarnsdorffCount`; ``distinct`` (its
    ``DistinctCounts``) adds ``distinct``, ``distinct_up_to_symmetry`` and ``orbit_sizes``."""
    data = res.to_dict()
    if distinct is not None:
        d = distinct.to_dict()
        data.update({k: d[k] for k in ("distinct", "distinct_up_to_symmetry", "orbit_sizes")})
    t = data["totals"]
    return WarnsdorffCount(board, tuple(res.per_start), int(t["tours"]), int(t["closed"]),
                           int(t["dead_ends"]), float(t["p_success"]), float(t["p_closed"]),
                           res.per_start, float(seconds), data=data)


def tour_count_visited(board: Board, res: Any, why: str, seconds: float) -> TourCount:
    """The visited-set counter's ``AllToursResult`` (chosen for ``why``) as a :class:`TourCount`."""
    data = {**res.to_dict(), "method": "visited", "method_reason": why}
    return TourCount(board, int(data["totals"]["tours"]), int(data["undirected_paths"]),
                     int(data["undirected_closed_tours"]), "visited", why, float(seconds),
                     data=data)


def tour_count_frontier(board: Board, fr: Any, why: str, closed_only: bool,
                        seconds: float) -> TourCount:
    """One board's ``FrontierResult`` (short side as rows) as a :class:`TourCount` for ``why``."""
    from .studies.tour_methods import frontier_records
    rec = frontier_records(fr, transposed=board.rows > board.cols)[0]
    data = {"study": "all-tours", **rec, **_board_dict(board), "method": "frontier",
            "method_reason": why, "closed_only": bool(closed_only),
            "peak_states": fr.peak_states, "peak_table_bytes": fr.peak_table_bytes,
            "column_states": list(fr.column_states), "slices": list(fr.slices),
            "resumed_cells": fr.resumed_cells, "seconds": round(seconds, 3)}
    tours, paths = rec["totals"]["tours"], rec["undirected_paths"]
    return TourCount(board, None if tours is None else int(tours),
                     None if paths is None else int(paths),
                     int(rec["undirected_closed_tours"]), "frontier", why, float(seconds),
                     data=data)


def start_path_count(board: Board, per_start: Mapping[str, Mapping[str, int]], method: str,
                     why: str, seconds: float) -> StartPathCount:
    """Each start's directed paths (``tours``) and closed ones, by ``method`` for ``why``."""
    per = {s: {"tours": int(r["tours"]), "closed": int(r["closed"])}
           for s, r in per_start.items()}
    data = {"study": "all-tours", **_board_dict(board), "per_start": per, "method": method,
            "method_reason": why, "seconds": round(seconds, 3)}
    return StartPathCount(board, method, why, per, float(seconds), data=data)


def tour_count_table(boards: Sequence[Mapping[str, Any]], seconds: float,
                     **run: Any) -> TourCountTable:
    """Several boards' counts from one run (``boards``: a record each) as a :class:`TourCountTable`;
    ``run``: the keys of the whole run (method, peak states…), in order, before ``boards``."""
    data = {"study": "all-tours", **run, "boards": [dict(r) for r in boards],
            "seconds": round(seconds, 3)}
    return TourCountTable(tuple(dict(r) for r in boards), float(seconds), data=data)


def phadke_result(family: str, res: Any, tasks: Mapping[str, int],
                  distinct: Mapping[str, Any] | None = None) -> PhadkeStudy:
    """A Phadke ``StudyResult`` of ``family`` as a :class:`PhadkeStudy`; ``tasks``: the runner's
    task numbers; ``distinct``: each family's ``DistinctCounts``."""
    from .studies.phadke.tables import family_records
    data: dict[str, Any] = {"study": "phadke", "family": family,
                            "seconds": round(res.seconds, 3), "tasks": dict(tasks)}
    if distinct:
        data["distinct"] = {f: {"tours": r.tours, "distinct": r.distinct,
                                "distinct_up_to_symmetry": r.distinct_up_to_symmetry,
                                "orbit_sizes": dict(r.orbit_sizes),
                                "distinct_full_board": r.distinct_full,
                                "full_board_orbit_sizes": dict(r.full_orbit_sizes)}
                            for f, r in distinct.items()}
    data.update(family_records(res))
    mine = data.get(family) or {"algorithms": len(res.counts),
                                "solutions": sum(c[0] for c in res.counts.values()),
                                "paper_solutions": None}
    return PhadkeStudy(family, int(mine["algorithms"]), int(mine["solutions"]),
                       mine.get("paper_solutions"), mine.get("full_board"),
                       mine.get("paper_full_board"), float(res.seconds), data=data)


def move_order_result(board: Board, tie: str, res: Any, worst: int,
                      tasks: Mapping[str, int]) -> MoveOrderStudy:
    """A move-order study's result as a :class:`MoveOrderStudy`, listing the ``worst`` orders."""
    data = {"study": "move-orders", **res.to_json_dict(worst=int(worst)),
            "tasks": dict(tasks)}
    return MoveOrderStudy(board, tie, int(data["orders"]), int(data["walks"]),
                          int(data["failed_walks"]), int(data["orders_with_failure"]),
                          int(data["closed_walks"]), float(res.seconds), data=data)


def order_walk_result(walk: Any, order: Any, tie: str) -> OrderWalk:
    """One replayed walk of the ``MoveOrder`` ``order`` as an :class:`OrderWalk`."""
    b, path = walk.board, walk.path
    data = {"rows": b.rows, "cols": b.cols, "order": order.digits, "matrix": order.pairs,
            "tie": tie, "complete": bool(walk.complete), "closed": bool(walk.closed),
            "squares": int(len(path)), "end": walk.end,
            "path": [[int(s % b.cols), int(s // b.cols)] for s in path],
            "message": walk.message}
    return OrderWalk(b, order.digits, tie, bool(walk.complete), bool(walk.closed), data=data)


def tie_break_result(res: Any, n_min: int, n_max: int, *, table: bool = False) -> TieBreakStudy:
    """A tie-break study's result as a :class:`TieBreakStudy`; ``table``: the per-side table."""
    summary = res.summary()
    return TieBreakStudy(tuple(res.rules), int(n_min), int(n_max),
                         {r: s.success_rate for r, s in summary.items()},
                         {r: s.first_failing_n for r, s in summary.items()},
                         float(res.seconds), data=res.to_dict(table=table))


def symmetric_result(board: Board, res: Any) -> SymmetricCount:
    """A symmetric count as a :class:`SymmetricCount`."""
    return SymmetricCount(board, res.symmetry, res.paths, res.closed, int(res.orbits),
                          float(res.seconds), data=res.to_dict())


def uncrossed_result(board: Board, r: Any, wall_seconds: float) -> UncrossedStudy:
    """An uncrossed search's result as an :class:`UncrossedStudy`: ``path`` as names,
    ``squares`` as indices, ``wall_seconds`` the whole call."""
    names = tuple(board.name(s) for s in r.path)
    data = {**r.to_dict(), "path": list(names), "squares": list(r.path),
            "wall_seconds": round(wall_seconds, 3)}
    return UncrossedStudy(board, bool(r.cycle), int(r.length), int(r.count), int(r.total),
                          names, float(r.seconds), data=data)


def semimagic_result(size: int, symmetry: str, mode: str, nested: bool,
                     r: Any) -> SemimagicStudy:
    """A semi-magic search's result as a :class:`SemimagicStudy`, each tour with its kind
    and diagonal sums."""
    from .board.magic import line_sums
    b = Board(size, size)
    tours = tuple(tuple(b.name(s) for s in t) for t in r.tours)
    sums = [line_sums(Tour(b, np.asarray(t)).numbers()) for t in r.tours]
    data = {**r.to_json_dict(), "size": size, "symmetry": symmetry, "closed": mode != "open",
            "nested": nested, "tours": [list(t) for t in tours], "squares": r.tours,
            "kinds": [x.kind for x in sums], "diagonal_sums": [list(x.diagonals) for x in sums],
            "starts": [b.name(s) for s in r.starts],
            "proved_none": r.status == "none" and not r.tours}
    return SemimagicStudy(size, mode, r.status, tours, int(r.nodes), float(r.seconds),
                          data=data)


def census_result(c: Any) -> SemimagicStudy:
    """A semi-magic census as a :class:`SemimagicStudy` (``found``, ``none`` or ``cancelled``)."""
    b = Board(c.size, c.size)
    tours = tuple(tuple(b.name(s) for s in t) for t in c.tours)
    data = {**c.to_dict(), "tours": [list(t) for t in tours], "squares": c.tours}
    status = ("found" if c.numbered else "none") if c.complete else "cancelled"
    return SemimagicStudy(c.size, c.mode, status, tours, int(c.nodes), float(c.seconds),
                          data=data)
