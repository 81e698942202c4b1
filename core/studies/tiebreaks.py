"""Tie-break study: for each tie rule of docs/spec.md §3 (and the large-board construction when it is
available), for every n×n board from ``n_min`` to ``n_max``, does the greedy Warnsdorff walk
(no backtracking) complete from the chosen start squares?

Start sets
----------
``corner``   a1 only;  ``corners``  the four corners;  ``all``  every square;
``sample``   ``sample`` squares drawn per n by ``numpy.random.default_rng([seed, n])``
(reproducible).

The greedy walks are calls of the single-tour kernel that ``knightgui_core.solve.solve(method="greedy")``
uses (:func:`knightgui_core.kernels.walk.greedy_walk`, which releases the GIL), run by a thread pool in
bounded chunks; the
construction row calls ``solve(method="construct")`` and counts a success only when the tour
is valid and starts on the requested square. :func:`walk` replays one case for the board.
"""
from __future__ import annotations

import csv
import importlib.util
import io
import os
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .. import rules as _rules
from .._jit import num_threads
from ..board import Board, SquareSpec
from ..kernels import walk as _walk
from ..tour import atomic_write_text

START_SETS = ("corner", "corners", "all", "sample")
CONSTRUCTION = "construction"
N_MIN, N_MAX_DEFAULT, N_MAX_LIMIT = 5, 200, 1000
#: Squares walked per kernel call (bounded chunks for progress and cancel).
CHUNK_SQUARES = 3_000_000

_NO_SCORE = np.zeros(0, dtype=np.int8)


class TieBreakError(ValueError):
    """A parameter of the study that is not valid."""


def construction_available() -> bool:
    """Whether this build has the linear-time construction (:mod:`knightgui_core.construct`)."""
    return importlib.util.find_spec("knightgui_core.construct") is not None


def default_rules() -> tuple[str, ...]:
    """The six rules of docs/spec.md §3, plus ``construction`` when :mod:`knightgui_core.construct` exists."""
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


@dataclass
class TieBreakResult:
    """Counts per (rule, n). ``first_fail[r, i]`` is the first start square (flat) whose walk
    failed for rule r on side ``sizes[i]`` (−1 if none) and ``fail_len`` the squares it
    visited. Sizes not reached by a cancelled run have ``tried == 0``."""

    rules: tuple[str, ...]
    sizes: np.ndarray
    starts: str
    tried: np.ndarray
    completed: np.ndarray
    first_fail: np.ndarray
    fail_len: np.ndarray
    seconds: float
    complete: bool = True
    order: str = "12345678"
    seed: int = 0
    sample: int = 16
    notes: dict = field(default_factory=dict)

    def success_rate(self) -> np.ndarray:
        """float[R, S]: completed / tried, NaN where nothing was tried."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.tried > 0, self.completed / np.maximum(self.tried, 1), np.nan)

    def first_failing_n(self, rule: str) -> int | None:
        """The smallest side on which ``rule`` failed a walk, or None."""
        r = self.rules.index(rule)
        bad = np.flatnonzero(self.completed[r] < self.tried[r])
        return int(self.sizes[bad[0]]) if bad.size else None

    def first_failure(self, rule: str) -> dict | None:
        """Where the rule first failed: side, start square, squares visited."""
        n = self.first_failing_n(rule)
        if n is None:
            return None
        r, i = self.rules.index(rule), int(np.flatnonzero(self.sizes == n)[0])
        s = int(self.first_fail[r, i])
        return {"n": n, "start": Board(n, n).name(s) if s >= 0 else None, "square": s,
                "visited": int(self.fail_len[r, i]), "squares": n * n}

    def summary(self) -> dict:
        """Per rule: walks, completed, success rate, first failing side and first failure."""
        out = {}
        for r, rule in enumerate(self.rules):
            t, c = int(self.tried[r].sum()), int(self.completed[r].sum())
            out[rule] = {"walks": t, "completed": c, "success_rate": (c / t) if t else None,
                         "first_failing_n": self.first_failing_n(rule),
                         "first_failure": self.first_failure(rule)}
        return out

    def to_json_dict(self, table: bool = False) -> dict:
        """Parameters, per-rule summary and first failures for a JSON file (with the per-size
        table when ``table``)."""
        d = {"rules": list(self.rules), "n_min": int(self.sizes[0]),
             "n_max": int(self.sizes[-1]), "starts": self.starts, "order": self.order,
             "seed": self.seed, "seconds": round(self.seconds, 4), "complete": self.complete,
             "first_failing_n": {r: self.first_failing_n(r) for r in self.rules},
             "per_rule": self.summary()}
        if self.starts == "sample":
            d["sample"] = self.sample
        if self.notes:
            d["notes"] = self.notes
        if table:
            d["table"] = self.table()
        return d

    def table(self) -> list[dict]:
        """One row per rule and side that ran: starts, completed, success rate, first failed
        start and the squares it visited."""
        rows = []
        for r, rule in enumerate(self.rules):
            for i, n in enumerate(self.sizes):
                if self.tried[r, i] == 0:
                    continue
                s = int(self.first_fail[r, i])
                rows.append({"rule": rule, "n": int(n), "starts": int(self.tried[r, i]),
                             "completed": int(self.completed[r, i]),
                             "success_rate": float(self.completed[r, i] / self.tried[r, i]),
                             "first_failed_start": Board(int(n), int(n)).name(s) if s >= 0
                             else "",
                             "visited": int(self.fail_len[r, i]) if s >= 0 else ""})
        return rows

    def to_csv(self) -> str:
        """``rule,n,starts,completed,success_rate,first_failed_start,visited``."""
        buf = io.StringIO()
        keys = ["rule", "n", "starts", "completed", "success_rate", "first_failed_start",
                "visited"]
        w = csv.DictWriter(buf, fieldnames=keys, lineterminator="\n")
        w.writeheader()
        for row in self.table():
            row = dict(row, success_rate=f"{row['success_rate']:.6f}")
            w.writerow(row)
        return buf.getvalue()

    def save_csv(self, filename: str | os.PathLike[str]) -> Path:
        """Write :meth:`to_csv` to ``filename`` atomically."""
        p = Path(filename)
        atomic_write_text(p, self.to_csv())
        return p


def _cancelled(cancel) -> bool:
    if cancel is None:
        return False
    return bool(cancel.is_set()) if hasattr(cancel, "is_set") else bool(cancel())


def run_tiebreaks(n_max: int = N_MAX_DEFAULT, *, n_min: int = N_MIN,
                  rules: Iterable[str] | None = None,
                  starts: str = "corner", sample: int = 16, seed: int = 0,
                  order: str = _rules.DEFAULT_ORDER,
                  progress: Callable[[int, int], object] | None = None,
                  cancel: Callable[[], bool] | threading.Event | None = None) -> TieBreakResult:
    """Run the study. ``progress(done, total)`` counts squares walked (work units);
    ``cancel`` (callable or ``threading.Event``) stops it between chunks, the result then
    has ``complete=False`` and covers what was done."""
    for name, v in (("n_min", n_min), ("n_max", n_max)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TieBreakError(f"{name} must be a whole number, got {v!r}")
    if not 1 <= n_min <= n_max <= N_MAX_LIMIT:
        raise TieBreakError(f"sizes must satisfy 1 ≤ n_min ≤ n_max ≤ {N_MAX_LIMIT}, "
                            f"got {n_min}..{n_max}")
    if starts not in START_SETS:
        raise TieBreakError(f"unknown start set '{starts}' (choose {', '.join(START_SETS)})")
    if starts == "sample" and not 1 <= int(sample) <= 1_000_000:
        raise TieBreakError(f"sample must be between 1 and 1,000,000, got {sample}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise TieBreakError(f"seed must be a whole number ≥ 0, got {seed!r}")
    rule_list = list(default_rules() if rules is None else rules)
    codes = []
    for rule in rule_list:
        if rule == CONSTRUCTION:
            if not construction_available():
                raise TieBreakError("the construction method is not available in this build")
            codes.append(-1)
            continue
        try:
            codes.append(_rules.parse_tie(rule))
        except _rules.RuleError as e:
            raise TieBreakError(str(e)) from None
    rule_list = [_rules.TIE_RULES[c] if c >= 0 else CONSTRUCTION for c in codes]
    if len(set(rule_list)) != len(rule_list):
        raise TieBreakError("a rule is listed twice")
    try:
        move_order = _rules.parse_order(order)
    except _rules.RuleError as e:
        raise TieBreakError(str(e)) from None
    pos = move_order.positions()

    sizes = np.arange(n_min, n_max + 1, dtype=np.int64)
    start_sets = [start_squares(int(n), starts, sample, seed) for n in sizes]
    R, S = len(rule_list), len(sizes)
    tried = np.zeros((R, S), dtype=np.int64)
    completed = np.zeros((R, S), dtype=np.int64)
    first_fail = np.full((R, S), -1, dtype=np.int64)
    fail_len = np.zeros((R, S), dtype=np.int64)
    per_rule = int(sum(len(st) * int(n) * int(n) for st, n in zip(start_sets, sizes)))
    total = per_rule * R
    t0 = time.perf_counter()
    stopped = False
    pool = ThreadPoolExecutor(max_workers=num_threads(), thread_name_prefix="tiebreaks")
    try:
        stopped = _run_rules(codes, sizes, start_sets, pos, seed, tried, completed, first_fail,
                             fail_len, total, pool, progress, cancel)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return TieBreakResult(tuple(rule_list), sizes, starts, tried, completed, first_fail,
                          fail_len, time.perf_counter() - t0, complete=not stopped,
                          order=move_order.digits, seed=int(seed), sample=int(sample))


def _run_rules(codes, sizes, start_sets, pos, seed, tried, completed, first_fail, fail_len,
               total, pool, progress, cancel) -> bool:
    """Fill the counters rule by rule; returns True when cancelled."""
    done = 0
    stopped = False
    for r, code in enumerate(codes):
        if stopped:
            break
        if code < 0:
            for i, n in enumerate(sizes):
                if _cancelled(cancel):
                    stopped = True
                    break
                _construction_size(int(n), start_sets[i], r, i, tried, completed,
                                   first_fail, fail_len)
                done += len(start_sets[i]) * int(n) * int(n)
                if progress is not None:
                    progress(done, total)
            continue
        for jobs in _chunks(sizes, start_sets):
            if _cancelled(cancel):
                stopped = True
                break
            idx, js, jst = jobs
            out_len = np.zeros(len(js), dtype=np.int64)
            out_end = np.zeros(len(js), dtype=np.int64)
            _run_jobs(pool, js, jst, code, pos, seed, out_len, out_end)
            ok = out_len == js * js
            np.add.at(tried[r], idx, 1)
            np.add.at(completed[r], idx, ok.astype(np.int64))
            for j in np.flatnonzero(~ok):  # jobs are in start order within a size
                i = idx[j]
                if first_fail[r, i] < 0:
                    first_fail[r, i] = jst[j]
                    fail_len[r, i] = out_len[j]
            done += int((js * js).sum())
            if progress is not None:
                progress(done, total)
    return stopped


def _chunks(sizes, start_sets):
    """Yield (size index, sides, starts) job arrays with about CHUNK_SQUARES squares each."""
    idx, js, jst, acc = [], [], [], 0
    for i, (n, st) in enumerate(zip(sizes, start_sets)):
        n = int(n)
        for s in st:
            idx.append(i)
            js.append(n)
            jst.append(int(s))
            acc += n * n
            if acc >= CHUNK_SQUARES:
                yield (np.array(idx, dtype=np.int64), np.array(js, dtype=np.int64),
                       np.array(jst, dtype=np.int64))
                idx, js, jst, acc = [], [], [], 0
    if idx:
        yield (np.array(idx, dtype=np.int64), np.array(js, dtype=np.int64),
               np.array(jst, dtype=np.int64))


def _walk_job(n, start, code, pos, seed):
    """One greedy walk; returns (squares visited, last square). The kernel releases the GIL,
    so a thread pool runs several at once."""
    path = np.empty(n * n, dtype=np.int32)
    ties = np.empty(n * n, dtype=np.uint8)
    m = int(_walk.greedy_walk(n, n, start, code, pos, seed, _NO_SCORE, path, ties))
    return m, int(path[m - 1])


def _run_jobs(pool, sides, starts, code, pos, seed, out_len, out_end):
    seed = int(seed) & 0xFFFFFFFFFFFF
    futures = [pool.submit(_walk_job, int(n), int(s), int(code), pos, seed)
               for n, s in zip(sides, starts)]
    for j, f in enumerate(futures):
        out_len[j], out_end[j] = f.result()


def _construction_size(n, starts, r, i, tried, completed, first_fail, fail_len):
    from ..existence import why_no_tour
    from ..solve import SolveError, solve
    for s in starts:
        tried[r, i] += 1
        ok, visited = False, 0
        if why_no_tour(n, n, False) is None:
            try:
                res = solve(n, n, start=(int(s) % n, int(s) // n), closed=False,
                            method="construct")
                ok = bool(res.ok and res.tour is not None and int(res.path[0]) == int(s))
                visited = len(res.path) if res.ok else 0
            except SolveError:
                ok = False
        if ok:
            completed[r, i] += 1
        elif first_fail[r, i] < 0:
            first_fail[r, i] = int(s)
            fail_len[r, i] = visited


def walk(rule: str, n: int, start: SquareSpec, *, order: str = _rules.DEFAULT_ORDER,
         seed: int = 0) -> dict:
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
