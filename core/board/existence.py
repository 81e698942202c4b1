"""Which boards have knight's tours, and from which starts (docs/spec.md §8); and, for other
boards and pieces, what is known (:func:`known_answer`). Answers at once, never searches
(:mod:`knightgui_core.tietree.alltours.existence_search` searches where no rule decides)."""
from __future__ import annotations

from math import gcd
from typing import TYPE_CHECKING

from .leaps import first_square_without_move
from .squares import square_name

if TYPE_CHECKING:
    from .squares import Board


def closed_tour_exists(rows: int, cols: int) -> bool:
    """Schwenk (1991): a closed tour on m×n (m <= n) exists unless m and n are both odd,
    m is 1, 2 or 4, or m == 3 and n is 4, 6 or 8."""
    m, n = sorted((int(rows), int(cols)))
    return not (m < 1 or (m % 2 == 1 and n % 2 == 1) or m in (1, 2, 4)
                or (m == 3 and n in (4, 6, 8)))


def open_tour_exists(rows: int, cols: int) -> bool:
    """An open tour on m×n (m <= n) exists for 1×1, 3×4, 3×n (n >= 7) and m >= 4, n >= 5."""
    m, n = sorted((int(rows), int(cols)))
    if m < 1:
        return False
    if m == 1:
        return n == 1
    if m == 3:
        return n == 4 or n >= 7
    return m >= 4 and n >= 5


def tour_exists(rows: int, cols: int, closed: bool) -> bool:
    """Whether the ``rows`` × ``cols`` board has a closed (or, ``closed`` False, an open) tour."""
    return closed_tour_exists(rows, cols) if closed else open_tour_exists(rows, cols)


def why_no_tour(rows: int, cols: int, closed: bool) -> str | None:
    """A sentence saying why no tour of that kind exists, or ``None`` when one does."""
    if tour_exists(rows, cols, closed):
        return None
    m, n = sorted((int(rows), int(cols)))
    board = f"{rows}×{cols}"
    if m < 1:
        return f"a {board} board has no squares"
    if closed:
        if m % 2 == 1 and n % 2 == 1:
            return (f"no closed tour exists on {board}: it has an odd number of squares, and a "
                    "closed tour alternates colours")
        if m in (1, 2, 4):
            return f"no closed tour exists on {board}: a side of {m} is too narrow (Schwenk 1991)"
        return f"no closed tour exists on 3×{n} boards with n = 4, 6 or 8 (Schwenk 1991)"
    return (f"no open tour exists on {board}: open tours need 1×1, 3×4, 3×n with n ≥ 7, "
            "or both sides ≥ 4 with one ≥ 5")


def why_no_tour_from(rows: int, cols: int, closed: bool, col: int, row: int) -> str | None:
    """A sentence saying why no tour of that kind starts on the square ``(col, row)``
    (0-based) of a board that has tours, or ``None`` when no rule forbids it (a search may
    still be needed: on short 3-row boards a few middle squares start none).

    Rules, each a proof rather than a search:

    * a closed tour passes every square, so it can start anywhere;
    * an odd board (rows · cols odd) has one more square of the corners' colour; a knight
      changes colour every move, so an open tour starts and ends on the corners' colour;
    * on a 4-row board the outer rows only reach the inner rows, and the two are equal in
      number; with the colouring this forces exactly one inner-to-inner step, so both ends
      of an open tour lie on the outer rows (same for 4 columns).
    """
    if closed or not tour_exists(rows, cols, closed):
        return None
    name = square_name(col, row)
    if (rows * cols) % 2 and (col + row) % 2:
        return (f"no open tour of {rows}×{cols} starts on {name}: the board has an odd "
                "number of squares, so an open tour starts and ends on the corners' colour")
    if min(rows, cols) == 4 and max(rows, cols) >= 5 and (row if rows == 4 else col) in (1, 2):
        return (f"no open tour of {rows}×{cols} starts on {name}: on a board 4 squares "
                "wide open tours start and end on the outer lines")
    return None


def known_answer(board: Board, closed: bool) -> tuple[bool | None, str]:
    """What is known, without a search, about tours of any board and piece
    (:class:`knightgui_core.board.squares.Board`: a topology and an (a, b)-leaper): ``(True,
    why)``, ``(False, why)`` or ``(None, why)`` when no rule here decides. The rules, each a
    proof:

    * the knight on the plane: Schwenk (closed) and the open-tour table above;
    * the knight on the torus: every rectangular torus has a closed knight's tour (Watkins and
      Hoenigman 1997), so an open one too;
    * a one-square board is its own tour;
    * a leaper with a + b even keeps the colour of its square (the sum of the coordinates
      changes by a ± b, an even number), so it never reaches the other colour — where the
      wrapped sides are even (a wrap across an odd side changes the colour);
    * a leaper with gcd(a, b) = g > 1 on the plane only reaches squares whose coordinates
      differ from its start's by multiples of g;
    * a square with no move (the leaps longer than the board allows) can be neither passed
      nor left.
    """
    rows, cols = board.rows, board.cols
    a, b = board.leaper
    kind = "closed" if closed else "open"
    what = board.describe()
    if board.size == 1:
        return True, "a one-square board is its own tour"
    if board.is_classic:
        why = why_no_tour(rows, cols, closed)
        return (why is None), (why or f"a {kind} tour exists on {rows}×{cols} "
                                      "(Schwenk 1991; Conrad et al. for open tours)")
    if board.topology == "torus" and (a, b) == (1, 2):
        return True, (f"every rectangular torus has a closed knight's tour (Watkins and "
                      f"Hoenigman 1997), so {what} has {'one' if closed else 'open ones too'}")
    wraps_keep_colour = ((board.topology == "plane")
                         or (board.topology == "cylinder" and cols % 2 == 0)
                         or (board.topology == "torus" and cols % 2 == 0 and rows % 2 == 0))
    if (a + b) % 2 == 0 and wraps_keep_colour:
        return False, (f"no tour on {what}: a ({a},{b})-leaper moves a + b = {a + b} squares in "
                       "all, an even number, so it never leaves the colour of its square")
    if gcd(a, b) > 1 and board.topology == "plane":
        g = gcd(a, b)
        return False, (f"no tour on {what}: every leap of a ({a},{b})-leaper is a multiple of "
                       f"{g}, so it never reaches a square whose coordinates differ from its "
                       f"start's by anything else")
    s = first_square_without_move(board)     # never the kernel's table: the window asks
    if s >= 0:                                # this on its GUI thread (no numba there)
        return False, (f"no tour on {what}: {board.name(s)} has no move (the leaps are too "
                       "long for the board)")
    return None, (f"no rule here decides whether {what} has {'an' if kind == 'open' else 'a'} "
                  f"{kind} tour: a bounded search "
                  "answers")
