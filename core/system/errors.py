"""The project's errors: one base class, and the three kinds every caller needs to tell apart.

Every error that knightgui raises on purpose derives from :class:`KnightguiError`, so a
caller that wants "anything knightgui refused" catches one class. Below it:

* :class:`InputError` (also a ``ValueError``) — the input cannot be taken: an impossible
  board, a square off the board, an unknown rule, a malformed file. The command line prints
  its message as one line and exits 2; the window shows it; nothing was changed.
* :class:`Cancelled` — the caller asked a run to stop (Cancel, a newer request, Ctrl-C). It
  is not an ``InputError``: a cancelled run is never reported as bad input.
* :class:`ResourceError` — the machine could not serve the request (a store file that is
  not a store, a scheduler that does not answer, kernels that are missing).

Each module keeps its own small error class (``BoardError``, ``TourError``, ``StoreError``…)
as a subclass of one of these, so a message can say where it comes from.

>>> from knightgui_core.board.squares import Board, BoardError
>>> issubclass(BoardError, InputError) and issubclass(BoardError, ValueError)
True
"""
from __future__ import annotations

__all__ = ["KnightguiError", "InputError", "Cancelled", "ResourceError", "require"]


class KnightguiError(Exception):
    """Base of every error knightgui raises on purpose."""


class InputError(KnightguiError, ValueError):
    """Input the engine cannot take; the message is one sentence meant for a person."""


class Cancelled(KnightguiError):
    """A run stopped because its caller asked it to (not an error in the input)."""


class ResourceError(KnightguiError):
    """The machine or an outside resource (file, scheduler, compiled kernels) could not serve."""


def require(cond: object, what: object = "") -> None:
    """Raises :class:`RuntimeError` when ``cond`` is false: a self-check that, unlike
    ``assert``, still runs (with the call inside it) under ``python -O``."""
    if not cond:
        raise RuntimeError(f"self-check failed: {what}" if what != "" else "self-check failed")
