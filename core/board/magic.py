"""Magic and semi-magic tours: the line sums of a tour numbered along its path.

Number the squares 1..N in the order the path visits them. The tour is **semi-magic** when
every row adds up to the same total and every column adds up to the same total (on an m×n
board the two totals are n(mn+1)/2 and m(mn+1)/2); it is **magic** when, on a square board,
both long diagonals add up to that total too. Jelliss calls the first "magic" and the second
"diagonally magic"; the names here follow MathWorld's (semi-magic, magic).

>>> import numpy as np
>>> s = line_sums(np.array([[1, 2], [3, 4]]))
>>> s.rows, s.cols, s.kind
((3, 7), (4, 6), 'none')
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["LineSums", "line_sums", "magic_constants", "KINDS"]

#: what :attr:`LineSums.kind` may say, from most to least structure
KINDS = ("magic", "semi-magic", "none")


@dataclass(frozen=True)
class LineSums:
    """The sums of a numbered board's rows (bottom rank first), columns (file a first) and,
    on a square board, its two long diagonals (a1–h8 first, then a8–h1; empty otherwise)."""

    rows: tuple[int, ...]
    cols: tuple[int, ...]
    diagonals: tuple[int, ...]

    @property
    def kind(self) -> str:
        """``"magic"``, ``"semi-magic"`` or ``"none"`` (see the module's text)."""
        if len(set(self.rows)) != 1 or len(set(self.cols)) != 1:
            return "none"
        if self.diagonals and len(set(self.diagonals)) == 1 and self.diagonals[0] == self.rows[0]:
            return "magic"
        return "semi-magic"

    def to_dict(self) -> dict:
        """``{"magic": kind, "row_sums": [...], "col_sums": [...], "diagonal_sums": [...]}``,
        every sum a Python int."""
        return {"magic": self.kind, "row_sums": list(self.rows), "col_sums": list(self.cols),
                "diagonal_sums": list(self.diagonals)}


def magic_constants(rows: int, cols: int) -> tuple[int, int]:
    """The row total and the column total of a semi-magic numbering 1..rows·cols:
    ``(cols·(N+1)/2, rows·(N+1)/2)``; 8×8 → (260, 260). Either may be a half (no such
    numbering then): returned as ``-1``."""
    n = rows * cols
    row_twice, col_twice = cols * (n + 1), rows * (n + 1)
    return (row_twice // 2 if row_twice % 2 == 0 else -1,
            col_twice // 2 if col_twice % 2 == 0 else -1)


def line_sums(numbers: np.ndarray) -> LineSums:
    """The :class:`LineSums` of ``numbers`` (an int array [rows, cols] of move numbers, as
    :meth:`knightgui_core.board.tour.Tour.numbers` gives). Raises ``ValueError`` for an array
    that is not two-dimensional and whole."""
    a = np.asarray(numbers)
    if a.ndim != 2 or a.dtype.kind not in "iu" or a.size == 0:
        raise ValueError("line sums need a non-empty 2-D array of whole numbers")
    a = a.astype(np.int64)
    rows = tuple(int(v) for v in a.sum(axis=1))
    cols = tuple(int(v) for v in a.sum(axis=0))
    diagonals: tuple[int, ...] = ()
    if a.shape[0] == a.shape[1]:
        diagonals = (int(np.trace(a)), int(np.trace(a[::-1])))
    return LineSums(rows, cols, diagonals)
