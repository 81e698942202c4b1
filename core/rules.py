"""Tie-break rules and move orders: parsing and validation (SPEC §1–3). Dash options live
in :mod:`knightgui_core.dash`.

Everything here is plain Python that turns user words into the small integer arrays the
kernels take, with error messages meant for a person.
"""
from __future__ import annotations

import re

import numpy as np

from .board import MOVES, Board

#: Tie-break rules, in the order the window lists them. The first nine are codes of the greedy
#: kernel (:mod:`knightgui_core.kernels.walk`); the Squirrel rules run
#: :mod:`knightgui_core.squirrel` (square boards, from a corner).
TIE_RULES: tuple[str, ...] = ("phadke", "first", "last", "random", "center-far", "lookahead",
                              "pohl", "pohl-random", "center-far-random", "squirrel",
                              "squirrel-unsplit")
TIE_CODES: dict[str, int] = {name: code for code, name in enumerate(TIE_RULES)}
#: rules that follow their own move orders (``--order`` is not used)
SQUIRREL_RULES: tuple[str, ...] = ("squirrel", "squirrel-unsplit")
#: rules whose residual ties are broken at random (``--seed``; ``--trials`` in the study)
RANDOM_RULES: tuple[str, ...] = ("random", "pohl-random", "center-far-random")
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
                "(table of Squirrel's own program); n×n, n ≥ 5, from a corner",
    "squirrel-unsplit": "Squirrel & Cull's table with one switch square for every "
                        "n ≡ 5 (mod 8) (no n mod 16 split; fails at n = 29, 45, ...)",
}
DEFAULT_ORDER = "12345678"
#: single-tour methods (knightgui_core.solve): auto picks one and says which it used
METHODS: tuple[str, ...] = ("auto", "greedy", "backtrack", "construct")


class RuleError(ValueError):
    """A tie rule, move order or dash state that is not understood."""


def parse_tie(name: str) -> int:
    """Kernel code of a tie rule name (case-insensitive; ``center_far``/``roth`` accepted)."""
    if not isinstance(name, str):
        raise RuleError(f"tie rule must be a name, got {name!r}")
    key = name.strip().lower().replace("_", "-")
    key = {"roth": "center-far", "centre-far": "center-far", "squirrel-cull": "squirrel",
           "roth-random": "center-far-random", "centre-far-random": "center-far-random",
           "look-ahead": "lookahead"}.get(key, key)
    if key not in TIE_CODES:
        raise RuleError(f"unknown tie rule '{name[:40]}' (choose one of: {', '.join(TIE_RULES)})")
    return TIE_CODES[key]


_PAIR = re.compile(r"[<⟨(\[]\s*([-+−]?\d)\s*,\s*([-+−]?\d)\s*[>⟩)\]]")


def parse_order(text) -> np.ndarray:
    """A move order as ``int64[8]`` of move-type indices 0..7, highest priority first.

    Accepts Phadke digits (``"87654321"``, a permutation of 1..8), a sequence of 8 ints 1..8,
    or matrix-convention pairs ``"<1,2><2,1>..."`` (dx = row step downward, dy = column step),
    mapped to (dcol, drow) = (dy, −dx) as SPEC §1 says.
    """
    if isinstance(text, np.ndarray) or isinstance(text, (list, tuple)):
        try:
            digits = [int(v) for v in text]
        except (TypeError, ValueError):
            raise RuleError(f"move order {text!r} must hold the numbers 1..8") from None
    elif isinstance(text, str):
        s = text.strip()
        if len(s) > 200:
            raise RuleError("move order is too long")
        pairs = _PAIR.findall(s.replace("−", "-"))
        if pairs:
            if len(pairs) != 8:
                raise RuleError(f"a move order in ⟨dx,dy⟩ pairs needs 8 pairs, found {len(pairs)}")
            digits = []
            for dx, dy in pairs:
                dx, dy = int(dx), int(dy)
                try:
                    digits.append(MOVES.index((dy, -dx)) + 1)
                except ValueError:
                    raise RuleError(f"⟨{dx},{dy}⟩ is not a knight move") from None
        else:
            if not re.fullmatch(r"[1-8]{8}", s):
                raise RuleError(f"move order '{s[:40]}' must be the 8 digits 1..8 in some order, "
                                "e.g. 12345678, or 8 ⟨dx,dy⟩ pairs")
            digits = [int(ch) for ch in s]
    else:
        raise RuleError(f"move order {text!r} is not understood")
    if sorted(digits) != list(range(1, 9)):
        raise RuleError(f"move order {''.join(map(str, digits))[:40]} must use each of 1..8 once")
    return np.array([d - 1 for d in digits], dtype=np.int64)


def order_digits(order: np.ndarray) -> str:
    return "".join(str(int(t) + 1) for t in order)


def order_positions(order: np.ndarray) -> np.ndarray:
    """``int64[8]``: position of each move type (index) in the order (0 = first)."""
    pos = np.empty(8, dtype=np.int64)
    pos[np.asarray(order, dtype=np.int64)] = np.arange(8)
    return pos


def order_pairs(order: np.ndarray) -> str:
    """The order in matrix-convention ⟨dx,dy⟩ pairs: dx = −drow, dy = dcol."""
    return "".join(f"⟨{-MOVES[t][1]},{MOVES[t][0]}⟩" for t in order)


def candidates_at(board: Board, path, k: int, reserved=()) -> list[tuple[int, int]]:
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
