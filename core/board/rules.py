"""Tie-break rules and move orders: parsing and validation (docs/spec.md §1–3). Dash options live
in :mod:`knightgui_core.board.dash`.

Everything here is plain Python that turns user words into the small integer arrays the
kernels take, with error messages meant for a person.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ..system.errors import InputError
from .squares import MOVES, Board
from .tie_rule import TieRule, UnknownTieRule

#: Tie-break rules (docs/spec.md §3 and docs/tie-breaks.md) by name, in the order the window
#: lists them: the labels of :class:`TieRule`, whose values are the kernels' codes.
TIE_RULES: tuple[str, ...] = tuple(r.label for r in TieRule)
TIE_CODES: dict[str, TieRule] = {r.label: r for r in TieRule}
#: rules that follow their own move orders (``--order`` is not used)
SQUIRREL_RULES: tuple[str, ...] = tuple(r.label for r in TieRule if r.switching)
#: rules whose residual ties are broken at random (``--seed``; ``--trials`` in the study)
RANDOM_RULES: tuple[str, ...] = tuple(r.label for r in TieRule if r.randomised)
TIE_HELP: dict[str, str] = {
    "phadke": "highest move type among the tied candidates (Phadke's program)",
    "first": "first tied candidate in the move order",
    "last": "last tied candidate in the move order",
    "random": "uniform among the tied candidates; the same seed gives the same tour",
    "center-far": "farthest from the board centre (Roth's rule, as Ganzfried reports it); "
                  "then the move order",
    "lookahead": "the candidate whose own best onward square has the fewest exits (the "
                 "one-level look-ahead of tutorials; not Pohl's rule); then the move order",
    "pohl": "smallest sum of onward exits over the candidate's unvisited neighbours "
            "(Pohl 1967, as Ganzfried 2004 reads it); then the move order",
    "pohl-random": "Pohl's sum rule; remaining ties at random (seed)",
    "center-far-random": "Roth's farthest-from-centre rule; remaining ties at random (seed)",
    "squirrel": "Squirrel & Cull 1996: fixed move orders switched at set squares by n mod 8 "
                "(the table of their paper); n×n, n ≥ 5, from a corner; fails on 74×74",
    "squirrel-unsplit": "Squirrel & Cull's table with one switch square for every "
                        "n ≡ 5 (mod 8) (no n mod 16 split; fails at n = 29, 45, ...)",
    "squirrel-ganzfried": "Squirrel & Cull 1996 with Ganzfried's fix (2004): on 74×74 the "
                          "single fixed order 21345678 of the papers instead of the table",
}
DEFAULT_ORDER = "12345678"
#: single-tour methods (knightgui_core.walks.solve): auto picks one and says which it used
METHODS: tuple[str, ...] = ("auto", "greedy", "backtrack", "construct")


class RuleError(InputError):
    """A tie rule, move order or dash state that is not understood."""


def parse_tie(name: TieRule | str) -> TieRule:
    """The :class:`TieRule` named ``name`` (case-insensitive; ``center_far``/``roth``
    accepted); an unknown name is a :class:`RuleError` that lists the rules."""
    try:
        return TieRule.parse(name)
    except UnknownTieRule:
        shown = name[:40] if isinstance(name, str) else repr(name)[:40]
        raise RuleError(f"unknown tie rule '{shown}' (choose one of: "
                        f"{', '.join(TIE_RULES)})") from None


_PAIR = re.compile(r"[<⟨(\[]\s*([-+−]?\d)\s*,\s*([-+−]?\d)\s*[>⟩)\]]")
_FACT = (1, 1, 2, 6, 24, 120, 720, 5040)


@dataclass(frozen=True)
class MoveOrder:
    """A move order: the eight Phadke move types 1..8, highest priority first.

    The one type for the concept. Every other form is a conversion on it:

    ========================  =====================================================
    ``digits``                ``"12345678"`` (Phadke's notation; what files and JSON carry)
    ``pairs``                 ``"⟨1,2⟩⟨2,1⟩…"``: matrix-convention (dx = row step down,
                              dy = column step), so (dcol, drow) = (dy, −dx)
    ``rank``                  the lexicographic index among the 8! orders (0 = 12345678)
    :meth:`indices`           ``int64[8]`` move-type indices 0..7 (the greedy-walk kernel)
    :meth:`positions`         ``int64[8]``: position of each move type in the order
    :meth:`types_array`       ``int8[8]`` types 1..8 (the move-order study's kernels)
    ========================  =====================================================
    """

    types: tuple[int, ...]

    def __post_init__(self) -> None:
        if sorted(self.types) != list(range(1, 9)):
            shown = "".join(map(str, self.types))[:40]
            raise RuleError(f"move order {shown} must use each of 1..8 once")

    @property
    def digits(self) -> str:
        """Phadke digits, e.g. ``12345678``."""
        return "".join(map(str, self.types))

    @property
    def pairs(self) -> str:
        """Matrix-convention pairs ``⟨dx,dy⟩`` (dx = row step down, dy = column step)."""
        return "".join(f"⟨{-MOVES[t - 1][1]},{MOVES[t - 1][0]}⟩" for t in self.types)

    @property
    def rank(self) -> int:
        """Lexicographic index among the 8! orders (0 = 12345678)."""
        left, r = list(range(1, 9)), 0
        for pos, t in enumerate(self.types):
            i = left.index(t)
            r += i * _FACT[7 - pos]
            left.pop(i)
        return r

    def indices(self) -> np.ndarray:
        """``int64[8]``: move-type indices 0..7, highest priority first."""
        return np.array([t - 1 for t in self.types], dtype=np.int64)

    def positions(self) -> np.ndarray:
        """``int64[8]``: the position (0 = first) of move-type index 0..7 in the order."""
        pos = np.empty(8, dtype=np.int64)
        pos[self.indices()] = np.arange(8)
        return pos

    def types_array(self) -> np.ndarray:
        """``int8[8]``: the move types 1..8, highest priority first."""
        return np.array(self.types, dtype=np.int8)

    def __str__(self) -> str:
        return self.digits


DEFAULT_MOVE_ORDER = MoveOrder((1, 2, 3, 4, 5, 6, 7, 8))


def parse_order(value: object) -> MoveOrder:
    """The one reader of move orders. Accepts a :class:`MoveOrder`; Phadke digits
    (``"87654321"``, a permutation of 1..8); a sequence or array of the 8 move types 1..8;
    or 8 matrix-convention pairs ``"⟨1,2⟩⟨2,1⟩…"`` (also with ``<>``, ``()`` or ``[]``).
    Raises :class:`RuleError` with a message for a person."""
    if isinstance(value, MoveOrder):
        return value
    if isinstance(value, (np.ndarray, list, tuple)):
        try:
            types = [int(v) for v in value]
        except (TypeError, ValueError):
            raise RuleError(f"move order {str(value)[:60]} must hold the numbers 1..8") from None
        if len(types) != 8:
            raise RuleError(f"a move order has 8 move types, got {len(types)}")
        return MoveOrder(tuple(types))
    if not isinstance(value, str):
        raise RuleError(f"move order {str(value)[:60]!r} is not understood")
    s = value.strip()
    if len(s) > 200:
        raise RuleError("move order is too long")
    pairs = _PAIR.findall(s.replace("−", "-"))
    if pairs:
        if len(pairs) != 8:
            raise RuleError(f"a move order in ⟨dx,dy⟩ pairs needs 8 pairs, found {len(pairs)}")
        types = []
        for dx, dy in pairs:
            dx, dy = int(dx), int(dy)
            try:
                types.append(MOVES.index((dy, -dx)) + 1)
            except ValueError:
                raise RuleError(f"⟨{dx},{dy}⟩ is not a knight move") from None
        return MoveOrder(tuple(types))
    if not re.fullmatch(r"[1-8]{8}", s):
        raise RuleError(f"move order '{s[:40]}' must be the 8 digits 1..8 in some order, "
                        "e.g. 12345678, or 8 ⟨dx,dy⟩ pairs")
    return MoveOrder(tuple(int(ch) for ch in s))


def candidates_at(board: Board, path: Sequence[int] | np.ndarray, k: int,
                  reserved: Iterable[int] = ()) -> list[tuple[int, int]]:
    """The Warnsdorff candidates for move ``k`` (1-based) of ``path``, with their outlets.

    Squares ``path[:k-1]`` are visited; the knight stands on ``path[k-2]``. A candidate is an
    unvisited, unreserved knight move away; its outlets count unvisited squares a knight move
    from it (reserved squares count, visited ones do not). Used by the construction animation.
    """
    path = np.asarray(path)
    if not 2 <= k <= len(path) + 1:
        return []
    visited = np.zeros(board.size, dtype=bool)
    visited[path[: k - 1]] = True
    nbr = board.neighbours
    q = int(path[k - 2])
    reserved = set(int(r) for r in reserved)
    out = []
    for c in nbr[q]:
        c = int(c)
        if c < 0 or visited[c] or c in reserved:
            continue
        n = nbr[c]
        outlets = int(np.count_nonzero((n >= 0) & ~visited[np.where(n >= 0, n, 0)]))
        out.append((c, outlets))
    return out
