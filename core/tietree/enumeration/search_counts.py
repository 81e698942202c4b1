"""What a search has counted so far: :class:`SearchCounts`, the one type for the concept.

The counters of :attr:`knightgui_core.tietree.enumeration.engine.Engine.counters` and the
totals of :meth:`knightgui_core.tietree.enumeration.enumerator.Enumerator.count`; it reads as
a mapping too (``counts["solutions"]``, ``dict(counts)``, JSON), as files and callers expect.

>>> c = SearchCounts(solutions=3, dead_ends=5, forward_moves=40, exhausted=True)
>>> c.solutions, c["dead_ends"], sorted(c)
(3, 5, ['dead_ends', 'exhausted', 'forward_moves', 'solutions'])
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields
from typing import Any

__all__ = ["SearchCounts"]


@dataclass(frozen=True, eq=False)
class SearchCounts(Mapping[str, Any]):
    """``solutions`` found, ``dead_ends`` met, ``forward_moves`` made, whether the search
    is ``exhausted``, and the ``seconds`` it took (None where nobody timed it)."""

    solutions: int
    dead_ends: int
    forward_moves: int
    exhausted: bool
    seconds: float | None = None

    def _names(self) -> list[str]:
        return [f.name for f in fields(self) if not (f.name == "seconds" and self.seconds is None)]

    def __getitem__(self, key: str) -> Any:
        if key not in self._names():
            raise KeyError(key)
        return getattr(self, key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())

    def __repr__(self) -> str:
        return f"SearchCounts({', '.join(f'{k}={self[k]!r}' for k in self)})"
