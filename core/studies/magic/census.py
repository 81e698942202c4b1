"""Every semi-magic tour of a family, as a runner study that resumes from the store.

One task per start square (:func:`~knightgui_core.studies.magic.search.start_squares`)
exhausts the search from it and returns its tours and nodes; keys name the board, family and
start, so a rerun with the same store computes only the missing tasks. The result counts the
numbered tours, their classes up to the board's symmetries and reversed numbering, and the
closed tours (as move sets) up to symmetry. On 8×8 the half-turn family takes about a quarter
of an hour (docs/structure.md); the open and closed families need a cluster.

>>> r = run_census(6, "half-turn", runner=lambda ts: run_tasks(ts, scheduler="threads"))
>>> r.complete, r.numbered, r.tasks["total"]
(True, 0, 6)
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...board.canonical import symmetry_maps
from ...run.runner import RunReport, Task, run_tasks
from ...run.store import ResultStore
from ...run.store_shapes import RowShapeError, listed, obj, result_shape, whole
from .search import MODES, MagicSearchError, search_magic, start_squares

__all__ = ["STUDY", "CensusResult", "census_task", "census_tasks", "run_census", "class_key"]

STUDY = "semimagic-census"
VERSION = 1
#: more tours than this from one start square would be a surprise (8×8 half-turn: 10 at most)
TASK_LIMIT = 1 << 16


def census_task(size: int, mode: str, nested: bool, start: int) -> dict:
    """Exhaust the search from ``start``: ``{"tours": [...], "nodes": int}``."""
    r = search_magic(size, size, mode, limit=TASK_LIMIT, starts=[start], nested=nested)
    if r.status != "none":
        raise MagicSearchError(f"more than {TASK_LIMIT} tours from one start square")
    return {"tours": r.tours, "nodes": r.nodes}


@result_shape(STUDY)
def result_shape_of(params: Any, result: Any) -> None:
    """The shape of :func:`census_task`'s result: ``tours``, at most :data:`TASK_LIMIT`
    numbered tours, each every square of the board once, and ``nodes`` ≥ 0."""
    size = whole(obj(params, "the parameters", ("size",))["size"], "the parameters' size",
                 1, 64)
    squares = size * size
    r = obj(result, "the result", ("tours", "nodes"))
    whole(r["nodes"], "result.nodes")
    tours = listed(r["tours"], "result.tours")
    if len(tours) > TASK_LIMIT:
        raise RowShapeError(f"result.tours has {len(tours):,} tours, more than {TASK_LIMIT:,}")
    for i, tour in enumerate(tours):
        if (not isinstance(tour, list) or any(type(s) is not int for s in tour)
                or sorted(tour) != list(range(squares))):
            raise RowShapeError(f"result.tours[{i}] is not a tour of the {size}×{size} board")


def census_tasks(size: int, mode: str, nested: bool = False) -> list[Task]:
    """The study's tasks, one per start square."""
    if mode not in MODES:
        raise MagicSearchError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    where = f"{size}x{size}" + ("-nested" if nested else "")
    return [Task(f"{STUDY}/v{VERSION}/{where}/{mode}/{s}", STUDY,
                 {"size": size, "mode": mode, "nested": nested, "start": s},
                 census_task, (size, mode, nested, s)) for s in start_squares(size, size)]


def class_key(size: int, tour: Sequence[int]) -> tuple[int, ...]:
    """A numbered tour up to the board's symmetries and reversed numbering (the smallest
    image), equal for two tours exactly when one maps onto the other."""
    keys = []
    for p in symmetry_maps(size, size):
        m = [int(p[s]) for s in tour]
        keys += [tuple(m), tuple(m[::-1])]
    return min(keys)


def _cycle_key(size: int, tour: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """A closed tour's move set up to the board's symmetries."""
    n = len(tour)
    keys = []
    for p in symmetry_maps(size, size):
        m = [int(p[s]) for s in tour]
        keys.append(tuple(sorted((min(m[i], m[(i + 1) % n]), max(m[i], m[(i + 1) % n]))
                                 for i in range(n))))
    return min(keys)


@dataclass
class CensusResult:
    """``numbered``: tours found, ``classes``: those up to symmetry and reversal,
    ``closed_tours``: their move sets up to symmetry (None for the open family); ``tours``
    one of each class; ``tasks`` total / from_store / computed."""

    size: int
    mode: str
    nested: bool
    complete: bool = False
    numbered: int = 0
    classes: int = 0
    closed_tours: int | None = None
    tours: list[list[int]] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    tasks: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict:
        """JSON-ready values, counts as exact ints."""
        return {"size": self.size, "mode": self.mode, "nested": self.nested,
                "complete": self.complete, "numbered": self.numbered, "classes": self.classes,
                "closed_tours": self.closed_tours, "tours": self.tours, "nodes": self.nodes,
                "seconds": round(self.seconds, 3), "tasks": dict(self.tasks)}


def run_census(size: int, mode: str, nested: bool = False, *, store: ResultStore | None = None,
               scheduler: Any = None, cancel: Any = None,
               runner: Callable[[Sequence[Task]], RunReport] | None = None) -> CensusResult:
    """Run (or read back from ``store``) every task of the census and gather the tours."""
    t0 = time.perf_counter()
    tasks = census_tasks(size, mode, nested)
    report = (runner(tasks) if runner is not None else
              run_tasks(tasks, store=store, scheduler=scheduler, cancel=cancel))
    res = CensusResult(size, mode, nested)
    res.tasks = report.tasks_json()
    if report.cancelled or not report.complete:
        res.seconds = time.perf_counter() - t0
        return res
    classes: dict[tuple[int, ...], list[int]] = {}
    cycles = set()
    for t in tasks:
        got = report.results[t.key]
        res.nodes += int(got["nodes"])
        for tour in got["tours"]:
            tour = [int(v) for v in tour]
            res.numbered += 1
            classes.setdefault(class_key(size, tour), tour)
            if mode != "open":
                cycles.add(_cycle_key(size, tour))
    res.complete = True
    res.classes = len(classes)
    res.tours = [classes[k] for k in sorted(classes)]
    res.closed_tours = len(cycles) if mode != "open" else None
    res.seconds = time.perf_counter() - t0
    return res
