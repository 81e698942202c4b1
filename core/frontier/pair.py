"""The frontier count's tables on boards of 8 to 12 rows: two words a key, on every core.

The cell by cell reading of :mod:`.word` (:func:`.word.word_cell`) on the kernels of
:mod:`.pair_kernel` (a slot ``[hi, lo, residues…]``, ``hi`` never 0 in a used slot):
:data:`PAIR` is the layout it takes for them.
"""
from __future__ import annotations

from .pair_kernel import PAIR_WINDOW, pair_absorb, pair_expand, pair_regrow
from .word import Layout

__all__ = ["PAIR", "PAIR_WINDOW"]

#: two-word keys: windows of 16 to 25 cells (8 to 12 rows)
PAIR = Layout(2, pair_expand, pair_absorb, pair_regrow)
