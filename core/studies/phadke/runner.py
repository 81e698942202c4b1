"""Phadke's study on the runner (:mod:`knightgui_core.run.runner`): the algorithms become tasks.

One task counts up to :data:`CHUNK` algorithms of one family and start, in id order. Its key
names the family, start and ids (``phadke/v1/cd/a8/54-73``), so an algorithm lands in the
same task whichever families a command asks for and a shared store computes it once.

>>> from knightgui_core.studies import phadke as P
>>> res, report = run_study(P.algorithms("strict"))            # doctest: +SKIP
>>> report.tasks_json()                                          # doctest: +SKIP
{'total': 10, 'from_store': 0, 'computed': 10}

A task's result is ``[[id, solutions, dead_ends, forward_moves], ...]``, the counts of
:func:`knightgui_core.studies.phadke.run`. Tasks borrow a table per start square
(:mod:`knightgui_core.tietree.counting.bits_table`), so they are ordered family by family
(strict and cd before the semi dashes that meet their states) with the starts in turn: tasks
running side by side have different starts, each finding its start's table free.
"""
from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ...run.runner import CancelArg, ProgressFn, ResultFn, RunReport, Task, run_tasks
from ...run.store import ResultStore
from ...run.store_shapes import RowShapeError, listed, obj, result_shape, whole
from . import Algorithm, AlgorithmBatch, StudyResult, all_algorithms
from .checkpoint import read_checkpoint

STUDY = "phadke"
#: version of the tasks' definition (part of every key)
VERSION = 1
#: most algorithms in one task: the whole study is 90 tasks of a few tens of milliseconds
#: each, counted by states (smaller tasks cost more in scheduling than they share:
#: ``bench/phadke.py``)
CHUNK = 512


def count_algorithms(algos: Sequence[Algorithm]) -> list[list[int]]:
    """Count each algorithm (runs on a worker): ``[[id, solutions, dead_ends,
    forward_moves], ...]`` in the order given."""
    algos = list(algos)
    if not algos:
        return []
    out = AlgorithmBatch(algos).run(np.arange(len(algos)))
    return [[int(a.id), int(r[0]), int(r[1]), int(r[2])] for a, r in zip(algos, out)]


@lru_cache(maxsize=1)
def _by_id() -> tuple[Algorithm, ...]:
    return tuple(all_algorithms())


def count_ids(ids: Sequence[int]) -> list[list[int]]:
    """:func:`count_algorithms` of the algorithms with these ids (positions in the full list,
    which every worker makes once): a task's arguments are then a few integers, which the
    runner hands over far faster than a tuple of algorithms."""
    algos = _by_id()
    return count_algorithms([algos[int(i)] for i in ids])


@result_shape(STUDY)
def result_shape_of(params: Any, result: Any) -> None:
    """Check :func:`count_ids`'s result: one ``[id, solutions, dead_ends, forward_moves]``
    per id of the task, in order, counts ≥ 0."""
    ids = listed(obj(params, "the parameters", ("ids",))["ids"], "the parameters' ids")
    rows = listed(result, "the result", length=len(ids))
    for j, (row, i) in enumerate(zip(rows, ids)):
        r = listed(row, f"result[{j}]", length=4)
        if type(r[0]) is not int or r[0] != i:
            raise RowShapeError(f"result[{j}] counts algorithm {r[0]!r:.40}, the task's is "
                                f"{i!r:.40}")
        for k in (1, 2, 3):
            whole(r[k], f"result[{j}][{k}]")


def task_key(family: str, start: str, ids: Sequence[int]) -> str:
    """The stable key of the task counting algorithms ``ids`` of ``family`` from ``start``."""
    return f"{STUDY}/v{VERSION}/{family}/{start}/{ids[0]}-{ids[-1]}"


@lru_cache(maxsize=1)
def _groups() -> tuple[tuple[tuple[str, str], tuple[Algorithm, ...]], ...]:
    groups: dict[tuple[str, str], list[Algorithm]] = {}
    for a in all_algorithms():
        groups.setdefault((a.family, a.start), []).append(a)
    return tuple((k, tuple(v)) for k, v in groups.items())


def phadke_tasks(algos: Iterable[Algorithm], chunk: int = CHUNK) -> list[Task]:
    """The tasks that count ``algos``: per family and start square, chunks of at most
    ``chunk`` algorithms in id order. The chunks are cut over the family's whole list for
    that start, so a subset of algorithms gets the same keys as the full run."""
    chunk = max(1, int(chunk))
    wanted = {a.id for a in algos}
    rows: dict[str, list[list[Task]]] = {}
    for (family, start), members in _groups():
        mine: list[Task] = []
        for j in range(0, len(members), chunk):
            part = members[j:j + chunk]
            if not any(a.id in wanted for a in part):
                continue
            ids = [a.id for a in part]
            params = {"family": family, "start": start, "ids": ids,
                      "algorithms": [a.key for a in part]}
            mine.append(Task(task_key(family, start, ids), STUDY, params, count_ids,
                             (tuple(ids),)))
        rows.setdefault(family, []).append(mine)
    tasks: list[Task] = []                      # ordered as the module docstring says
    for per_start in rows.values():
        for j in range(max((len(m) for m in per_start), default=0)):
            tasks.extend(m[j] for m in per_start if j < len(m))
    return tasks


def counts_of(report: RunReport) -> dict[int, tuple[int, int, int]]:
    """algorithm id -> (solutions, dead ends, forward moves) from a report's results."""
    out: dict[int, tuple[int, int, int]] = {}
    for rows in report.results.values():
        for i, sol, dead, fwd in rows:
            out[int(i)] = (int(sol), int(dead), int(fwd))
    return out


def run_study(algos: Iterable[Algorithm] | None = None, *, store: ResultStore | None = None,
              scheduler: Any = None, progress: ProgressFn | None = None,
              cancel: CancelArg = None, on_result: ResultFn | None = None,
              workers: int | None = None, chunk: int = CHUNK) -> tuple[StudyResult, RunReport]:
    """Count ``algos`` (default all 22,432) on the runner. Returns the
    :class:`~knightgui_core.studies.phadke.StudyResult` (the tables of
    :mod:`~knightgui_core.studies.phadke.tables` read it) and the runner's report. A task may
    hold algorithms outside ``algos`` (its chunk is fixed); only ``algos`` are reported."""
    algos = list([a for _, m in _groups() for a in m] if algos is None else algos)
    t0 = time.perf_counter()
    tasks = phadke_tasks(algos, chunk)
    report = run_tasks(tasks, store=store, scheduler=scheduler, progress=progress,
                       cancel=cancel, on_result=on_result, workers=workers)
    wanted = {a.id for a in algos}
    res = StudyResult(algos)
    res.counts = {i: c for i, c in counts_of(report).items() if i in wanted}
    res.cancelled = report.cancelled
    res.seconds = time.perf_counter() - t0
    return res, report


def import_checkpoint(path: str | Path, store: ResultStore, chunk: int = CHUNK) -> int:
    """Read an old JSON checkpoint (``knightgui-phadke-checkpoint``, written by earlier
    versions' ``--checkpoint``) into ``store``: every task whose algorithms are all in it
    becomes a row (tasks already in the store are kept). Returns the algorithms imported.
    ValueError (one sentence) if the file is not such a checkpoint; OSError if it cannot be
    read (:func:`~knightgui_core.studies.phadke.checkpoint.read_checkpoint`: the safe reader,
    bounded JSON, counts checked)."""
    algos = [a for _, members in _groups() for a in members]
    counts = read_checkpoint(path, algos)
    done = {i: [i, *c] for i, c in counts.items()}
    imported = 0
    for t in phadke_tasks([a for a in algos if a.id in done], chunk):
        ids = t.params["ids"]
        if all(i in done for i in ids):
            store.put(t.key, t.study, t.params, [done[i] for i in ids])
            imported += len(ids)
    return imported
