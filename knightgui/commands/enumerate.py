"""``knightgui enumerate``: Phadke's exhaustive enumeration (docs/spec.md §4, §5, §10).

    knightgui enumerate --start a8 --end c7                      # count: 14,258 solutions
    knightgui enumerate --start a8 --end c7 --first 3            # show the first boards
    knightgui enumerate --start b8 --end a6 --dash h1=full --xcd c2-a1-b3-c5-a6
    knightgui enumerate --start b8 --end a6 --list-tails
    knightgui enumerate --all-tours --rows 6 --cols 6 --start a1   # every path: 524,486

On a terminal a first line on stderr says what is enumerated, and a bar shows the forward
moves made, the solutions and dead ends found and the time so far; Ctrl-C stops the search
and says how far it got (exit 130). A pipe, a file or ``--json`` gets none of it: stdout
carries the results alone.
"""
from __future__ import annotations

import contextlib
import dataclasses
import re
import time

from knightgui.commands._common import (
    Activity,
    CliError,
    add_board_options,
    board_of,
    cli_errors,
    emit_json,
    parse_square,
    positive_int,
)

_TAIL_SPLIT = re.compile(r"[\s>/-]+")
#: forward moves between two looks at the bar (and at Ctrl-C): a few tenths of a second
FIRST_CHUNK = 1 << 20


def _searched(solutions: float, dead_ends: float) -> str:
    """Solutions and dead ends so far, in words: beside the bar, and when Ctrl-C stops it."""
    return f"{solutions:,} solutions, {dead_ends:,} dead ends"


def _headline(en, what: str) -> str:
    """The first line on a terminal: which tours of which board are enumerated, and how."""
    b = en.board
    arrow = "" if en.end is None else f" to {b.name(en.end)} (closed)"
    dashed = [f"{c}={v}" for c, v in en.dashes.items() if v != "off"]
    extra = f", dashes {' '.join(dashed)}" if dashed else ""
    if en.plan.tail_kind:
        extra += f", {en.plan.tail_kind.upper()} tail"
    return (f"enumerate: Warnsdorff tours of the {b.describe()} board from "
            f"{b.name(en.start)}{arrow}{extra}, every tie followed; {what}; Ctrl-C stops it")


@contextlib.contextmanager
def _searching(en, quiet: bool, what: str, unit: str = "move", state=None):
    """The bar of a search (its headline says ``what``). Ctrl-C: the bar closed, how far it
    got (``state()``: solutions, dead ends, forward moves; by default ``en``'s) as the line,
    exit 130; a terminating signal (:class:`knightgui.terminate.Terminated`, a
    KeyboardInterrupt too) goes on as it came: the command line says which one."""
    act = Activity(quiet=quiet)
    act.say(_headline(en, what))
    act.start("enumerate", unit=unit, scale=True)
    t0 = time.perf_counter()
    try:
        yield act
    except KeyboardInterrupt as e:
        act.close()
        if type(e) is not KeyboardInterrupt:
            raise
        solutions, dead_ends, moves = (state() if state else
                                       (en.solutions, en.dead_ends, en.forward_moves))
        raise CliError(f"interrupted after {_searched(solutions, dead_ends)}, {moves:,} forward "
                       f"moves, {time.perf_counter() - t0:.1f} s", code=130) from None
    finally:
        act.close()


def add_parser(sub) -> None:
    """``knightgui enumerate``: every Warnsdorff tour (or with ``--all-tours`` every path) from a
    start."""
    p = sub.add_parser("enumerate", help="every Warnsdorff tour through the options matrix "
                       "(Phadke's exhaustive method)")
    p.add_argument("--rows", default="8", help="board rows (default 8)")
    p.add_argument("--cols", default="8", help="board columns (default 8)")
    p.add_argument("--start", required=True, help="start square S (a8 or 1,8)")
    p.add_argument("--end", help="end square E, a knight move from S (closed tours); "
                   "without it: open tours")
    p.add_argument("--dash", action="append", default=[], metavar="CORNER=STATE",
                   help="corner dash: CORNER is a free corner (a1, a8, h8, h1), STATE is off, "
                   "A, B or full; repeat or separate with commas")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--ecd", metavar="TAIL", help="end corner dash tail A1-K-A2-E")
    g.add_argument("--xcd", metavar="TAIL", help="extended end corner dash tail A1-K-A2-X-E")
    p.add_argument("--list-tails", action="store_true",
                   help="list free corners and the ECD/XCD tails for S and E, then stop")
    p.add_argument("--first", metavar="K", help="stop after the first K solutions and show them")
    p.add_argument("--out", metavar="FILE", help="write the solutions (the first K, or all) "
                   "as they are found to FILE.npy (binary: boards of move numbers, numpy.load), "
                   "FILE.csv or FILE.json; memory stays flat")
    p.add_argument("--no-table", action="store_true",
                   help="count an open tour without dashes through the options matrix, not "
                        "with the count engine's transposition table")
    p.add_argument("--all-tours", action="store_true",
                   help="every knight's path from --start through all squares, not only "
                        "Warnsdorff's (boards of at most 128 squares; with --first K the "
                        "first K, in the search's order; with --out every one is written)")
    p.add_argument("--json", action="store_true", help="last stdout line: one JSON object")
    add_board_options(p)
    p.set_defaults(func=run)


def _count_by_states(en, quiet: bool) -> dict:
    """Count-only for an open tour without dashes or tail on at most 128 squares: the count
    engine with a transposition table (the same tours and dead ends as the options matrix,
    fewer forward moves; also the probability that random ties complete a tour), folded by
    the symmetries that keep the start in place (:mod:`knightgui_core.tietree.counting.fold`)."""
    from knightgui_core.tietree.counting.fold import fold_roots
    from knightgui_core.tietree.counting.subtrees import CountBoard, count_subtrees
    from knightgui_core.tietree.counting.table import TableConfig, default_table_bytes, thread_table
    b = en.board
    cb = CountBoard(b.rows, b.cols, b)
    table = thread_table(b.rows, b.cols, TableConfig(default_table_bytes()),
                         None if b.is_classic else b)
    out = {"solutions": 0, "dead_ends": 0, "forward_moves": 0, "p_success": 0.0}
    todo: list = fold_roots(cb, en.start, 0)        # (subtree, how many it stands for)
    with _searching(en, quiet, "counting them with a transposition table",
                    state=lambda: (out["solutions"], out["dead_ends"],
                                   int(out["forward_moves"]))) as act:
        while todo:
            (prefix, weight), todo = todo[0], todo[1:]
            r = count_subtrees(cb, en.start, [prefix], 1 << 24, table=table)
            todo = [(q, weight) for q in r.rest] + todo
            out["solutions"] += weight * r.tours
            out["dead_ends"] += weight * r.dead_ends
            out["forward_moves"] += r.forward_moves
            out["p_success"] += weight * r.p_success
            act.show(out["forward_moves"], _searched(out["solutions"], out["dead_ends"]))
    return out


def _dashes(items) -> dict:
    out = {}
    for item in items:
        for part in item.split(","):
            part = part.strip()
            if not part:
                continue
            if "=" not in part:
                raise CliError(f"--dash: '{part}' is not CORNER=STATE (e.g. a1=full)")
            k, v = part.split("=", 1)
            out[k.strip()] = v.strip()
    return out


def _tail(text):
    parts = [t for t in _TAIL_SPLIT.split(text.strip()) if t]
    if len(parts) < 2:
        raise CliError(f"tail '{text}': give its squares in order, e.g. c2-a1-b3-c5-a6")
    return parts


def _out_kind(path, board) -> str:
    from knightgui_core.tietree.enumeration.solution_writer import FORMATS, format_of
    try:
        kind = format_of(path)
    except ValueError:
        from pathlib import Path
        raise CliError(f"--out: unknown file type '{Path(path).suffix[:20]}' (use "
                       f"{', '.join(FORMATS)})") from None
    if kind == ".npy" and not board.is_classic:     # said before the search, not after
        raise CliError(f"--out: a .npy file holds move numbers only, not the board: for the "
                       f"{board.describe()} use .json or .csv")
    return kind


def _cannot_write(path, e: OSError) -> str:
    """The one line of ``--out`` that could not be written: the writer's own sentence (it
    names the file and says the old one was kept), or the system's reason."""
    from knightgui_core.system.files import FileRefused
    if isinstance(e, FileRefused):
        return f"--out: {e}"
    return f"--out: cannot write {path}: {e.strerror or e}"


def _write_out(path, en, limit, quiet: bool) -> dict:
    """Stream the solutions to ``path`` as they are found (flat memory); the counters."""
    from knightgui_core.tietree.enumeration.solution_writer import write_solutions
    what = f"writing {'the first ' + format(limit, ',') if limit else 'all'} to {path}"
    with _searching(en, quiet, what, "solution") as act:
        try:
            return write_solutions(en, path, limit, progress=lambda c: act.show(
                c["solutions"], f"{c['dead_ends']:,} dead ends"))
        except OSError as e:
            raise CliError(_cannot_write(path, e)) from None
        except ValueError as e:      # EnumerationError: a format that cannot hold this board
            raise CliError(f"--out: {e}") from None


def _all_tours(args, rows: int, cols: int) -> int:
    """``--all-tours``: every path from the start, listed (``--first``, ``--out``) or
    counted (the all-tours count with its table)."""
    from knightgui_core.board.tour import Tour
    from knightgui_core.studies.all_tours import all_tours_task
    from knightgui_core.tietree.alltours.all_tours_list import AllToursLister
    from knightgui_core.tietree.counting.subtrees import CountError
    from knightgui_core.tietree.enumeration.solution_writer import write_paths
    for flag, given in (("--end", args.end), ("--dash", args.dash), ("--ecd", args.ecd),
                        ("--xcd", args.xcd), ("--list-tails", args.list_tails),
                        ("--no-table", args.no_table)):
        if given:
            raise CliError(f"--all-tours lists every open path from --start; {flag} is for "
                           "Warnsdorff's enumeration")
    board = board_of(args, rows, cols)
    start = parse_square(board, args.start, "--start")
    with cli_errors(CountError):
        lister = AllToursLister(rows, cols, start, board=board)
    b = lister.board
    k = positive_int("--first", args.first, 1, 100_000) if args.first is not None else None
    out_kind = _out_kind(args.out, b) if args.out else None
    t0 = time.perf_counter()
    paths = f"enumerate: every knight's path of the {b.describe()} board from {b.name(lister.start)}"
    act = Activity(quiet=args.json)
    if not out_kind:                  # the first K, or the count: one call each, a clock
        act.say(f"{paths}; {'counting them' if k is None else f'the first {k:,}'}; Ctrl-C "
                "stops it")
        act.start("enumerate", tick=True)
    try:
        shown = lister.first(k) if k is not None else None
        r = None if out_kind or shown is not None else all_tours_task(
            rows, cols, b.name(lister.start))
    finally:
        act.close()
    if out_kind:
        def blocks():
            if shown is not None:
                yield shown
                return
            while not lister.done:
                block = lister.block(1 << 14)
                if len(block):
                    yield block
        act.say(f"{paths}, written to {args.out}; Ctrl-C stops it")
        act.start("enumerate", unit="path", scale=True)
        try:
            write_paths(args.out, b, "all-tours", blocks(),
                        lambda: {"solutions": lister.found, "exhausted": lister.done},
                        progress=lambda c: act.show(c["solutions"]))
        except OSError as e:
            raise CliError(_cannot_write(args.out, e)) from None
        finally:
            act.close()
        total, exhausted, closed = lister.found, lister.done, None
    elif shown is not None:
        total, exhausted, closed = len(shown), lister.done, None
    else:
        assert r is not None                  # neither a file nor a listing: the count ran
        total, exhausted, closed = r["tours"], True, r["closed"]
    secs = time.perf_counter() - t0
    if shown is not None:
        for i, p in enumerate(shown, 1):
            print(f"path {i}")
            print(Tour(b, p, False).render())
            print()
    more = "" if closed is None else f" ({closed:,} closed)"
    print(f"{b.name(lister.start)}: {total:,} knight's paths through all {b.size} squares{more}"
          f"{'' if exhausted else ' (not all: --first)'} in {secs:.3f} s")
    if args.json:
        from knightgui_core.api_results import PathCount
        first = (None if shown is None else
                 tuple(tuple(b.name(int(s)) for s in p) for p in shown))
        emit_json(PathCount(b, b.name(lister.start), int(total), bool(exhausted),
                            None if closed is None else int(closed), first, secs).to_dict())
    return 0 if total > 0 else 1


def _first(en, k: int, quiet: bool) -> list:
    """The first ``k`` solutions, found :data:`FIRST_CHUNK` forward moves at a time so the
    bar moves (and Ctrl-C answers) while no solution turns up."""
    sols: list = []
    with _searching(en, quiet, f"the first {k:,}") as act:
        while len(sols) < k and not en.exhausted:
            sols += en.first(k - len(sols), max_steps=FIRST_CHUNK)
            act.show(en.forward_moves, _searched(en.solutions, en.dead_ends))
    return sols


def _count(en, quiet: bool) -> None:
    """Count every solution through the options matrix, with the bar."""
    with _searching(en, quiet, "counting them") as act:
        en.count(progress=lambda c: act.show(c.forward_moves,
                                             _searched(c.solutions, c.dead_ends)), chunk=FIRST_CHUNK)


def run(args) -> int:
    """Enumerate, count, list or write the tours; exit 0 with tours, 1 with none, 130 when
    Ctrl-C stops the search (one line: how far it got)."""
    from knightgui_core.system.errors import InputError
    from knightgui_core.tietree.enumeration.enumerator import EnumerationError, Enumerator
    rows = positive_int("--rows", args.rows, 1, 1000)
    cols = positive_int("--cols", args.cols, 1, 1000)
    if rows * cols > 1_000_000:
        raise CliError("--rows × --cols must be at most 1,000,000 squares")
    if args.all_tours:
        return _all_tours(args, rows, cols)
    # the edge: squares become flat indices here, once
    board = board_of(args, rows, cols)
    start = parse_square(board, args.start, "--start")
    end = None if args.end is None else parse_square(board, args.end, "--end")
    dashes = _dashes(args.dash)
    tail_kind = "ecd" if args.ecd else "xcd" if args.xcd else None
    tail = _tail(args.ecd or args.xcd) if tail_kind else None
    tail_squares = (None if tail is None else
                    tuple(parse_square(board, q, f"--{tail_kind}") for q in tail))
    with cli_errors(EnumerationError, InputError):
        if args.list_tails:
            if end is None:
                raise CliError("--list-tails needs --end")
            from knightgui_core.api import corner_tails
            tails = corner_tails(board, start, end)
            for c, why in tails.free_corners.items():
                print(f"corner {c}: {'free' if why is None else 'not free: ' + why}")
            for kind, listed in (("ecd", tails.ecd), ("xcd", tails.xcd)):
                for t in listed:
                    print(f"--{kind} {t}")
            if args.json:
                emit_json(tails.to_dict())
            return 0
        en = Enumerator(rows, cols, start, end, dashes, tail_squares, board=board)
    if tail_kind and en.plan.tail_kind != tail_kind:
        raise CliError(f"--{tail_kind}: {'-'.join(tail or ())} is an {en.plan.tail_kind.upper()} "
                       f"tail; use --{en.plan.tail_kind}")
    out_kind = _out_kind(args.out, en.board) if args.out else None
    t0 = time.perf_counter()
    sols = []
    by_states: dict | None = None
    k = positive_int("--first", args.first, 1, 100_000) if args.first is not None else None
    if out_kind:
        if k is not None:      # the boards are shown too: keep the first K, then write them
            sols = _first(en, k, args.json)
            en.reset()
        _write_out(args.out, en, k, args.json)
    elif k is not None:
        sols = _first(en, k, args.json)
    elif (en.end is None and not en.chain and not any(v != "off" for v in en.dashes.values())
          and en.board.size <= 128 and not args.no_table):
        by_states = _count_by_states(en, args.json)
    else:
        _count(en, args.json)
    from knightgui_core.api import enumeration_result
    res = enumeration_result(en, time.perf_counter() - t0,
                             first=sols if args.first is not None else None)
    if by_states is not None:
        res = dataclasses.replace(
            res, solutions=int(by_states["solutions"]), dead_ends=int(by_states["dead_ends"]),
            forward_moves=int(by_states["forward_moves"]), exhausted=True,
            method="transposition table", p_success=float(by_states["p_success"]))
    if args.first is not None:
        for s in sols:
            print(f"solution {s.index} (branched at move {s.branch})")
            print(s.tour.render())
            mo = " ".join(f"({k},{j})={t}" for k, j, t in s.mo_entries())
            print(f"options matrix: {mo or 'empty'}")
            print()
    arrow = "" if res.end is None else f"→{res.end}"
    print(f"{res.start}{arrow}: {res.solutions:,} solutions, {res.dead_ends:,} dead ends, "
          f"{res.forward_moves:,} forward moves{'' if res.exhausted else ' (not exhausted)'} "
          f"in {res.seconds:.3f} s")
    if args.json:
        emit_json(res.to_dict())
    return 0 if res.solutions > 0 or not res.exhausted else 1
