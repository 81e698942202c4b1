"""A tour by hand: the path a player has made so far, checked, and what can be
said of it at once.

:func:`play_path` turns the squares played into a checked path of the board's piece.
:func:`quick_verdict` looks at the position for necessary conditions of a finish, fast
enough to run after every move on any board (a few numpy passes over the neighbour table
and one flood of the free squares): each condition that fails is a :class:`Reason` — one
sentence and the squares it concerns, for the board to mark. A verdict that says *lost* is a
proof that no finish exists; one that says nothing proves nothing (ask
:func:`knightgui_core.walks.hand.completions.completions`).

>>> from knightgui_core.board.squares import Board
>>> b = Board(5, 5)
>>> v = quick_verdict(b, [b.parse(s) for s in "c2 e3 c4 a3 b1 d2 b3".split()])
>>> v.lost, [r.kind.value for r in v.reasons if not r.closed_only]
(True, ['dead-end', 'ends', 'colours'])
>>> print(v.reasons[1].sentence)
a1 and a5 can only be entered from b3 and lead nowhere, while 17 other squares are free
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

import numpy as np

from ...board.squares import LEAPER_NAMES, Board, BoardError, SquareSpec
from ...system.errors import InputError

__all__ = ["PLAY_MAX", "PlayError", "ReasonKind", "Reason", "Verdict", "play_path", "quick_verdict",
           "piece_name", "board_colours"]


#: the largest board a path is played on (the neighbour table alone takes 32 bytes a square)
PLAY_MAX = 4_000_000


class PlayError(InputError):
    """Squares that are not a path of the board's piece (off the board, repeated, a step
    that is not a move), in one sentence."""


class ReasonKind(str, Enum):
    """What a :class:`Reason` found (its value is what ``--json`` and the window show)."""

    STUCK = "stuck"                  # the knight has no free square to go to
    UNREACHABLE = "unreachable"      # free squares nothing leads to
    DEAD_END = "dead-end"            # free squares reachable only next, with no way on
    ENDS = "ends"                    # more than one square that must be the last
    SPLIT = "split"                  # the free squares fall apart
    COLOURS = "colours"              # the colours do not alternate to the end
    CLOSED_START = "closed-start"    # the first square has no free neighbour left
    CLOSED_END = "closed-end"        # the square that must be last is not next to the first
    CLOSED_COLOURS = "closed-colours"  # the board's two colours differ in number
    CLOSED_FULL = "closed-full"      # the board is covered, the ends are not a move apart


@dataclass(frozen=True)
class Reason:
    """One failed condition: ``kind``, ``sentence`` (for a person), ``squares`` (flat
    indices the board may mark) and ``closed_only`` (it rules out a closed tour, not every
    finish)."""

    kind: ReasonKind
    sentence: str
    squares: tuple[int, ...] = ()
    closed_only: bool = False


@dataclass(frozen=True)
class Verdict:
    """What :func:`quick_verdict` found: ``lost`` (no finish at all: proved), ``closed_lost``
    (no closed tour: proved), the ``reasons``, and ``free`` (unvisited squares)."""

    lost: bool
    closed_lost: bool
    reasons: tuple[Reason, ...]
    free: int

    @property
    def marked(self) -> tuple[int, ...]:
        """Every square some reason names, once, in order."""
        return tuple(dict.fromkeys(s for r in self.reasons for s in r.squares))

    def sentence(self) -> str:
        """The reasons as one text (empty when nothing was found)."""
        return " ".join(r.sentence for r in self.reasons)


def piece_name(board: Board) -> str:
    """``knight``, ``zebra (2,3)`` or ``(2,5)-leaper``: the piece in a sentence."""
    a, b = board.leaper
    name = LEAPER_NAMES.get(board.leaper)
    if name == "knight":
        return name
    return f"{name} ({a},{b})" if name else f"({a},{b})-leaper"


def play_path(board: Board, path: Sequence[SquareSpec] | np.ndarray) -> np.ndarray:
    """The squares played (flat indices, names or ``(col, row)`` pairs, in order) as an
    int32 array, checked: at least one square, each on the board, none twice, each a move of
    the board's piece from the one before, on a board of at most :data:`PLAY_MAX` squares.
    :class:`PlayError` (one sentence) otherwise."""
    if board.size > PLAY_MAX:
        raise PlayError(f"paths by hand are played on boards of at most {PLAY_MAX:,} squares, "
                        f"not {board.size:,}")
    if isinstance(path, np.ndarray) and path.dtype.kind in "iu" and path.ndim == 1:
        p = path.astype(np.int64)
        bad = np.flatnonzero((p < 0) | (p >= board.size))
        if bad.size:
            raise PlayError(f"square {bad[0] + 1} of the path: index {int(p[bad[0]])} is off "
                            f"the {board.describe()} board")
    else:
        if isinstance(path, (str, bytes)) or not isinstance(path, (Sequence, np.ndarray)):
            raise PlayError("a path is a list of squares")
        if len(path) > board.size:
            raise PlayError(f"a path of {len(path):,} squares is longer than the board "
                            f"({board.size:,})")
        items = []
        for i, sq in enumerate(path):
            try:
                items.append(board.square(sq))
            except BoardError as e:
                raise PlayError(f"square {i + 1} of the path: {e}") from None
        p = np.asarray(items, dtype=np.int64)
    if p.size == 0:
        raise PlayError("the path is empty: it needs at least its first square")
    if p.size > board.size:
        raise PlayError(f"a path of {p.size:,} squares is longer than the board "
                        f"({board.size:,})")
    order = np.argsort(p, kind="stable")
    twice = np.flatnonzero(p[order][1:] == p[order][:-1])
    if twice.size:
        i, j = sorted((int(order[twice[0]]), int(order[twice[0] + 1])))
        raise PlayError(f"{board.name(int(p[i]))} is visited twice (squares {i + 1} and "
                        f"{j + 1} of the path)")
    if p.size > 1:
        steps = (board.neighbours[p[:-1]] == p[1:, None]).any(axis=1)
        if not steps.all():
            i = int(np.flatnonzero(~steps)[0])
            raise PlayError(f"{board.name(int(p[i]))} to {board.name(int(p[i + 1]))} (squares "
                            f"{i + 1} and {i + 2}) is not a move of the {piece_name(board)} on "
                            f"the {board.describe()} board")
    return p.astype(np.int32)


def board_colours(board: Board) -> np.ndarray | None:
    """int8[N]: a colour 0/1 of each square such that every move changes colour, or None
    when the board's moves allow none (an odd cycle: a wrapped odd side, a leaper whose
    leaps sum to an even number on a torus…). A fresh copy each call."""
    colour = _colours(board)
    return None if colour is None else colour.copy()


@lru_cache(maxsize=8)
def _colours(board: Board) -> np.ndarray | None:
    from ..flood_kernel import two_colouring  # numba loads with the first kernel, not here
    colour = np.zeros(board.size, dtype=np.int8)
    ok = two_colouring(board.neighbours, colour, np.empty(board.size, dtype=np.int32))
    return colour if ok else None


def _names(board: Board, squares: np.ndarray, limit: int = 6) -> str:
    names = [board.name(int(s)) for s in squares[:limit]]
    more = len(squares) - limit
    if more > 0:
        names.append(f"{more:,} more")
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def quick_verdict(board: Board, path: Sequence[SquareSpec] | np.ndarray) -> Verdict:
    """Necessary conditions of a finish of ``path`` (checked by :func:`play_path`) on
    ``board``: the reasons a finish, or a closed tour, is no longer possible (see
    :class:`ReasonKind`). Costs a few passes over the board; no search."""
    from ..flood_kernel import free_groups  # numba loads with the first kernel, not here
    p = play_path(board, path)
    nbr = board.neighbours
    first, last = int(p[0]), int(p[-1])
    free = np.ones(board.size, dtype=bool)
    free[p] = False
    nf = int(free.sum())
    reasons: list[Reason] = []
    colour = board_colours(board)
    if colour is not None and board.size > 1:
        n1 = int(colour.sum())
        if n1 * 2 != board.size:
            reasons.append(Reason(
                ReasonKind.CLOSED_COLOURS,
                f"every move changes colour, so a closed tour needs as many squares of each "
                f"colour, and the board has {board.size - n1:,} and {n1:,}", (), True))
    if nf == 0:
        if not board.is_knight_move(last, first):
            reasons.append(Reason(ReasonKind.CLOSED_FULL, f"the path covers the board, but "
                                  f"{board.name(last)} is not a move from "
                                  f"{board.name(first)}: the tour is open", (last, first), True))
        return _verdict(reasons, nf)
    valid = nbr >= 0
    free_nbr = valid & free[np.where(valid, nbr, 0)]
    deg = free_nbr.sum(axis=1)
    near = np.zeros(board.size, dtype=bool)
    near[nbr[last][nbr[last] >= 0]] = True
    near &= free
    reach = deg + near
    if deg[last] == 0:
        reasons.append(Reason(ReasonKind.STUCK, f"the {piece_name(board)} on "
                              f"{board.name(last)} has no free square to go to", (last,)))
    lone = np.flatnonzero(free & (reach == 0))
    if lone.size:
        reasons.append(Reason(ReasonKind.UNREACHABLE, f"{_names(board, lone)} can no longer "
                              "be reached: no free square is a move away, nor the "
                              f"{piece_name(board)}", tuple(int(s) for s in lone)))
    dead = np.flatnonzero(free & near & (deg == 0)) if nf > 1 else np.zeros(0, np.int64)
    if dead.size:
        reasons.append(Reason(ReasonKind.DEAD_END, f"{_names(board, dead)} can only be "
                              f"entered from {board.name(last)} and "
                              f"{'leads' if dead.size == 1 else 'lead'} nowhere, while "
                              f"{nf - 1:,} other squares are free", tuple(int(s) for s in dead)))
    ends = np.flatnonzero(free & (reach == 1) & ~(near & (deg == 0)))
    if ends.size > 1:
        reasons.append(Reason(ReasonKind.ENDS, f"{_names(board, ends)} each have one way in "
                              "or out, so each would have to be the last square",
                              tuple(int(s) for s in ends)))
    rest = free.copy()              # squares already named above are not counted again
    rest[lone] = False
    rest[dead] = False
    label = np.empty(board.size, dtype=np.int32)
    groups = int(free_groups(nbr, rest.astype(np.uint8), label,
                             np.empty(board.size, dtype=np.int32)))
    if groups > 1:
        sizes = np.bincount(label[rest], minlength=groups)
        cut = np.flatnonzero(rest & (label != int(np.argmax(sizes))))
        reasons.append(Reason(ReasonKind.SPLIT, f"the free squares fall into {groups} groups "
                              f"that no move joins (the smaller ones: {_names(board, cut)})",
                              tuple(int(s) for s in cut)))
    if colour is not None:
        other = int((colour[free] != colour[last]).sum())
        need = (nf + 1) // 2
        if other != need:
            reasons.append(Reason(
                ReasonKind.COLOURS,
                f"every move changes colour, so the {nf:,} free squares need {need:,} of the "
                f"other colour than {board.name(last)}'s and {nf - need:,} of its own; they "
                f"have {other:,} and {nf - other:,}"))
    if deg[first] == 0 and first != last:
        reasons.append(Reason(ReasonKind.CLOSED_START, f"no free square is a move from the "
                              f"first square {board.name(first)}: the tour can no longer "
                              "close", (first,), True))
    if ends.size == 1 and not board.is_knight_move(int(ends[0]), first):
        reasons.append(Reason(ReasonKind.CLOSED_END, f"{board.name(int(ends[0]))} has one way "
                              "in or out, so it must be the last square, and it is not a move "
                              f"from {board.name(first)}: the tour can no longer close",
                              (int(ends[0]), first), True))
    return _verdict(reasons, nf)


def _verdict(reasons: list[Reason], nf: int) -> Verdict:
    lost = any(not r.closed_only for r in reasons)
    return Verdict(lost, lost or bool(reasons), tuple(reasons), nf)
