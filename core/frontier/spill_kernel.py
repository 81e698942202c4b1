"""The frontier's slices on disk: the rows of a table sorted into slices and thread shares.

A key's slice is ``h % slices`` and its thread share ``(h >> 32) % shares`` of the hash
``h`` that :func:`knightgui_core.frontier.word.key_hash` computes (the same
formula, written for one key): rows of one key always land in one slice and, in it, one
share, so each share of a slice is merged on its own thread.
"""
from __future__ import annotations

import numpy as np

from ..system.jit import njit

_M0 = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xC2B2AE3D27D4EB4F)
_M2 = np.uint64(0xBF58476D1CE4E5B9)


@njit(inline="always")
def _key_hash(k0: np.uint64, k1: np.uint64) -> np.uint64:
    h = k0 * _M0
    h ^= k1 * _M1
    h ^= h >> np.uint64(31)
    h *= _M2
    h ^= h >> np.uint64(29)
    return h


@njit
def spill_route(rows: np.ndarray, words: int, slices: int, shares: int, out: np.ndarray,
                starts: np.ndarray) -> int:
    """Copies the used rows of ``rows`` (``uint64[n, words + m]``, key word 0 not 0) into
    ``out`` grouped by bucket ``slice · shares + share``, bucket ``b`` in
    ``out[starts[b]:starts[b + 1]]`` (``starts``: int64[slices · shares + 1]), each bucket
    in the rows' order. Returns the rows copied; -2 when the arrays do not fit each other."""
    n = rows.shape[0]
    width = rows.shape[1]
    if (words < 1 or words > 2 or width <= words or slices < 1 or shares < 1
            or slices * shares > (1 << 24) or out.shape[0] < n or out.shape[1] != width
            or starts.shape[0] != slices * shares + 1):
        return -2
    su = np.uint64(slices)
    tu = np.uint64(shares)
    bucket = np.empty(n, np.int64)
    count = np.zeros(slices * shares + 1, np.int64)
    for i in range(n):
        k0 = rows[i, 0]
        if k0 == 0:
            bucket[i] = -1
            continue
        k1 = rows[i, 1] if words == 2 else np.uint64(0)
        h = _key_hash(k0, k1)
        b = np.int64(h % su) * shares + np.int64((h >> np.uint64(32)) % tu)
        bucket[i] = b
        count[b + 1] += 1
    for b in range(slices * shares):
        count[b + 1] += count[b]
    for b in range(slices * shares + 1):
        starts[b] = count[b]
    for i in range(n):
        b = bucket[i]
        if b < 0:
            continue
        p = count[b]
        for c in range(width):
            out[p, c] = rows[i, c]
        count[b] = p + 1
    return starts[slices * shares]
