"""knightgui's engine: numpy + numba, no Qt. Safe to import headless."""
from .board.existence import closed_tour_exists, open_tour_exists, tour_exists, why_no_tour
from .board.squares import MOVES, Board, BoardError
from .board.tour import Tour, TourError

__all__ = ["Board", "BoardError", "MOVES", "Tour", "TourError", "closed_tour_exists",
           "open_tour_exists", "tour_exists", "why_no_tour"]
