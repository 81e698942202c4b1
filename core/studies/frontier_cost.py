"""What a frontier count of k×A … k×B will cost, said before it starts.

Estimates from measured runs: the most states a board of this height holds at once
(:func:`~knightgui_core.frontier.count.state_estimate`), the bytes a state takes (its key and
one word a residue, as many as the count's bound asks: Brégman's, or about half its bits
under the relaxed bound), the disk a run through slices holds at its largest cell, and the
CPU time (the states read over all cells, at a measured rate). A run needing more memory than
is free goes through slices on disk when a spill folder is given, else it is refused.
"""
from __future__ import annotations

import math
import shutil
from dataclasses import dataclass

from ..frontier.count import state_estimate, table_bytes
from ..frontier.residues import RELAXED_CELLS, _moduli, bregman_bits
from ..system.limits import available_memory
from ..system.text import duration_text, size_text

__all__ = ["FrontierCost", "frontier_cost", "DISK_ROWS_PER_STATE", "CELL_FILL",
           "SECONDS_PER_STATE_WORD"]

#: the rows on disk at the largest cell (the slices it reads and the ones it writes) per
#: state it reads: 8×8 closed through slices, 2.89 G rows for 586 M states
#: (docs/results/all-tours.md)
DISK_ROWS_PER_STATE = 5.0
#: the states read over all cells, as a share of (most states × cells), and the CPU seconds
#: a state read takes a word of its row at a time: together they give the measured CPU time
#: of 6×20 closed (12 s), 7×7 open (18 min) and 8×8 closed through slices (76 min) within a
#: quarter (docs/figures.md)
CELL_FILL = 0.45
SECONDS_PER_STATE_WORD = 0.09e-6


@dataclass
class FrontierCost:
    """The estimate for one run (see the module); ``None`` fields are not known for such a
    height. ``spilled``: it goes through slices on disk (more memory than ``memory``)."""

    rows: int
    cols: int
    closed_only: bool
    states: int | None
    table_bytes: int | None
    memory: int
    spilled: bool
    disk_bytes: int | None
    disk_free: int | None
    cpu_seconds: float | None

    def summary(self) -> str:
        """One line for a person: memory, disk and time."""
        if self.states is None or self.table_bytes is None:
            return (f"{self.rows}×{self.cols}: no measured board this high to estimate "
                    "its cost from")
        need = size_text(self.table_bytes)
        if self.spilled:
            where = (f"more than the {size_text(self.memory)} of memory free: through slices "
                     f"on disk, about {size_text(self.disk_bytes or 0)} of disk")
            if self.disk_free is not None:
                short = self.disk_bytes is not None and self.disk_free < self.disk_bytes
                where += f" ({size_text(self.disk_free)} free{': too little' if short else ''})"
        else:
            where = "in memory"
        took = "" if self.cpu_seconds is None else f", about {duration_text(self.cpu_seconds)} of CPU"
        return (f"{self.rows}×{self.cols}: about {self.states:,} states at once, "
                f"{need} of tables, {where}{took}")


def _residue_words(rows: int, cols: int, closed_only: bool) -> int:
    """64-bit words the residues take (the first modulus 2^64, the others primes below
    2^62) for the count's bound: Brégman's, or where the count asks the relaxed bound
    (:data:`~knightgui_core.frontier.residues.RELAXED_CELLS`) about half its bits, as
    measured (8×8 closed: 45.7 bits of 2-factors against Brégman's 106.8)."""
    bits = bregman_bits(rows, cols)
    if rows * cols <= RELAXED_CELLS[closed_only].get(rows, 0):
        bits *= 0.5
    return len(_moduli(lambda product: math.log2(product) > bits))


def frontier_cost(rows: int, cols: int, closed_only: bool, *, spill: str | None = None,
                  memory: int | None = None) -> FrontierCost:
    """The cost of the frontier count of ``rows`` × 1 … ``cols`` (the short side first);
    ``spill``: the folder a run too big for ``memory`` (default: what is free now) goes
    to, whose free disk is said."""
    k, n = min(rows, cols), max(rows, cols)
    budget = available_memory() if memory is None else int(memory)
    states = state_estimate(k, closed_only)
    free = shutil.disk_usage(spill).free if spill else None
    if states is None:
        return FrontierCost(k, n, closed_only, None, None, budget, False, None, free, None)
    m = _residue_words(k, n, closed_only)
    tables = table_bytes(k, states, m)
    width = table_bytes(k, 0, m) // (2 * 64 * 8)           # words a state: key and residues
    read = states * k * n * CELL_FILL                      # the states read over all cells
    spilled = tables > budget
    cpu = read * width * SECONDS_PER_STATE_WORD
    disk = states * DISK_ROWS_PER_STATE * width * 8
    return FrontierCost(k, n, closed_only, states, tables, budget, spilled, int(disk), free,
                        cpu)
