"""Every knight's tour of a small board, not only Warnsdorff's: the paths from each start.

For each start square, :func:`knightgui_core.tietree.alltours.alltours_kernel.count_all` counts the paths
of the knight through every square (directed: a path and its reverse are two, as OEIS A165134
counts them) and how many of them are closed (their last square a knight move from the start).
Starts that a symmetry maps onto each other are counted once. One task per start class on the
runner (:mod:`knightgui_core.run.runner`), so a store keeps finished classes.

>>> res = run_all_tours(5, 5, runner=None)                  # doctest: +SKIP
>>> res.totals["tours"]                                     # 1,728 (A165134)
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..board.squares import Board
from ..run.runner import RunReport, Task, run_tasks
from ..run.store import ResultStore
from ..run.store_shapes import obj, result_shape, whole
from ..tietree.alltours.alltours_kernel import count_all
from ..tietree.counting.subtrees import CountBoard, CountError, start_classes
from ..tietree.counting.table import TransTable

__all__ = ["STUDY", "MAX_SQUARES", "AllToursResult", "all_tours_task", "memo_min", "run_all_tours"]

STUDY = "all-tours"
VERSION = 1
#: the largest board the study takes (6×6 takes seconds, 5×8 half a minute on one core)
MAX_SQUARES = 64
#: states with fewer than this share of the squares left are walked, not looked up (on 5×8
#: the table's lookups cost about what they save below 24 of 40 squares)
MEMO_SHARE = 0.6
#: the table of one task
TABLE_BYTES = 64 << 20


def memo_min(n: int) -> int:
    """Fewest squares left for which a state of an ``n``-square board is looked up."""
    return max(2, round(MEMO_SHARE * n))


def colours_allow(att: np.ndarray, n: int, start: int) -> bool:
    """False when the colours forbid a path from ``start`` through all ``n`` squares: every
    move of the piece changes class between two classes (the knight's light and dark
    squares), so the path alternates and needs classes of equal size or a start on the
    larger one. ``att``: uint64[n], each square's moves as bits."""
    side = [-1] * n
    for root in range(n):
        if side[root] >= 0:
            continue
        side[root] = 0
        todo = [root]
        while todo:
            u = todo.pop()
            m = int(att[u])
            while m:
                v = (m & -m).bit_length() - 1
                m &= m - 1
                if side[v] < 0:
                    side[v] = 1 - side[u]
                    todo.append(v)
                elif side[v] == side[u]:
                    return True                 # a move within a class: no two colours
    mine = sum(1 for x in side if x == side[start])
    return mine - (n - mine) in (0, 1)


def all_tours_task(rows: int, cols: int, start: str, topology: str = "plane",
                   leaper: Sequence[int] = (1, 2)) -> dict[str, int]:
    """The paths from ``start`` (runs on a worker): ``{"tours", "closed", "hits",
    "nodes"}``; ``topology`` and ``leaper`` name another board or piece."""
    board = Board(rows, cols, topology, (int(leaper[0]), int(leaper[1])))
    cb = CountBoard(rows, cols, None if board.is_classic else board)
    n = cb.n
    s = cb.square(start)
    if n > MAX_SQUARES:
        raise CountError(f"every tour is counted on boards of at most {MAX_SQUARES} squares "
                         f"({rows}×{cols} has {n})")
    att = np.ascontiguousarray(cb.att[:, 0])            # one word: at most 64 squares
    if not colours_allow(att, n, s):
        return {"tours": 0, "closed": 0, "hits": 0, "nodes": 0}
    table = TransTable(n, TABLE_BYTES)
    table.grow_to_limit()
    out = np.zeros(4, dtype=np.int64)
    count_all(att, n, s, np.zeros(n + 1, np.int64), np.zeros(n + 1, np.uint64),
              np.zeros(n + 1, np.uint64), np.zeros((n + 1, 2), np.int64), table.tab,
              table.buckets, memo_min(n), out)
    return {"tours": int(out[0]), "closed": int(out[1]), "hits": int(out[2]),
            "nodes": int(out[3])}


@result_shape(STUDY)
def result_shape_of(params: Any, result: Any) -> None:
    """The shape of :func:`all_tours_task`'s result: ``tours`` and ``closed`` (and
    ``hits``, ``nodes`` when there) whole numbers ≥ 0."""
    r = obj(result, "the result", ("tours", "closed"))
    for k in ("tours", "closed", "hits", "nodes"):
        if k in r:
            whole(r[k], f"result.{k}")


@dataclass
class AllToursResult:
    """Paths and closed paths per start square (names), totals, tasks and time."""

    rows: int
    cols: int
    board: Board | None = None
    per_start: dict[str, dict[str, int]] = field(default_factory=dict)
    classes: dict[str, list[str]] = field(default_factory=dict)
    tasks: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    cancelled: bool = False

    @property
    def totals(self) -> dict[str, int]:
        """Directed paths over all starts (A165134 on square boards) and closed ones (each
        undirected closed tour 2N times: every start, both ways)."""
        return {k: sum(r[k] for r in self.per_start.values()) for k in ("tours", "closed")}

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` object of ``knightgui study count --all-tours``."""
        n = self.rows * self.cols
        t = self.totals
        b = self.board or Board(self.rows, self.cols)
        return {"study": STUDY, "rows": self.rows, "cols": self.cols,
                "topology": b.topology, "leaper": list(b.leaper), "totals": t,
                "undirected_paths": t["tours"] // 2,
                "undirected_closed_tours": t["closed"] // (2 * n) if n else 0,
                "per_start": self.per_start, "tasks": dict(self.tasks),
                "seconds": round(self.seconds, 3)}


def run_all_tours(rows: int, cols: int, *, store: ResultStore | None = None,
                  scheduler: Any = None, workers: int | None = None,
                  progress: Callable[[int, int], None] | None = None, cancel: Any = None,
                  runner: Callable[[Sequence[Task]], RunReport] | None = None,
                  board: Board | None = None) -> AllToursResult:
    """Count every knight's path from every start of a ``rows`` × ``cols`` board (at most
    :data:`MAX_SQUARES` squares; ``board``: another topology or piece); :class:`CountError`
    otherwise."""
    t0 = time.perf_counter()
    try:
        b = Board(rows, cols) if board is None else board
    except ValueError as e:
        raise CountError(str(e)) from None
    if b.size > MAX_SQUARES:
        raise CountError(f"every tour is counted on boards of at most {MAX_SQUARES} squares "
                         f"({rows}×{cols} has {b.size})")
    classes = start_classes(rows, cols, range(b.size), b)
    where = f"{rows}x{cols}"
    extra: tuple[Any, ...] = ()
    params: dict[str, Any] = {"rows": rows, "cols": cols}
    if not b.is_classic:       # the key names the board: a store never mixes boards
        where += f"-{b.topology}-{b.leaper[0]}.{b.leaper[1]}"
        extra = (b.topology, list(b.leaper))
        params.update(topology=b.topology, leaper=list(b.leaper))
    tasks = [Task(f"{STUDY}/v{VERSION}/{where}/{b.name(r)}", STUDY,
                  {**params, "start": b.name(r)}, all_tours_task,
                  (rows, cols, b.name(r), *extra)) for r in sorted(classes)]
    report = (runner(tasks) if runner is not None else
              run_tasks(tasks, store=store, scheduler=scheduler, workers=workers,
                        progress=progress, cancel=cancel))
    res = AllToursResult(rows, cols, b)
    res.classes = {b.name(r): [b.name(s) for s in m] for r, m in classes.items()}
    res.tasks = report.tasks_json()
    if report.cancelled or not report.complete:
        res.cancelled = True
    else:
        got = {r: report.results[t.key] for r, t in zip(sorted(classes), tasks)}
        rep_of = {s: r for r, members in classes.items() for s in members}
        res.per_start = {b.name(s): {k: int(got[rep_of[s]][k]) for k in ("tours", "closed")}
                         for s in range(b.size)}
    res.seconds = time.perf_counter() - t0
    return res
