"""The compact form of a run of enumeration solutions (:class:`CompactBlock`, joined with
:func:`join_blocks`), apart so that the window can name it without loading the kernels."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .replay import OptionsReplay


@dataclass
class CompactBlock:
    """A run of consecutive solutions, each stored as what changed since the one before
    (:meth:`knightgui_core.tietree.enumeration.enumerator.Enumerator.block_compact`; the scheme is in
    :mod:`knightgui_core.tietree.enumeration.keep_kernel`).

    Solution ``i`` (``first + i``) has ``frm[i]`` = the first tour position that differs from
    solution ``i - 1`` (0: stored whole, as the first of a block always is); its positions
    ``frm[i] .. L-1`` are ``squares[sptr[i]:sptr[i+1]]`` (of :func:`path_dtype`), the ones
    below those of solution ``i - 1``. ``branch`` int32[g] is each solution's branch row,
    ``tail`` int32 the reserved squares every path ends with, ``length`` = L + 1 (rows of an
    options matrix), ``options`` what rebuilds a matrix from a path
    (:class:`knightgui_core.tietree.enumeration.replay.OptionsReplay`; None: nothing to)."""

    first: int
    squares: np.ndarray
    sptr: np.ndarray
    frm: np.ndarray
    branch: np.ndarray
    tail: np.ndarray
    length: int
    options: OptionsReplay | None = None

    def __len__(self) -> int:
        return len(self.frm)


def join_blocks(blocks: list[CompactBlock]) -> CompactBlock:
    """One run made of consecutive runs ``blocks`` (``blocks[i + 1]`` starts where
    ``blocks[i]`` ends; at least one): their arrays concatenated and the offsets shifted, each
    run's first solution still stored whole. Raises ``ValueError`` for runs that do not
    follow each other."""
    if not blocks:
        raise ValueError("no runs to join")
    if len(blocks) == 1:
        return blocks[0]
    b0 = blocks[0]
    at = b0.first
    for b in blocks:
        if b.first != at or b.length != b0.length or not np.array_equal(b.tail, b0.tail):
            raise ValueError("runs that do not follow each other cannot be joined")
        at += len(b)
    sq_off = np.cumsum([0] + [int(b.sptr[-1]) for b in blocks])
    sptr = np.concatenate([b0.sptr[:1]] + [b.sptr[1:] + o for b, o in zip(blocks, sq_off)])
    return CompactBlock(b0.first,
                        np.concatenate([b.squares[:int(b.sptr[-1])] for b in blocks]), sptr,
                        np.concatenate([b.frm for b in blocks]),
                        np.concatenate([b.branch for b in blocks]), b0.tail, b0.length,
                        b0.options)


def path_dtype(size: int) -> type[np.integer]:
    """How kept squares are held: uint8 up to 256 squares, uint16 up to 65,536, else int32."""
    return np.uint8 if size <= 256 else np.uint16 if size <= 65536 else np.int32


def compact_paths(paths: np.ndarray, first: int, key_every: int = 64) -> CompactBlock:
    """Whole paths (int[g, N], any producer: the listing of every path) in the compact form of
    :class:`CompactBlock`, numbered from ``first``: each path as the squares from the first
    one that differs from the path before it (every ``key_every``-th whole), one byte a square
    up to 256 squares. ``branch`` is that first differing position; no tail, no options
    matrix."""
    p = np.asarray(paths)
    g, n = p.shape if p.ndim == 2 else (0, 0)
    if p.ndim != 2 or g == 0:
        raise ValueError("compact_paths needs at least one path")
    dt = path_dtype(n)
    frm = np.zeros(g, dtype=np.int32)
    if g > 1:
        diff = p[1:] != p[:-1]
        frm[1:] = np.where(diff.any(axis=1), np.argmax(diff, axis=1), n - 1)
    frm[::max(1, int(key_every))] = 0
    keep = np.arange(n)[None, :] >= frm[:, None]
    squares = p[keep].astype(dt)
    sptr = np.zeros(g + 1, dtype=np.int64)
    np.cumsum(n - frm, out=sptr[1:])
    return CompactBlock(int(first), squares, sptr, frm, frm.copy(),
                        np.zeros(0, dtype=np.int32), n + 1, None)
