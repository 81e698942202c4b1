"""The frontier count's tables on boards of 8 to 12 rows: two words a key, on every core.

The same cell by cell reading as :mod:`.word` (its ``word_cell`` runs the rounds,
the shares of the hash and the table growth for both layouts), with the kernels of
:mod:`.pair_kernel`: a slot is ``[hi, lo, residues…]``, ``hi`` never 0 in a used
slot. :data:`PAIR` is the layout :func:`.word.word_cell` takes for it.
"""
from __future__ import annotations

from .pair_kernel import PAIR_WINDOW, pair_absorb, pair_expand, pair_regrow
from .word import Layout

__all__ = ["PAIR", "PAIR_WINDOW"]

#: two-word keys: windows of 16 to 25 cells (8 to 12 rows)
PAIR = Layout(2, pair_expand, pair_absorb, pair_regrow)
