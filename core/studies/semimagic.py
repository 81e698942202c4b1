"""Semi-magic knight's tours found from scratch: a depth-first search over the tours of a
board, numbered along the path, cut as soon as a row or a column can no longer add up to its
total (:mod:`knightgui_core.studies.semimagic_kernel`).

:func:`find_semimagic` searches the tours that begin with a given prefix (one square: every
tour from it) within a node budget and says what it found: a tour, none (the prefix has no
semi-magic completion: proved), or the budget spent. On 8×8 the 140 semi-magic tours hide
among some 10^13 open tours; docs/structure.md has the measured rate and what a census would
cost.

>>> r = find_semimagic(4, 4, prefix=[0], node_limit=10_000)
>>> r.status                 # 4×4 has no knight's tour at all
'none'
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..board.magic import line_sums, magic_constants
from ..system.errors import InputError

__all__ = ["SemiMagicError", "SemiMagicResult", "find_semimagic", "knight_table"]


class SemiMagicError(InputError):
    """A board without whole line totals, or a prefix or budget that is not one."""


@dataclass(frozen=True)
class SemiMagicResult:
    """``status``: ``"found"`` (``path``: the tour, flat squares), ``"none"`` (proved: no
    semi-magic tour begins with the prefix) or ``"budget"`` (``node_limit`` spent first);
    ``nodes`` and ``seconds`` of the search."""

    status: str
    path: list[int]
    nodes: int
    seconds: float

    def to_json_dict(self) -> dict:
        """JSON-ready values (exact ints)."""
        return {"status": self.status, "path": list(self.path), "nodes": self.nodes,
                "seconds": round(self.seconds, 3)}


def knight_table(rows: int, cols: int) -> np.ndarray:
    """``int64[N, 8]``: each square's knight neighbours (flat ``row * cols + col``), -1 pads."""
    nbr = np.full((rows * cols, 8), -1, np.int64)
    for s in range(rows * cols):
        r, c = divmod(s, cols)
        k = 0
        for dr, dc in ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)):
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                nbr[s, k] = (r + dr) * cols + c + dc
                k += 1
    return nbr


def find_semimagic(rows: int, cols: int, prefix: Sequence[int] = (0,),
                   node_limit: int = 0) -> SemiMagicResult:
    """Search the tours of ``rows``×``cols`` that begin with ``prefix`` (flat squares) for a
    semi-magic one (:class:`SemiMagicResult`); ``node_limit`` > 0 bounds the search."""
    from .semimagic_kernel import semimagic_search
    for name, v in (("rows", rows), ("cols", cols)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 1 <= v <= 16:
            raise SemiMagicError(f"{name} must be a whole number from 1 to 16, got {v!r}")
    row_total, col_total = magic_constants(int(rows), int(cols))
    if row_total < 0 or col_total < 0:
        raise SemiMagicError(f"the lines of {cols}×{rows} cannot all add up to one whole total")
    n = int(rows) * int(cols)
    pre = np.asarray(list(prefix), dtype=np.int64)
    if pre.ndim != 1 or not 1 <= pre.size <= n or pre.min() < 0 or pre.max() >= n:
        raise SemiMagicError(f"the prefix must be 1 to {n} squares of the board")
    if isinstance(node_limit, bool) or not isinstance(node_limit, int) or node_limit < 0:
        raise SemiMagicError(f"node_limit must be a whole number ≥ 0, got {node_limit!r}")
    nbr = knight_table(int(rows), int(cols))
    sq = np.arange(n, dtype=np.int64)
    counters = np.zeros(2, np.int64)
    out = np.full(n, -1, np.int64)
    t0 = time.perf_counter()
    got = semimagic_search(nbr, sq // cols, sq % cols, row_total, col_total, pre, counters,
                           out, int(node_limit))
    seconds = time.perf_counter() - t0
    if got == 1:
        path = [int(v) for v in out]
        numbers = np.empty(n, np.int64)
        numbers[out] = np.arange(1, n + 1)
        if line_sums(numbers.reshape(int(rows), int(cols))).kind == "none":
            raise AssertionError("the search returned a tour that is not semi-magic")
        return SemiMagicResult("found", path, int(counters[0]), seconds)
    return SemiMagicResult("none" if got == 0 else "budget", [], int(counters[0]), seconds)
