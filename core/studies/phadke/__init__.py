"""Phadke's study (docs/spec.md §6): 53 start/end combinations of the closed 8×8 tour, 22,432
algorithms (strict, full corner dash, semi corner dash, ECD, XCD), run on all cores.

>>> algos = algorithms("strict")
>>> res = run(algos)                       # StudyResult
>>> from knightgui_core.studies.phadke.tables import family_totals
>>> family_totals(res)[0]["solutions"]
989931

Each algorithm is counted by a nogil kernel that keeps its tie tree's subtrees by state
(:func:`knightgui_core.tietree.counting.bits_table.count_by_states`), so algorithms of one
start, end and tail, differing only in dashes, walk each shared subtree once. A thread pool
takes those groups (:func:`sharing_groups`); progress and ``cancel()`` come between groups.
``by_states=False`` counts leaf by leaf (same counts, about 7x the time, bench/phadke.py).
``checkpoint=path`` saves finished algorithms and skips them on a restart.

Reading (docs/spec.md §5): the whole ECD/XCD tail is reserved from the start and number L
must be a knight move from the tail's first square. Strict 989,931 and full corner dash
5,201,841 match the paper exactly; semi 40,640,279 (+1,006); ECD 526,577 / 2,201,678 and
XCD 961,608 / 3,829,015 against 570,079 / 2,366,427 and 1,091,095 / 4,366,840. Other
readings tried (E unreserved: ECD 210,191 / 909,552; an approach cell scoring 1 only while
its corner is free: identical counts) do not reproduce the paper either.
"""
from __future__ import annotations

import os
import time
from collections.abc import Callable, Hashable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product
from pathlib import Path

import numpy as np

from ...board import dash as _dash
from ...board.squares import Board
from ...system.control import CancelLike, cancel_requested
from ...tietree.counting import bits_table as _bt
from ...tietree.enumeration import bitboard_kernel as _k64
from ...tietree.enumeration import enumerate_kernel as _k
from .checkpoint import load_checkpoint, save_checkpoint

#: start -> ends (docs/spec.md §6), in the paper's order.
COMBOS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("a8", ("c7", "b6")), ("b8", ("a6", "c6", "d7")), ("c8", ("a7", "b6", "d6", "e7")),
    ("d8", ("b7", "c6", "e6", "f7")), ("b7", ("a5", "c5", "d6", "d8")),
    ("c7", ("a8", "a6", "b5", "d5", "e6", "e8")), ("d7", ("b8", "b6", "c5", "e5", "f6", "f8")),
    ("c6", ("b8", "a7", "a5", "b4", "d4", "e5", "e7", "d8")),
    ("d6", ("c8", "b7", "b5", "c4", "e4", "f5", "f7", "e8")),
    ("d5", ("c7", "b6", "b4", "c3", "e3", "f4", "f6", "e7")),
)
#: symmetric copies of each unique start on the full board.
COPIES = {"a8": 4, "b7": 4, "c6": 4, "d5": 4, "b8": 8, "c8": 8, "d8": 8, "c7": 8, "d7": 8,
          "d6": 8}
#: family -> (runs, solutions) as printed in the paper.
FAMILIES = ("strict", "cd", "semi", "ecd", "ecd-semi", "xcd", "xcd-semi")
PAPER = {"strict": (53, 989_931), "cd": (736, 5_201_841), "semi": (10_144, 40_639_273),
         "ecd": (256, 570_079), "ecd-semi": (1_792, 2_366_427), "xcd": (1_224, 1_091_095),
         "xcd-semi": (8_280, 4_366_840)}
PAPER_STRICT_FULL_BOARD = 5_732_056
PAPER_GRAND_TOTAL = 54_235_575
PAPER_FULL_BOARD = 324_861_840
#: what the CLI's --family picks
FAMILY_GROUPS = {"strict": ("strict",), "cd": ("cd",), "semi": ("semi",),
                 "ecd": ("ecd", "ecd-semi"), "xcd": ("xcd", "xcd-semi"),
                 "all": ("cd", "semi", "ecd", "ecd-semi", "xcd", "xcd-semi")}
CORNER_ORDER = ("a1", "a8", "h8", "h1")


@dataclass(frozen=True)
class Algorithm:
    id: int                   # position in the full list of 22,432 (stable across runs)
    family: str               # 'strict'|'cd'|'semi'|'ecd'|'ecd-semi'|'xcd'|'xcd-semi'
    start: str
    end: str
    dashes: tuple             # ((corner, state), ...) for the free, non-tail corners
    tail: tuple | None = None  # square names ending at E

    @property
    def key(self) -> str:
        """A text that identifies the algorithm's settings (start, end, dashes, tail), used to
        match checkpoint records."""
        d = ",".join(f"{c}={s}" for c, s in self.dashes)
        t = "-".join(self.tail) if self.tail else ""
        return f"{self.start}>{self.end}|{d}|{t}"


def combos() -> list[tuple[str, str]]:
    """Every (start, end) combination of the study, by start."""
    return [(s, e) for s, ends in COMBOS for e in ends]


@lru_cache(maxsize=64)
def _dash_sets(corner_names: tuple[str, ...]):
    """(full-dash state tuples, semi state tuples) over the given corners."""
    full = [tuple(zip(corner_names, st)) for st in product(("off", "full"), repeat=len(corner_names))]
    semi = [tuple(zip(corner_names, st))
            for st in product(("off", "A", "B", "full"), repeat=len(corner_names))
            if any(x in ("A", "B") for x in st)]
    return full, semi


def all_algorithms() -> list[Algorithm]:
    """All 22,432 algorithms, grouped by combination; ids are positions in this list."""
    b = Board(8, 8)
    out: list[Algorithm] = []

    def add(family, s, e, dashes, tail=None):
        out.append(Algorithm(len(out), family, s, e, dashes, tail))

    for s, e in combos():
        S, E = b.parse(s), b.parse(e)
        free = _dash.free_corners(b, S, E)
        names = tuple(c for c in CORNER_ORDER if free[c] is None)
        full, semi = _dash_sets(names)
        for d in full:
            add("strict" if all(x == "off" for _, x in d) else "cd", s, e, d)
        for d in semi:
            add("semi", s, e, d)
        tails = _dash.list_tails(b, S, E)
        for kind in ("ecd", "xcd"):
            for t in tails[kind]:
                tname = tuple(b.name(q) for q in t)
                others = tuple(c for c in names if c != b.name(t[1]))
                full, semi = _dash_sets(others)
                for d in full:
                    add(kind, s, e, d, tname)
                for d in semi:
                    add(kind + "-semi", s, e, d, tname)
    return out


def algorithms(*families: str) -> list[Algorithm]:
    """Algorithms of the given families ('cd' includes the 53 strict ones, as in the paper);
    names of FAMILY_GROUPS are accepted too. No argument: all 22,432."""
    wanted: set[str] = set()
    for f in families or ("all",):
        if f in FAMILY_GROUPS:
            wanted.update(FAMILY_GROUPS[f])
        elif f in FAMILIES:
            wanted.add(f)
        else:
            raise ValueError(f"unknown family {f!r} (use {', '.join(FAMILY_GROUPS)})")
    if "cd" in wanted:
        wanted.add("strict")
    return [a for a in all_algorithms() if a.family in wanted]


def in_family(a: Algorithm, family: str) -> bool:
    """Paper accounting: the 736 'cd' runs include the 53 strict ones."""
    return a.family == family or (family == "cd" and a.family == "strict")


# ------------------------------------------------------------------------------ running
@lru_cache(maxsize=1)
def _board_tables() -> tuple[np.ndarray, ...]:
    """The 8×8 tables the kernels read (neighbours, lists, types, counts, attack masks,
    slots), made once: every chunk of a run makes a batch (the kernels never write them)."""
    nbr = Board(8, 8).neighbours
    nl, ntype, ncount, _, _ = _k.tables(nbr, ())
    return nbr, nl, ntype, ncount, _k64.attack_masks(nbr), _k64.slot_table(nl, ncount)


@lru_cache(maxsize=1024)
def _base_plan(start: int, end: int, tail: tuple[int, ...] | None) -> _dash.DashPlan:
    """The plan of a start, end and tail without dashes (checked once per combination)."""
    return _dash.plan(Board(8, 8), start, end, {}, tail)


def _dashed_cells(b: Board, start: int, end: int, dashes: tuple,
                  tail: tuple[int, ...] | None) -> tuple[list[int], tuple[int, ...]]:
    """(dashed cells, reserved chain) of an algorithm: :func:`knightgui_core.board.dash.plan`'s
    answer, with the start, end and tail checked once per combination; any dash that is not
    plainly allowed goes through ``plan`` itself, which raises the precise error."""
    base = _base_plan(start, end, tail)
    states: dict[str, str] = {}
    for key, value in dashes:
        c = _dash.corner_by_name(b, key)
        state = _dash.parse_state(value)
        if state != "off" and c.name not in base.states:
            _dash.plan(b, start, end, dict(dashes), tail)        # raises DashError
        states[c.name] = state
    cells = []
    for c in _dash.corners(b):
        state = states.get(c.name, "off")
        if c.name in base.states and state in ("A", "full"):
            cells.append(c.a)
        if c.name in base.states and state in ("B", "full"):
            cells.append(c.b)
    return cells, base.chain


class AlgorithmBatch:
    """Kernel inputs for a list of algorithms (8×8 bitboard kernel)."""

    def __init__(self, algos):
        b = Board(8, 8)
        self.board = b
        self.nbr, self.nl, self.ntype, self.ncount, self.att, self.tslot = _board_tables()
        full = (1 << b.size) - 1
        names = {b.name(q): q for q in range(b.size)}

        def sq(text):
            return names[text] if text in names else b.parse(text)

        rows = []
        for a in algos:
            S, E = sq(a.start), sq(a.end)
            tail = None if a.tail is None else tuple(sq(x) for x in a.tail)
            dashed, chain = _dashed_cells(b, S, E, tuple(dict(a.dashes).items()), tail)
            res = sum(1 << q for q in chain)
            free = full & ~(1 << S)
            rows.append((S, b.size - len(chain), sum(1 << q for q in set(dashed)),
                         int(self.att[chain[0]]), free, free & ~res))
        cols = list(zip(*rows)) if rows else [()] * 6
        self.starts, self.lens = (np.array(c, dtype=np.int64) for c in cols[:2])
        self.dash, self.endm, self.free0, self.avail0 = (np.array(c, dtype=np.uint64)
                                                         for c in cols[2:])

    def run(self, idx: np.ndarray, by_states: bool = True,
            share: Hashable = None) -> np.ndarray:
        """Count the algorithms at positions ``idx`` (int64[k]) to exhaustion: int64[k, 4] =
        (solutions, dead ends, forward moves, 1). ``by_states``: through a table of tie-tree
        states (False: leaf by leaf, same counts); ``share``: the table's key (default: the
        start square when all share one)."""
        if by_states:
            starts = self.starts[idx]
            if share is None:
                share = ("phadke", int(starts[0]) if len(set(starts.tolist())) == 1 else -1)
            return _bt.count_by_states(self.att, starts, self.dash[idx], self.endm[idx],
                                       self.free0[idx], self.avail0[idx], share=share)
        out = np.zeros((len(idx), 4), dtype=np.int64)
        board = _k64.BitTables(neighbours=self.nbr, onward=self.nl, move_type=self.ntype,
                               slot=self.tslot, attacks=self.att, dashed=np.uint64(0),
                               ends=np.uint64(0))
        _k64.count_batch_bits(board, _k64.Algorithms(
            self.starts[idx], self.lens[idx], self.dash[idx], self.endm[idx], self.free0[idx],
            self.avail0[idx]), out)
        return out


@dataclass
class StudyResult:
    algorithms: list
    counts: dict = field(default_factory=dict)     # algorithm id -> (sol, dead, fwd)
    seconds: float = 0.0
    cancelled: bool = False


def sharing_groups(algos: Sequence[Algorithm], batch: int | None = None) -> list[list[int]]:
    """Positions in ``algos`` grouped by start, end and tail (they share tie-tree states), in
    order of first appearance, each group cut into pieces of at most ``batch`` (None: whole)."""
    by: dict[tuple, list[int]] = {}
    for i, a in enumerate(algos):
        by.setdefault((a.start, a.end, a.tail), []).append(i)
    step = max(1, int(batch)) if batch else None
    out = []
    for members in by.values():
        if step is None:
            out.append(members)
        else:
            out.extend(members[j:j + step] for j in range(0, len(members), step))
    return out


def _count_chunk(algos: Sequence[Algorithm], by_states: bool) -> np.ndarray:
    """Make and count a batch on a worker thread (one prepares under the GIL while another
    counts without it)."""
    return AlgorithmBatch(algos).run(np.arange(len(algos)), by_states)


def run(algos: Iterable[Algorithm] | None = None, workers: int | None = None,
        progress: Callable[[int, int, int], object] | None = None,
        cancel: CancelLike = None,
        checkpoint: str | os.PathLike[str] | None = None, batch: int | None = None,
        checkpoint_every: float = 2.0, by_states: bool = True) -> StudyResult:
    """Count every algorithm in ``algos`` (default: all 22,432) on ``workers`` threads, in
    chunks of :func:`sharing_groups` (cut at ``batch``); ``progress(done, total, solutions)``
    after each chunk; ``cancel()`` stops between chunks (``result.cancelled``).
    ``checkpoint``: JSON of finished algorithms, loaded first and rewritten atomically.
    ``by_states``: see :meth:`AlgorithmBatch.run`."""
    algos = list(all_algorithms() if algos is None else algos)
    t0 = time.perf_counter()
    result = StudyResult(algos)
    ckpt = Path(checkpoint) if checkpoint else None
    if ckpt is not None and ckpt.exists():
        result.counts.update(load_checkpoint(ckpt, algos))
    todo = [i for i, a in enumerate(algos) if a.id not in result.counts]
    total = len(algos)
    if todo:
        chunks = [[todo[j] for j in g] for g in sharing_groups([algos[i] for i in todo], batch)]
        workers = max(1, int(workers or os.cpu_count() or 1))
        last_save = time.perf_counter()
        stop = False
        sol_total = sum(v[0] for v in result.counts.values())
        try:
            with ThreadPoolExecutor(max_workers=workers) as pool:
                pending = {}
                it = iter(chunks)

                def submit():
                    c = next(it, None)
                    if c is not None:
                        pending[pool.submit(_count_chunk, [algos[i] for i in c],
                                            by_states)] = c

                for _ in range(workers * 2):
                    submit()
                while pending:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for fut in done:
                        c = pending.pop(fut)
                        out = fut.result()
                        for j, row in zip(c, out):
                            result.counts[algos[j].id] = (int(row[0]), int(row[1]), int(row[2]))
                            sol_total += int(row[0])
                        if not stop:
                            if cancel_requested(cancel):
                                stop = True
                            else:
                                submit()
                    if progress is not None:
                        progress(len(result.counts), total, sol_total)
                    if ckpt is not None and time.perf_counter() - last_save > checkpoint_every:
                        save_checkpoint(ckpt, algos, result.counts)
                        last_save = time.perf_counter()
        except BaseException:
            if ckpt is not None:   # keep what finished, then re-raise (Ctrl-C included)
                save_checkpoint(ckpt, algos, result.counts)
            raise
        result.cancelled = stop and len(result.counts) < total
    if ckpt is not None:
        save_checkpoint(ckpt, algos, result.counts)
    result.seconds = time.perf_counter() - t0
    return result
