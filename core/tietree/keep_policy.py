"""What an exhaustive run keeps for stepping, and how it goes through the search in bounded
chunks: the policy the window's solver thread follows, Qt-free (the thread only loops,
flushes and emits).

:func:`kept_solution_chunks` drives an
:class:`knightgui_core.tietree.enumeration.enumerator.Enumerator` and yields, chunk by chunk,
the solutions to keep (a :class:`knightgui_core.tietree.enumeration.kept_solutions.CompactBlock`)
or None. Each chunk is bounded (:data:`KEEP_STEPS` or :data:`CHUNK_STEPS` forward moves), so
its caller can stop between two. The first ``keep`` solutions are kept, fewer when their paths
would pass :data:`KEEP_BYTES` (:func:`keep_cap`); the search counts on after that, up to
``limit`` solutions (0: all).
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

from .enumeration.kept_solutions import CompactBlock, compact_paths, path_dtype

if TYPE_CHECKING:
    from .alltours.all_tours_list import AllToursLister
    from .enumeration.enumerator import Enumerator

__all__ = ["CHUNK_STEPS", "KEEP_BYTES", "KEEP_STEPS", "SOLUTION_BLOCK", "BLOCK_BYTES",
           "path_dtype", "keep_cap", "kept_solution_chunks", "kept_path_chunks"]

#: forward moves per counting chunk (bounds how long a stop request waits)
CHUNK_STEPS = 200_000
#: memory for solutions kept for stepping (paths dominate: 1, 2 or 4 bytes per square)
KEEP_BYTES = 512 * 2**20
#: solutions collected per kernel call, at most KEEP_STEPS forward moves (tens of ms on 8×8),
#: and the scratch memory one call may use (the squares that changed: at most 1, 2 or 4
#: bytes per square per solution, and 16 bytes of offsets). Few long calls: between two calls
#: the caller's thread needs the GIL, which a window's thread may hold for a whole switch
#: interval (5 ms) while it paints
SOLUTION_BLOCK = 65536
KEEP_STEPS = 2_000_000
BLOCK_BYTES = 8 * 2**20


def keep_cap(size: int, keep: int, budget: int = KEEP_BYTES) -> int:
    """How many solutions of ``size`` squares are kept: ``keep``, or fewer when their paths
    would need more than ``budget`` bytes (at least 1)."""
    per = size * np.dtype(path_dtype(size)).itemsize + 64
    return min(int(keep), max(1, int(budget) // per))


def kept_solution_chunks(en: Enumerator, keep: int, limit: int = 0,
                         budget: int | None = None) -> Iterator[CompactBlock | None]:
    """Run ``en`` to its end (or ``limit`` solutions) in bounded chunks, yielding the
    solutions to keep or None (see the module docstring). Stop by no longer iterating."""
    size = en.board.size
    cap = keep_cap(size, keep, KEEP_BYTES if budget is None else budget)
    stored = 0
    per_call = max(1, min(SOLUTION_BLOCK, BLOCK_BYTES // (size * path_dtype(size)().itemsize + 16)))
    while not en.exhausted:
        if limit and en.solutions >= limit:
            return
        want = per_call if not limit else min(per_call, limit - en.solutions)
        if stored < cap:
            got = en.block_compact(min(want, cap - stored), KEEP_STEPS)
            stored += len(got)
            yield got if len(got) else None
        elif limit:
            en.block(want, CHUNK_STEPS)           # solutions beyond the cap are only counted
            yield None
        else:
            en.count(cancel=lambda: True, chunk=CHUNK_STEPS)   # one bounded chunk
            yield None


def kept_path_chunks(lister: AllToursLister, keep: int, limit: int = 0,
                     budget: int | None = None) -> Iterator[CompactBlock | None]:
    """:func:`kept_solution_chunks` for the listing of every path
    (:class:`knightgui_core.tietree.alltours.all_tours_list.AllToursLister`), each chunk
    bounded by :data:`CHUNK_STEPS` nodes of the search."""
    size = lister.n
    cap = keep_cap(size, keep, KEEP_BYTES if budget is None else budget)
    per_call = max(1, min(SOLUTION_BLOCK, BLOCK_BYTES // (size * 4 + 16)))
    while not lister.done:
        if limit and lister.found >= limit:
            return
        want = per_call if not limit else min(per_call, limit - lister.found)
        first = lister.found + 1
        paths = lister.block(want, CHUNK_STEPS)
        kept = min(len(paths), max(0, cap - (first - 1)))
        yield compact_paths(paths[:kept], first) if kept else None
