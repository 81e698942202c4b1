"""Floods over a neighbour table (``nbr`` int32[N, 8], -1 for no move; any board and piece):
a two-colouring of the board (every move changes colour, when the moves allow it) and the
connected groups of the free squares. :mod:`knightgui_core.walks.verdict` reads both for a
path played by hand. numba only; arrays in, arrays and ints out.
"""
from __future__ import annotations

import numpy as np

from ..system.jit import njit


@njit
def two_colouring(nbr: np.ndarray, colour: np.ndarray, queue: np.ndarray) -> bool:
    """Colour the squares 0/1 so that every move changes colour (``colour`` int8[N],
    ``queue`` int32[N] scratch); whether that is possible (the graph is bipartite). Each
    connected part takes colour 0 on its lowest square."""
    n = nbr.shape[0]
    for s in range(n):
        colour[s] = -1
    for s0 in range(n):
        if colour[s0] >= 0:
            continue
        colour[s0] = 0
        queue[0] = s0
        head, tail = 0, 1
        while head < tail:
            s = queue[head]
            head += 1
            for t in range(8):
                u = nbr[s, t]
                if u < 0:
                    continue
                if colour[u] < 0:
                    colour[u] = 1 - colour[s]
                    queue[tail] = u
                    tail += 1
                elif colour[u] == colour[s]:
                    return False
    return True


@njit
def free_groups(nbr: np.ndarray, free: np.ndarray, label: np.ndarray,
                queue: np.ndarray) -> int:
    """Label the connected groups of free squares (``free`` uint8[N] 1 free; ``label``
    int32[N]: the group's number from 0, -1 on a visited square; ``queue`` int32[N]
    scratch); returns the number of groups."""
    n = nbr.shape[0]
    for s in range(n):
        label[s] = -1
    groups = 0
    for s0 in range(n):
        if free[s0] == 0 or label[s0] >= 0:
            continue
        label[s0] = groups
        queue[0] = s0
        head, tail = 0, 1
        while head < tail:
            s = queue[head]
            head += 1
            for t in range(8):
                u = nbr[s, t]
                if u >= 0 and free[u] and label[u] < 0:
                    label[u] = groups
                    queue[tail] = u
                    tail += 1
        groups += 1
    return groups
