"""Tie-break study: for each tie rule (and the large-board construction when it is
available), for every n×n board from ``n_min`` to ``n_max``, does the greedy Warnsdorff walk
(no backtracking) complete from the chosen start squares?

Start sets: ``corner`` (a1), ``corners``, ``all``, or ``sample`` squares drawn per n by
``numpy.random.default_rng([seed, n])``. Starts from which no open tour exists (odd boards:
the minority colour; n = 2, 3, 4: every square) are left out and counted (``left_out``), so
no rule "fails" where nothing can succeed; the Squirrel rules run from corners only.

Rules with random residual ties (:data:`knightgui_core.board.rules.RANDOM_RULES`) are walked
with ``trials`` seeds ``seed``, ``seed + 1``, …; a side's success rate is then over starts ×
trials walks, with a 95 % Wilson interval (:mod:`.result`).

The work is a list of deterministic tasks (:class:`WalkTask`: one rule, one seed, a range of
n, a stable key) that :func:`run_task` runs here or through the runner
(:func:`runner_tasks`), with the same counts. The walks are ``solve(method="greedy")``'s
nogil kernels; the construction counts a success only for a valid tour on the requested
start. :func:`walk` replays one case.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

import numpy as np

from ...board import rules as _rules
from ...board.squares import Board, SquareSpec
from ...run.runner import Task, run_tasks
from ...run.store_shapes import MAX_SIDE, RowShapeError, listed, obj, result_shape, whole
from ...tietree.counting.fold import fold_roots
from ...tietree.counting.subtrees import CountBoard, count_subtrees
from ...tietree.counting.table import TransTable
from ...walks.result import Walk
from ...walks.solve import SolveError, solve
from .result import FirstFailure, RuleSummary, SideRate, TieBreakResult, wilson_interval
from .tasks import (
    COLUMNS,
    CONSTRUCTION,
    START_SETS,
    TieBreakError,
    WalkTask,
    construction_available,
    make_tasks,
    run_task,
    run_task_params,
    start_squares,
    tour_starts,
)

if TYPE_CHECKING:
    from ...run.store import ResultStore

__all__ = ["START_SETS", "CONSTRUCTION", "TieBreakError", "TieBreakResult", "WalkTask",
           "FirstFailure", "RuleSummary", "SideRate",
           "construction_available", "default_rules", "start_squares", "tour_starts",
           "make_tasks", "run_task", "run_task_params", "runner_tasks", "plan_study",
           "assemble", "StudyPlan", "run_tiebreaks", "walk", "wilson_interval"]

STUDY = "tie-breaks"
N_MIN, N_MAX_DEFAULT, N_MAX_LIMIT = 5, 200, 2000
TRIALS_LIMIT = 100_000


def default_rules() -> tuple[str, ...]:
    """Every tie rule of :data:`knightgui_core.board.rules.TIE_RULES`, plus ``construction`` when
    :mod:`knightgui_core.construct.huge` exists."""
    return tuple(_rules.TIE_RULES) + ((CONSTRUCTION,) if construction_available() else ())


def _check(n_min, n_max, rules, starts, sample, seed, order, trials):
    for name, v in (("n_min", n_min), ("n_max", n_max), ("trials", trials)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TieBreakError(f"{name} must be a whole number, got {v!r}")
    if not 1 <= n_min <= n_max <= N_MAX_LIMIT:
        raise TieBreakError(f"sizes must satisfy 1 ≤ n_min ≤ n_max ≤ {N_MAX_LIMIT}, "
                            f"got {n_min}..{n_max}")
    if not 1 <= trials <= TRIALS_LIMIT:
        raise TieBreakError(f"trials must be between 1 and {TRIALS_LIMIT:,}, got {trials}")
    if starts not in START_SETS:
        raise TieBreakError(f"unknown start set '{starts}' (choose {', '.join(START_SETS)})")
    if starts == "sample" and not 1 <= int(sample) <= 1_000_000:
        raise TieBreakError(f"sample must be between 1 and 1,000,000, got {sample}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise TieBreakError(f"seed must be a whole number ≥ 0, got {seed!r}")
    rule_list = []
    for rule in (default_rules() if rules is None else rules):
        if rule == CONSTRUCTION:
            if not construction_available():
                raise TieBreakError("the construction method is not available in this build")
            rule_list.append(CONSTRUCTION)
            continue
        try:
            rule_list.append(_rules.TIE_RULES[_rules.parse_tie(rule)])
        except _rules.RuleError as e:
            raise TieBreakError(str(e)) from None
    if len(set(rule_list)) != len(rule_list):
        raise TieBreakError("a rule is listed twice")
    try:
        move_order = _rules.parse_order(order)
    except _rules.RuleError as e:
        raise TieBreakError(str(e)) from None
    return rule_list, move_order.digits


@dataclass(frozen=True)
class StudyPlan:
    """A checked study: its rules (canonical names), order (digits), sizes and tasks."""

    rules: tuple[str, ...]
    order: str
    n_min: int
    n_max: int
    starts: str
    sample: int
    seed: int
    tasks: tuple[WalkTask, ...]


def plan_study(n_max: int = N_MAX_DEFAULT, *, n_min: int = N_MIN,
               rules: Iterable[str] | None = None,
               starts: str = "corner", sample: int = 16, seed: int = 0,
               order: str = _rules.DEFAULT_ORDER, trials: int = 1) -> StudyPlan:
    """Check the parameters (:class:`TieBreakError`) and list the study's tasks."""
    rule_list, order = _check(n_min, n_max, rules, starts, sample, seed, order, trials)
    tasks = make_tasks(rule_list, int(n_min), int(n_max), starts=starts, sample=sample,
                       seed=seed, order=order, trials=int(trials))
    return StudyPlan(tuple(rule_list), order, int(n_min), int(n_max), starts, int(sample),
                     int(seed), tuple(tasks))


def assemble(plan: StudyPlan, results: Iterable[dict | None], seconds: float = 0.0,
             tasks_json: dict | None = None) -> TieBreakResult:
    """The study's result from one :func:`run_task` result (or None: not run) per task."""
    results = list(results)
    sizes = np.arange(plan.n_min, plan.n_max + 1, dtype=np.int64)
    res = _merge(list(plan.rules), sizes, plan.tasks, results)
    res.seconds = seconds
    res.complete = all(r is not None for r in results)
    res.starts, res.order, res.seed, res.sample = plan.starts, plan.order, plan.seed, plan.sample
    res.tasks = dict(tasks_json) if tasks_json is not None else {
        "total": len(results), "from_store": 0,
        "computed": sum(r is not None for r in results)}
    if any(r in _rules.SQUIRREL_RULES for r in plan.rules) and plan.starts not in (
            "corner", "corners"):
        res.notes["squirrel"] = "the Squirrel rules start in corners only; other starts " \
                                "are left out for them"
    if res.left_out.any():
        res.notes["left_out"] = "starts from which no open tour exists (odd n: the " \
                                "minority colour; n = 2, 3, 4: every square) are left out"
    return res


@result_shape(STUDY)
def result_shape_of(params: object, result: object) -> None:
    """Check :func:`run_task`'s result: sizes ``n0..n1`` in order; per size ``tried`` and
    ``left_out`` in 0..n², ``completed`` ≤ tried, ``first_fail`` in −1..n²−1, ``fail_len``."""
    p = obj(params, "the parameters", ("n0", "n1"))
    n0 = whole(p["n0"], "the parameters' n0", 1, MAX_SIDE)
    n1 = whole(p["n1"], "the parameters' n1", n0, MAX_SIDE)
    r = obj(result, "the result", ("n", *COLUMNS))
    sizes = listed(r["n"], "result.n", length=n1 - n0 + 1)
    if sizes != list(range(n0, n1 + 1)) or any(type(n) is not int for n in sizes):
        raise RowShapeError(f"result.n is not the task's sizes {n0}..{n1}")
    cols = {k: listed(r[k], f"result.{k}", length=len(sizes)) for k in COLUMNS}
    for j, n in enumerate(sizes):
        sq = n * n
        tried = whole(cols["tried"][j], f"result.tried[{j}]", 0, sq)
        whole(cols["completed"][j], f"result.completed[{j}]", 0, tried)
        whole(cols["left_out"][j], f"result.left_out[{j}]", 0, sq)
        whole(cols["first_fail"][j], f"result.first_fail[{j}]", -1, sq - 1)
        whole(cols["fail_len"][j], f"result.fail_len[{j}]", 0, sq)


def runner_tasks(plan: StudyPlan) -> list:
    """The study's tasks as runner :class:`~knightgui_core.run.runner.Task` s."""
    params = [asdict(t) for t in plan.tasks]
    return [Task(t.key(), STUDY, p, run_task_params, (p,)) for t, p in zip(plan.tasks, params)]


def run_tiebreaks(n_max: int = N_MAX_DEFAULT, *, n_min: int = N_MIN,
                  rules: Iterable[str] | None = None, starts: str = "corner",
                  sample: int = 16, seed: int = 0, order: str = _rules.DEFAULT_ORDER,
                  trials: int = 1, progress: Callable[[int, int], None] | None = None,
                  cancel: Callable[[], bool] | threading.Event | None = None,
                  store: ResultStore | None = None,
                  scheduler: object = None) -> TieBreakResult:
    """Run the study through :func:`knightgui_core.run.runner.run_tasks` (``store``,
    ``scheduler`` as there; ``progress(done, total)`` counts tasks). Once ``cancel`` is set
    it stops between tasks and the result (``complete=False``) covers what was done."""
    plan = plan_study(n_max, n_min=n_min, rules=rules, starts=starts, sample=sample,
                      seed=seed, order=order, trials=trials)
    t0 = time.perf_counter()
    report = run_tasks(runner_tasks(plan), store=store, scheduler=scheduler,
                       progress=progress, cancel=cancel)
    res = assemble(plan, [report.results.get(t.key()) for t in plan.tasks],
                   time.perf_counter() - t0, report.tasks_json())
    return with_exact(res)


def with_exact(res: TieBreakResult) -> TieBreakResult:
    """``res`` with :func:`exact_corner_success` for its sides, when it ran the ``random``
    rule from the corners."""
    if "random" in res.rules and res.starts in ("corner", "corners"):
        res.exact_random = exact_corner_success(
            [int(n) for n in res.sizes if EXACT_MIN <= n <= EXACT_MAX])
    return res


#: sides whose exact random-tie success from a corner the study shows beside its estimate
EXACT_MIN, EXACT_MAX = 5, 9


def exact_corner_success(sizes: Iterable[int]) -> dict[int, float]:
    """n -> the exact probability that a walk breaking ties uniformly at random completes a
    tour from a1 of an n×n board (the count engine's ``p_success``): what the ``random``
    rule's success rate estimates."""
    out = {}
    for n in sizes:
        cb = CountBoard(int(n), int(n))
        table = TransTable(cb.n, 64 << 20)
        out[int(n)] = sum(w * count_subtrees(cb, 0, [p], table=table).p_success
                          for p, w in fold_roots(cb, 0, 0))
    return out


def _merge(rule_list, sizes, tasks, results) -> TieBreakResult:
    R, S = len(rule_list), len(sizes)
    tried, completed, left, fail_len, fail_seed = (np.zeros((R, S), dtype=np.int64)
                                                   for _ in range(5))
    first_fail = np.full((R, S), -1, dtype=np.int64)
    seeds: list[set[int]] = [set() for _ in rule_list]
    n0 = int(sizes[0])
    first_seed: dict[str, int] = {}
    for t in tasks:
        first_seed[t.rule] = min(first_seed.get(t.rule, t.seed), t.seed)
    for task, out in zip(tasks, results):
        if out is None:
            continue
        r = rule_list.index(task.rule)
        seeds[r].add(task.seed)
        for j, n in enumerate(out["n"]):
            i = n - n0
            tried[r, i] += out["tried"][j]
            completed[r, i] += out["completed"][j]
            if task.seed == first_seed[task.rule]:
                left[r, i] = out["left_out"][j]      # the same for every trial
            if out["first_fail"][j] >= 0 and first_fail[r, i] < 0:
                first_fail[r, i] = out["first_fail"][j]
                fail_len[r, i] = out["fail_len"][j]
                fail_seed[r, i] = task.seed
    trials = np.array([max(1, len(s)) for s in seeds], dtype=np.int64)
    return TieBreakResult(tuple(rule_list), sizes, "corner", tried, completed, first_fail,
                          fail_len, 0.0, trials=trials, left_out=left, fail_seed=fail_seed)


def walk(rule: str, n: int, start: SquareSpec, *, order: str = _rules.DEFAULT_ORDER,
         seed: int = 0) -> Walk:
    """One case of the study, as a :class:`~knightgui_core.walks.result.Walk`."""
    board = Board(n, n)
    s = board.square(start)
    method = "construct" if rule == CONSTRUCTION else "greedy"
    tie = "phadke" if rule == CONSTRUCTION else rule
    try:
        res = solve(n, n, start=board.coords(s), closed=False, tie=tie, order=order, seed=seed,
                    method=method)
    except SolveError as e:
        raise TieBreakError(str(e)) from None
    made = dict(res.tour.method) if res.tour is not None else {"method": method, "tie": tie}
    return Walk(board, np.asarray(res.path, dtype=np.int32), res.message, made)
