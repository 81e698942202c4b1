"""The tie rule, one type for the concept: :class:`TieRule`.

An ``IntEnum`` so that the same names serve the wrappers and the numba kernels (numba
compiles ``base == TieRule.CENTER_FAR`` to a comparison with a constant), and so that its
value is the kernel code carried in the low 8 bits of a walk's ``tie`` argument. This
module imports only the error classes: kernels may import it.

>>> TieRule.parse("Roth") is TieRule.CENTER_FAR
True
>>> TieRule.CENTER_FAR.label, int(TieRule.CENTER_FAR)
('center-far', 4)
"""
from __future__ import annotations

from enum import IntEnum

from ..system.errors import InputError

__all__ = ["TieRule", "UnknownTieRule"]


class UnknownTieRule(InputError):
    """A name that is no tie rule (the public wrappers turn it into a ``RuleError``)."""


class TieRule(IntEnum):
    """Which of the squares tied on fewest onward exits the walk takes (docs/spec.md §3).

    The first nine are codes of the greedy kernel (:mod:`knightgui_core.walks.walk_kernel`);
    the Squirrel rules run their own switching move orders
    (:mod:`knightgui_core.walks.squirrel`)."""

    PHADKE = 0               # highest move type
    FIRST = 1                # first tied candidate in the move order
    LAST = 2                 # last tied candidate in the move order
    RANDOM = 3               # uniform among the tied (seeded)
    CENTER_FAR = 4           # Roth: farthest from the centre, then the order
    LOOKAHEAD = 5            # one-level look-ahead, then the order
    POHL = 6                 # Pohl's sum of onward exits, then the order
    POHL_RANDOM = 7          # Pohl's sum, then random
    CENTER_FAR_RANDOM = 8    # Roth's rule, then random
    SQUIRREL = 9             # Squirrel and Cull's switching orders
    SQUIRREL_UNSPLIT = 10    # their table without the n mod 16 split
    SQUIRREL_GANZFRIED = 11  # with Ganzfried's fix on 74×74

    @property
    def label(self) -> str:
        """The rule's name on the command line and in files: ``center-far``."""
        return self.name.lower().replace("_", "-")

    @property
    def randomised(self) -> bool:
        """Whether remaining ties are broken by the seeded generator."""
        return self in (TieRule.RANDOM, TieRule.POHL_RANDOM, TieRule.CENTER_FAR_RANDOM)

    @property
    def switching(self) -> bool:
        """Whether the rule follows its own switching move orders (Squirrel and Cull)."""
        return self >= TieRule.SQUIRREL

    @classmethod
    def parse(cls, name: TieRule | str) -> TieRule:
        """The rule named ``name`` (case-insensitive; ``_`` for ``-``; the aliases ``roth``,
        ``centre-far``, ``ganzfried``, ``look-ahead``…). Raises :class:`UnknownTieRule`."""
        if isinstance(name, TieRule):
            return name
        if not isinstance(name, str):
            raise UnknownTieRule(f"tie rule must be a name, got {type(name).__name__}")
        key = name.strip().lower().replace("_", "-")
        key = _ALIASES.get(key, key)
        for rule in cls:
            if rule.label == key:
                return rule
        raise UnknownTieRule(name)


_ALIASES = {"roth": "center-far", "centre-far": "center-far", "squirrel-cull": "squirrel",
            "ganzfried": "squirrel-ganzfried", "squirrel+ganzfried": "squirrel-ganzfried",
            "roth-random": "center-far-random", "centre-far-random": "center-far-random",
            "look-ahead": "lookahead"}
