"""The count study: every Warnsdorff tour from every start square of a board, on the runner.

Strict rule, open tours, every tie followed (:mod:`knightgui_core.tietree.counting.subtrees`).
Per start: tours, closed tours, dead ends, and the exact probabilities that a walk breaking
ties uniformly at random completes a tour (``p_success``) or a closed one (``p_closed``);
with ``lengths``, the dead ends by squares visited. Each worker thread keeps a transposition
table across its tasks (:mod:`knightgui_core.tietree.counting.table`). One start per symmetry
class is counted, and the subtrees a start's own symmetries map onto each other are counted
once, weighted (:mod:`knightgui_core.tietree.counting.fold`).

A task counts a few subtrees of one start within :data:`TASK_MOVES` forward moves; the
subtrees it did not reach come back in its result and become the next round's tasks (the
:data:`FANOUT` - 1 biggest one by one, the rest together). Keys name the board, start,
budget and subtrees, so a store finds finished tasks round after round.

>>> res = run_count(5, 5, "corners", scheduler="threads")            # doctest: +SKIP
>>> res.totals["tours"], res.totals["closed"], res.totals["dead_ends"]
(128, 0, 0)
"""
from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..board.squares import Board, BoardError, SquareSpec
from ..run.runner import RunReport, Task, run_tasks
from ..run.store import ResultStore
from ..run.store_shapes import RowShapeError, board_squares, listed, obj, probability, result_shape, whole
from ..tietree.counting.fold import fold_roots
from ..tietree.counting.subtrees import CountBoard, CountError, count_subtrees, split, start_classes
from ..tietree.counting.table import TableConfig, default_table_bytes, thread_table

STUDY = "count"
#: version of the tasks' definition (part of every key); 2: results carry probabilities
VERSION = 2
#: forward moves a task makes before it hands the rest back (2**27: 1–5 s on one core)
TASK_MOVES = 1 << 27
#: a task that stops early becomes at most this many tasks of the next round
FANOUT = 4

__all__ = ["STUDY", "TASK_MOVES", "FANOUT", "CountResult", "parse_starts", "count_task",
           "start_tasks", "run_count", "CountOptions", "Runner", "StartFn"]

#: ``runner(tasks) -> RunReport``: how one round of tasks is run
Runner = Callable[[Sequence[Task]], RunReport]
#: ``on_start(start, members, record)``: a class of starts is counted (see :func:`run_count`)
StartFn = Callable[[str, list[str], dict[str, Any]], None]

def count_task(rows: int, cols: int, start: str, prefixes: Sequence[Sequence[int]],
               budget: int, lengths: bool = False,
               table_bytes: int | None = None, topology: str = "plane",
               leaper: Sequence[int] = (1, 2)) -> dict[str, Any]:
    """Count ``prefixes`` of ``start`` (runs on a worker): ``{"tours", "closed",
    "dead_ends", "p_success", "p_closed", "forward_moves", "probes", "hits", "next"}``
    (with ``lengths`` also ``"lengths": {"<squares>": [dead ends, probability]}``); ``next``
    groups the subtrees not reached into the next round's tasks. ``table_bytes``: None for
    :func:`default_table_bytes`, 0 for no table."""
    board = Board(rows, cols, topology, (int(leaper[0]), int(leaper[1])))
    cb = CountBoard(rows, cols, board)  # its own run state: tasks may share a process
    nbytes = default_table_bytes() if table_bytes is None else int(table_bytes)
    table = thread_table(rows, cols, TableConfig(nbytes, bool(lengths)),
                         None if board.is_classic else board)
    r = count_subtrees(cb, start, [tuple(p) for p in prefixes], budget, table=table,
                       lengths=bool(lengths))
    rest = [list(p) for p in r.rest]
    groups = [[p] for p in rest[:FANOUT - 1]]
    if len(rest) > FANOUT - 1:
        groups.append(rest[FANOUT - 1:])
    out: dict[str, Any] = {"tours": r.tours, "closed": r.closed, "dead_ends": r.dead_ends,
                           "p_success": r.p_success, "p_closed": r.p_closed,
                           "forward_moves": r.forward_moves, "probes": r.probes,
                           "hits": r.hits, "next": groups}
    if lengths:
        out["lengths"] = {str(k): v for k, v in sorted(r.lengths.items())}
    return out


@result_shape(STUDY)
def result_shape_of(params: Any, result: Any) -> None:
    """Check :func:`count_task`'s result: counts ≥ 0, probabilities in 0..1, ``next`` at
    most :data:`FANOUT` non-empty groups of prefixes of move types 1..8 no longer than the
    board, ``lengths`` keyed by 0..squares."""
    _, squares = board_squares(params)
    r = obj(result, "the result", ("tours", "closed", "dead_ends", "p_success", "p_closed",
                                   "forward_moves", "next"))
    for k in ("tours", "closed", "dead_ends", "forward_moves", "probes", "hits"):
        if k in r:
            whole(r[k], f"result.{k}")
    probability(r["p_success"], "result.p_success")
    probability(r["p_closed"], "result.p_closed")
    groups = listed(r["next"], "result.next")
    if len(groups) > FANOUT:
        raise RowShapeError(f"result.next has {len(groups):,} groups, more than {FANOUT}")
    for g, group in enumerate(groups):
        if not listed(group, f"result.next[{g}]"):
            raise RowShapeError(f"result.next[{g}] is empty")
        for i, prefix in enumerate(group):
            if len(listed(prefix, f"result.next[{g}][{i}]")) > squares:
                raise RowShapeError(f"result.next[{g}][{i}] has {len(prefix):,} moves, more "
                                    f"than {squares:,}")
            for m in prefix:
                whole(m, f"a move type of result.next[{g}][{i}]", 1, 8)
    for sq, cell in obj(r.get("lengths", {}), "result.lengths").items():
        if not (sq.isascii() and sq.isdigit()) or not 0 <= int(sq) <= squares:
            raise RowShapeError(f"result.lengths has {sq!r:.40}, not a number of squares")
        paths, prob = listed(cell, f"result.lengths[{sq!r}]", length=2)
        whole(paths, f"result.lengths[{sq!r}] paths")
        probability(prob, f"result.lengths[{sq!r}] probability")


def task_key(rows: int, cols: int, start: str, prefixes: Sequence[Sequence[int]],
             budget: int, lengths: bool = False, board: Board | None = None) -> str:
    """The task's stable key: board (topology and leaper unless the knight's plane), start,
    budget, lengths, subtrees (hashed when long). The table is not in it: it changes where a
    task stops, never the totals it and its handed-back subtrees add up to."""
    enc = ";".join(".".join(str(int(t)) for t in p) or "-" for p in prefixes)
    if len(enc) > 60:
        enc = "h" + hashlib.sha256(enc.encode()).hexdigest()[:24]
    where = f"{rows}x{cols}"
    if board is not None and not board.is_classic:
        where += f"-{board.topology}-{board.leaper[0]}.{board.leaper[1]}"
    return f"{STUDY}/v{VERSION}/{where}/{start}/m{budget}{'/L' if lengths else ''}/{enc}"


def make_task(rows: int, cols: int, start: str, prefixes: Sequence[Sequence[int]],
              budget: int, lengths: bool = False, table_bytes: int | None = None,
              board: Board | None = None) -> Task:
    """The task that counts ``prefixes`` of ``start`` within ``budget`` forward moves."""
    plist = [[int(t) for t in p] for p in prefixes]
    params: dict[str, Any] = {"rows": rows, "cols": cols, "start": start, "prefixes": plist,
                              "budget": budget, "lengths": bool(lengths)}
    topology, leaper = "plane", [1, 2]
    if board is not None and not board.is_classic:
        topology, leaper = board.topology, list(board.leaper)
        params.update(topology=topology, leaper=leaper)
    return Task(task_key(rows, cols, start, plist, budget, lengths, board), STUDY, params,
                count_task, (rows, cols, start, plist, budget, bool(lengths), table_bytes,
                             topology, leaper))


def parse_starts(rows: int, cols: int, spec: str | Sequence[SquareSpec]) -> list[int]:
    """``all``, ``corners`` or squares (names, comma-separated or a list, or indices) as
    sorted distinct square indices; :class:`CountError` naming a bad square."""
    try:
        b = Board(rows, cols)
    except BoardError as e:
        raise CountError(str(e)) from None
    names: list[SquareSpec]
    if isinstance(spec, str):
        word = spec.strip().lower()
        if word == "all":
            return list(range(b.size))
        if word == "corners":
            return sorted(set(b.corners))
        words = [w for w in spec.replace(";", " ").replace(",", " ").split() if w]
        # "3,7"-style names contain a comma: accept them when the text is one pair
        one_pair = len(words) == 2 and all(w.isascii() and w.isdigit() for w in words)
        names = [spec] if one_pair else list(words)
    else:
        names = list(spec)
    if not names:
        raise CountError("no start squares given (all, corners or names like a1,c3)")
    out = set()
    for nm in names:
        try:
            out.add(b.square(nm))
        except BoardError as e:
            raise CountError(f"start {nm!r}: {e}") from None
    return sorted(out)


@dataclass
class CountResult:
    """Counts and probabilities per start square (names), totals, the runner's task numbers
    and time; ``dead_end_lengths`` when lengths were asked for."""

    rows: int
    cols: int
    per_start: dict[str, dict[str, Any]] = field(default_factory=dict)
    classes: dict[str, list[str]] = field(default_factory=dict)
    tasks: dict[str, int] = field(default_factory=lambda: {"total": 0, "from_store": 0,
                                                           "computed": 0})
    rounds: int = 0
    seconds: float = 0.0
    cancelled: bool = False
    forward_moves: int = 0
    probes: int = 0
    hits: int = 0
    dead_end_lengths: dict[str, dict[str, Any]] | None = None

    @property
    def totals(self) -> dict[str, Any]:
        """Sums of the counts over the start squares; the probabilities averaged over them
        (a uniformly random start)."""
        recs, n = self.per_start.values(), max(1, len(self.per_start))
        t = {k: sum(r[k] for r in recs) for k in ("tours", "closed", "dead_ends")}
        return t | {k: sum(r[k] for r in recs) / n for k in ("p_success", "p_closed")}

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` object of ``knightgui study count``."""
        out = {"study": STUDY, "rows": self.rows, "cols": self.cols, "totals": self.totals,
               "per_start": self.per_start, "tasks": dict(self.tasks),
               "seconds": round(self.seconds, 3)}
        if self.dead_end_lengths is not None:
            out["dead_end_lengths"] = self.dead_end_lengths
        return out


def start_tasks(rows: int, cols: int, reps: Sequence[int], split_depth: int = 0,
                budget: int = TASK_MOVES, lengths: bool = False,
                table_bytes: int | None = None, board: Board | None = None,
                fold: bool = True) -> list[tuple[Task, int]]:
    """The first round: (task, weight) per subtree ``split_depth`` ties below each start;
    with ``fold`` symmetric subtrees are one task weighing their number."""
    cb = CountBoard(rows, cols, board)
    out = []
    for s in reps:
        name = cb.board.name(s)
        roots = (fold_roots(cb, s, split_depth) if fold
                 else [(p, 1) for p in split(cb, s, split_depth)])
        for p, weight in roots:
            out.append((make_task(rows, cols, name, [p], budget, lengths, table_bytes, board),
                        weight))
    return out


@dataclass(frozen=True)
class CountOptions:
    """How a count's tasks are cut: ``split_depth`` ties down before the first round,
    ``budget`` forward moves a task, ``lengths`` (dead ends by squares visited),
    ``table_bytes`` per worker thread (None: default, 0: none), ``board`` (None: the
    knight's plane), ``fold`` symmetric subtrees (same counts either way)."""

    split_depth: int = 0
    budget: int = TASK_MOVES
    lengths: bool = False
    table_bytes: int | None = None
    board: Board | None = None
    fold: bool = True


def run_count(rows: int, cols: int, starts: str | Sequence[SquareSpec] = "all", *,
              options: CountOptions | None = None, store: ResultStore | None = None,
              scheduler: Any = None, workers: int | None = None,
              progress: Callable[[int, int, int], None] | None = None, cancel: Any = None,
              runner: Runner | None = None, on_start: StartFn | None = None,
              on_tasks: Callable[[int, int], None] | None = None) -> CountResult:
    """Count every start of ``starts`` (:func:`parse_starts`) on a ``rows`` × ``cols`` board.

    Rounds of tasks go to ``runner`` (default :func:`~knightgui_core.run.runner.run_tasks`
    with ``store``, ``scheduler``, ``workers``, ``cancel``); ``progress(round, done, total)``
    follows each round. As results come in: ``on_tasks(done, queued)`` (tasks finished over
    every round, tasks known but not finished) and ``on_start(start, members, record)`` once
    a class of starts has its last task in. :class:`CountError` for a bad board or start."""
    o = CountOptions() if options is None else options
    split_depth, budget, lengths, table_bytes, board, fold = (
        o.split_depth, o.budget, o.lengths, o.table_bytes, o.board, o.fold)
    t0 = time.perf_counter()
    CountBoard(rows, cols, board)               # validates the board
    if int(budget) < 1 or int(split_depth) < 0:
        raise CountError("the task budget must be positive and the split depth not negative")
    squares = parse_starts(rows, cols, starts)
    b = Board(rows, cols) if board is None else board
    classes = start_classes(rows, cols, squares, b)
    res = CountResult(rows, cols)
    res.classes = {b.name(r): [b.name(s) for s in members] for r, members in classes.items()}
    acc: dict[int, dict[str, Any]] = {
        r: {"tours": 0, "closed": 0, "dead_ends": 0, "p_success": 0.0, "p_closed": 0.0}
        for r in classes}
    lens: dict[int, dict[int, list]] = {r: {} for r in classes}
    by_name = {b.name(r): r for r in classes}

    first = start_tasks(rows, cols, sorted(classes), split_depth, budget, lengths, table_bytes,
                        board, fold)
    todo = [t for t, _ in first]
    weights = {t.key: w for t, w in first}      # a task's subtrees stand for this many each
    watch = _Watch(acc, weights, by_name, on_start, on_tasks, res.classes)

    def default_runner(tasks: Sequence[Task]) -> RunReport:
        prog = None if progress is None else (lambda d, t: progress(res.rounds, d, t))
        return run_tasks(tasks, store=store, scheduler=scheduler, workers=workers,
                         progress=prog, cancel=cancel, on_result=watch.result)

    run = runner or default_runner
    while todo:
        res.rounds += 1
        watch.begin(todo)
        report = run(todo)
        for t in todo:                          # another runner: its results, now
            if t.key in report.results:
                watch.result(t.key, report.results[t.key])
        for k in ("total", "from_store", "computed"):
            res.tasks[k] += int(getattr(report, k))
        nxt: list[Task] = []
        for t in todo:
            r = report.results.get(t.key)
            if r is None:
                continue
            rep = by_name[t.params["start"]]
            w = weights[t.key]
            _add(acc[rep], w, r)
            for sq, (paths, prob) in (r.get("lengths") or {}).items():
                cell = lens[rep].setdefault(int(sq), [0, 0.0])
                cell[0] += w * int(paths)
                cell[1] += w * float(prob)
            res.forward_moves += int(r["forward_moves"])
            res.probes += int(r.get("probes", 0))
            res.hits += int(r.get("hits", 0))
            for group in r["next"]:
                nt = make_task(rows, cols, t.params["start"], group, budget, lengths,
                               table_bytes, board)
                nxt.append(nt)
                weights[nt.key] = w
        if report.cancelled or not report.complete:
            res.cancelled = True
            break
        todo = nxt
    if not res.cancelled:
        rep_of = {s: rep for rep, members in classes.items() for s in members}
        res.per_start = {b.name(s): dict(acc[rep_of[s]]) for s in squares}
        if lengths:
            res.dead_end_lengths = _lengths_over_starts(classes, lens, len(squares))
    res.seconds = time.perf_counter() - t0
    return res


def _add(rec: dict[str, Any], w: int, r: Mapping[str, Any]) -> None:
    """Add a task's result, standing for ``w`` subtrees, to a start's figures."""
    for k in ("tours", "closed", "dead_ends"):
        rec[k] += w * int(r[k])
    for k in ("p_success", "p_closed"):
        rec[k] += w * float(r[k])


class _Watch:
    """Follows results for :func:`run_count`'s ``on_tasks`` and ``on_start``. A class is
    done when none of its tasks is queued; its figures add earlier rounds' sum and this
    round's results in task order, as the final table does, so both agree to the last bit."""

    def __init__(self, acc: dict[int, dict[str, Any]], weights: dict[str, int],
                 by_name: dict[str, int], on_start: StartFn | None,
                 on_tasks: Callable[[int, int], None] | None,
                 members: dict[str, list[str]]):
        self.acc, self.weights, self.by_name = acc, weights, by_name
        self.on_start, self.on_tasks, self.members = on_start, on_tasks, members
        self.queued = {rep: 0 for rep in acc}
        self.done = 0
        self.tasks: dict[str, Task] = {}
        self.got: dict[str, Any] = {}

    def begin(self, todo: Sequence[Task]) -> None:
        """A round starts (the first one puts its tasks on the queue)."""
        if not self.tasks:
            for t in todo:
                self.queued[self.by_name[t.params["start"]]] += 1
        self.tasks = {t.key: t for t in todo}
        self.got = {}
        if self.on_tasks is not None:
            self.on_tasks(self.done, sum(self.queued.values()))

    def result(self, key: str, value: Any) -> None:
        """A task of this round is in (a second call for it does nothing)."""
        t = self.tasks.get(key)
        if t is None or key in self.got:
            return
        self.got[key] = value
        self.done += 1
        name = t.params["start"]
        rep = self.by_name[name]
        self.queued[rep] += len(value["next"]) - 1
        if self.on_tasks is not None:
            self.on_tasks(self.done, sum(self.queued.values()))
        if self.queued[rep] == 0 and self.on_start is not None:
            rec = dict(self.acc[rep])
            for k, task in self.tasks.items():
                if k in self.got and task.params["start"] == name:
                    _add(rec, self.weights[k], self.got[k])
            self.on_start(name, list(self.members[name]), rec)


def _lengths_over_starts(classes: dict[int, list[int]], lens: dict[int, dict[int, list]],
                         starts: int) -> dict[str, dict[str, Any]]:
    """Dead ends by squares visited, summed over the starts (each class counts once per
    member); the probability is for a uniformly random start."""
    out: dict[int, list] = {}
    for rep, members in classes.items():
        for sq, (paths, prob) in lens[rep].items():
            cell = out.setdefault(sq, [0, 0.0])
            cell[0] += paths * len(members)
            cell[1] += prob * len(members)
    return {str(sq): {"paths": out[sq][0], "probability": out[sq][1] / max(1, starts)}
            for sq in sorted(out)}
