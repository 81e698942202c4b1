"""knightgui's engine: numpy + numba, no Qt. Safe to import headless.

The front door is here: a :class:`Board` (its size, edges and piece) and one function per
question, each returning a typed result with ``to_dict()`` (:mod:`knightgui_core.api`).

>>> import knightgui_core as kg
>>> kg.solve(kg.Board(6, 6), start="a1").found
True

The engine's modules below (``board``, ``walks``, ``tietree``, ``studies``…) stay importable
for what the front door does not cover.
"""
from .api import (
    WarnsdorffTours,
    check_path,
    check_tour,
    corner_tails,
    count_tours,
    count_warnsdorff_tours,
    solve,
    study_move_orders,
    study_phadke,
    study_semimagic,
    study_symmetric,
    study_tie_breaks,
    study_uncrossed,
    warnsdorff_tours,
)
from .api_results import (
    CornerTails,
    EnumerationCount,
    MoveOrderStudy,
    OrderWalk,
    PathCount,
    PathVerdict,
    PhadkeStudy,
    SemimagicStudy,
    StartPathCount,
    SymmetricCount,
    TieBreakStudy,
    TourCheck,
    TourCount,
    TourCountTable,
    TourResult,
    UncrossedStudy,
    WarnsdorffCount,
)
from .board.existence import closed_tour_exists, open_tour_exists, tour_exists, why_no_tour
from .board.squares import MOVES, Board, BoardError
from .board.tour import Tour, TourError
from .system.errors import Cancelled, InputError, KnightguiError, ResourceError

__all__ = [
    # the board, the tour and the moves
    "Board", "MOVES", "Tour",
    # one tour; every Warnsdorff tour from a square; the counts
    "solve", "warnsdorff_tours", "WarnsdorffTours", "count_warnsdorff_tours", "count_tours",
    # a tour file checked; a path played by hand; the corner dashes of an enumeration
    "check_tour", "check_path", "corner_tails",
    # the studies
    "study_phadke", "study_move_orders", "study_tie_breaks", "study_symmetric",
    "study_uncrossed", "study_semimagic",
    # their results
    "TourResult", "EnumerationCount", "WarnsdorffCount", "TourCount", "PhadkeStudy",
    "MoveOrderStudy", "TieBreakStudy", "SymmetricCount", "UncrossedStudy", "SemimagicStudy",
    "TourCheck", "PathVerdict", "CornerTails", "PathCount", "OrderWalk", "StartPathCount",
    "TourCountTable",
    # whether a tour exists, without a search
    "tour_exists", "open_tour_exists", "closed_tour_exists", "why_no_tour",
    # the errors
    "KnightguiError", "InputError", "ResourceError", "Cancelled", "BoardError", "TourError",
]
