"""Warnsdorff walk whose fixed move order changes by phases (Squirrel and Cull's algorithm).

The walk is plain Warnsdorff (fewest onward exits); ties go to the first tied move in the
order of the current phase. Phase ``p`` lasts until the knight stands on its switch square
``switch[p]``; the move from that square on is chosen with the order of phase ``p + 1``. The
phases follow one another: a later phase's switch square visited early does not skip a
phase (Squirrel and Cull's step "change T if necessary"). A phase whose switch square is −1
lasts to the end.

The walk is :func:`~knightgui_core.walks.walk_loop_kernel.ordered_walk` on the padded plane of
:mod:`knightgui_core.walks.walk_kernel`, its layout ``L = (off, cols, prios, switch, phase)``
reading the candidates in the current phase's order and moving to the next phase on arrival.
"""
from __future__ import annotations

import numpy as np

from ..system.jit import njit, specialise
from .walk_kernel import _padded_state, pad_sq
from .walk_loop_kernel import ordered_walk


@njit(inline="always")
def phase_nxt(L: tuple[np.ndarray, int, np.ndarray, np.ndarray, np.ndarray], q: int,
              i: int) -> int:
    """The ``i``-th candidate of ``q`` in the current phase's order (``L[4][0]``)."""
    return q + L[0][L[2][L[4][0], i]]


@njit(inline="always")
def phase_arrive(L: tuple[np.ndarray, int, np.ndarray, np.ndarray, np.ndarray],
                 q: int) -> None:
    """On the current phase's switch square (padded ``L[3]``), the next phase begins (one
    phase at a time)."""
    ph = L[4]
    if ph[0] < L[2].shape[0] - 1 and q == L[3][ph[0]]:
        ph[0] += 1


_phased = specialise(ordered_walk, "ordered_walk_phased", nxt=phase_nxt, sq=pad_sq,
                     arrive=phase_arrive)


@njit
def phased_walk(rows: int, cols: int, start: int, prios: np.ndarray, switch: np.ndarray,
                path: np.ndarray, ties: np.ndarray) -> int:
    """One greedy walk with per-phase move orders: ``prios`` int64[P, 8] each phase's
    move-type indices (0..7), highest priority first; ``switch`` int64[P] the flat square
    ending each phase, -1 for none. Fills ``path[:m]`` (int32) and ``ties[:m]`` (uint8, 1
    where the move was chosen among tied candidates); returns ``m`` (``rows * cols`` on
    success)."""
    W = cols + 4
    free, cnt, _, off = _padded_state(rows, cols, np.zeros(0, dtype=np.int8))
    for p in range(cnt.shape[0]):
        if free[p] == 0:
            cnt[p] = 100          # ≥ 64: not a candidate
    P = prios.shape[0]
    pad_switch = np.full(P, -1, dtype=np.int64)
    for i in range(P):
        if switch[i] >= 0:
            pad_switch[i] = (switch[i] // cols + 2) * W + switch[i] % cols + 2
    phase = np.zeros(1, dtype=np.int64)
    q = (start // cols + 2) * W + start % cols + 2
    return _phased((off, np.int64(cols), prios, pad_switch, phase), cnt, q, rows * cols, path,
                   ties)
