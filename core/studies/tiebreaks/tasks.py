"""The tasks of the tie-break study (:mod:`knightgui_core.studies.tiebreaks`): start sets,
the deterministic :class:`WalkTask` with its stable key, and :func:`run_task`, which walks one
task on whichever process or machine runs it."""
from __future__ import annotations

import importlib.util
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from ...board import rules as _rules
from ...board.existence import open_tour_exists, why_no_tour
from ...board.squares import Board
from ...system.errors import InputError
from ...walks import squirrel as _squirrel
from ...walks import walk_kernel as _walk
from ...walks.phased_kernel import phased_walk
from ...walks.solve import SolveError, solve

START_SETS = ("corner", "corners", "all", "sample")
CONSTRUCTION = "construction"
#: part of every task key: bump it when a task's result would change for the same key
KEY_VERSION = "v1"
#: Squares walked per task (bounded tasks for progress, cancel and distribution).
CHUNK_SQUARES = 1_000_000
#: what :func:`run_task` gives per n, beside the sizes
COLUMNS = ("tried", "completed", "left_out", "first_fail", "fail_len")

_NO_SCORE = np.zeros(0, dtype=np.int8)


class TieBreakError(InputError):
    """A parameter of the study that is not valid."""


def construction_available() -> bool:
    """Whether this build has the linear-time construction (:mod:`knightgui_core.construct.huge`)."""
    return importlib.util.find_spec("knightgui_core.construct.huge") is not None


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
        return (f"tiebreaks/{KEY_VERSION}/{self.rule}/o{self.order}/{self.starts}/k{self.sample}/"
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
    cols: dict[str, list[int]] = {k: [] for k in COLUMNS}
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
        for k, v in zip(COLUMNS, (len(st), done, left, first, flen)):
            cols[k].append(v)
    return {"key": task.key(), "n": sizes, **cols}


def _walk_once(n, start, code, pos, seed, rule) -> int:
    """One greedy walk; the squares it visited. The kernels release the GIL."""
    path = np.empty(n * n, dtype=np.int32)
    ties = np.empty(n * n, dtype=np.uint8)
    if rule in _rules.SQUIRREL_RULES:
        p = _squirrel.plan(n, start, rule)
        return int(phased_walk(n, n, p.start, p.prios, p.switch, path, ties))
    return int(_walk.greedy_walk(n, n, start, int(code), pos, seed, _NO_SCORE, path, ties))


def _construction_walk(n, s) -> tuple[bool, int]:
    if why_no_tour(n, n, False) is not None:
        return False, 0
    try:
        res = solve(n, n, start=(int(s) % n, int(s) // n), closed=False, method="construct")
    except SolveError:
        return False, 0
    ok = bool(res.ok and res.tour is not None and int(res.path[0]) == int(s))
    return ok, len(res.path) if res.ok else 0


def size_blocks(n_min: int, n_max: int, starts: str, sample: int) -> list[tuple[int, int]]:
    """Consecutive sizes grouped into blocks of about :data:`CHUNK_SQUARES` squares. The
    blocks are cut counting from n = 1, whatever ``n_min`` and ``n_max``, and then clipped to
    them: a longer sweep has the same tasks (and keys) as a shorter one below its end."""
    out = []
    lo, acc = 1, 0
    for n in range(1, n_max + 1):
        acc += _start_count(n, starts, sample) * n * n
        if acc >= CHUNK_SQUARES or n == n_max:
            a, b = max(lo, n_min), n
            if a <= b:
                out.append((a, b))
            lo, acc = n + 1, 0
    return out


def make_tasks(rules: Iterable[str], n_min: int, n_max: int, *, starts: str = "corner", sample: int = 16,
               seed: int = 0, order: str = _rules.DEFAULT_ORDER,
               trials: int = 1) -> list[WalkTask]:
    """The tasks of a study, in merge order: rule by rule, trial by trial, n ascending.
    Random-residual rules get ``trials`` seeds; the others one. Consecutive sizes are
    grouped up to about :data:`CHUNK_SQUARES` squares a task."""
    tasks = []
    blocks = size_blocks(n_min, n_max, starts, sample)
    # parameters a task does not depend on are set to 0, so that their tasks (and keys) are
    # shared: the seed of a rule without random ties, the sample of a fixed start set
    s_seed = int(seed) if starts == "sample" else 0
    k_sample = int(sample) if starts == "sample" else 0
    for rule in rules:
        randomised = rule in _rules.RANDOM_RULES
        for t in range(trials if randomised else 1):
            for n0, n1 in blocks:
                tasks.append(WalkTask(rule, order, starts, k_sample, s_seed,
                                      int(seed) + t if randomised else 0, n0, n1))
    return tasks


def run_task_params(params: dict) -> dict:
    """:func:`run_task` of the task described by ``params`` (a :class:`WalkTask` as a dict):
    the function the distributed runner calls on its workers."""
    return run_task(WalkTask(**params))
