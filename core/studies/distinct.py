"""How many of the Warnsdorff tours of a board are really different.

The enumerator lists every tour Warnsdorff's rule allows (strict, every tie followed, open,
from every start); numpy reduces them in blocks to a normal form: an open tour to the smaller
of its two readings, a closed tour (last square a knight move from the first) to its cycle
read from square 0 the smaller way round. Then:

* ``distinct`` — different normal forms: open paths up to reversal, cycles up to start and
  direction;
* ``distinct_up_to_symmetry`` — different canonical forms (the smallest normal form of any
  image under the board's symmetries, :mod:`knightgui_core.board.canonical`);
* ``orbit_sizes`` — how many of those classes have 1, 2, 4 or 8 members among the distinct
  tours (the rule is symmetric, so every image of a tour is a tour too).

Memory: one byte a square per distinct tour (at most 255 squares), refused beyond
:data:`MAX_TOURS` tours. ``steps(stage, done, total)`` reports ``("tours", listed, 0)``
after each block, ``("sort", 0, tours)`` before the one numpy sort and ``("classes", done,
distinct)`` after each slice given its canonical form.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..board.canonical import normal_forms, symmetry_maps
from ..board.canonical import row_less as _row_less
from ..board.squares import Board
from ..system.control import CancelLike, raise_if_cancelled
from ..system.errors import InputError
from ..tietree.enumeration.enumerator import Enumerator
from ..tietree.enumeration.solution_writer import solution_blocks

__all__ = ["DistinctError", "DistinctCounts", "distinct_counts", "distinct_of_algorithms",
           "normal_forms", "MAX_TOURS"]

#: tours a distinct count keeps at most (64 bytes each on 8×8, so about 4 GB)
MAX_TOURS = 60_000_000
#: tours given their canonical form at once (bounds the temporary arrays: about 100 MB)
CHUNK = 200_000

#: ``steps(stage, done, total)``: see the module docstring
Steps = Callable[[str, int, int], object]


class DistinctError(InputError):
    """A board the distinct count cannot take, or a run that would outgrow its memory."""


@dataclass
class DistinctCounts:
    """See the module docstring; ``tours`` counts every tour from every start."""

    rows: int
    cols: int
    tours: int = 0
    closed: int = 0
    distinct: int = 0
    distinct_up_to_symmetry: int = 0
    orbit_sizes: dict[str, int] = field(default_factory=dict)
    #: distinct tours counting every image of every tour found, and those classes' sizes
    distinct_full: int = 0
    full_orbit_sizes: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """The figures as a JSON object (the keys ``study count --distinct --json`` adds)."""
        return {"tours": self.tours, "closed": self.closed, "distinct": self.distinct,
                "distinct_up_to_symmetry": self.distinct_up_to_symmetry,
                "orbit_sizes": dict(self.orbit_sizes)}


def _unique_rows(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    v = a.view(np.dtype((np.void, a.dtype.itemsize * a.shape[1]))).ravel()
    return np.unique(v).view(a.dtype).reshape(-1, a.shape[1])


def _adjacency(b: Board) -> np.ndarray:
    n = b.size
    adj = np.zeros((n, n), dtype=bool)
    for s in range(n):
        for u in b.neighbours[s]:
            if u >= 0:
                adj[s, int(u)] = True
    return adj


def _collect(res: DistinctCounts, enumerators, adj: np.ndarray, cancel: CancelLike,
             progress: Callable[[int, int], object] | None, total: int,
             steps: Steps | None = None) -> list[np.ndarray]:
    """Every solution of each enumerator in normal form (uint8 rows), counted into ``res``."""
    n = adj.shape[0]
    parts: list[np.ndarray] = []
    for i, en in enumerate(enumerators):
        for _first, paths, _branches in solution_blocks(en, cancel=cancel):
            raise_if_cancelled(cancel)
            p = paths.astype(np.uint8)
            cyc = adj[p[:, -1], p[:, 0]] if n > 2 else np.zeros(len(p), dtype=bool)
            res.tours += len(p)
            res.closed += int(cyc.sum())
            parts.append(normal_forms(p, cyc))
            if res.tours > MAX_TOURS:
                raise DistinctError(f"more than {MAX_TOURS:,} tours on {res.rows}×{res.cols}: "
                                    "too many to keep for a distinct count on this machine")
            if steps is not None:
                steps("tours", res.tours, 0)
        if progress is not None:
            progress(i + 1, total)
    return parts


def _classes(res: DistinctCounts, parts: list[np.ndarray], adj: np.ndarray,
             steps: Steps | None = None) -> None:
    """Distinct normal forms, their canonical classes, and the classes' sizes: among the
    tours found (``orbit_sizes``) and as whole orbits under the board's symmetries
    (``full_orbit_sizes``, ``distinct_full``: every image of every tour)."""
    if not parts:
        return
    n = adj.shape[0]
    if steps is not None:
        steps("sort", 0, res.tours)
    distinct = _unique_rows(np.concatenate(parts))
    parts.clear()
    res.distinct = len(distinct)
    # canonical forms in slices, one byte a square throughout (8×8: 64 bytes a tour); the
    # orbit of a tour: how many different normal forms its images have
    maps = symmetry_maps(res.rows, res.cols).astype(np.uint8)
    canon = np.empty_like(distinct)
    orbit = np.zeros(len(distinct), dtype=np.int64)
    for lo in range(0, len(distinct), CHUNK):
        part = distinct[lo:lo + CHUNK]
        cyc = adj[part[:, -1], part[:, 0]] if n > 2 else np.zeros(len(part), bool)
        forms = [part] + [normal_forms(g[part], cyc) for g in maps[1:]]
        best = part.copy()           # the identity's image: already in normal form
        for form in forms[1:]:
            take = _row_less(form, best)
            best[take] = form[take]
        canon[lo:lo + CHUNK] = best
        # distinct images per tour: compare each image with the earlier ones
        same = np.zeros((len(part), len(forms)), dtype=bool)
        for j in range(len(forms)):
            for i in range(j):
                same[:, j] |= (forms[j] == forms[i]).all(axis=1)
        orbit[lo:lo + CHUNK] = (~same).sum(axis=1)
        if steps is not None:
            steps("classes", min(lo + CHUNK, len(distinct)), len(distinct))
    del distinct
    keys = canon.view(np.dtype((np.void, n))).ravel()
    _, first, counts = np.unique(keys, return_index=True, return_counts=True)
    res.distinct_up_to_symmetry = int(len(counts))
    sizes, how_many = np.unique(counts, return_counts=True)
    res.orbit_sizes = {str(int(k)): int(v) for k, v in zip(sizes, how_many)}
    full = orbit[first]
    res.distinct_full = int(full.sum())
    sizes, how_many = np.unique(full, return_counts=True)
    res.full_orbit_sizes = {str(int(k)): int(v) for k, v in zip(sizes, how_many)}


def distinct_counts(rows: int, cols: int, *, cancel: CancelLike = None,
                    progress: Callable[[int, int], object] | None = None,
                    steps: Steps | None = None) -> DistinctCounts:
    """The Warnsdorff tours of a rows × cols board from every start, distinct and up to
    symmetry (module docstring); ``progress(starts done, starts)`` after each start;
    ``cancel`` raises :class:`~knightgui_core.system.errors.Cancelled` between blocks."""
    t0 = time.perf_counter()
    try:
        b = Board(rows, cols)
    except InputError as e:
        raise DistinctError(str(e)) from None
    n = b.size
    if n > 255:
        raise DistinctError(f"the distinct count takes boards of at most 255 squares "
                            f"({rows}×{cols} has {n})")
    adj = _adjacency(b)
    res = DistinctCounts(rows, cols)
    parts = _collect(res, (Enumerator(rows, cols, s) for s in range(n)), adj, cancel,
                     progress, n, steps)
    _classes(res, parts, adj, steps)
    res.seconds = time.perf_counter() - t0
    return res


def distinct_of_algorithms(algos: Iterable[Any], *, cancel: CancelLike = None,
                           progress: Callable[[int, int], object] | None = None
                           ) -> DistinctCounts:
    """The same for Phadke's algorithms on 8×8 (:class:`knightgui_core.studies.phadke.Algorithm`):
    every closed tour each one finds, the distinct cycles among them, up to symmetry, and
    ``distinct_full``: the distinct cycles of every image of those tours (Phadke's full-board
    figures)."""
    t0 = time.perf_counter()
    b = Board(8, 8)
    adj = _adjacency(b)
    res = DistinctCounts(8, 8)
    algos = list(algos)
    ens = (Enumerator(8, 8, a.start, a.end, dict(a.dashes) or None, a.tail) for a in algos)
    parts = _collect(res, ens, adj, cancel, progress, len(algos))
    _classes(res, parts, adj)
    res.seconds = time.perf_counter() - t0
    return res
