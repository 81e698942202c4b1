"""Warnsdorff walk whose fixed move order changes by phases (Squirrel and Cull's algorithm).

numba only; arrays and ints in, ints out. The walk is plain Warnsdorff (fewest onward exits);
ties go to the first tied move in the order of the current phase. Phase ``p`` lasts until the
knight stands on its switch square ``switch[p]``; the move from that square on is chosen
with the order of phase ``p + 1``. The phases follow one another: a later phase's switch
square visited early does not skip a phase (Squirrel and Cull's step "change T if
necessary"). A phase whose switch square is −1 lasts to the end.
"""
from __future__ import annotations

import numpy as np

from ..system.jit import njit
from .walk_kernel import DC, DR, _visit


@njit
def phased_walk(rows: int, cols: int, start: int, prios: np.ndarray, switch: np.ndarray,
                path: np.ndarray, ties: np.ndarray) -> int:
    """One greedy walk with per-phase move orders.

    ``prios``: ``int64[P, 8]``, the move-type indices (0..7, :data:`knightgui_core.board.squares.MOVES`)
    of each phase, highest priority first. ``switch``: ``int64[P]``, flat squares (``row *
    cols + col``) ending each phase, ``-1`` for none (the last phase, or a phase that lasts
    to the end). Fills ``path[:m]`` (``int32``) and
    ``ties[:m]`` (``uint8``, 1 where the move was chosen among tied candidates) and returns
    ``m``, the squares visited (``rows * cols`` on success).
    """
    size = rows * cols
    W = cols + 4
    H = rows + 4
    cnt = np.full(W * H, 100, dtype=np.int8)     # exits of free squares; ≥ 64 = not free
    off = np.empty(8, dtype=np.int64)
    for t in range(8):
        off[t] = DR[t] * W + DC[t]
    for r in range(rows):
        for c in range(cols):
            cnt[(r + 2) * W + c + 2] = 0
    for r in range(rows):
        for c in range(cols):
            p = (r + 2) * W + c + 2
            n = 0
            for t in range(8):
                if cnt[p + off[t]] < 64:
                    n += 1
            cnt[p] = n
    P = prios.shape[0]
    pad_switch = np.full(P, -1, dtype=np.int64)
    for i in range(P):
        if switch[i] >= 0:
            pad_switch[i] = (switch[i] // cols + 2) * W + switch[i] % cols + 2
    phase = 0
    q = (start // cols + 2) * W + start % cols + 2
    _visit(q, cnt, off)
    path[0] = start
    ties[0] = 0
    m = 1
    while m < size:
        if phase < P - 1 and q == pad_switch[phase]:
            phase += 1
        best = np.int64(-1)
        bo = 64
        nb = 0
        for i in range(8):
            s = q + off[prios[phase, i]]
            o = cnt[s]
            if o < bo:
                bo = o
                best = s
                nb = 1
            elif o == bo:
                nb += 1
        if best < 0:
            break
        ties[m] = 1 if nb > 1 else 0
        q = best
        _visit(q, cnt, off)
        path[m] = (q // W - 2) * cols + (q % W - 2)
        m += 1
    return m
