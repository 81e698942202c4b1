"""Solutions copied out in blocks for streaming: the path only (no options matrix), so a
solution costs ``L`` int32 copies. One loop, :func:`collect_rows`, drives the resumable
search of either state layout (:mod:`knightgui_core.tietree.enumerate_kernel`'s arrays,
:mod:`knightgui_core.tietree.bitboard_kernel`'s bitboard: both searches take eleven arrays,
the path ninth, then the state), the array state's :func:`advance_kernel` or, in the copy
:func:`knightgui_core.system.jit.specialise` makes, :func:`advance_bits`; it stops after
``max_solutions`` solutions or ``max_steps`` forward moves. :func:`collect_paths` and
:func:`collect_paths_bits` are its entries. The arrays go one by one, not as a tuple: a
tuple of arrays handed to the search at every solution cost its reference counts: the
first 1,000,000 open 9×9 tours from a1 took 615 ms against 465 ms (best of 2, 2 cores
shared with other agents, load 5.8–6.2).

Arrays (``N`` squares, ``L`` numbers the search places): the static tables and the state
as documented in :mod:`knightgui_core.tietree.enumerate_kernel`; ``out_path`` int32[>= max_solutions,
>= N] receives ``path[1..L]`` of each solution in row ``i`` (or, when ``as_numbers``, the
move numbers: ``out_path[i, path[j]] = j`` for j = 1..L, the other entries left as they
are); ``out_branch``
int64[>= max_solutions] its branch number. Returns int64[2] = (solutions copied, last event).
The public wrapper (:func:`knightgui_core.tietree.solution_writer.solution_blocks`) checks the shapes.
"""
from __future__ import annotations

import numpy as np

from ..system.jit import njit, specialise
from .bitboard_kernel import advance_bits
from .enumerate_kernel import BUDGET, SOLUTION, ST_FORWARD, ST_L, ST_SOL_BRANCH, advance_kernel


@njit
def collect_rows(a0: np.ndarray, a1: np.ndarray, a2: np.ndarray, a3: np.ndarray,
                 a4: np.ndarray, a5: np.ndarray, a6: np.ndarray, a7: np.ndarray,
                 path: np.ndarray, mo: np.ndarray, ties: np.ndarray, st: np.ndarray,
                 max_solutions: int, max_steps: int, as_numbers: bool, out_path: np.ndarray,
                 out_branch: np.ndarray) -> np.ndarray:
    """Up to ``max_solutions`` paths of the search on the layout's tables and state
    ``a0``..``a7``, ``path``, ``mo``, ``ties``, ``st`` into ``out_path``, within
    ``max_steps`` forward moves (module docstring)."""
    got = 0
    steps_left = max_steps
    ev = np.int64(BUDGET)  # typed as the kernels return it (the AOT compiler keeps a literal)
    L = st[ST_L]
    while got < max_solutions:
        f0 = st[ST_FORWARD]
        ev = advance_kernel(a0, a1, a2, a3, a4, a5, a6, a7, path, mo, ties, st, steps_left,
                            True)
        steps_left -= st[ST_FORWARD] - f0
        if ev != SOLUTION:
            break
        if as_numbers:
            for j in range(L):
                out_path[got, path[j + 1]] = j + 1
        else:
            for j in range(L):
                out_path[got, j] = path[j + 1]
        out_branch[got] = st[ST_SOL_BRANCH]
        got += 1
    res = np.empty(2, dtype=np.int64)
    res[0] = got
    res[1] = ev
    return res


_collect_rows_bits = specialise(collect_rows, "collect_rows_bits", advance_kernel=advance_bits)


@njit
def collect_paths(nbr: np.ndarray, nl: np.ndarray, ntype: np.ndarray, ncount: np.ndarray,
                  dl: np.ndarray, dcount: np.ndarray, adj_end: np.ndarray, key: np.ndarray,
                  path: np.ndarray, mo: np.ndarray, ties: np.ndarray, st: np.ndarray,
                  max_solutions: int, max_steps: int, as_numbers: bool, out_path: np.ndarray,
                  out_branch: np.ndarray) -> np.ndarray:
    """Array-state enumeration: up to ``max_solutions`` paths into ``out_path``."""
    return collect_rows(nbr, nl, ntype, ncount, dl, dcount, adj_end, key, path, mo, ties, st,
                        max_solutions, max_steps, as_numbers, out_path, out_branch)


@njit
def collect_paths_bits(tslot: np.ndarray, nbr: np.ndarray, nl: np.ndarray, ntype: np.ndarray,
                       ncount: np.ndarray, att: np.ndarray, masks: np.ndarray,
                       bits: np.ndarray, path: np.ndarray, mo: np.ndarray, ties: np.ndarray,
                       st: np.ndarray, max_solutions: int, max_steps: int, as_numbers: bool,
                       out_path: np.ndarray, out_branch: np.ndarray) -> np.ndarray:
    """Bitboard enumeration (at most 64 squares): as :func:`collect_paths`."""
    return _collect_rows_bits(tslot, nbr, nl, ntype, ncount, att, masks, bits, path, mo, ties,
                              st, max_solutions, max_steps, as_numbers, out_path, out_branch)
