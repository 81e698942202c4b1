"""The options matrix of an enumeration's solution, rebuilt from the solution's path.

The window keeps only the squares of its solutions and asks an :class:`OptionsReplay` (from
:meth:`knightgui_core.tietree.enumeration.enumerator.Enumerator.options_replay`) for the
matrix of the one it shows: a walk along the path with the search's own scores
(:mod:`knightgui_core.tietree.enumeration.options_kernel`), microseconds on 8×8. It reads only
fixed tables and a start state of its own, so any thread may use it while the search goes on.
"""
from __future__ import annotations

import numpy as np

from ...board.dash import EnumerationError
from . import options_kernel as _opt

__all__ = ["OptionsReplay"]


class OptionsReplay:
    """Rebuilds options matrices of one enumeration: ``size`` squares, ``L`` numbers placed
    from square ``start``, ``tail`` the reserved squares every path ends with, and the
    search's tables: the general kernel's ``(nl, ntype, ncount, dl, dcount, key0)`` or the
    bitboard's ``(tslot, ntype, att, masks, bits0)`` (``key0`` / ``bits0``: only the start
    numbered)."""

    def __init__(self, size: int, L: int, start: int, tail, general: tuple | None = None,
                 bitboard: tuple | None = None):
        if general is not None and bitboard is None:
            tabs, self._bits = general, False
        elif bitboard is not None and general is None:
            tabs, self._bits = bitboard, True
        else:
            raise ValueError("an options replay needs the tables of one kernel")
        self.size, self.L, self.start = int(size), int(L), int(start)
        self.tail = np.array(tail, dtype=np.int64).reshape(-1)
        if len(self.tail) != self.size - self.L:
            raise ValueError("the tail holds the squares the search does not number")
        self._tables = tuple(tabs)      # the search's fixed tables: read, never written

    def matrix(self, path: np.ndarray) -> np.ndarray:
        """``int8[L + 1, 8]``: the options matrix (the ``mo``) of the solution ``path``
        (int[size], as :attr:`knightgui_core.tietree.enumeration.enumerator.Solution.path`).
        Raises :class:`EnumerationError` when ``path`` is not a solution of this enumeration."""
        p = np.asarray(path)
        if (p.ndim != 1 or p.shape[0] != self.size or not np.issubdtype(p.dtype, np.integer)
                or (self.size and (int(p.min()) < 0 or int(p.max()) >= self.size))):
            raise EnumerationError(f"a solution path is {self.size} squares of this board")
        if int(p[0]) != self.start or not np.array_equal(p[self.L:], self.tail):
            raise EnumerationError("not a solution of this enumeration: it does not start "
                                   "or end where the enumeration's paths do")
        tour = np.ascontiguousarray(p, dtype=np.int32)
        out = np.zeros((self.L + 1, 8), dtype=np.int8)
        if self._bits:
            bad = _opt.options_rows_bits(*self._tables, tour, self.L, out)
        else:
            bad = _opt.options_rows(*self._tables, tour, self.L, out)
        if bad:
            raise EnumerationError(f"not a solution of this enumeration: move {int(bad) + 1} "
                                   "is not one Warnsdorff's rule allows there")
        return out
