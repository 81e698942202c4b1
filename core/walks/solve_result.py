"""What :func:`knightgui_core.walks.solve.solve` answers: :class:`SolveResult`, the error
it raises for bad input, :class:`SolveError`, and :class:`NoTourError`, the one it raises
when a theorem says no tour of the kind asked exists (the CLI's exit 1, not 2)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..board.squares import Board
from ..board.tour import Tour
from ..system.errors import InputError

__all__ = ["NoTourError", "SolveError", "SolveResult"]


class SolveError(InputError):
    """Bad input for the solver, with a message meant for the user."""


class NoTourError(SolveError):
    """No tour of the kind asked exists on the board, or none starts on the square asked: a
    proof (:mod:`knightgui_core.board.existence`) without a search (the CLI's exit 1)."""


@dataclass
class SolveResult:
    """One solve: ``ok`` when ``path`` is a tour (``tour`` the validated tour), ``method``
    what found it, ``message`` one sentence, ``nodes`` the search's work, ``stuck_at`` where
    a failed walk stopped, ``ties`` 1 where a move was chosen among tied candidates,
    ``info`` the rest (the rule's own walk, what is known about the board)."""

    ok: bool
    tour: Tour | None
    path: np.ndarray
    method: str
    seconds: float
    nodes: int = 0
    stuck_at: int = -1
    message: str = ""
    ties: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.uint8))
    info: dict = field(default_factory=dict)

    @property
    def moves(self) -> int:
        """Squares visited (the whole board on success)."""
        return int(len(self.path))


def walk_result(board: Board, path: np.ndarray, ties: np.ndarray, m: int, desc: str,
                rule: str) -> SolveResult:
    """The result of a greedy walk that visited ``path[:m]`` (``ties`` alike); ``desc`` the
    rule as the method names it, ``rule`` its label."""
    ok = m == board.size
    res = SolveResult(ok, None, path if ok else path[:m].copy(), f"warnsdorff greedy ({desc})",
                      0.0, nodes=m, ties=ties if ok else ties[:m].copy())
    if ok:
        res.message = f"tour found by {res.method}"
    else:
        res.stuck_at = int(path[m - 1])
        res.info["failure"] = (f"Warnsdorff's rule ({rule}) got stuck on "
                               f"{board.long_name(res.stuck_at)} after {m - 1:,} moves")
        res.message = f"{res.info['failure']} ({m:,} of {board.size:,} squares visited)"
    return res


def rule_walk(walk: SolveResult, rule: str) -> dict:
    """``info["rule_walk"]`` of a result another method gave after the rule's ``walk``."""
    return {"tie": rule, "completed": bool(walk.ok), "moves": max(int(len(walk.path)) - 1, 0),
            "stuck_at": -1 if walk.ok else int(walk.stuck_at)}


def rule_failure(board: Board, walk: SolveResult, start: int, rule: str,
                 move: str = "move") -> str:
    """Why the rule's own ``walk`` from ``start`` is not the tour asked for: where it stopped
    (its ``info["failure"]``), or the open tour it made whose last square is not a ``move``
    from the start."""
    if not walk.ok:
        return str(walk.info["failure"])
    return (f"Warnsdorff's rule ({rule}) completed an open tour that does not close "
            f"({board.name(int(walk.path[-1]))} is not a {move} from {board.name(start)})")
