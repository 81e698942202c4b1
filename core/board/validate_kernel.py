"""Fast tour validation kernel (the message for a bad path is worked out in Python)."""
from __future__ import annotations

import numpy as np

from ..system.jit import njit


@njit
def path_is_tour(path: np.ndarray, rows: int, cols: int, closed: bool) -> int:
    """1 when ``path`` (int32[rows*cols] flat indices) visits each of the ``rows*cols`` squares once by knight
    moves (and, with ``closed``, ends a knight move from its start), else 0."""
    n = rows * cols
    if path.shape[0] != n or n == 0:
        return 0
    seen = np.zeros(n, dtype=np.uint8)
    pc = -10
    pr = -10
    for k in range(n):
        s = path[k]
        if s < 0 or s >= n or seen[s]:
            return 0
        seen[s] = 1
        r = s // cols
        c = s - r * cols
        if k > 0:
            dc = abs(c - pc)
            dr = abs(r - pr)
            if dc + dr != 3 or dc == 0 or dr == 0:
                return 0
        pc = c
        pr = r
    if closed and n > 1:
        dc = abs(path[n - 1] % cols - path[0] % cols)
        dr = abs(path[n - 1] // cols - path[0] // cols)
        if not ((dc == 1 and dr == 2) or (dc == 2 and dr == 1)):
            return 0
    return 1


@njit
def _is_move(nbr: np.ndarray, a: int, b: int) -> bool:
    """Whether square ``b`` is one move of the neighbour table ``nbr`` (int32[N, k]) from ``a``."""
    for t in range(nbr.shape[1]):
        if nbr[a, t] == b:
            return True
    return False


@njit
def path_is_tour_table(path: np.ndarray, nbr: np.ndarray, closed: bool) -> int:
    """:func:`path_is_tour` for any board and piece: each step must be a move of the
    neighbour table ``nbr`` (int32[N, 8], -1 none) and ``path`` (int32[N]) must visit each
    square once."""
    n = nbr.shape[0]
    if path.shape[0] != n or n == 0:
        return 0
    seen = np.zeros(n, dtype=np.uint8)
    for k in range(n):
        s = path[k]
        if s < 0 or s >= n or seen[s]:
            return 0
        seen[s] = 1
        if k > 0 and not _is_move(nbr, path[k - 1], s):
            return 0
    if closed and n > 1 and not _is_move(nbr, path[n - 1], path[0]):
        return 0
    return 1
