"""Corners, approach cells and Phadke's dash options (docs/spec.md §4, §5).

* A corner K can only be entered from its two *approach cells*: A = the one a move with
  |drow| = 2 away, B = the one with |dcol| = 2 (a1: A=b3, B=c2; a8: A=b6, B=c7).
* A corner is *free* when neither S nor E is the corner or one of its approach cells; only
  free corners can be dashed (off / A / B / full: the dashed approach cells score 1 outlet).
* Compulsory end dash: when E is an approach cell of K (S away from K) the tour must end
  A1, K, E; when E is K itself it must end A1, K. These squares are reserved.
* Optional tails: ECD A1, K, A2, E (E a knight move from A2) and XCD A1, K, A2, X, E
  (E two moves from A2), K a free corner. The whole tail is reserved from the start.

Squares are flat indices here; :mod:`knightgui_core.tietree.enumeration.enumerator` converts names.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from ..system.errors import InputError
from .leaps import moves_from
from .squares import Board

DASH_STATES = ("off", "A", "B", "full")
_STATE_ALIASES = {"off": "off", "none": "off", "0": "off", "a": "A", "b": "B",
                  "full": "full", "c": "full", "ab": "full", "both": "full"}


class EnumerationError(InputError):
    """Bad input for an exhaustive enumeration (squares, end, dashes, tail)."""


class DashError(EnumerationError):
    """A dash option or tail that cannot be used with the chosen start and end."""


@dataclass(frozen=True)
class Corner:
    name: str
    square: int
    a: int      # approach cell reached by a move with |drow| = 2
    b: int      # approach cell reached by a move with |dcol| = 2

    @property
    def cells(self) -> tuple[int, int, int]:
        """The corner square and its two approach cells."""
        return (self.square, self.a, self.b)


def corners(board: Board) -> list[Corner]:
    """The board's corners that have two distinct approach cells, in the order a1, a<top>,
    <right><top>, <right>1. Boards narrower than 3 in either direction have none."""
    return list(_corners(board.rows, board.cols))


@lru_cache(maxsize=64)
def _corners(rows: int, cols: int) -> tuple[Corner, ...]:
    """:func:`corners` of a ``rows`` × ``cols`` board, worked out once per size (Phadke's
    study asks for them some 230,000 times while it prepares its 22,432 algorithms)."""
    if rows < 3 or cols < 3:
        return ()
    board = Board(rows, cols)
    out, seen = [], set()
    for sq in board.corners:
        if sq in seen:
            continue
        seen.add(sq)
        col, row = board.coords(sq)
        dc = 1 if col == 0 else -1
        dr = 1 if row == 0 else -1
        a = board.index(col + dc, row + 2 * dr)
        b = board.index(col + 2 * dc, row + dr)
        out.append(Corner(board.name(sq), sq, a, b))
    return tuple(out)


def corner_by_name(board: Board, key: object) -> Corner:
    """The corner named (or given as any square spelling) by ``key``; DashError if none."""
    for c in corners(board):
        if c.name == key:               # the usual spelling, without parsing it
            return c
    try:
        sq = board.parse(key) if not isinstance(key, (int,)) or isinstance(key, bool) else key
    except ValueError as e:
        raise DashError(f"dash corner {key!r}: {e}") from None
    for c in corners(board):
        if c.square == sq:
            return c
    names = ", ".join(c.name for c in corners(board)) or "none on this board"
    raise DashError(f"{board.name(sq) if 0 <= sq < board.size else key!r} is not a corner "
                    f"(corners: {names})")


def parse_state(value: object) -> str:
    """The dash state (``off``, ``A``, ``B`` or ``full``) that ``value`` spells (``none``,
    ``a``, ``both``, ... are accepted); DashError otherwise."""
    key = str(value).strip().lower()
    if key not in _STATE_ALIASES:
        raise DashError(f"unknown dash state {value!r} (use off, A, B or full)")
    return _STATE_ALIASES[key]


def free_corners(board: Board, start: int, end: int | None) -> dict[str, str | None]:
    """Corner name -> None when free, else the reason it cannot be dashed."""
    out = {}
    for c in corners(board):
        reason = None
        for who, sq in (("S", start), ("E", end)):
            if sq is None:
                continue
            if sq == c.square:
                reason = f"{who} ({board.name(sq)}) is the corner"
            elif sq in (c.a, c.b):
                reason = f"{who} ({board.name(sq)}) is an approach cell of {c.name}"
            if reason:
                break
        out[c.name] = reason
    return out


def compulsory_chain(board: Board, start: int, end: int | None) -> tuple[int, ...]:
    """The reserved end of a closed tour: ``(A1, K, E)`` or ``(A1, K)`` for a compulsory end
    dash (docs/spec.md §4), else ``(E,)``; ``()`` in open mode."""
    if end is None:
        return ()
    for c in corners(board):
        if start in c.cells:
            continue
        if end in (c.a, c.b):
            other = c.b if end == c.a else c.a
            return (other, c.square, end)
    for c in corners(board):
        if end == c.square and start in (c.a, c.b):
            other = c.b if start == c.a else c.a
            return (other, c.square)
    return (end,)


def list_tails(board: Board, start: int, end: int | None) -> dict[str, list[tuple[int, ...]]]:
    """ECD and XCD tails (flat squares, ending at E) that exist for S and E. None when the
    tour is open or its end is already forced by a compulsory end dash."""
    out: dict[str, list[tuple[int, ...]]] = {"ecd": [], "xcd": []}
    if end is None or len(compulsory_chain(board, start, end)) > 1:
        return out
    free = free_corners(board, start, end)
    # one square's moves at a time: the window lists the tails at every change of its
    # fields, and its largest board's whole neighbour table is 32 M entries
    for c in corners(board):
        if free[c.name] is not None:
            continue
        for a1, a2 in ((c.a, c.b), (c.b, c.a)):
            from_a2 = moves_from(board, a2)
            if end in from_a2:
                out["ecd"].append((a1, c.square, a2, end))
            for x in from_a2:
                if x < 0 or x in (start, end, a1, c.square):
                    continue
                if end in moves_from(board, x):
                    out["xcd"].append((a1, c.square, a2, x, end))
    return out


@dataclass(frozen=True)
class DashPlan:
    """Everything the kernel needs to know about dashes and the reserved end."""
    chain: tuple[int, ...]          # reserved squares in tour order (ending at E); () = open
    dashed: tuple[int, ...]         # approach cells that score 1 outlet
    states: dict                    # corner name -> 'off'|'A'|'B'|'full'
    tail_kind: str | None           # 'ecd', 'xcd' or None


def plan(board: Board, start: int, end: int | None, dashes: Mapping[str, str] | None = None,
         tail: Iterable[int] | None = None) -> DashPlan:
    """Check the dash options and tail against S and E and resolve them into a plan."""
    if end is not None:
        if end == start:
            raise EnumerationError(f"start and end are the same square ({board.name(start)})")
        if not board.is_knight_move(start, end):
            raise EnumerationError(
                f"end {board.name(end)} is not a knight move from start {board.name(start)}: "
                f"a closed tour needs that")
    free = free_corners(board, start, end)
    tail_kind = None
    chain = compulsory_chain(board, start, end)
    if tail is not None:
        if end is None:
            raise DashError("an end corner dash tail needs an end square (closed tour)")
        tail = tuple(int(s) for s in tail)
        if not tail or tail[-1] != end:
            raise DashError(f"the tail must end at E ({board.name(end)})")
        tails = list_tails(board, start, end)
        for kind in ("ecd", "xcd"):
            if tail in tails[kind]:
                tail_kind = kind
        if tail_kind is None:
            known = [" ".join(board.name(s) for s in t) for t in tails["ecd"] + tails["xcd"]]
            raise DashError(f"unknown tail {' '.join(board.name(s) for s in tail)} for "
                            f"{board.name(start)}→{board.name(end)}; tails that exist: "
                            f"{'; '.join(known) if known else 'none'}")
        chain = tail
    states = {c.name: "off" for c in corners(board) if free[c.name] is None}
    dashed: list[int] = []
    by_name = {c.name: c for c in corners(board)}
    for key, value in (dashes or {}).items():
        c = corner_by_name(board, key)
        state = parse_state(value)
        if state == "off":
            if c.name in states:
                states[c.name] = "off"
            continue
        if free[c.name] is not None:
            raise DashError(f"corner {c.name} cannot be dashed: {free[c.name]}")
        if tail is not None and tail_kind is not None and c.square in tail:
            raise DashError(f"corner {c.name} cannot be dashed: the {tail_kind.upper()} tail "
                            f"runs through it")
        states[c.name] = state
    if tail is not None:
        states.pop(board.name(tail[1]), None)
    for name, state in states.items():
        c = by_name[name]
        if state in ("A", "full"):
            dashed.append(c.a)
        if state in ("B", "full"):
            dashed.append(c.b)
    return DashPlan(chain=tuple(chain), dashed=tuple(dashed), states=states,
                    tail_kind=tail_kind)
