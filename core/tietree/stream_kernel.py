"""Solutions copied out in blocks for streaming: the path only (no options matrix), so a
solution costs ``L`` int32 copies. One loop, :func:`collect_rows`, drives the resumable
search of either state layout (:mod:`knightgui_core.tietree.enumerate_kernel`'s arrays,
:mod:`knightgui_core.tietree.bitboard_kernel`'s bitboard), named by ``advance`` (one copy
per layout, :func:`knightgui_core.system.jit.specialise`), and stops after
``max_solutions`` solutions or ``max_steps`` forward moves; :func:`collect_paths` and
:func:`collect_paths_bits` are its entries.

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
def advance(S: tuple, st: np.ndarray, max_steps: int, stop_on_solution: bool) -> int:
    """The array state's search (:func:`advance_kernel`) on the tables and state ``S`` =
    ``(nbr, nl, ntype, ncount, dl, dcount, adj_end, key, path, mo, ties)``."""
    return advance_kernel(S[0], S[1], S[2], S[3], S[4], S[5], S[6], S[7], S[8], S[9], S[10],
                          st, max_steps, stop_on_solution)


@njit
def advance_on_bits(S: tuple, st: np.ndarray, max_steps: int, stop_on_solution: bool) -> int:
    """The bitboard's search (:func:`advance_bits`) on ``S`` = ``(tslot, nbr, nl, ntype,
    ncount, att, masks, bits, path, mo, ties)``: ``path`` is ``S[8]`` in both layouts."""
    return advance_bits(S[0], S[1], S[2], S[3], S[4], S[5], S[6], S[7], S[8], S[9], S[10],
                        st, max_steps, stop_on_solution)


@njit
def collect_rows(S: tuple, st: np.ndarray, max_solutions: int, max_steps: int,
                 as_numbers: bool, out_path: np.ndarray, out_branch: np.ndarray) -> np.ndarray:
    """Up to ``max_solutions`` paths of the search on ``S`` (its path ``S[8]``) into
    ``out_path``, within ``max_steps`` forward moves (module docstring)."""
    got = 0
    steps_left = max_steps
    ev = np.int64(BUDGET)  # typed as the kernels return it (the AOT compiler keeps a literal)
    L = st[ST_L]
    path = S[8]
    while got < max_solutions:
        f0 = st[ST_FORWARD]
        ev = advance(S, st, steps_left, True)
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


_collect_rows_bits = specialise(collect_rows, "collect_rows_bits", advance=advance_on_bits)


@njit
def collect_paths(nbr: np.ndarray, nl: np.ndarray, ntype: np.ndarray, ncount: np.ndarray,
                  dl: np.ndarray, dcount: np.ndarray, adj_end: np.ndarray, key: np.ndarray,
                  path: np.ndarray, mo: np.ndarray, ties: np.ndarray, st: np.ndarray,
                  max_solutions: int, max_steps: int, as_numbers: bool, out_path: np.ndarray,
                  out_branch: np.ndarray) -> np.ndarray:
    """Array-state enumeration: up to ``max_solutions`` paths into ``out_path``."""
    return collect_rows((nbr, nl, ntype, ncount, dl, dcount, adj_end, key, path, mo, ties),
                        st, max_solutions, max_steps, as_numbers, out_path, out_branch)


@njit
def collect_paths_bits(tslot: np.ndarray, nbr: np.ndarray, nl: np.ndarray, ntype: np.ndarray,
                       ncount: np.ndarray, att: np.ndarray, masks: np.ndarray,
                       bits: np.ndarray, path: np.ndarray, mo: np.ndarray, ties: np.ndarray,
                       st: np.ndarray, max_solutions: int, max_steps: int, as_numbers: bool,
                       out_path: np.ndarray, out_branch: np.ndarray) -> np.ndarray:
    """Bitboard enumeration (at most 64 squares): as :func:`collect_paths`."""
    return _collect_rows_bits((tslot, nbr, nl, ntype, ncount, att, masks, bits, path, mo,
                               ties), st, max_solutions, max_steps, as_numbers, out_path,
                              out_branch)
