"""The tours of a board that a symmetry maps onto themselves, as a study on the runner.

Each part of :func:`knightgui_core.tietree.alltours.symmetric_tours.plan` (one case of the quotient
count: turned, reflected about two fixed moves or squares, reversed about its middle) is one
task with a stable key, so a store keeps finished parts and the parts run side by side on the
workers. The answer uses the keys of the all-tours count: ``undirected_paths`` (every path
through all the squares whose moves the symmetry keeps, its ends a move apart or not, as the
all-tours count lists them) and ``undirected_closed_tours`` (the cycles it keeps).

>>> res = run_symmetric(8, 8, "half-turn", runner=None, closed_only=True)   # doctest: +SKIP
>>> res.to_dict()["undirected_closed_tours"]                                 # Knuth's figure
2432932
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..board.squares import Board
from ..run.runner import RunReport, Task, run_tasks
from ..run.store import ResultStore
from ..run.store_shapes import obj, result_shape, whole
from ..tietree.alltours.symmetric_tours import Plan, count_part, plan
from ..tietree.counting.subtrees import CountError

__all__ = ["STUDY", "SymmetricResult", "symmetric_task", "run_symmetric"]

STUDY = "symmetric-tours"
VERSION = 1
#: the table of one task
TABLE_BYTES = 256 << 20


def symmetric_task(rows: int, cols: int, symmetry: str, closed: bool, index: int,
                   leaper: Sequence[int] = (1, 2)) -> dict[str, int]:
    """Part ``index`` of the plan (runs on a worker): ``{"paths", "hits", "nodes"}``."""
    p = plan(Board(rows, cols, "plane", (int(leaper[0]), int(leaper[1]))), symmetry,
             bool(closed))
    if not 0 <= index < len(p.parts):
        raise CountError(f"the symmetric count has no part {index}")
    return count_part(p, p.parts[index], TABLE_BYTES)


@result_shape(STUDY)
def result_shape_of(params: Any, result: Any) -> None:
    """The shape of :func:`symmetric_task`'s result: ``paths``, ``hits`` and ``nodes``
    whole numbers ≥ 0."""
    r = obj(result, "the result", ("paths", "hits", "nodes"))
    for k in ("paths", "hits", "nodes"):
        whole(r[k], f"result.{k}")


@dataclass
class SymmetricResult:
    """The symmetric open paths and closed tours (None: not counted), the reasons where a
    kind has none, the parts and the time."""

    rows: int
    cols: int
    symmetry: str
    board: Board
    paths: int | None = None
    closed: int | None = None
    reasons: dict[str, str] = field(default_factory=dict)
    parts: list[dict[str, Any]] = field(default_factory=list)
    tasks: dict[str, int] = field(default_factory=dict)
    orbits: int = 0
    seconds: float = 0.0
    cancelled: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` object of ``knightgui study count --all-tours --symmetry``."""
        out: dict[str, Any] = {"study": "all-tours", "rows": self.rows, "cols": self.cols,
                               "topology": self.board.topology,
                               "leaper": list(self.board.leaper), "symmetry": self.symmetry,
                               "orbits": self.orbits}
        if self.paths is not None:
            out["undirected_paths"] = self.paths
        if self.closed is not None:
            out["undirected_closed_tours"] = self.closed
        out.update({"reasons": dict(self.reasons), "parts": list(self.parts),
                    "tasks": dict(self.tasks), "seconds": round(self.seconds, 3)})
        return out


def run_symmetric(rows: int, cols: int, symmetry: str, *, closed_only: bool = False,
                  board: Board | None = None, store: ResultStore | None = None,
                  scheduler: Any = None, workers: int | None = None,
                  progress: Callable[[int, int], None] | None = None, cancel: Any = None,
                  runner: Callable[[Sequence[Task]], RunReport] | None = None
                  ) -> SymmetricResult:
    """Count the tours of a ``rows`` × ``cols`` board (``board``: another leaper on the
    plane) that ``symmetry`` maps onto themselves: closed tours, and open paths unless
    ``closed_only``. :class:`CountError` (one sentence) for what it cannot count."""
    t0 = time.perf_counter()
    try:
        b = Board(rows, cols) if board is None else board
    except ValueError as e:
        raise CountError(str(e)) from None
    kinds = [True] if closed_only else [False, True]
    plans: dict[bool, Plan] = {c: plan(b, symmetry, c) for c in kinds}
    where = f"{rows}x{cols}" + ("" if b.is_classic else f"-{b.leaper[0]}.{b.leaper[1]}")
    tasks, owners = [], []
    for c, p in plans.items():
        for i in range(len(p.parts)):
            kind = "closed" if c else "open"
            tasks.append(Task(f"{STUDY}/v{VERSION}/{where}/{symmetry}/{kind}/{i}", STUDY,
                              {"rows": rows, "cols": cols, "symmetry": symmetry,
                               "closed": c, "part": i, "leaper": list(b.leaper)},
                              symmetric_task, (rows, cols, symmetry, c, i, list(b.leaper))))
            owners.append((c, i))
    report = (runner(tasks) if runner is not None else
              run_tasks(tasks, store=store, scheduler=scheduler, workers=workers,
                        progress=progress, cancel=cancel))
    res = SymmetricResult(rows, cols, symmetry, b)
    res.orbits = next(iter(plans.values())).orbits
    res.tasks = report.tasks_json()
    if report.cancelled or not report.complete:
        res.cancelled = True
        res.seconds = time.perf_counter() - t0
        return res
    totals = {c: 0 for c in kinds}
    for task, (c, i) in zip(tasks, owners):
        got = report.results[task.key]
        div = plans[c].divisors[i]
        if int(got["paths"]) % div:
            raise CountError(f"a symmetric count came out odd where it pairs "
                             f"({plans[c].parts[i].what})")
        totals[c] += int(got["paths"]) // div
        res.parts.append({"kind": "closed" if c else "open", "what": plans[c].parts[i].what,
                          "tours": int(got["paths"]) // div, "nodes": int(got["nodes"]),
                          "hits": int(got["hits"])})
    res.reasons = {("closed" if c else "open"): p.reason for c, p in plans.items() if p.reason}
    res.closed = totals[True]
    res.paths = None if closed_only else totals[False]
    res.seconds = time.perf_counter() - t0
    return res
