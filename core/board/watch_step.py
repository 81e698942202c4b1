"""One forward move of a watched search: :class:`WatchStep`, the one type for the concept.

Both searches the window can play move by move say what each move did with it: Phadke's
exhaustive enumeration (:class:`knightgui_core.tietree.enumeration.watch.SearchWatch`) and the
backtracking walk (:class:`knightgui_core.walks.backtrack_watch.BacktrackWatch`).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["WatchStep", "take_steps"]


@dataclass(frozen=True)
class WatchStep:
    """What one forward move of the search did.

    ``number``: the knight's move number now (1 = the start); ``square``: where it stands;
    ``rivals``: squares tied with ``square`` for this move and kept in the options matrix
    for later (ascending move type); ``backed_up_to``: the number the search went back to
    before this move (None when it went straight on); ``dead_end``: the search met a dead
    end in this step — before the move when it then backed up, or on the square the move
    reached when the path is full but cannot close (``backed_up_to`` None); ``solution``:
    this move completed a tour (its 1-based index);
    ``done``: the search is exhausted (no move was made)."""

    number: int
    square: int
    rivals: tuple[int, ...]
    backed_up_to: int | None
    dead_end: bool
    solution: int | None
    done: bool
    solutions: int
    dead_ends: int
    forward_moves: int


def take_steps(step: Callable[[], WatchStep], n: int, *,
               until_solution: bool = False) -> list[WatchStep]:
    """Up to ``n`` results of ``step()``: fewer when one says the search is ``done`` or,
    with ``until_solution``, when one completes a tour (a search that ends at its first)."""
    out: list[WatchStep] = []
    for _ in range(int(n)):
        s = step()
        out.append(s)
        if s.done or (until_solution and s.solution):
            break
    return out
