"""How a caller steers a long run: one cancel protocol and one progress shape.

* **Cancel.** Every long function of the engine takes ``cancel``: ``None`` (never), a
  callable that returns true when the run should stop (a window's abort flag, a newer
  request), or a ``threading.Event`` (set means stop). :func:`cancel_requested` is the one
  place that reads it; it is asked between bounded chunks of work, never inside a kernel.
  A function that cannot hand back a partial result raises
  :class:`~knightgui_core.system.errors.Cancelled` (:func:`raise_if_cancelled`).
* **Progress.** A progress callback is called with the work done so far and the total, in
  the study's own unit (tasks, algorithms, sizes): ``progress(done, total)``. Studies that
  have more to say pass it as keyword details the caller may ignore.

>>> import threading
>>> ev = threading.Event(); cancel_requested(ev), cancel_requested(None)
(False, False)
>>> ev.set(); cancel_requested(ev), cancel_requested(lambda: True)
(True, True)
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Protocol

from .errors import Cancelled

__all__ = ["CancelLike", "ProgressFn", "cancel_requested", "raise_if_cancelled"]


class _ShouldStop(Protocol):
    def __call__(self) -> bool: ...


#: what every ``cancel=`` argument of the engine accepts
CancelLike = _ShouldStop | Callable[[], object] | threading.Event | None
#: what every ``progress=`` argument of a study accepts: ``progress(done, total)``
ProgressFn = Callable[[int, int], object]


def cancel_requested(cancel: CancelLike) -> bool:
    """Whether ``cancel`` asks the run to stop now."""
    if cancel is None:
        return False
    if isinstance(cancel, threading.Event):
        return cancel.is_set()
    is_set = getattr(cancel, "is_set", None)
    if callable(is_set):          # an Event-like object from another library
        return bool(is_set())
    return bool(cancel())


def raise_if_cancelled(cancel: CancelLike, what: str = "the run") -> None:
    """Raise :class:`Cancelled` when ``cancel`` asks the run to stop."""
    if cancel_requested(cancel):
        raise Cancelled(f"{what} was cancelled")
