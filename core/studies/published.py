"""Published figures on Warnsdorff tie-breaks, as data: the success plot overlays them, the
tests reproduce them and docs/tie-breaks.md sets ours beside them.

Each entry names the rule and the conditions of the study that reproduces it (the move order
is given in our numbering: Ganzfried's order 12345678 from his corner is our 56781234 from
a1, see :mod:`knightgui_core.walks.squirrel`), and its source.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Published:
    """``rates``: (n, share of walks completed) points; ``failing_n``: the sides on which the
    walk is reported to fail (all of them up to ``up_to``, or only the first)."""

    key: str
    rule: str
    label: str
    source: str
    order: str = "12345678"
    start: str = "corner"
    rates: tuple[tuple[int, float], ...] = ()
    failing_n: tuple[int, ...] = ()
    up_to: int | None = None
    first_only: bool = False


FIGURES: tuple[Published, ...] = (
    Published("squirrel-random", "random",
              "random ties: ~85 % at 50, 39 % at 100, 2 % at 200",
              "Squirrel & Cull 1996; Ganzfried 2004",
              rates=((50, 0.85), (100, 0.39), (200, 0.02))),
    Published("ganzfried-fixed", "first",
              "fixed order 12345678 from the corner fails at 41, 52, 59, 60, 66, 74",
              "Ganzfried 2004", order="56781234", failing_n=(41, 52, 59, 60, 66, 74),
              up_to=76),
    Published("ganzfried-squirrel-74", "squirrel",
              "Squirrel & Cull's table: a tour for every n = 5 … 610 but 74",
              "Ganzfried 2004", failing_n=(74,), up_to=610),
    Published("roth-428", "center-far", "farthest from the centre: first failure at 428",
              "Roth, as reported by Ganzfried 2004", failing_n=(428,), first_only=True),
    Published("blog-77", "first", "the blog program's order works to 76, fails at 77",
              "blog post in the project's sources", order="67812345", start="top-left",
              failing_n=(77,), first_only=True),
)


def for_rule(rule: str, order: str | None = None) -> list[Published]:
    """The figures about ``rule`` (and, for the fixed-order figures, that move order)."""
    return [f for f in FIGURES if f.rule == rule and not (
        f.failing_n and f.rule in ("first", "last") and order not in (None, f.order))]
