"""The result of the tie-break study: counts per rule and side, success rates with 95 %
Wilson intervals, JSON and CSV; :class:`FirstFailure`, :class:`RuleSummary` and
:class:`SideRate` are its per-rule figures (``to_dict()``: their JSON objects)."""
from __future__ import annotations

import csv
import io
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ...board.squares import Board
from ...system.files import write_text
from ..json_fields import FieldsJson

_EMPTY = np.zeros(0, dtype=np.int64)
#: z of a two-sided 95 % interval
Z95 = 1.959963984540054


def wilson_interval(completed: np.ndarray, walks: np.ndarray,
                    z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson's score interval for a binomial proportion, element-wise: ``(low, high)``,
    NaN where ``walks == 0`` (written out: the project does not otherwise need scipy)."""
    c = np.asarray(completed, dtype=float)
    t = np.asarray(walks, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = c / t
        denom = 1.0 + z * z / t
        centre = (p + z * z / (2 * t)) / denom
        half = z * np.sqrt(p * (1 - p) / t + z * z / (4 * t * t)) / denom
        low = np.where(t > 0, np.clip(centre - half, 0.0, 1.0), np.nan)
        high = np.where(t > 0, np.clip(centre + half, 0.0, 1.0), np.nan)
    return low, high


@dataclass(frozen=True)
class FirstFailure(FieldsJson):
    """Where a rule first failed: on side ``n`` the walk from ``square`` (flat; ``start`` its
    name or None) with ``seed`` visited ``visited`` of ``squares`` squares."""

    n: int
    start: str | None
    square: int
    visited: int
    squares: int
    seed: int


@dataclass(frozen=True)
class RuleSummary:
    """One rule over every side that ran (``success_rate`` None when no walk was made)."""

    walks: int
    completed: int
    success_rate: float | None
    trials: int
    left_out: int
    first_failing_n: int | None
    first_failure: FirstFailure | None
    failing_n: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """The rule's object in the JSON's ``per_rule`` (without ``by_n``)."""
        return asdict(self) | {"failing_n": list(self.failing_n)}


@dataclass(frozen=True)
class SideRate:
    """One rule on one side, with the 95 % Wilson interval (6 places) and, for ``random``
    where known, the ``exact`` probability it estimates."""

    success_rate: float
    trials: int
    walks: int
    completed: int
    ci95: tuple[float, float]
    exact: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """The side's object in the JSON's ``by_n`` (``exact`` only when known)."""
        d = asdict(self) | {"ci95": list(self.ci95)}
        if self.exact is None:
            del d["exact"]
        return d


@dataclass
class TieBreakResult:
    """Counts per (rule, side ``sizes[i]``), summed over starts and trials: ``tried``,
    ``completed``, ``left_out`` (starts with no open tour, or non-corners for the Squirrel
    rules), ``first_fail`` (first failed flat start, −1 if none) with its ``fail_len`` and
    ``fail_seed``, ``trials[r]`` seeds walked. A cancelled run's unreached sides have
    ``tried == 0``."""

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
    trials: np.ndarray = field(default_factory=lambda: _EMPTY)
    left_out: np.ndarray = field(default_factory=lambda: _EMPTY)
    fail_seed: np.ndarray = field(default_factory=lambda: _EMPTY)
    tasks: dict = field(default_factory=dict)
    #: n -> the exact probability that the ``random`` rule completes from a corner (filled by
    #: :func:`knightgui_core.studies.tiebreaks.run_tiebreaks` for corner starts, n ≤ 9)
    exact_random: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        R, S = self.tried.shape
        if self.trials.size == 0:
            self.trials = np.ones(R, dtype=np.int64)
        if self.left_out.size == 0:
            self.left_out = np.zeros((R, S), dtype=np.int64)
        if self.fail_seed.size == 0:
            self.fail_seed = np.full((R, S), self.seed, dtype=np.int64)

    def success_rate(self) -> np.ndarray:
        """float[R, S]: completed / tried, NaN where nothing was tried."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.tried > 0, self.completed / np.maximum(self.tried, 1), np.nan)

    def interval(self) -> tuple[np.ndarray, np.ndarray]:
        """float[R, S] twice: the 95 % Wilson interval of each success rate."""
        return wilson_interval(self.completed, self.tried)

    def failing_n(self, rule: str) -> list[int]:
        """Every side on which at least one walk of ``rule`` failed."""
        r = self.rules.index(rule)
        return [int(n) for n in self.sizes[self.completed[r] < self.tried[r]]]

    def first_failing_n(self, rule: str) -> int | None:
        """The smallest side on which ``rule`` failed a walk, or None."""
        bad = self.failing_n(rule)
        return bad[0] if bad else None

    def first_failure(self, rule: str) -> FirstFailure | None:
        """Where the rule first failed: side, start square, squares visited, seed."""
        n = self.first_failing_n(rule)
        if n is None:
            return None
        r, i = self.rules.index(rule), int(np.flatnonzero(self.sizes == n)[0])
        s = int(self.first_fail[r, i])
        return FirstFailure(n=n, start=Board(n, n).name(s) if s >= 0 else None, square=s,
                            visited=int(self.fail_len[r, i]), squares=n * n,
                            seed=int(self.fail_seed[r, i]))

    def summary(self) -> dict[str, RuleSummary]:
        """Per rule (in the order of ``rules``): walks, completed, success rate, trials,
        starts left out, first failing side, first failure and every failing side."""
        out = {}
        for r, rule in enumerate(self.rules):
            t, c = int(self.tried[r].sum()), int(self.completed[r].sum())
            out[rule] = RuleSummary(walks=t, completed=c, success_rate=(c / t) if t else None,
                                    trials=int(self.trials[r]),
                                    left_out=int(self.left_out[r].sum()),
                                    first_failing_n=self.first_failing_n(rule),
                                    first_failure=self.first_failure(rule),
                                    failing_n=tuple(self.failing_n(rule)))
        return out

    def by_n(self, rule: str) -> dict[int, SideRate]:
        """Side -> :class:`SideRate` of ``rule`` for every side tried, smallest first."""
        r = self.rules.index(rule)
        low, high = self.interval()
        out = {}
        for i, n in enumerate(self.sizes):
            t = int(self.tried[r, i])
            if t == 0:
                continue
            c, side = int(self.completed[r, i]), int(n)
            exact = self.exact_random.get(side) if rule == "random" else None
            out[side] = SideRate(success_rate=c / t, trials=int(self.trials[r]), walks=t,
                                 completed=c,
                                 ci95=(round(float(low[r, i]), 6), round(float(high[r, i]), 6)),
                                 exact=float(exact) if exact is not None else None)
        return out

    def to_dict(self, table: bool = False) -> dict:
        """Parameters, per-rule summary with ``by_n`` and ``failing_n``, for a JSON file (with
        the per-size table when ``table``)."""
        per_rule = {rule: s.to_dict() | {"by_n": {str(n): v.to_dict()
                                                  for n, v in self.by_n(rule).items()}}
                    for rule, s in self.summary().items()}
        d = {"study": "tie-breaks", "rules": list(self.rules), "n_min": int(self.sizes[0]),
             "n_max": int(self.sizes[-1]), "starts": self.starts, "order": self.order,
             "seed": self.seed, "seconds": round(self.seconds, 4), "complete": self.complete,
             "first_failing_n": {r: self.first_failing_n(r) for r in self.rules},
             "left_out": int(self.left_out.max(axis=0).sum()) if self.left_out.size else 0,
             "per_rule": per_rule}
        if self.tasks:
            d["tasks"] = dict(self.tasks)
        if self.starts == "sample":
            d["sample"] = self.sample
        if self.notes:
            d["notes"] = self.notes
        if table:
            d["table"] = self.table()
        return d

    def table(self) -> list[dict]:
        """One row per rule and side that ran: walks, completed, success rate and its
        interval, trials, starts left out, first failed start and the squares it visited."""
        rows = []
        low, high = self.interval()
        for r, rule in enumerate(self.rules):
            for i, n in enumerate(self.sizes):
                if self.tried[r, i] == 0:
                    continue
                s = int(self.first_fail[r, i])
                rows.append({"rule": rule, "n": int(n), "starts": int(self.tried[r, i]),
                             "completed": int(self.completed[r, i]),
                             "success_rate": float(self.completed[r, i] / self.tried[r, i]),
                             "ci_low": float(low[r, i]), "ci_high": float(high[r, i]),
                             "trials": int(self.trials[r]),
                             "left_out": int(self.left_out[r, i]),
                             "first_failed_start": Board(int(n), int(n)).name(s) if s >= 0
                             else "",
                             "visited": int(self.fail_len[r, i]) if s >= 0 else "",
                             "exact_success": (float(self.exact_random[int(n)])
                                               if rule == "random"
                                               and int(n) in self.exact_random else "")})
        return rows

    def to_csv(self) -> str:
        """``rule,n,starts,completed,success_rate,ci_low,ci_high,trials,left_out,
        first_failed_start,visited,exact_success`` (``starts`` = walks made;
        ``exact_success``: the exact probability the random rule estimates, where known)."""
        buf = io.StringIO()
        keys = ["rule", "n", "starts", "completed", "success_rate", "ci_low", "ci_high",
                "trials", "left_out", "first_failed_start", "visited", "exact_success"]
        w = csv.DictWriter(buf, fieldnames=keys, lineterminator="\n")
        w.writeheader()
        w.writerows(row | {k: f"{row[k]:.6f}" for k in ("success_rate", "ci_low", "ci_high")}
                    for row in self.table())
        return buf.getvalue()

    def save_csv(self, filename: str | os.PathLike[str]) -> Path:
        """Write :meth:`to_csv` to ``filename`` atomically."""
        return write_text(filename, self.to_csv(), make_parents=True)
