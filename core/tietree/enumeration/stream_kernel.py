"""Solutions copied out in blocks for streaming: the path only (no options matrix), so a
solution costs ``L`` int32 copies. The search runs in
:func:`knightgui_core.tietree.enumeration.enumerate_kernel.search`, the loop written once for
every use, with :func:`copy_row` bound as what it does at a solution (``inline="always"``:
written into the loop); each state layout has its copy from
:func:`knightgui_core.system.jit.specialise` (the array state's operations, or the
bitboard's, :data:`knightgui_core.tietree.enumeration.bitboard_kernel.BITS`), which stops
after ``max_solutions`` solutions or ``max_steps`` forward moves. :func:`collect_paths` and
:func:`collect_paths_bits` are its entries.

Arrays (``N`` squares, ``L`` numbers the search places): the static tables and the state
as documented in :mod:`knightgui_core.tietree.enumeration.enumerate_kernel`; ``out_path`` int32[>=
max_solutions,
>= N] receives ``path[1..L]`` of each solution in row ``i`` (or, when ``as_numbers``, the
move numbers: ``out_path[i, path[j]] = j`` for j = 1..L, the other entries left as they
are); ``out_branch``
int64[>= max_solutions] its branch number. Returns int64[2] = (solutions copied, last event).
The public wrapper (:func:`knightgui_core.tietree.enumeration.solution_writer.solution_blocks`) checks the
shapes.
"""
from __future__ import annotations

import numpy as np

from ...system.jit import njit, specialise
from .bitboard_kernel import BITS
from .enumerate_kernel import ST_L, ST_SOL_BRANCH, got_and_event, search


@njit(inline="always")
def copy_row(path: np.ndarray, mo: np.ndarray, st: np.ndarray, got: int, carry: int,
             out: tuple) -> int:
    """What the stream copies of :func:`knightgui_core.tietree.enumeration.enumerate_kernel.search`
    do at solution ``got``: its path (or move numbers) and branch into row ``got`` of ``out``
    = (``out_path``, ``out_branch``, ``as_numbers``). Returns ``carry`` (unused)."""
    out_path, out_branch, as_numbers = out
    L = st[ST_L]
    if as_numbers:
        for j in range(L):
            out_path[got, path[j + 1]] = j + 1
    else:
        for j in range(L):
            out_path[got, j] = path[j + 1]
    out_branch[got] = st[ST_SOL_BRANCH]
    return carry


_rows = specialise(search, "collect_rows", visit=copy_row)
_rows_bits = specialise(search, "collect_rows_bits", visit=copy_row, **BITS)


@njit
def collect_paths(nbr: np.ndarray, nl: np.ndarray, ntype: np.ndarray, ncount: np.ndarray,
                  dl: np.ndarray, dcount: np.ndarray, adj_end: np.ndarray, key: np.ndarray,
                  path: np.ndarray, mo: np.ndarray, ties: np.ndarray, st: np.ndarray,
                  max_solutions: int, max_steps: int, as_numbers: bool, out_path: np.ndarray,
                  out_branch: np.ndarray) -> np.ndarray:
    """Array-state enumeration: up to ``max_solutions`` paths into ``out_path``."""
    return got_and_event(_rows(nbr, nl, ntype, ncount, dl, dcount, adj_end, key, path, mo,
                               ties, st, max_steps, max_solutions,
                               (out_path, out_branch, as_numbers), np.int64(0)))


@njit
def collect_paths_bits(tslot: np.ndarray, nbr: np.ndarray, nl: np.ndarray, ntype: np.ndarray,
                       ncount: np.ndarray, att: np.ndarray, masks: np.ndarray,
                       bits: np.ndarray, path: np.ndarray, mo: np.ndarray, ties: np.ndarray,
                       st: np.ndarray, max_solutions: int, max_steps: int, as_numbers: bool,
                       out_path: np.ndarray, out_branch: np.ndarray) -> np.ndarray:
    """Bitboard enumeration (at most 64 squares): as :func:`collect_paths`."""
    return got_and_event(_rows_bits(nbr, nl, ntype, tslot, ncount, att, masks, bits, path, mo,
                                    ties, st, max_steps, max_solutions,
                                    (out_path, out_branch, as_numbers), np.int64(0)))
