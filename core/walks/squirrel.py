"""Squirrel and Cull's Warnsdorff algorithm for open tours on n×n boards (n ≥ 5), and
Ganzfried's fix of it.

Sources: D. Squirrel and P. Cull, "A Warnsdorff-rule algorithm for knight's tours on square
chessboards" (Oregon State REU, 1996): its table ("Summary of tiebreaking rules") and its
step-by-step algorithm; S. Ganzfried, "A simple algorithm for knight's tours" (Oregon State
REU report, 2004), which restates the table, checks it on the small boards and gives the fix.
Both are in Squirrel's repository ``douglassquirrel/warnsdorff``; docs/tie-breaks.md compares
the sources.

The algorithm is Warnsdorff's rule with ties broken by a fixed move order that changes a few
times during the walk. Each phase has its move order and a switch square: the knight starts
in the corner ``(1, 1)`` with the first order, and when it stands on the current phase's
switch square the next phase's order applies, from that square on (the papers' step "change
T if necessary"). Orders and switch squares depend on n mod 8 (n mod 16 when n ≡ 5 mod 8).
A switch square off the board (small n) is never reached, so that phase lasts to the end.

Variants (:data:`VARIANTS`): ``squirrel`` is the 1996 table; ``squirrel-unsplit`` drops its
n mod 16 split (one switch square for every n ≡ 5 mod 8, to show what the split does);
``squirrel-ganzfried`` is Ganzfried's fix: the table fails on 74×74 only (he checked
5 ≤ n ≤ 610), and on that board alone the walk uses the single fixed order 21345678.

Coordinates of the papers: ``(a, b)``, 1-based, and move k (1..8) changes them by
``(−2,+1) (−1,+2) (+1,+2) (+2,+1) (+2,−1) (+1,−2) (−1,−2) (−2,−1)``. On our board ``a`` is
the file (column) and ``b`` the rank (row), so the papers' corner is a1 and move k is our
move type with ``(dcol, drow) = (Δa, Δb)`` (the papers put a on the rows; the two readings
are mirror images about the diagonal through the corner, so every walk is the mirror image
of theirs). With that reading the fixed order 12345678 from the corner fails first at
n = 41, 52, 59, 60, 66, 74 as Ganzfried reports (tests/core/test_tiebreak_rules.py). Any
other corner is reached by the board symmetry that maps a1 onto it (the orders and switch
squares are mapped with it).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..board.squares import MOVES, Board, SquareSpec
from ..system.errors import InputError
from .phased_kernel import phased_walk

#: the paper's move k (1..8) as (Δa, Δb)
PAPER_MOVES = ((-2, 1), (-1, 2), (1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1))
#: the table of the 1996 paper; the same without its n mod 16 split; with Ganzfried's fix
VARIANTS = ("squirrel", "squirrel-unsplit", "squirrel-ganzfried")
#: Ganzfried's fix: the board side on which the table fails, and the one fixed order (in the
#: papers' numbering) that walks it instead
GANZFRIED_N = 74
GANZFRIED_ORDER = "21345678"


def _h(n: int) -> int:
    return (n - 1) // 2


# (move order in the papers' numbering, switch square (a, b) as a function of n, or None for
# the last phase), per class of n (13: n ≡ 13 mod 16). Facts from the 1996 table, which
# Ganzfried's table and Squirrel's Python program repeat; layout our own.
_TABLE = {
    0: (("34261578", lambda n: (n - 1, n - 2)), ("87642135", lambda n: (2, 2)),
        ("51867342", lambda n: (n - 8, 1)), ("51342678", lambda n: (7, n - 3)),
        ("21435678", None)),
    1: (("34261578", lambda n: (n - 1, n - 2)), ("87642135", lambda n: (2, 2)),
        ("51324678", lambda n: (n - 6, _h(n) + 5)), ("32481765", None)),
    2: (("34261578", lambda n: (6, 1)), ("87642135", lambda n: (3, 1)),
        ("54132678", lambda n: (n - 15, 4)), ("52431678", lambda n: (10, n - 2)),
        ("85647123", lambda n: (5, n // 2 - 3)), ("15746823", None)),
    3: (("34625718", lambda n: (n - 1, n - 2)), ("42681357", lambda n: (n - 6, n)),
        ("86512347", lambda n: (2, 5)), ("51867342", lambda n: (n - 10, 3)),
        ("61825437", lambda n: (_h(n) + 1, n - 2)), ("71642538", None)),
    4: (("34261578", lambda n: (n - 1, n - 2)), ("87642135", lambda n: (2, 2)),
        ("51867342", lambda n: (n - 8, 1)), ("51342678", lambda n: (10, n - 5)),
        ("86753421", lambda n: (13, n // 2 + 1)), ("78563421", None)),
    5: (("34261578", lambda n: (n - 1, n - 2)), ("87642135", lambda n: (2, 2)),
        ("51324678", lambda n: (n - 2, _h(n) - 2)), ("15234678", None)),
    13: (("34261578", lambda n: (n - 1, n - 2)), ("87642135", lambda n: (2, 2)),
         ("51324678", lambda n: (n - 2, _h(n) - 6)), ("15234678", None)),
    6: (("34261578", lambda n: (6, 1)), ("87642135", lambda n: (3, 1)),
        ("54132678", lambda n: (n - 10, 1)), ("52431678", lambda n: (10, n - 2)),
        ("85647123", lambda n: (3, n // 2 + 4)), ("12453678", None)),
    7: (("34625718", lambda n: (n - 1, n - 2)), ("42681357", lambda n: (n - 6, n)),
        ("86512347", lambda n: (2, 5)), ("51867342", lambda n: (n - 6, 3)),
        ("61825437", lambda n: (_h(n) + 1, n - 2)), ("61357284", None)),
}


class SquirrelError(InputError):
    """A board or corner the algorithm does not cover."""


@dataclass(frozen=True)
class SquirrelPlan:
    """What :func:`knightgui_core.walks.phased_kernel.phased_walk` needs: ``prios`` ``int64[P, 8]``
    (our move-type indices per phase, highest priority first), ``switch`` ``int64[P]`` (flat
    squares, −1 for the last phase) and the flat ``start`` square."""

    n: int
    start: int
    prios: np.ndarray
    switch: np.ndarray
    orders: tuple[str, ...]


def _rows(n: int, variant: str):
    if variant == "squirrel-ganzfried" and n == GANZFRIED_N:
        return ((GANZFRIED_ORDER, None),)
    if n % 16 == 13 and variant != "squirrel-unsplit":
        return _TABLE[13]
    return _TABLE[n % 8]


def _symmetry(n: int, corner: int):
    """The board symmetry (a function on (col, row), 0-based, and on (dcol, drow)) that maps
    a1 onto the flat square ``corner``."""
    b = Board(n, n)
    c, r = b.coords(corner)
    fc = c == n - 1
    fr = r == n - 1

    def sq(col, row):
        return (n - 1 - col if fc else col), (n - 1 - row if fr else row)

    def mv(dc, dr):
        return (-dc if fc else dc), (-dr if fr else dr)
    return sq, mv


def plan(n: int, corner: SquareSpec = 0, variant: str = "squirrel") -> SquirrelPlan:
    """The phases of the walk on an n×n board from a corner (flat square or name)."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 5:
        raise SquirrelError(f"Squirrel and Cull's algorithm needs an n×n board with n ≥ 5, "
                            f"got {n!r}")
    if variant not in VARIANTS:
        raise SquirrelError(f"unknown variant '{variant}' (choose {', '.join(VARIANTS)})")
    n = int(n)
    board = Board(n, n)
    corner = board.square(corner)
    if corner not in board.corners:
        raise SquirrelError(f"Squirrel and Cull's algorithm starts in a corner, not on "
                            f"{board.name(corner) if 0 <= corner < board.size else corner}")
    sq, mv = _symmetry(n, corner)
    prios, switch, orders = [], [], []
    for digits, where in _rows(n, variant):
        prios.append([MOVES.index(mv(*PAPER_MOVES[int(ch) - 1])) for ch in digits])
        orders.append(digits)
        a, b_ = (0, 0) if where is None else where(n)
        if 1 <= a <= n and 1 <= b_ <= n:
            col, row = sq(a - 1, b_ - 1)
            switch.append(row * n + col)
        else:   # the last phase, or (small n) a switch square off the board: never reached
            switch.append(-1)
    c0, r0 = sq(0, 0)
    return SquirrelPlan(n, r0 * n + c0, np.array(prios, dtype=np.int64),
                        np.array(switch, dtype=np.int64), tuple(orders))


def squirrel_walk(n: int, corner: SquareSpec = 0,
                  variant: str = "squirrel") -> tuple[np.ndarray, np.ndarray]:
    """The walk on an n×n board from a corner: ``(path int32[m], ties uint8[m])``; ``m ==
    n*n`` when it is a tour."""
    p = plan(n, corner, variant)
    path = np.empty(n * n, dtype=np.int32)
    ties = np.empty(n * n, dtype=np.uint8)
    m = int(phased_walk(n, n, p.start, p.prios, p.switch, path, ties))
    return path[:m], ties[:m]
