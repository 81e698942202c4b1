"""Checks that keep the enumeration kernels inside their arrays.

The kernels (:mod:`knightgui_core.tietree.enumeration.enumerate_kernel`,
:mod:`knightgui_core.tietree.enumeration.bitboard_kernel`) trust their state.
:func:`check_state` accepts a saved state only when the search itself could have reached it
(a knight's walk from the start, options matrix and tie list agreeing, the scores or
bitboards the path implies), so every index they compute stays in range. :func:`at_solution`
says whether the state stands on a solution.

:data:`BYTES_PER_SQUARE` is the measured peak of building an :class:`Enumerator` (about 293
bytes per square at 1000×1000 with ``tracemalloc``, plus the kernel state) rounded up.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ...board.dash import EnumerationError
from . import bitboard_kernel as _k64
from . import enumerate_kernel as _k

__all__ = ["check_state", "at_solution", "BYTES_PER_SQUARE"]

BYTES_PER_SQUARE = 320


def _fail(what: str) -> EnumerationError:
    return EnumerationError(f"saved enumeration state is damaged: {what}")


def check_state(engine: Any, arrays: dict) -> None:
    """Raise :class:`EnumerationError` unless ``arrays`` (``path``, ``mo``, ``ties``,
    ``st`` and ``key`` or ``bits``, already of the engine's shapes and dtypes) is a state
    the search of ``engine`` can reach. ``engine``: a
    :class:`knightgui_core.tietree.enumeration.engine.Engine` (not imported: that module imports this one)."""
    n = engine.board.size
    L = engine.L
    st, path, mo, ties = (np.asarray(arrays[k]) for k in ("st", "path", "mo", "ties"))
    if int(st[_k.ST_L]) != L:
        raise _fail(f"its length {int(st[_k.ST_L])} is not this search's {L}")
    k = int(st[_k.ST_K])
    phase = int(st[_k.ST_PHASE])
    ntie = int(st[_k.ST_NTIE])
    if not 1 <= k <= L:
        raise _fail(f"the current number {k} is outside 1..{L}")
    if phase not in (_k.PH_RUNNING, _k.PH_LEAF, _k.PH_DONE):
        raise _fail(f"unknown phase {phase}")
    for slot, name in ((_k.ST_SOLUTIONS, "solutions"), (_k.ST_DEAD_ENDS, "dead ends"),
                       (_k.ST_FORWARD, "forward moves")):
        if int(st[slot]) < 0:
            raise _fail(f"negative count of {name}")
    for slot in (_k.ST_BRANCH, _k.ST_SOL_BRANCH):
        if not 0 <= int(st[slot]) <= L + 1:
            raise _fail("a branch number is out of range")
    if path.min() < 0 or path.max() >= n:
        raise _fail("a square is off the board")
    walk = path[1:k + 1].astype(np.int64)
    if int(walk[0]) != engine.start:
        raise _fail("the path does not begin at the start square")
    if len(np.unique(walk)) != k:
        raise _fail("the path visits a square twice")
    if engine.chain and np.isin(walk, np.asarray(engine.chain)).any():
        raise _fail("the path enters the reserved tail")
    nbr = engine.nbr
    if k > 1 and not (nbr[walk[:-1]] == walk[1:, None]).any(axis=1).all():
        raise _fail("two consecutive squares are not a knight move apart")
    # options matrix and tie list
    if not 0 <= ntie < k:
        raise _fail(f"{ntie} stored ties at number {k}")
    if phase == _k.PH_DONE and ntie:
        raise _fail("finished with options left")
    tl = ties[:ntie].astype(np.int64)
    if ntie and (tl.min() < 1 or tl.max() >= k or (np.diff(tl) <= 0).any()):
        raise _fail("the tie list is not ascending numbers below the current one")
    cnt = mo[:, 0].astype(np.int64)
    if cnt.min() < 0 or cnt.max() > 7:
        raise _fail("an options-matrix row holds more than 7 options")
    if not np.array_equal(np.flatnonzero(cnt), tl):
        raise _fail("the options matrix and the tie list disagree")
    slots = np.arange(8)[None, :]
    used = (slots >= 1) & (slots <= cnt[:, None])
    if (mo[~used & (slots >= 1)] != 0).any():
        raise _fail("an options-matrix row has entries past its count")
    if ((mo[:, 1:] < 0) | (mo[:, 1:] > 8)).any() or (mo[:, 1:][used[:, 1:]] == 0).any():
        raise _fail("an options-matrix entry is not a move type 1..8")
    pos = np.full(n, L + 2, dtype=np.int64)
    pos[walk] = np.arange(1, k + 1)
    for j in tl:
        types = mo[j, 1:cnt[j] + 1].astype(np.int64)
        dest = nbr[walk[j - 1], types - 1]
        if (dest < 0).any() or (pos[dest[dest >= 0]] <= j).any():
            raise _fail(f"a stored option of number {j} leads off the board or back")
    # scores / bitboards implied by the path
    if engine.bits_mode:
        bits = np.asarray(arrays["bits"])
        b0 = _k64.initial_bits(n, engine.chain, engine.start)
        free, avail = int(b0[0]), int(b0[1])
        if int(bits[1, 0]) != free or int(bits[1, 1]) != avail:
            raise _fail("the board bits do not match the path")
        for j in range(2, k + 1):
            m = ~(1 << int(walk[j - 1]))
            free &= m
            avail &= m
            if int(bits[j, 0]) != free or int(bits[j, 1]) != avail & ((1 << 64) - 1):
                raise _fail("the board bits do not match the path")
    else:
        key = np.zeros(n, dtype=np.int32)
        _k.init_key(engine.nbr, engine.dashed_mask, engine.reserved_mask, key)
        key[walk] += _k.BLOCKED
        d = engine.dl[walk]
        d = d[np.arange(8)[None, :] < engine.dcount[walk][:, None]]
        np.subtract.at(key, d, 1)
        if not np.array_equal(key, np.asarray(arrays["key"])):
            raise _fail("the square scores do not match the path")


def at_solution(engine: Any) -> bool:
    """Whether the engine's state stands on a solution (number L placed next to the end)."""
    st = engine.state.scalars.tolist()      # one conversion, not one per slot
    L = engine.L
    if st[_k.ST_PHASE] != _k.PH_LEAF or st[_k.ST_K] != L or st[_k.ST_SOLUTIONS] < 1:
        return False
    last = int(engine.state.path[L])
    if engine.bits_mode:
        return bool((int(engine.masks[1]) >> last) & 1)
    return bool(engine.adj_end[last])
