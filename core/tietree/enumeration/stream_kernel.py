"""Solutions copied out in blocks for streaming: the path only (no options matrix), ``L``
int32 copies a solution. Each layout's copy of
:func:`knightgui_core.tietree.enumeration.enumerate_kernel.search` (by
:func:`knightgui_core.system.jit.specialise`) has :func:`copy_row` written in as its visitor
and stops after ``max_solutions`` solutions or ``max_steps`` forward moves.

Arguments of :func:`collect_paths` and :func:`collect_paths_bits` (``N`` squares, ``L``
numbers placed): the layout's two records; ``out_path`` int32[>= max_solutions, >= N] gets
``path[1..L]`` of each solution in row ``i`` (with ``as_numbers`` the move numbers instead:
``out_path[i, path[j]] = j`` for j = 1..L, the other entries left as they are);
``out_branch`` int64[>= max_solutions] its branch number. Returns int64[2] = (solutions
copied, last event). The wrapper
(:func:`knightgui_core.tietree.enumeration.solution_writer.solution_blocks`) checks shapes.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...system.jit import njit, specialise
from .bitboard_kernel import BITS, BitState, BitTables
from .enumerate_kernel import ST_L, ST_SOL_BRANCH, State, Tables, got_and_event, search


class Rows(NamedTuple):
    """Where the stream copies of the search write each solution: row i of ``paths`` (the
    path, or the move numbers when ``as_numbers``) and ``branches[i]``, as in the module
    docstring."""

    paths: np.ndarray
    branches: np.ndarray
    as_numbers: bool


@njit(inline="always")
def copy_row(state: State | BitState, got: int, carry: int, out: Rows) -> int:
    """What the stream copies of :func:`knightgui_core.tietree.enumeration.enumerate_kernel.search`
    do at solution ``got``: its path (or move numbers) and branch into row ``got`` of
    ``out``. Returns ``carry`` (unused)."""
    paths, path, st = out.paths, state.path, state.scalars
    L = st[ST_L]
    if out.as_numbers:
        for j in range(L):
            paths[got, path[j + 1]] = j + 1
    else:
        for j in range(L):
            paths[got, j] = path[j + 1]
    out.branches[got] = st[ST_SOL_BRANCH]
    return carry


# without reference counts: the visitor takes its arrays out of records at every solution
# (bench/stream.py)
_rows = specialise(search, "collect_rows", refcounts=False, visit=copy_row)
_rows_bits = specialise(search, "collect_rows_bits", refcounts=False, visit=copy_row, **BITS)


@njit
def collect_paths(tables: Tables, state: State, max_solutions: int, max_steps: int,
                  as_numbers: bool, out_path: np.ndarray, out_branch: np.ndarray) -> np.ndarray:
    """Array-state enumeration: up to ``max_solutions`` paths into ``out_path``."""
    return got_and_event(_rows(tables, state, max_steps, max_solutions,
                               Rows(out_path, out_branch, as_numbers), np.int64(0)))


@njit
def collect_paths_bits(tables: BitTables, state: BitState, max_solutions: int,
                       max_steps: int, as_numbers: bool, out_path: np.ndarray,
                       out_branch: np.ndarray) -> np.ndarray:
    """Bitboard enumeration (at most 64 squares): as :func:`collect_paths`."""
    return got_and_event(_rows_bits(tables, state, max_steps, max_solutions,
                                    Rows(out_path, out_branch, as_numbers), np.int64(0)))
