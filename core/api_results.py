"""The typed answers of the front door (:mod:`knightgui_core.api`): one frozen dataclass per
question.

Each result holds its main figures as typed fields; ``to_dict()`` gives the whole answer as
JSON-ready data (plain ``dict``, ``list``, ``str``, ``int``, ``float``, ``bool``, ``None``),
the object the matching command prints with ``--json`` (each command's keys:
docs/reference/cli.md, "The ``--json`` objects"). The results are frozen, and ``to_dict()``
returns a fresh copy on each call.

>>> import json
>>> import knightgui_core as kg
>>> r = kg.study_uncrossed(kg.Board(5, 5), cycle=True)
>>> r.length, json.loads(json.dumps(r.to_dict()))["length"]
(8, 8)

This module imports only the board layer: importing ``knightgui_core`` stays cheap.
"""
from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .board.squares import Board
from .board.tour import Tour, path_pairs

__all__ = ["CornerTails", "EnumerationCount", "MoveOrderStudy", "OrderWalk", "PathCount",
           "PathVerdict", "PhadkeStudy", "SemimagicStudy", "StartPathCount", "SymmetricCount",
           "TieBreakStudy", "TourCheck", "TourCount", "TourCountTable", "TourResult",
           "UncrossedStudy", "WarnsdorffCount"]


def _board_dict(board: Board) -> dict[str, Any]:
    """The board as JSON-ready keys: ``rows``, ``cols``, ``topology``, ``leaper``."""
    return {"rows": board.rows, "cols": board.cols, "topology": board.topology,
            "leaper": list(board.leaper)}


@dataclass(frozen=True)
class _Recorded:
    """A result whose whole answer, ``data``, is a JSON object computed once when it is made;
    :meth:`to_dict` hands out deep copies, so the result cannot be changed through them."""

    data: Mapping[str, Any] = field(repr=False, compare=False, kw_only=True)

    def to_dict(self) -> dict[str, Any]:
        """The whole answer as JSON-ready data (a fresh copy on every call)."""
        return copy.deepcopy(dict(self.data))


@dataclass(frozen=True)
class TourResult:
    """One tour asked of :func:`knightgui_core.api.solve`.

    ``tour`` is the validated :class:`~knightgui_core.board.tour.Tour` (``None`` when none
    was found: ``message`` says why, a proof when no tour of the kind can exist), ``method``
    names what found it, ``nodes`` counts the search's work, ``stuck_at`` is the move
    where a failed walk stopped (-1 otherwise) and ``moves`` the squares the answer
    visits. ``answer`` says whether a tour of the kind asked exists (``yes``, ``no`` or
    ``not known``) and ``why`` gives the reason: a theorem, the tour found, or an
    exhaustive search. ``animation`` describes the file ``knightgui solve --animate``
    wrote (``None`` without one)."""

    board: Board
    start: str
    closed: bool
    tour: Tour | None = field(compare=False)
    method: str
    message: str
    nodes: int = 0
    stuck_at: int = -1
    moves: int = 0
    seconds: float = 0.0
    rule_walk: Any = field(default=None, compare=False)
    answer: str = "not known"
    why: str = ""
    animation: Mapping[str, Any] | None = field(default=None, compare=False)

    @property
    def found(self) -> bool:
        """Whether :attr:`tour` holds a tour."""
        return self.tour is not None

    def to_dict(self) -> dict[str, Any]:
        """``knightgui solve --json``: the board (``rows``, ``cols``, ``topology``,
        ``leaper``), ``closed``, ``valid`` (a tour found), ``method``, ``seconds``, ``path``
        as ``[col, row]`` pairs, ``message``, ``nodes``, ``stuck_at``, ``moves``, ``start``,
        ``rule_walk``, ``answer`` and ``why``; ``animation`` only when a file was written."""
        path = [] if self.tour is None else path_pairs(self.tour.path, self.board.cols)
        out = {**_board_dict(self.board), "closed": self.closed, "valid": self.found,
               "method": self.method, "seconds": round(self.seconds, 6), "path": path,
               "message": self.message, "nodes": self.nodes, "stuck_at": self.stuck_at,
               "moves": self.moves, "start": self.start,
               "rule_walk": copy.deepcopy(self.rule_walk), "answer": self.answer,
               "why": self.why}
        if self.animation is not None:
            out["animation"] = dict(self.animation)
        return out


@dataclass(frozen=True)
class EnumerationCount:
    """The counters of Phadke's enumeration from ``start`` (to ``end``: closed tours), from
    its beginning: ``solutions`` (Warnsdorff tours), ``dead_ends`` (walks the rule leaves
    stuck), ``forward_moves`` (its work) and ``exhausted`` (every tie was followed).
    ``method`` says how they were counted: ``options matrix`` (every walk followed) or
    ``transposition table`` (the count by states of an open tour without dashes, fewer
    forward moves, and ``p_success``: the probability that breaking every tie uniformly at
    random completes a tour; ``None`` by the options matrix). ``first`` holds the solutions
    listed (``knightgui enumerate --first K``), ``None`` when none were asked for."""

    board: Board
    start: str
    end: str | None
    solutions: int
    dead_ends: int
    forward_moves: int
    exhausted: bool
    seconds: float = 0.0
    method: str = "options matrix"
    p_success: float | None = None
    first: tuple[Mapping[str, Any], ...] | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """``knightgui enumerate --json``: the board, ``start``, ``end``, ``solutions``,
        ``dead_ends``, ``forward_moves``, ``exhausted``, ``seconds``, ``method`` and
        ``p_success``; ``first`` (each solution's ``index``, ``branch``, ``path`` as names,
        ``numbers`` row by row from the top, ``mo``: its options matrix entries) only when
        solutions were listed."""
        out = {**_board_dict(self.board), "start": self.start, "end": self.end,
               "solutions": self.solutions, "dead_ends": self.dead_ends,
               "forward_moves": self.forward_moves, "exhausted": self.exhausted,
               "seconds": round(self.seconds, 6), "method": self.method,
               "p_success": self.p_success}
        if self.first is not None:
            out["first"] = copy.deepcopy([dict(r) for r in self.first])
        return out


@dataclass(frozen=True)
class CornerTails:
    """What can be added to a closed enumeration from ``start`` to ``end``:
    ``free_corners`` maps each corner to ``None`` when it is free (a dash may go there) or
    the reason it is not; ``ecd`` and ``xcd`` are the end-corner-dash tails, each its
    squares joined by ``-`` (``knightgui enumerate --list-tails``)."""

    board: Board
    start: str
    end: str
    free_corners: Mapping[str, str | None] = field(compare=False)
    ecd: tuple[str, ...]
    xcd: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """``knightgui enumerate --list-tails --json``: the board, ``start``, ``end``,
        ``free_corners``, ``ecd`` and ``xcd``."""
        return {**_board_dict(self.board), "start": self.start, "end": self.end,
                "free_corners": dict(self.free_corners), "ecd": list(self.ecd),
                "xcd": list(self.xcd)}


@dataclass(frozen=True)
class PathCount:
    """Every knight's path from ``start`` through all squares, Warnsdorff's or not
    (``knightgui enumerate --all-tours``): ``solutions`` paths (all of them when
    ``exhausted``, else the first ones listed), ``closed`` of them closing (``None`` when
    they were listed rather than counted) and ``first``, the paths listed as square names
    (``None`` when none were)."""

    board: Board
    start: str
    solutions: int
    exhausted: bool
    closed: int | None = None
    first: tuple[tuple[str, ...], ...] | None = field(default=None, compare=False)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """``knightgui enumerate --all-tours --json``: ``all_tours`` (true), the board,
        ``start``, ``solutions``, ``exhausted``, ``closed`` and ``seconds``; ``first`` only
        when paths were listed."""
        out = {"all_tours": True, **_board_dict(self.board), "start": self.start,
               "solutions": self.solutions, "exhausted": self.exhausted,
               "closed": self.closed, "seconds": round(self.seconds, 6)}
        if self.first is not None:
            out["first"] = [list(p) for p in self.first]
        return out


@dataclass(frozen=True)
class WarnsdorffCount(_Recorded):
    """Every Warnsdorff tour (strict rule, every tie followed, open) from each start:
    ``tours`` and ``closed`` summed over the starts, ``dead_ends``, and Knuth's odds —
    ``p_success`` (``p_closed``), the probability that the walk breaking every tie
    uniformly at random completes a tour (a closed one), for a start drawn uniformly from
    ``starts``. ``per_start`` maps each start's name to its figures."""

    board: Board
    starts: tuple[str, ...]
    tours: int
    closed: int
    dead_ends: int
    p_success: float
    p_closed: float
    per_start: Mapping[str, Mapping[str, Any]] = field(repr=False, compare=False)
    seconds: float = 0.0


@dataclass(frozen=True)
class TourCount(_Recorded):
    """Every tour of a board, Warnsdorff's or not: ``directed_paths`` (open paths through
    every square, each direction counted; ``None`` when only the closed tours were
    counted), ``undirected_paths`` (half of them) and ``closed_tours`` (undirected cycles),
    counted by ``method`` (``visited`` or ``frontier``) for ``method_reason``."""

    board: Board
    directed_paths: int | None
    undirected_paths: int | None
    closed_tours: int
    method: str
    method_reason: str
    seconds: float = 0.0


@dataclass(frozen=True)
class PhadkeStudy(_Recorded):
    """Phadke's 1981 study of closed 8×8 Warnsdorff tours for one ``family`` of his
    algorithms: ``algorithms`` run, ``solutions`` found and ``paper_solutions``, the figure
    his paper prints for them; ``full_board`` and ``paper_full_board`` are the same on the
    whole board where the family has them (else ``None``)."""

    family: str
    algorithms: int
    solutions: int
    paper_solutions: int | None
    full_board: int | None = None
    paper_full_board: int | None = None
    seconds: float = 0.0


@dataclass(frozen=True)
class MoveOrderStudy(_Recorded):
    """Plain Warnsdorff over all 40,320 move orders from every start of ``board``, ties to
    the ``tie`` (``first`` or ``last``) tied move: ``walks`` made, ``failed_walks`` that got
    stuck, ``orders_with_failure`` and ``closed_walks`` (complete and closing)."""

    board: Board
    tie: str
    orders: int
    walks: int
    failed_walks: int
    orders_with_failure: int
    closed_walks: int
    seconds: float = 0.0


@dataclass(frozen=True)
class TieBreakStudy(_Recorded):
    """The greedy walk of each tie rule on every n×n board, ``n_min`` ≤ n ≤ ``n_max``:
    ``success_rate`` (walks completed over walks made) and ``first_failing_n`` (the
    smallest side where a walk failed, ``None`` when none did), per rule."""

    rules: tuple[str, ...]
    n_min: int
    n_max: int
    success_rate: Mapping[str, float | None] = field(compare=False)
    first_failing_n: Mapping[str, int | None] = field(compare=False)
    seconds: float = 0.0


@dataclass(frozen=True)
class SymmetricCount(_Recorded):
    """The tours of ``board`` that ``symmetry`` maps onto themselves: ``open_paths``
    (undirected; ``None`` when not counted) and ``closed_tours`` (undirected cycles), over
    ``orbits`` orbits of squares."""

    board: Board
    symmetry: str
    open_paths: int | None
    closed_tours: int | None
    orbits: int
    seconds: float = 0.0


@dataclass(frozen=True)
class UncrossedStudy(_Recorded):
    """The longest uncrossed knight's path (or ``cycle``) of ``board``, proved longest:
    ``length`` moves, ``count`` longest ones up to the board's symmetries (``total`` on the
    board) and one of them, ``path``, as square names."""

    board: Board
    cycle: bool
    length: int
    count: int
    total: int
    path: tuple[str, ...]
    seconds: float = 0.0


@dataclass(frozen=True)
class SemimagicStudy(_Recorded):
    """A search for semi-magic tours of a ``size`` × ``size`` board (rows and columns with
    one total) of ``mode`` (``open``, ``closed`` or ``half-turn``): ``status`` is ``found``,
    ``none`` (every start exhausted: ``tours`` holds all there are; none at all is a
    proof), or ``budget``; ``tours`` as square names in number order."""

    size: int
    mode: str
    status: str
    tours: tuple[tuple[str, ...], ...]
    nodes: int
    seconds: float = 0.0


@dataclass(frozen=True)
class TourCheck(_Recorded):
    """A tour file read and checked (``knightgui check FILE``): ``valid`` when its path is a
    tour of its board (``tour`` then holds it), else ``why`` says which rule the path
    breaks. A valid tour's answer adds its board, whether it closes, its canonical id, how
    many of the board's symmetries map it onto itself, and its row, column and diagonal
    sums."""

    file: str
    valid: bool
    why: str | None = None
    tour: Tour | None = field(default=None, compare=False)


@dataclass(frozen=True)
class PathVerdict(_Recorded):
    """A path played by hand (``knightgui check --path``): ``free`` squares left, ``lost``
    when no finish is possible any more and ``closed_lost`` when no closed tour is (each
    with its reasons in :meth:`to_dict`), and with the exact count ``extendable`` (``None``
    when not known within the budget) and the ``open`` and ``closed`` finishes
    (``None`` when not counted)."""

    board: Board
    path: tuple[str, ...]
    free: int
    lost: bool
    closed_lost: bool
    extendable: bool | None = None
    open: int | None = None
    closed: int | None = None
    seconds: float = 0.0


@dataclass(frozen=True)
class OrderWalk(_Recorded):
    """One walk of plain Warnsdorff with a fixed move ``order`` from one square
    (``knightgui study move-orders --walk``): ``complete`` when it visits every square,
    ``closed`` when it also ends a move from its start; ``path`` as ``[col, row]`` pairs."""

    board: Board
    order: str
    tie: str
    complete: bool
    closed: bool


@dataclass(frozen=True)
class StartPathCount(_Recorded):
    """Every knight's path through all squares from a few starts of ``board``
    (``knightgui study count --all-tours --starts``): ``per_start`` maps each start to its
    directed paths (``tours``) and the closed ones (``closed``), counted by ``method``
    (``visited`` or ``frontier``) for ``method_reason``."""

    board: Board
    method: str
    method_reason: str
    per_start: Mapping[str, Mapping[str, int]] = field(repr=False, compare=False)
    seconds: float = 0.0


@dataclass(frozen=True)
class TourCountTable(_Recorded):
    """Every tour of several boards, counted in one run: ``boards`` holds one record per
    board (``knightgui study count --all-tours`` with ``--boards-up-to N``, or with
    ``--rows R --cols-from A --cols-to B``)."""

    boards: tuple[Mapping[str, Any], ...] = field(repr=False, compare=False)
    seconds: float = 0.0
