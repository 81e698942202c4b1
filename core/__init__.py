"""knightgui's engine: numpy + numba, no Qt. Safe to import headless."""
from .board.squares import Board, BoardError, MOVES
from .board.existence import closed_tour_exists, open_tour_exists, tour_exists, why_no_tour
from .board.tour import Tour, TourError

__all__ = ["Board", "BoardError", "MOVES", "Tour", "TourError", "closed_tour_exists",
           "open_tour_exists", "tour_exists", "why_no_tour"]
