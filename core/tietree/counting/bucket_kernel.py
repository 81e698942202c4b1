"""The buckets of the counting tables, written once for both layouts: a key's hash, its
bucket (the hash's low bits, or its top bits for a table that doubles in place), and the scan
of a bucket for a key or for the place to store one. An entry is a ``uint64`` row whose first
columns hold the key; the key's last word shares its column with the subtree's cost (above
``bits`` bits), which replacement compares. ``memo_kernel``, ``bits_memo_kernel`` and the
every-tour counters use them.
"""
from __future__ import annotations

import numpy as np

from ...system.jit import njit

#: entries per bucket
WAYS = 2
#: the key's bits in word 2 of an entry; the subtree's cost sits above them
KEY_BITS = 20
_KEY_MASK = np.uint64((1 << KEY_BITS) - 1)
_COST_MAX = np.int64((1 << (64 - KEY_BITS)) - 1)

_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xC2B2AE3D27D4EB4F)
_M3 = np.uint64(0x165667B19E3779F9)


@njit(inline="always")
def fmix(h: np.uint64) -> np.uint64:
    """The last mixing steps of a key's hash (every bit of ``h`` reaches the top bits)."""
    h ^= h >> np.uint64(31)
    h *= _M1
    h ^= h >> np.uint64(29)
    return h


@njit(inline="always")
def _hash(w0: np.uint64, w1: np.uint64, w2: np.uint64) -> np.uint64:
    return fmix((w0 * _M1) ^ (w1 * _M2) ^ (w2 * _M3))


@njit
def _bucket(w0: np.uint64, w1: np.uint64, w2: np.uint64, nbuckets: int) -> int:
    """First entry of the bucket of a key (``nbuckets`` a power of two), from the hash's
    low bits."""
    return np.int64(_hash(w0, w1, w2) & np.uint64(nbuckets - 1)) * WAYS


@njit(inline="always")
def bucket_shift(nbuckets: int) -> np.uint64:
    """``63 - log2(nbuckets)``, for :func:`_top_bucket` (``nbuckets`` a power of two)."""
    lg = 0
    while (1 << lg) < nbuckets:
        lg += 1
    return np.uint64(63 - lg)


@njit(inline="always")
def _top_bucket(w0: np.uint64, w1: np.uint64, w2: np.uint64, shift: np.uint64) -> int:
    """First entry of the bucket of a key from the hash's top bits (``shift`` from
    :func:`bucket_shift`): when the table doubles, bucket ``b`` splits into ``2b`` and
    ``2b + 1``, so :func:`memo_rehash` reads and writes both tables in order."""
    return np.int64((_hash(w0, w1, w2) >> shift) >> np.uint64(1)) * WAYS


@njit(inline="always")
def same_key(tab: np.ndarray, s: int, key: tuple, bits: int) -> bool:
    """Whether entry ``s`` holds ``key`` (a tuple of uint64 words in the entry's first
    columns; the last one in the low ``bits`` of its column, the subtree's cost above)."""
    last = len(key) - 1
    mask = (np.uint64(1) << np.uint64(bits)) - np.uint64(1)
    if (tab[s, last] & mask) != key[last]:
        return False
    for j in range(last):
        if tab[s, j] != key[j]:
            return False
    return True


@njit(inline="always")
def find_key(tab: np.ndarray, base: int, ways: int, key: tuple, bits: int) -> int:
    """The entry holding ``key`` in the bucket of ``ways`` entries at ``base``, or -1 (the
    layout of :func:`same_key`: this table's and the bitboard count's)."""
    for i in range(ways):
        if same_key(tab, base + i, key, bits):
            return base + i
    return -1


@njit(inline="always")
def slot_for_key(tab: np.ndarray, base: int, ways: int, key: tuple, bits: int) -> tuple:
    """Where to store ``key``: its own entry, an empty one, else the cheapest subtree's.
    Returns (entry, 1 when an occupied entry of another key is replaced, 2 when the entry
    was empty, 0 when it held this key)."""
    last = len(key) - 1
    cheapest = base
    for i in range(ways):
        s = base + i
        if tab[s, last] == 0:
            return s, 2
        if same_key(tab, s, key, bits):
            return s, 0
        if (tab[s, last] >> np.uint64(bits)) < (tab[cheapest, last] >> np.uint64(bits)):
            cheapest = s
    return cheapest, 1


@njit
def _find(tab: np.ndarray, base: int, w0: np.uint64, w1: np.uint64, w2: np.uint64) -> int:
    """The entry holding the key in the bucket at ``base``, or -1."""
    return find_key(tab, base, WAYS, (w0, w1, w2), KEY_BITS)


@njit
def _slot_for(tab: np.ndarray, base: int, w0: np.uint64, w1: np.uint64,
              w2: np.uint64) -> tuple:
    """Where to store a key (:func:`slot_for_key`)."""
    return slot_for_key(tab, base, WAYS, (w0, w1, w2), KEY_BITS)
