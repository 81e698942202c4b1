"""knightgui's engine: numpy + numba, no Qt. Safe to import headless."""
from .board import Board, BoardError, MOVES
from .existence import closed_tour_exists, open_tour_exists, tour_exists, why_no_tour
from .tour import Tour, TourError

__all__ = ["Board", "BoardError", "MOVES", "Tour", "TourError", "closed_tour_exists",
           "open_tour_exists", "tour_exists", "why_no_tour"]
