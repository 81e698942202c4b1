"""Tie-break study: for each tie rule (and the large-board construction when it is
available), for every n×n board from ``n_min`` to ``n_max``, does the greedy Warnsdorff walk
(no backtracking) complete from the chosen start squares?

Start sets
----------
``corner``   a1 only;  ``corners``  the four corners;  ``all``  every square;
``sample``   ``sample`` squares drawn per n by ``numpy.random.default_rng([seed, n])``
(reproducible).

Starts from which no open tour exists (on odd boards the squares of the minority colour;
n = 2, 3, 4 everywhere) are left out and counted (``left_out``), so no rule "fails" where
nothing can succeed. The Squirrel rules run from corners only; other starts are left out
for them too.

Trials: rules with random residual ties (:data:`knightgui_core.rules.RANDOM_RULES`) are walked
with ``trials`` seeds, ``seed``, ``seed + 1``, …; the success rate per n is then over
starts × trials walks, with a 95 % Wilson interval (:mod:`.tiebreaks_result`).

The work is a list of deterministic tasks (:class:`WalkTask`: one rule, one trial seed, a
range of n, with a stable :meth:`WalkTask.key`); :func:`run_task` runs one. The greedy
walks are calls of the single-tour kernels that ``solve(method="greedy")`` uses
(:func:`knightgui_core.kernels.walk.greedy_walk`, :func:`knightgui_core.kernels.phased.phased_walk`;
both release the GIL), so a thread pool runs tasks side by side. The construction row
calls ``solve(method="construct")`` and counts a success only when the tour is valid and
starts on the requested square. :func:`walk` replays one case for the board.
"""
from __future__ import annotations

import importlib.util
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass

import numpy as np

from .. import rules as _rules
from .._jit import num_threads
from ..board import Board
from ..existence import open_tour_exists
from ..kernels import walk as _walk
from .tiebreaks_result import TieBreakResult, wilson_interval

__all__ = ["START_SETS", "CONSTRUCTION", "TieBreakError", "TieBreakResult", "WalkTask",
           "construction_available", "default_rules", "start_squares", "tour_starts",
           "make_tasks", "run_task", "run_tiebreaks", "walk", "wilson_interval"]

START_SETS = ("corner", "corners", "all", "sample")
CONSTRUCTION = "construction"
N_MIN, N_MAX_DEFAULT, N_MAX_LIMIT = 5, 200, 2000
TRIALS_LIMIT = 100_000
#: Squares walked per task (bounded tasks for progress, cancel and distribution).
CHUNK_SQUARES = 3_000_000

_NO_SCORE = np.zeros(0, dtype=np.int8)


class TieBreakError(ValueError):
    """A parameter of the study that is not valid."""


def construction_available() -> bool:
    return importlib.util.find_spec("knightgui_core.construct") is not None


def default_rules() -> tuple[str, ...]:
    """Every tie rule of :data:`knightgui_core.rules.TIE_RULES`, plus ``construction`` when
    :mod:`knightgui_core.construct` exists."""
    return tuple(_rules.TIE_RULES) + ((CONSTRUCTION,) if construction_available() else ())


def start_squares(n: int, starts: str, sample: int = 16, seed: int = 0) -> np.ndarray:
    """Flat start squares (``int64``) of an n×n board for a start set."""
    board = Board(n, n)
    if starts == "corner":
        return np.array([0], dtype=np.int64)
    if starts == "corners":
        return np.array(sorted(set(board.corners)), dtype=np.int64)
    if starts == "all":
        return np.arange(board.size, dtype=np.int64)
    if starts == "sample":
        k = min(int(sample), board.size)
        rng = np.random.default_rng([int(seed), int(n)])
        return np.sort(rng.choice(board.size, k, replace=False)).astype(np.int64)
    raise TieBreakError(f"unknown start set '{starts}' (choose {', '.join(START_SETS)})")


def tour_starts(n: int, squares: np.ndarray) -> np.ndarray:
    """``bool`` mask over ``squares`` (flat, n×n): True where an open tour can start (every
    square of an even board, the corners' colour of an odd one, none when n×n has no tour)."""
    squares = np.asarray(squares, dtype=np.int64)
    if not open_tour_exists(n, n):
        return np.zeros(squares.shape, dtype=bool)
    if n % 2 == 0:
        return np.ones(squares.shape, dtype=bool)
    return (squares % n + squares // n) % 2 == 0


@dataclass(frozen=True)
class WalkTask:
    """One unit of work: rule ``rule`` on n = ``n0``..``n1`` from the start set, ties broken
    with ``seed`` (the trial's seed). Deterministic: the same task gives the same counts."""

    rule: str
    order: str
    starts: str
    sample: int
    sample_seed: int
    seed: int
    n0: int
    n1: int

    def key(self) -> str:
        """A stable name of the task (the same parameters give the same key)."""
        return (f"tiebreaks/{self.rule}/o{self.order}/{self.starts}/k{self.sample}/"
                f"s{self.sample_seed}/t{self.seed}/n{self.n0}-{self.n1}")

    def squares(self) -> int:
        """Work estimate: squares walked if every walk completes."""
        return sum(_start_count(n, self.starts, self.sample) * n * n
                   for n in range(self.n0, self.n1 + 1))


def _start_count(n: int, starts: str, sample: int) -> int:
    """``len(start_squares(n, starts, sample))`` without drawing them."""
    if starts == "corner":
        return 1
    if starts == "corners":
        return len(set(Board(n, n).corners))
    return n * n if starts == "all" else min(int(sample), n * n)


def _starts_for(task: WalkTask, n: int) -> tuple[np.ndarray, int]:
    """The squares walked for one n, and how many of the start set were left out."""
    st = start_squares(n, task.starts, task.sample, task.sample_seed)
    ok = tour_starts(n, st)
    if task.rule in _rules.SQUIRREL_RULES:
        ok &= np.isin(st, np.array(Board(n, n).corners, dtype=np.int64)) if n >= 5 else False
    return st[ok], int((~ok).sum())


def run_task(task: WalkTask) -> dict:
    """Walk one task. Returns plain lists (JSON-ready), one entry per n of the task:
    ``{"key", "n", "tried", "completed", "left_out", "first_fail", "fail_len"}``."""
    sizes = list(range(task.n0, task.n1 + 1))
    out = {"key": task.key(), "n": sizes, "tried": [], "completed": [], "left_out": [],
           "first_fail": [], "fail_len": []}
    code = -1 if task.rule == CONSTRUCTION else _rules.parse_tie(task.rule)
    pos = _rules.parse_order(task.order).positions()
    seed = int(task.seed) & 0xFFFFFFFFFFFF
    for n in sizes:
        st, left = _starts_for(task, n)
        done, first, flen = 0, -1, 0
        for s in st.tolist():
            if code < 0:
                ok, m = _construction_walk(n, s)
            else:
                m = _walk_once(n, s, code, pos, seed, task.rule)
                ok = m == n * n
            done += ok
            if not ok and first < 0:
                first, flen = s, m
        out["tried"].append(len(st))
        out["completed"].append(done)
        out["left_out"].append(left)
        out["first_fail"].append(first)
        out["fail_len"].append(flen)
    return out


def _walk_once(n, start, code, pos, seed, rule) -> int:
    """One greedy walk; the squares it visited. The kernels release the GIL."""
    path = np.empty(n * n, dtype=np.int32)
    ties = np.empty(n * n, dtype=np.uint8)
    if rule in _rules.SQUIRREL_RULES:
        from ..kernels.phased import phased_walk
        from ..squirrel import plan
        p = plan(n, start, rule)
        return int(phased_walk(n, n, p.start, p.prios, p.switch, path, ties))
    return int(_walk.greedy_walk(n, n, start, code, pos, seed, _NO_SCORE, path, ties))


def _construction_walk(n, s) -> tuple[bool, int]:
    from ..existence import why_no_tour
    from ..solve import SolveError, solve
    if why_no_tour(n, n, False) is not None:
        return False, 0
    try:
        res = solve(n, n, start=(int(s) % n, int(s) // n), closed=False, method="construct")
    except SolveError:
        return False, 0
    ok = bool(res.ok and res.tour is not None and int(res.path[0]) == int(s))
    return ok, len(res.path) if res.ok else 0


def make_tasks(rules, n_min: int, n_max: int, *, starts: str = "corner", sample: int = 16,
               seed: int = 0, order: str = _rules.DEFAULT_ORDER,
               trials: int = 1) -> list[WalkTask]:
    """The tasks of a study, in merge order: rule by rule, trial by trial, n ascending.
    Random-residual rules get ``trials`` seeds; the others one. Consecutive sizes are
    grouped up to about :data:`CHUNK_SQUARES` squares a task."""
    tasks = []
    costs = {n: _start_count(n, starts, sample) * n * n for n in range(n_min, n_max + 1)}
    for rule in rules:
        k = trials if rule in _rules.RANDOM_RULES else 1
        for t in range(k):
            n0, acc = n_min, 0
            for n in range(n_min, n_max + 1):
                acc += costs[n]
                if acc >= CHUNK_SQUARES or n == n_max:
                    tasks.append(WalkTask(rule, order, starts, int(sample), int(seed),
                                          int(seed) + t, n0, n))
                    n0, acc = n + 1, 0
    return tasks


def _cancelled(cancel) -> bool:
    if cancel is None:
        return False
    return bool(cancel.is_set()) if hasattr(cancel, "is_set") else bool(cancel())


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


def run_tiebreaks(n_max: int = N_MAX_DEFAULT, *, n_min: int = N_MIN, rules=None,
                  starts: str = "corner", sample: int = 16, seed: int = 0,
                  order: str = _rules.DEFAULT_ORDER, trials: int = 1, progress=None,
                  cancel=None, executor=None) -> TieBreakResult:
    """Run the study. ``progress(done, total)`` counts squares (work units); ``cancel``
    (callable or ``threading.Event``) stops it between tasks, the result then has
    ``complete=False`` and covers what was done. ``executor(tasks, progress, cancel)``
    may replace the local thread pool (it returns one :func:`run_task` result or None per
    task, in order)."""
    rule_list, order = _check(n_min, n_max, rules, starts, sample, seed, order, trials)
    tasks = make_tasks(rule_list, int(n_min), int(n_max), starts=starts, sample=sample,
                       seed=seed, order=order, trials=int(trials))
    t0 = time.perf_counter()
    results = (executor or _thread_pool)(tasks, progress, cancel)
    sizes = np.arange(n_min, n_max + 1, dtype=np.int64)
    res = _merge(rule_list, sizes, tasks, results)
    res.seconds = time.perf_counter() - t0
    res.complete = all(r is not None for r in results)
    res.starts, res.order, res.seed, res.sample = starts, order, int(seed), int(sample)
    res.tasks = {"total": len(tasks), "computed": sum(r is not None for r in results)}
    if any(r in _rules.SQUIRREL_RULES for r in rule_list) and starts not in ("corner",
                                                                              "corners"):
        res.notes["squirrel"] = "the Squirrel rules start in corners only; other starts " \
                                "are left out for them"
    if res.left_out.any():
        res.notes["left_out"] = "starts from which no open tour exists (odd n: the " \
                                "minority colour; n = 2, 3, 4: every square) are left out"
    return res


def _merge(rule_list, sizes, tasks, results) -> TieBreakResult:
    R, S = len(rule_list), len(sizes)
    tried = np.zeros((R, S), dtype=np.int64)
    completed = np.zeros((R, S), dtype=np.int64)
    left = np.zeros((R, S), dtype=np.int64)
    first_fail = np.full((R, S), -1, dtype=np.int64)
    fail_len = np.zeros((R, S), dtype=np.int64)
    fail_seed = np.zeros((R, S), dtype=np.int64)
    seeds = [set() for _ in rule_list]
    n0 = int(sizes[0])
    first_seed = {}
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


def _thread_pool(tasks, progress, cancel) -> list:
    """Run the tasks on this machine, a few at a time (the kernels release the GIL), in
    submission order; stops submitting when ``cancel`` is set."""
    results: list = [None] * len(tasks)
    total = sum(t.squares() for t in tasks)
    weights = [t.squares() for t in tasks]
    done = 0
    workers = num_threads()
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="tiebreaks") as pool:
        running = {}
        nxt = 0
        while nxt < len(tasks) or running:
            while nxt < len(tasks) and len(running) < 2 * workers:
                if _cancelled(cancel):
                    nxt = len(tasks)
                    break
                running[pool.submit(run_task, tasks[nxt])] = nxt
                nxt += 1
            if not running:
                break
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for f in finished:
                j = running.pop(f)
                results[j] = f.result()
                done += weights[j]
                if progress is not None:
                    progress(done, total)
    return results


def walk(rule: str, n: int, start, *, order: str = _rules.DEFAULT_ORDER, seed: int = 0) -> dict:
    """One case of the study, for the board: ``{"board", "path", "ok", "tour", "message"}``
    (``tour`` is a :class:`knightgui_core.tour.Tour` when the walk completed)."""
    from ..solve import SolveError, solve
    board = Board(n, n)
    s = int(start) if isinstance(start, (int, np.integer)) else board.parse(start)
    method = "construct" if rule == CONSTRUCTION else "greedy"
    tie = "phadke" if rule == CONSTRUCTION else rule
    try:
        res = solve(n, n, start=board.coords(s), closed=False, tie=tie, order=order, seed=seed,
                    method=method)
    except SolveError as e:
        raise TieBreakError(str(e)) from None
    return {"board": board, "path": np.asarray(res.path, dtype=np.int32), "ok": bool(res.ok),
            "tour": res.tour, "message": res.message}
