"""The one pseudo-random generator of the kernels: xorshift64 over a ``uint64[1]`` state.

Reproducible by seed on every platform; used for the ``random`` tie rule, the rotation
repair and the construction's base-piece search.
"""
from __future__ import annotations

import numpy as np

from .jit import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit
def new_state(seed: int, salt: int) -> np.ndarray:
    """A ``uint64[1]`` state from a seed and a per-use salt (never zero)."""
    state = np.empty(1, dtype=np.uint64)
    state[0] = np.uint64(seed) * GOLDEN + np.uint64(salt)
    if state[0] == 0:
        state[0] = np.uint64(1)
    return state


@njit
def xorshift64(state: np.ndarray) -> np.uint64:
    """Advance the state (``uint64[1]``, from :func:`new_state`) in place and return the
    next 64-bit value."""
    x = state[0]
    x ^= (x << np.uint64(13)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    x ^= x >> np.uint64(7)
    x ^= (x << np.uint64(17)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    state[0] = x
    return x
