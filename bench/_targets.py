"""A benchmark's targets: each figure checked against its own as it is printed, the misses
named on the last line and in the exit status (1 when one is missed), which is how
``make bench`` tells which benchmarks missed."""
from __future__ import annotations

#: the figures that missed their targets so far, by name
MISSED: list[str] = []


def check(name: str, met: bool) -> str:
    """``"met"``, or ``"MISSED"`` with ``name`` kept in :data:`MISSED`: the end of a line."""
    if not met:
        MISSED.append(name)
    return "met" if met else "MISSED"


def verdict() -> int:
    """Print the misses (or that there were none); the exit status."""
    print("every target met" if not MISSED else f"missed: {'; '.join(MISSED)}")
    return 1 if MISSED else 0
