"""Folding a start's tie tree by the symmetries that keep the start in place.

A symmetry of the board that keeps a start in place (the centre of an odd square board has
eight, a square on a diagonal or a middle line two) maps its tie tree onto itself: a walk goes
to a walk, a tie to a tie of the same width, and "closed" stays closed, so a subtree and its
image have the same counts and probabilities. One subtree of each orbit below the start's
first tie is counted, weighted by the orbit's size (the centre of 11×11 once instead of eight
times). The orbits are found on the walks, never assumed: a subtree's walk mapped square by
square must be the walk of another subtree of the split, or :class:`CountError` says so.

>>> cb = CountBoard(5, 5)
>>> fold_roots(cb, 12, 0)                       # c3, the centre: one subtree of eight
[((1,), 8)]
>>> fold_roots(cb, 1, 0)                        # b1: no symmetry keeps it in place
[((), 1)]
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...board.squares import Board
from . import count_kernel as _k
from .subtrees import CountBoard, CountError, board_symmetries, split

__all__ = ["stabilizer", "fold", "fold_roots"]


def stabilizer(board: Board, start: int) -> list[np.ndarray]:
    """The symmetries of ``board`` (:func:`board_symmetries`) that keep ``start`` in place,
    other than the identity, each as a permutation of the square indices (int64[N]); empty
    when only the identity does. Together with the identity they form a group."""
    x0, y0 = board.coords(int(start))
    cells = [board.coords(q) for q in range(board.size)]
    out: list[np.ndarray] = []
    seen = {tuple(range(board.size))}
    for g in board_symmetries(board):
        if board.index(*g(x0, y0)) != int(start):
            continue
        perm = tuple(board.index(*g(x, y)) for x, y in cells)
        if perm not in seen:
            seen.add(perm)
            out.append(np.asarray(perm, dtype=np.int64))
    return out


def _walk(cb: CountBoard, start: int, prefix: tuple[int, ...]) -> tuple[int, ...]:
    """The squares from ``start`` to the last choice of ``prefix``."""
    cb._begin(start, prefix)
    k = int(cb.st[_k.ST_K])
    return tuple(int(q) for q in cb.path[1:k + 1])


def fold(cb: CountBoard, start: int, prefixes: Sequence[tuple[int, ...]],
         perms: Sequence[np.ndarray]) -> list[tuple[tuple[int, ...], int]]:
    """``prefixes`` (subtrees that partition ``start``'s tree) as ``(prefix, weight)``: one
    prefix of each orbit under the group ``perms`` (without its identity, see
    :func:`stabilizer`), the first of the orbit in the order given, weighted by the orbit's
    size. The weights add up to ``len(prefixes)``."""
    walks = {_walk(cb, start, tuple(p)): tuple(p) for p in prefixes}
    if len(walks) != len(prefixes):
        raise CountError("two prefixes of the split name the same subtree")
    taken: set[tuple[int, ...]] = set()
    out: list[tuple[tuple[int, ...], int]] = []
    for w, p in walks.items():
        if p in taken:
            continue
        orbit = {p}
        for g in perms:
            image = walks.get(tuple(int(g[q]) for q in w))
            if image is None:
                raise CountError(f"a symmetry of the board does not map the subtree {p} of "
                                 f"{cb.board.name(start)} onto another one")
            orbit.add(image)
        taken |= orbit
        out.append((p, len(orbit)))
    return out


def fold_roots(cb: CountBoard, start: int | str, depth: int) -> list[tuple[tuple[int, ...], int]]:
    """The first round's subtrees of ``start`` with their weights: the split ``depth`` ties
    down (at least one when a symmetry keeps the start in place), folded by the start's
    :func:`stabilizer`; ``[(prefix, 1), ...]`` for a start no symmetry keeps."""
    s = cb.square(start)
    perms = stabilizer(cb.board, s)
    if not perms:
        return [(p, 1) for p in split(cb, s, depth)]
    return fold(cb, s, split(cb, s, max(1, int(depth))), perms)
