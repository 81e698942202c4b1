"""Solutions of the exhaustive enumeration, written compactly as they are found (numba).

The window keeps the solutions it finds for stepping back and forth. Copying each whole path
and options matrix out of the search costs more than finding it, so these kernels write, at
each solution, only what changed since the previous one.

Consecutive solutions share everything below their *branch* row ``b`` (the lowest number the
search backtracked to in between). So solution ``i`` is stored as ``frm[i] = b`` and
``squares[sptr[i]:sptr[i+1]]``, its squares ``path[b+1..L]`` (positions ``b..L-1`` of the
tour): one byte a square when ``wide == 0`` (boards of at most 256 squares), two little-endian
bytes when ``wide == 1`` (at most 65,536), four when ``wide == 2``; its branch number goes to
``branch[i]`` (a :class:`Deltas` record). The options matrix follows from the path
(:mod:`knightgui_core.tietree.enumeration.options_kernel` rebuilds it when a solution is shown).
Every ``key_every``-th solution (by its 1-based number) and the first of each call are stored
whole (``frm = 0``), so any solution is rebuilt from the nearest such *key* solution before it
(:class:`knightgui.solutions.SolutionStore`).

Both kernels are copies of :func:`knightgui_core.tietree.enumeration.enumerate_kernel.search`
by :func:`knightgui_core.system.jit.specialise` with :func:`write_delta` written in as the
visitor, on the array state and on the bitboard. ``tests/gui/test_solutions.py`` checks both
against :meth:`knightgui_core.tietree.enumeration.enumerator.Enumerator.first`.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...system.jit import njit, specialise
from .bitboard_kernel import BITS, BitState, BitTables
from .enumerate_kernel import ST_L, ST_SOL_BRANCH, ST_SOLUTIONS, State, Tables, search


class Deltas(NamedTuple):
    """Where the keep copies of the search write the solutions of one call, as in the module
    docstring: ``squares`` uint8[...] (the free squares, ``wide`` picks their width),
    ``sptr`` int64[S + 1] (where each solution's squares begin), ``frm`` int32[S] (the number
    they start after, 0 for a solution stored whole), ``branch`` int32[S] (its branch
    number), and ``key_every`` (every ``key_every``-th solution is stored whole)."""

    squares: np.ndarray
    sptr: np.ndarray
    frm: np.ndarray
    branch: np.ndarray
    key_every: int
    wide: int


@njit(inline="always")
def write_delta(state: State | BitState, got: int, carry: int, out: Deltas) -> int:
    """What the keep copies of the search do at solution ``got`` of this call: its squares
    from its branch on (or all of them, for a key solution) into ``out``. ``carry``:
    solutions still to come before the next key solution; returns the next."""
    squares, sptr, path, st = out.squares, out.sptr, state.path, state.scalars
    L = st[ST_L]
    b = st[ST_SOL_BRANCH]
    f = b
    if got == 0 or carry == 0 or f < 0 or f > L:
        f = 0
    at = sptr[got]
    if out.wide == 0:                   # one byte a square: the width asked once
        for j in range(f, L):
            squares[at + j - f] = path[j + 1]
        at += L - f
    else:                               # 2 or 4 little-endian bytes
        w = 2 if out.wide == 1 else 4
        for j in range(f, L):
            v = path[j + 1]
            for byte in range(w):
                squares[at] = (v >> (8 * byte)) & 0xFF
                at += 1
    sptr[got + 1] = at
    out.frm[got] = f
    out.branch[got] = b
    return carry - 1 if carry > 0 else out.key_every - 1


@njit(inline="always")
def until_key(st: np.ndarray, key_every: int) -> int:
    """Solutions before the next one stored whole (number s is whole when (s - 1) %
    ``key_every`` is 0), for the next solution of the scalars ``st``: counted down by
    :func:`write_delta` rather than divided for at each solution."""
    return (key_every - st[ST_SOLUTIONS] % key_every) % key_every


# without reference counts: the visitor takes its arrays out of records at every solution
# (bench/enumerate.py, the window's keep copies of the first solutions)
_keep = specialise(search, "keep_array", refcounts=False, visit=write_delta)
_keep_bits = specialise(search, "keep_bits", refcounts=False, visit=write_delta, **BITS)


@njit
def collect_delta(tables: Tables, state: State, max_solutions: int, max_steps: int,
                  key_every: int, wide: int, squares: np.ndarray, sptr: np.ndarray,
                  frm: np.ndarray, branch: np.ndarray) -> int:
    """Up to ``max_solutions`` further solutions within ``max_steps`` forward moves on the
    array state, written as in the module docstring into ``squares`` uint8[max_solutions · L
    · (1, 2 or 4)], ``sptr`` int64[max_solutions + 1] (index 0 must be 0), ``frm`` and
    ``branch`` int32[max_solutions]. Returns solutions written · 4 + last event, or -1 with
    nothing searched when ``key_every`` < 1 or ``wide`` is not 0, 1, 2."""
    if key_every < 1 or wide < 0 or wide > 2:
        return -1
    return _keep(tables, state, max_steps, max_solutions,
                 Deltas(squares, sptr, frm, branch, key_every, wide),
                 until_key(state.scalars, key_every))


@njit
def collect_delta_bits(tables: BitTables, state: BitState, max_solutions: int,
                       max_steps: int, key_every: int, wide: int, squares: np.ndarray,
                       sptr: np.ndarray, frm: np.ndarray, branch: np.ndarray) -> int:
    """:func:`collect_delta` on the bitboard state: the same arguments and return, but
    ``wide`` must be 0 (-1 is returned otherwise, nothing searched)."""
    if key_every < 1 or wide != 0:
        return -1
    return _keep_bits(tables, state, max_steps, max_solutions,
                      Deltas(squares, sptr, frm, branch, key_every, wide),
                      until_key(state.scalars, key_every))
