"""Close an open knight's tour by path reversals (Pósa rotations), numba.

A Hamiltonian path ``v0 … vN-1`` with an end ``z = vN-1`` next to some ``vi`` can be
*rotated*: reversing ``vi+1 … vN-1`` gives the path ``v0 … vi z … vi+1``, again Hamiltonian,
now ending at ``vi+1``. The same works at the front end. The path is closed as soon as its two
ends are a knight move apart.

Search, per step:

1. done when the ends are a knight move apart;
2. a rotation at either end whose new end is a knight move from the other end is taken at
   once (one step from closed);
3. otherwise one rotation is chosen at either end: mostly the one whose new end lies
   closest (in knight moves, estimated) to the other end, with a cheap reversal breaking
   ties, sometimes (1 in 4) a random one, and never the rotation that undoes the last one.

Every step keeps a Hamiltonian path, so a run out of steps still returns one. A step costs
the length of the reversed segment (at most N); pulling the ends together keeps the steps
near the ends' distance on typical Warnsdorff paths.

Source: L. Pósa, "Hamiltonian circuits in random graphs", Discrete Mathematics 14 (1976)
359–364 (rotation–extension).
"""
from __future__ import annotations

import numpy as np

from ..board.validate_kernel import _is_move
from ..system.jit import njit
from ..system.rng_kernel import new_state, xorshift64


@njit
def _kdist(a, b, cols):
    """Lower estimate of the number of knight moves between squares ``a`` and ``b``."""
    dx = abs(a % cols - b % cols)
    dy = abs(a // cols - b // cols)
    d = max((dx + 1) // 2, (dy + 1) // 2, (dx + dy + 2) // 3)
    if (d + dx + dy) % 2 == 1:
        d += 1
    return d


@njit
def _reverse(path, pos, i, j):
    """Reverse ``path[i..j]`` (inclusive) and update ``pos``."""
    while i < j:
        a = path[i]
        b = path[j]
        path[i] = b
        path[j] = a
        pos[b] = i
        pos[a] = j
        i += 1
        j -= 1
    if i == j:
        pos[path[i]] = i


@njit
def repair_closed_kernel(nbr: np.ndarray, cols: int, path: np.ndarray, max_steps: int, seed: int,
                         stats: np.ndarray) -> int:
    """Rotate ``path`` (int32[N], a Hamiltonian path, modified in place) until its ends are a
    knight move apart. ``nbr``: int32[N, k] neighbours (-1 none). ``cols``: board width (for
    distances). Returns 1 when closed, 0 when ``max_steps`` rotations did not close it.
    ``stats`` (int64[2]) receives the rotations made and the squares moved by reversals."""
    n = path.shape[0]
    k = nbr.shape[1]
    pos = np.empty(n, dtype=np.int64)
    for i in range(n):
        pos[path[i]] = i
    rng = new_state(seed, 0x632BE59BD9B4E019)
    stats[0] = 0
    stats[1] = 0
    if n < 2:
        return 0
    last_front = -1
    last_back = -1
    for step in range(max_steps + 1):
        a = path[0]
        z = path[n - 1]
        if _is_move(nbr, a, z):
            return 1
        if step == max_steps:
            break
        stats[0] += 1
        # (2) one rotation from closed?
        for t in range(k):
            w = nbr[z, t]
            if w >= 0:
                i = pos[w]
                if i < n - 2 and _is_move(nbr, path[i + 1], a):
                    stats[1] += n - 1 - i
                    _reverse(path, pos, i + 1, n - 1)
                    return 1
            w = nbr[a, t]
            if w >= 0:
                j = pos[w]
                if j > 1 and _is_move(nbr, path[j - 1], z):
                    stats[1] += j
                    _reverse(path, pos, 0, j - 1)
                    return 1
        # (3) choose one rotation
        pick_random = (xorshift64(rng) & np.uint64(3)) == 0
        best_key = np.int64(1) << 62
        best_side = -1
        best_idx = -1
        count = 0
        for side in range(2):
            e = z if side == 0 else a
            other = a if side == 0 else z
            for t in range(k):
                w = nbr[e, t]
                if w < 0:
                    continue
                i = pos[w]
                if side == 0:
                    if i >= n - 2 or w == last_back:
                        continue
                    s = path[i + 1]
                    cost = n - 1 - i
                else:
                    if i <= 1 or w == last_front:
                        continue
                    s = path[i - 1]
                    cost = i
                count += 1
                if pick_random:
                    key = np.int64(xorshift64(rng) >> np.uint64(2))
                else:
                    key = (np.int64(_kdist(s, other, cols)) << 40) + cost
                if key < best_key:
                    best_key = key
                    best_side = side
                    best_idx = i
        if count == 0:
            break
        if best_side == 0:
            last_back = path[best_idx]
            last_front = -1
            stats[1] += n - 1 - best_idx
            _reverse(path, pos, best_idx + 1, n - 1)
        else:
            last_front = path[best_idx]
            last_back = -1
            stats[1] += best_idx
            _reverse(path, pos, 0, best_idx - 1)
    return 0


def _infer_cols(nbr: np.ndarray) -> int:
    """Board width from a neighbour table in Phadke's order (type 8 is (+2, +1), so from
    square 0 it lands on ``cols + 2``; type 7 (+1, +2) on ``2 * cols + 1``)."""
    if nbr.shape[1] >= 8:
        if nbr[0, 7] >= 0:
            return int(nbr[0, 7]) - 2
        if nbr[0, 6] >= 0:
            return (int(nbr[0, 6]) - 1) // 2
    return 1


def repair_closed(nbr: np.ndarray, path: np.ndarray, max_steps: int = 100_000, seed: int = 0,
                  cols: int | None = None,
                  stats: np.ndarray | None = None) -> tuple[bool, np.ndarray]:
    """Try to turn the open tour ``path`` into a closed one by rotations.

    ``nbr``: int32[N, 8] neighbour table (``Board.neighbours``); ``path``: N flat squares, a
    valid open tour (not modified); ``max_steps``: most rotations to try; ``seed``: choice
    among rotations, reproducible; ``cols``: board width (inferred from ``nbr`` if omitted).
    Returns ``(ok, new_path)``: ``ok`` is True when ``new_path`` (int32[N]) is closed; when
    False ``new_path`` is still a valid open tour. Its first square is usually no longer
    ``path[0]``: rotate the cycle to put a chosen start first.
    """
    nbr = np.ascontiguousarray(nbr, dtype=np.int32)
    work = np.array(path, dtype=np.int32, copy=True)
    if nbr.ndim != 2 or work.ndim != 1 or nbr.shape[0] != work.shape[0]:
        raise ValueError(f"repair_closed: nbr must be [N, k] and path [N]; got "
                         f"{nbr.shape} and {work.shape}")
    if int(max_steps) < 0:
        raise ValueError("repair_closed: max_steps must be >= 0")
    n = work.shape[0]
    if n and (work.min() < 0 or work.max() >= n or np.bincount(work, minlength=n).max() != 1):
        raise ValueError("repair_closed: path must visit each of the N squares once")
    if nbr.size and (nbr.min() < -1 or nbr.max() >= n):
        raise ValueError("repair_closed: nbr entries must be squares 0..N-1 or -1 (none)")
    if cols is None:
        cols = _infer_cols(nbr)
    if not 1 <= int(cols) <= max(n, 1):
        raise ValueError(f"repair_closed: cols must be between 1 and N, got {cols}")
    if stats is None:
        st = np.zeros(2, dtype=np.int64)
    else:
        st = stats
        if (not isinstance(st, np.ndarray) or st.dtype != np.int64 or st.ndim != 1
                or st.shape[0] < 2 or not st.flags.writeable or not st.flags.c_contiguous):
            raise ValueError("repair_closed: stats must be a writable int64 array of at "
                             "least 2 entries")
    ok = repair_closed_kernel(nbr, int(cols), work, int(max_steps), int(seed), st)
    return bool(ok), work
