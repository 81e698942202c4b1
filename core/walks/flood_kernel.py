"""Floods over a neighbour table (``nbr`` int32[N, 8], -1 for no move; any board and piece):
a two-colouring of the board (every move changes colour, when the moves allow it) and the
connected groups of the free squares. :mod:`knightgui_core.walks.hand.verdict` reads both for a
path played by hand. numba only; arrays in, arrays and ints out.

The breadth-first flood is written once, :func:`flood`: at each move it meets it calls a
visitor, ``reach(s, t, u, ctx)`` (``u = nbr[s, t]``, ``ctx`` the visitor's arrays as a
tuple): > 0 takes ``u`` into the flood, 0 passes it by, < 0 stops the flood. The one here
joins a free square to its group; another use gets its own inlined copy from
:func:`knightgui_core.system.jit.specialise` with ``reach`` bound to its visitor (the
colouring below, :mod:`knightgui_core.studies.uncrossed.search_kernel`).
"""
from __future__ import annotations

import numpy as np

from ..system.jit import njit, specialise


@njit(inline="always")
def reach(s: int, t: int, u: int, ctx: tuple[np.ndarray, np.ndarray]) -> int:
    """The free groups' visitor: ``ctx`` is ``(free, label)``; a free square ``u`` not yet
    in a group joins the group of ``s``."""
    free, label = ctx
    if free[u] and label[u] < 0:
        label[u] = label[s]
        return 1
    return 0


@njit(inline="always")
def flood(nbr: np.ndarray, s0: int, queue: np.ndarray, ctx: tuple) -> int:
    """Breadth-first from ``s0`` over ``nbr``, taking what ``reach`` takes: the squares taken,
    ``s0`` first, are ``queue[:k]``; returns ``k``, or -1 when ``reach`` stopped the flood.
    ``queue`` (N entries) is the caller's scratch; ``s0`` is the caller's to mark."""
    queue[0] = s0
    head, tail = 0, 1
    while head < tail:
        s = queue[head]
        head += 1
        for t in range(8):
            u = nbr[s, t]
            if u < 0:
                continue
            took = reach(s, t, u, ctx)
            if took < 0:
                return -1
            if took > 0:
                queue[tail] = u
                tail += 1
    return tail


@njit(inline="always")
def _other_colour(s: int, t: int, u: int, colour: np.ndarray) -> int:
    """The colouring's visitor: an uncoloured ``u`` takes the colour ``s`` has not; a ``u``
    of the colour of ``s`` stops the flood (the moves cannot be two-coloured)."""
    if colour[u] < 0:
        colour[u] = 1 - colour[s]
        return 1
    return -1 if colour[u] == colour[s] else 0


_flood_colours = specialise(flood, "flood_colours", reach=_other_colour)


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
        if _flood_colours(nbr, s0, queue, colour) < 0:
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
        flood(nbr, s0, queue, (free, label))
        groups += 1
    return groups
