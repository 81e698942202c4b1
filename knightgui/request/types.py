"""The window's request types, free of Qt: what a run is (:class:`Mode`), one computation
(:class:`Request`), the controls' fields (:class:`Settings`) and which controls are usable
(:class:`Enabled`); :class:`knightgui.request.model.RequestModel` edits them."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any

from knightgui.request.checks import (
    bool_check,
    choice_check,
    dashes_check,
    int_check,
    leaper_check,
    optional_text_check,
    order_check,
    tail_check,
    text_check,
)
from knightgui_core.board.rules import DEFAULT_ORDER, METHODS, MoveOrder, parse_order
from knightgui_core.board.squares import TOPOLOGIES, Board
from knightgui_core.board.tie_rule import TieRule

__all__ = ["Mode", "MODES", "ALL_TOURS_MAX", "MAX_SIDE", "RESULT_FIELDS", "KNIGHTS_PLANE_ONLY",
           "Request", "Settings", "CHECKS", "PREFERRED_END", "Enabled"]


class Mode(str, Enum):
    """What a run computes: one tour, or every tour the rule allows (the options matrix);
    or a tour made by hand (play: clicks play squares, Solve finishes it by the rule)."""

    SINGLE = "single"
    EXHAUSTIVE = "exhaustive"
    PLAY = "play"


MODES: tuple[str, ...] = tuple(m.value for m in Mode)
#: every-tour mode's symmetries (knightgui_core.tietree.alltours.symmetric_tours.SYMMETRIES), or none
SYMMETRY_CHOICES: tuple[str, ...] = ("none", "half-turn", "quarter-turn", "mirror-rows",
                                     "mirror-cols", "diagonal")
#: the largest board whose every path the window lists (the all-tours search's limit)
ALL_TOURS_MAX = 128
MAX_SIDE = 2000
#: fields whose change makes the shown results (timing, counter, options matrix) stale
RESULT_FIELDS = frozenset({"rows", "cols", "mode", "start", "end", "closed", "topology",
                           "leaper", "symmetry"})
#: why the corner dashes and tails are not offered on another board or piece
KNIGHTS_PLANE_ONLY = "the dashes are the knight's on the plane"


@dataclass(frozen=True)
class Request:
    """Everything the solver needs for one run, parsed by :meth:`RequestModel.request`:
    nothing below it reads text again."""

    rows: int
    cols: int
    mode: Mode = Mode.SINGLE
    start: int | None = None        # flat index (Board.square); None: the first corner
    end: int | None = None          # flat index of a closed run's end square
    closed: bool = False
    tie: TieRule = TieRule.PHADKE
    order: MoveOrder = parse_order(DEFAULT_ORDER)
    seed: int = 0
    method: str = "auto"            # knightgui_core.walks.solve methods: auto, greedy, backtrack, construct
    dashes: tuple = ()              # ((corner name, state), ...) with state in A/B/full
    tail: tuple[int, ...] | None = None   # ECD/XCD tail squares (flat indices), or None
    keep: int = 1_000_000           # solutions kept in memory for stepping
    limit: int = 0                  # stop after this many solutions (0 = all)
    all_tours: bool = False         # exhaustive: every knight's path, not only Warnsdorff's
    topology: str = "plane"         # plane | cylinder | torus
    leaper: tuple[int, int] = (1, 2)   # the piece: an (a, b)-leaper, the knight (1, 2)
    symmetry: str = ""              # every tour: only those this board symmetry keeps ("" all)

    def board(self) -> Board:
        """The board of the run: its size, its edges and its piece."""
        return Board(self.rows, self.cols, self.topology, self.leaper)

    def dash_dict(self) -> dict[str, str]:
        """The dashes as ``{corner name: state}``, without the ``off`` ones."""
        return {k: v for k, v in self.dashes if v != "off"}


def _spec(default: Any, check: Callable[[object], Any]) -> Any:
    """A :class:`Settings` field: its default and its validator (``metadata["check"]``)."""
    if isinstance(default, (list, dict, set)):
        raise TypeError("defaults must be immutable")
    return field(default=default, metadata={"check": check})


@dataclass(frozen=True)
class Settings:
    """The values the controls edit (one snapshot of a :class:`RequestModel`): each field
    declared once, with its type, default and validator."""

    rows: int = _spec(8, int_check("rows", 1, MAX_SIDE))
    cols: int = _spec(8, int_check("cols", 1, MAX_SIDE))
    square: bool = _spec(True, bool_check("square"))          # columns follow rows
    closed: bool = _spec(False, bool_check("closed"))
    mode: str = _spec("single", choice_check("mode", MODES))
    start: str = _spec("a8", text_check("start"))
    end: str | None = _spec(None, optional_text_check("end"))
    tie: str = _spec("phadke", text_check("tie"))             # the tie rules grow: request() checks
    order: str = _spec("12345678", order_check)
    seed: int = _spec(0, int_check("seed", 0, 2**31 - 1))
    method: str = _spec("auto", choice_check("method", METHODS))
    dashes: tuple = _spec((), dashes_check)                   # ((corner name, state), ...)
    tail: tuple | None = _spec(None, tail_check)              # ECD/XCD tail square names
    keep: int = _spec(1_000_000, int_check("keep", 100, 5_000_000))
    limit: int = _spec(0, int_check("limit", 0, 2_000_000_000))
    all_tours: bool = _spec(False, bool_check("all_tours"))   # exhaustive: every path, any rule
    topology: str = _spec("plane", choice_check("topology", TOPOLOGIES))
    leaper: str = _spec("1,2", leaper_check)                  # "a,b": the knight is 1,2
    symmetry: str = _spec("none", choice_check("symmetry", SYMMETRY_CHOICES))  # every tour


#: each field's validator, read from :class:`Settings`
CHECKS: dict[str, Callable[[object], object]] = {f.name: f.metadata["check"]
                                                  for f in fields(Settings)}
#: the end square offered first when a tour becomes closed (Phadke's worked example a8→c7)
PREFERRED_END = "c7"


@dataclass(frozen=True)
class Enabled:
    """Which controls can be used with the model as it stands."""

    rules: bool             # tie rule, move order, seed, method: single tours only
    exhaustive: bool        # keep, stop after
    end: bool               # closed exhaustive runs only
    tail: bool              # an ECD/XCD tail exists for this start and end
    all_tours: bool         # exhaustive runs only
    play: bool = False      # a tour by hand (knightgui.play.controller)
