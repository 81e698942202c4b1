"""Semi-magic tours found by a search that places the numbers and checks every line: among
the open paths, the closed tours, or the closed tours the half turn keeps.

A closed tour the half turn (r, c) → (R−1−r, C−1−c) maps onto itself numbers ``s`` and
``opp(s)`` ``k`` and ``k ± N/2``, so on 8×8 rows r and 7−r have equal sums exactly when each
holds four numbers of each half. ``mode="half-turn"`` walks the half tours from one square of
each symmetry orbit (the symmetries commute with the half turn), two numbers a move;
``"closed"`` and ``"open"`` place one. A branch is cut once a line can no longer reach its
total (:mod:`knightgui_core.studies.magic.search_kernel`), so an exhausted half-turn search
proves no such tour, numbered from any square either way, is semi-magic. ``nested`` adds the
half rows and half columns (each quarter semi-magic too, as in Beverley's tour): a smaller
space, searched faster. Tours found are checked by :func:`knightgui_core.board.magic.line_sums`.

>>> r = search_magic(4, 4)
>>> r.status, r.tours           # 4×4 has no knight's tour at all
('none', [])
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ...board.canonical import symmetry_maps
from ...board.magic import line_sums, magic_constants
from ...system.control import CancelLike, cancel_requested
from ...system.errors import InputError

__all__ = ["MagicSearchError", "MagicSearchResult", "search_magic", "start_squares", "MODES",
           "MAX_SIDE", "knight_table"]

#: the largest side searched
MAX_SIDE = 16
#: the searches: which tours are numbered
MODES = ("open", "closed", "half-turn")
#: nodes per kernel call between looks at the clock and the cancel flag
CHUNK = 1 << 21


class MagicSearchError(InputError):
    """A board, totals, limit or budget that is not one."""


@dataclass(frozen=True)
class MagicSearchResult:
    """``status``: ``"found"`` (``limit`` tours in ``tours``), ``"none"`` (every start
    exhausted: ``tours`` holds all there are; none proves no tour of the mode from those
    starts has the sums), ``"budget"`` (``seconds`` or ``node_limit`` spent) or
    ``"cancelled"``. ``tours``: flat squares (row·cols + col) in number order;
    ``starts_done`` of ``starts`` exhausted."""

    status: str
    tours: list[list[int]]
    nodes: int
    seconds: float
    starts_done: int
    starts: list[int] = field(default_factory=list)

    def to_json_dict(self) -> dict:
        """JSON-ready values, counts as exact ints."""
        return {"status": self.status, "tours": [list(t) for t in self.tours],
                "found": len(self.tours), "nodes": self.nodes,
                "seconds": round(self.seconds, 3), "starts_done": self.starts_done,
                "starts": list(self.starts)}


def _whole(name: str, v: object, lo: int, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not lo <= v <= hi:
        raise MagicSearchError(f"{name} must be a whole number from {lo} to {hi}, got {v!r}")
    return int(v)


def knight_table(rows: int, cols: int) -> np.ndarray:
    """``int64[N, 8]``: each square's knight neighbours (flat ``row * cols + col``) packed to
    the front, -1 pads. The search tries children of equal onward degree in this order, so
    the order is part of its node counts and of which tour comes first."""
    nbr = np.full((rows * cols, 8), -1, np.int64)
    for s in range(rows * cols):
        r, c = divmod(s, cols)
        k = 0
        for dr, dc in ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)):
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                nbr[s, k] = (r + dr) * cols + c + dc
                k += 1
    return nbr


def start_squares(rows: int, cols: int) -> list[int]:
    """One square of each orbit of the board's symmetries (the smallest): every numbered
    tour is the image of one that starts on one of these (8×8: 10 squares)."""
    maps = symmetry_maps(rows, cols)
    return sorted({int(maps[:, s].min()) for s in range(rows * cols)})


def search_magic(rows: int, cols: int, mode: str = "half-turn", limit: int = 1,
                 seconds: float | None = None, node_limit: int = 0, cancel: CancelLike = None,
                 starts: Sequence[int] | None = None,
                 totals: tuple[Sequence[int], Sequence[int]] | None = None,
                 nested: bool = False, prefix: Sequence[int] | None = None,
                 progress: Callable[[int, int, int, int], object] | None = None
                 ) -> MagicSearchResult:
    """Search the tours of ``rows``×``cols`` of ``mode`` (:data:`MODES`), numbered from each
    square of ``starts`` (default :func:`start_squares`), whose rows and columns add up to
    ``totals`` (row totals, column totals; default the semi-magic constants), with ``nested``
    each half line to half its line's total. Stops after ``limit`` tours, ``seconds`` of wall
    time, ``node_limit`` nodes (0: none) or a cancel (:class:`MagicSearchResult`).
    ``prefix`` (instead of ``starts``): only tours beginning with these squares (half-turn:
    fewer than half the board). ``progress(nodes, tours, starts exhausted, starts)`` after
    each kernel call of :data:`CHUNK` nodes."""
    from .search_kernel import (
        CLOSED,
        FOUND,
        HALF_TURN,
        NODES,
        OPEN,
        STARTS_DONE,
        KnightBoard,
        Lines,
        SearchState,
        magic_search,
    )
    if mode not in MODES:
        raise MagicSearchError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    rows = _whole("rows", rows, 1, MAX_SIDE)
    cols = _whole("cols", cols, 1, MAX_SIDE)
    limit = _whole("limit", limit, 1, 1 << 20)
    node_limit = _whole("node_limit", node_limit, 0, 1 << 62)
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                or not 0 < seconds < float("inf")):
        raise MagicSearchError(f"seconds must be a positive number, got {seconds!r}")
    n = rows * cols
    if n % 2 and mode == "half-turn":
        raise MagicSearchError(f"{cols}×{rows} has a centre square the half turn keeps: "
                               "no closed tour is mapped onto itself")
    if totals is None:
        rt, ct = magic_constants(rows, cols)
        if rt < 0 or ct < 0:
            raise MagicSearchError(f"the lines of {cols}×{rows} cannot all add up to one "
                                   "whole total")
        row_totals, col_totals = [rt] * rows, [ct] * cols
    else:
        row_totals, col_totals = [list(t) for t in totals]
        if len(row_totals) != rows or len(col_totals) != cols:
            raise MagicSearchError("totals must give one total per row and one per column")
        row_totals = [_whole("a row total", t, 0, n * n) for t in row_totals]
        col_totals = [_whole("a column total", t, 0, n * n) for t in col_totals]
    start_list = start_squares(rows, cols) if starts is None else [
        _whole("a start square", s, 0, n - 1) for s in starts]
    if not start_list:
        raise MagicSearchError("no start square given")
    sq = np.arange(n, dtype=np.int64)
    r_of, c_of = sq // cols, sq % cols
    nbr = knight_table(rows, cols)
    opp = (rows - 1 - r_of) * cols + (cols - 1 - c_of)
    colour = ((r_of + c_of) % 2).astype(np.int64)
    lines = [r_of, rows + c_of]
    all_totals = row_totals + col_totals
    if nested:
        if rows % 2 or cols % 2 or any(t % 2 for t in all_totals):
            raise MagicSearchError("nested needs even sides and even line totals")
        hr = rows + cols + 2 * r_of + (c_of >= cols // 2)           # half rows
        hc = 3 * rows + cols + 2 * c_of + (r_of >= rows // 2)       # half columns
        lines += [hr, hc]
        all_totals += [t // 2 for t in row_totals for _ in range(2)]
        all_totals += [t // 2 for t in col_totals for _ in range(2)]
    line_of = np.stack(lines, axis=1).astype(np.int64)
    tot = np.asarray(all_totals, np.int64)
    code = {"open": OPEN, "closed": CLOSED, "half-turn": HALF_TURN}[mode]
    half = n // 2 if mode == "half-turn" else n
    st = np.array([0, -1], np.int64)
    path = np.zeros(half, np.int64)
    order = np.zeros((half, 8), np.int64)
    cnt = np.zeros(half, np.int64)
    pos = np.zeros(half, np.int64)
    counters = np.zeros(3, np.int64)
    found = np.zeros((limit, n), np.int64)
    if prefix is not None:
        if starts is not None:
            raise MagicSearchError("give start squares or a prefix, not both")
        start_list = _prefix_state(prefix, mode, nbr, opp, st, path, order, cnt, pos)
    starts_arr = np.asarray(start_list, np.int64)
    board, line_table = KnightBoard(nbr, opp, colour), Lines(line_of, tot)
    state = SearchState(st, path, order, cnt, pos)
    t0 = time.perf_counter()
    status = "budget"
    while True:
        chunk = CHUNK
        if node_limit:
            chunk = min(chunk, node_limit - int(counters[NODES]))
            if chunk <= 0:
                break
        got = magic_search(board, line_table, starts_arr, code, state, counters, found, chunk)
        if progress is not None:
            progress(int(counters[NODES]), min(int(counters[FOUND]), limit),
                     int(counters[STARTS_DONE]), len(start_list))
        if got >= 0:
            status = "found" if got == 1 else "none"
            break
        if cancel_requested(cancel):
            status = "cancelled"
            break
        if seconds is not None and time.perf_counter() - t0 >= seconds:
            break
    elapsed = time.perf_counter() - t0
    k = min(int(counters[FOUND]), limit)
    tours = [[int(v) for v in found[i]] for i in range(k)]
    for t in tours:
        _check(t, rows, cols, nbr, row_totals, col_totals, mode != "open")
    return MagicSearchResult(status, tours, int(counters[NODES]), elapsed,
                               int(counters[STARTS_DONE]), start_list)


def _prefix_state(prefix: Sequence[int], mode: str, nbr: np.ndarray, opp: np.ndarray,
                  st: np.ndarray, path: np.ndarray, order: np.ndarray, cnt: np.ndarray,
                  pos: np.ndarray) -> list[int]:
    """Set the kernel's resume state so that it searches below ``prefix`` only (the levels
    above it have no other child left); returns the one start square."""
    n = nbr.shape[0]
    levels = path.shape[0]
    pre = [_whole("a prefix square", v, 0, n - 1) for v in prefix]
    used = set(pre) | ({int(opp[v]) for v in pre} if mode == "half-turn" else set())
    if not 1 <= len(pre) < levels or len(used) != len(pre) * (2 if mode == "half-turn" else 1):
        raise MagicSearchError(f"the prefix must be 1 to {levels - 1} different squares"
                               + (", no two opposite" if mode == "half-turn" else ""))
    if any(b not in nbr[a] for a, b in zip(pre, pre[1:])):
        raise MagicSearchError("the prefix must be a knight's path")
    k = len(pre)
    path[:k] = pre
    cnt[:k] = 0
    pos[:k] = 0
    free = [int(u) for u in nbr[pre[-1]] if u >= 0 and int(u) not in used]
    free.sort(key=lambda u: sum(1 for v in nbr[u] if v >= 0 and int(v) not in used))
    order[k - 1, :len(free)] = free
    cnt[k - 1] = len(free)
    st[:] = (0, k - 1)
    return pre[:1]


def _check(tour: list[int], rows: int, cols: int, nbr: np.ndarray, row_totals: list[int],
           col_totals: list[int], closed_only: bool) -> None:
    """A tour the kernel gave is a knight's tour (closed when asked) with the asked line
    sums (else a bug: AssertionError)."""
    n = rows * cols
    closed = all(tour[(i + 1) % n] in nbr[tour[i]] for i in range(n - 1 + closed_only))
    numbers = np.zeros(n, np.int64)
    numbers[np.asarray(tour)] = np.arange(1, n + 1)
    s = line_sums(numbers.reshape(rows, cols))
    if (sorted(tour) != list(range(n)) or not closed or list(s.rows) != row_totals
            or list(s.cols) != col_totals):
        raise AssertionError("the half-turn search returned a tour without the asked sums")
