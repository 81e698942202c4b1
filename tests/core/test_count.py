"""The count engine (knightgui_core.tietree.counting.subtrees) and the count study
(knightgui_core.studies.count_study)."""
from __future__ import annotations

import pytest

from knightgui_core.board.squares import Board
from knightgui_core.run.runner import RunReport
from knightgui_core.studies.count_study import (
    CountOptions,
    count_task,
    make_task,
    parse_starts,
    run_count,
    task_key,
)
from knightgui_core.tietree.counting.subtrees import (
    CountBoard,
    CountError,
    count_subtrees,
    split,
    start_classes,
    symmetries,
)
from knightgui_core.tietree.enumeration.enumerator import count_kernel


def _whole(cb, s):
    r = count_subtrees(cb, s, [()])
    assert r.rest == []
    return r.tours, r.closed, r.dead_ends


def _drain(cb, s, prefixes, budget, group=3):
    """Count ``prefixes`` through budgeted calls until nothing is left."""
    todo, acc, calls = list(prefixes), [0, 0, 0], 0
    while todo:
        r = count_subtrees(cb, s, todo[:group], budget)
        todo = r.rest + todo[group:]
        acc[0] += r.tours
        acc[1] += r.closed
        acc[2] += r.dead_ends
        calls += 1
    return tuple(acc), calls


@pytest.mark.parametrize("n", [5, 6])
def test_counts_equal_the_enumerator_on_every_start(n):
    cb = CountBoard(n, n)
    for s in range(n * n):
        e = count_kernel(n, n, s)
        tours, closed, dead = _whole(cb, s)
        assert (tours, dead) == (e["solutions"], e["dead_ends"])
        assert 0 <= closed <= tours


def test_counts_equal_the_enumerator_on_8x8_and_a_rectangle():
    cb = CountBoard(8, 8)
    for s in ("a8", "d4", "b1", "c7"):
        e = count_kernel(8, 8, s)
        assert _whole(cb, s)[::2] == (e["solutions"], e["dead_ends"])
    cb = CountBoard(5, 6)
    for s in range(30):
        e = count_kernel(5, 6, s)
        assert _whole(cb, s)[::2] == (e["solutions"], e["dead_ends"])


def test_closed_tours_are_those_that_end_next_to_the_start():
    """Closed counted by the kernel = solutions of the enumerator whose last square is a
    knight move from the start (6x6 has closed ones, odd boards none)."""
    from knightgui_core.tietree.enumeration.enumerator import Enumerator
    for n, s in ((6, "a1"), (6, "b1"), (6, "c1"), (5, "a1")):
        en = Enumerator(n, n, s)
        b = en.board
        closed = sum(1 for sol in en if b.is_knight_move(int(sol.path[0]), int(sol.path[-1])))
        assert _whole(CountBoard(n, n), s)[1] == closed
    assert _whole(CountBoard(6, 6), "b1")[1:] == (10, 0)


@pytest.mark.parametrize("n,starts", [(6, range(36)), (8, ("a8", "c3", "b1"))])
def test_totals_do_not_depend_on_the_split(n, starts):
    cb = CountBoard(n, n)
    for s in starts:
        whole = _whole(cb, s)
        for depth in (0, 1, 2, 4):
            prefixes = split(cb, s, depth)
            for budget in ((5, 300, 1 << 62) if n == 6 else (20_000, 1 << 62)):
                got, calls = _drain(cb, s, prefixes, budget)
                assert got == whole, (s, depth, budget)
        # a deep split really cuts the start into many subtrees
        assert n != 8 or len(split(cb, s, 4)) > 4


def test_a_budget_cuts_a_start_into_many_tasks_and_each_makes_progress():
    cb = CountBoard(8, 8)
    got, calls = _drain(cb, "a8", [()], 10_000, group=1)
    assert got == _whole(cb, "a8")
    assert calls > 50
    r = count_subtrees(cb, "a8", [()], 1)          # the smallest budget still finishes a leaf
    assert r.tours + r.dead_ends == 1 and r.rest


def test_split_prefixes_name_disjoint_subtrees_that_cover_the_start():
    cb = CountBoard(7, 7)
    ps = split(cb, "a1", 3)
    assert len(set(ps)) == len(ps)
    assert sum(_whole_prefix(cb, "a1", p) for p in ps) == _whole(cb, "a1")[0]


def _whole_prefix(cb, s, p):
    r = count_subtrees(cb, s, [p])
    return r.tours


def test_bad_input_is_one_clear_error():
    with pytest.raises(CountError, match="at most 128 squares"):
        CountBoard(12, 12)
    with pytest.raises(CountError):
        CountBoard(0, 5)
    cb = CountBoard(8, 8)
    with pytest.raises(CountError, match="start"):
        count_subtrees(cb, "z9", [()])
    with pytest.raises(CountError, match="move types"):
        count_subtrees(cb, "a1", [(9,)])
    with pytest.raises(CountError, match="not a path of ties"):
        count_subtrees(cb, "a1", [(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)])
    with pytest.raises(CountError, match="budget"):
        count_subtrees(cb, "a1", [()], 0)
    with pytest.raises(CountError, match="split depth"):
        split(cb, "a1", -1)


def test_symmetry_classes():
    cl = start_classes(8, 8, range(64))
    assert len(cl) == 10 and sum(map(len, cl.values())) == 64
    assert len(start_classes(9, 9, range(81))) == 15
    assert len(start_classes(5, 6, range(30))) == 9
    assert len(symmetries(5, 6)) == 4 and len(symmetries(7, 7)) == 8


@pytest.mark.parametrize("n,reps", [(8, ("a1", "c2", "d4")), (9, ("c3", "e3")),
                                    pytest.param(9, ("a1", "c1", "b2", "e5"),
                                                 marks=pytest.mark.slow)])
def test_starts_equal_under_symmetry_have_equal_counts(n, reps):
    """The study counts one start per class; here every member of a few classes is counted
    and compared."""
    b = Board(n, n)
    cb = CountBoard(n, n)
    cl = start_classes(n, n, range(n * n))
    for name in reps:
        s = b.parse(name)
        members = next(m for m in cl.values() if s in m)
        assert len(members) in (4, 8)
        counts = {_whole(cb, m) for m in members}
        assert len(counts) == 1, (name, counts)


def test_parse_starts():
    assert parse_starts(8, 8, "all") == list(range(64))
    assert parse_starts(8, 8, "corners") == [0, 7, 56, 63]
    assert parse_starts(8, 8, "a1,c3 a1") == [0, 18]
    assert parse_starts(8, 8, "3,7") == [Board(8, 8).parse("c7")]
    for bad in ("z1", "", "a9"):
        with pytest.raises(CountError):
            parse_starts(8, 8, bad)


def test_count_task_hands_back_what_it_did_not_reach_in_groups():
    r = count_task(8, 8, "a8", [[]], 10_000)
    assert 1 <= len(r["next"]) <= 4
    assert all(isinstance(g, list) and g for g in r["next"])
    assert task_key(8, 8, "a8", [[]], 10) != task_key(8, 8, "a8", [[1]], 10)
    long = [[1, 2, 3, 4, 5, 6, 7, 8] * 3] * 5
    assert len(task_key(8, 8, "a8", long, 10)) < 80


def _serial_runner(tasks):
    rep = RunReport(total=len(tasks), computed=len(tasks))
    for t in tasks:
        rep.results[t.key] = t.fn(*t.args)
    return rep


def test_study_8x8_all_starts_has_the_known_total():
    res = run_count(8, 8, "all", runner=_serial_runner)
    t = res.totals
    assert (t["tours"], t["closed"], t["dead_ends"]) == (7_894_584, 1_188_384, 761_520)
    assert res.per_start["a8"]["tours"] == 137_300
    assert len(res.per_start) == 64 and len(res.classes) == 10
    assert res.tasks["total"] == 11          # b2's first tie folds into two tasks
    plain = run_count(8, 8, "all", runner=_serial_runner, options=CountOptions(fold=False))
    # the same counts; the probabilities are sums of the subtrees' in another order
    assert plain.tasks["total"] == 10 and _same({"b2": plain.per_start["b2"]},
                                                {"b2": res.per_start["b2"]})


@pytest.mark.parametrize("depth,budget", [(0, 50_000), (2, 200_000), (3, 1 << 40)])
def test_study_totals_do_not_depend_on_split_or_budget(depth, budget):
    ref = run_count(6, 6, "all", runner=_serial_runner)
    res = run_count(6, 6, "all", runner=_serial_runner,
                    options=CountOptions(split_depth=depth, budget=budget))
    assert _same(res.per_start, ref.per_start)
    for table_bytes in (0, 1 << 24):      # the plain walk, then with a table
        big = run_count(8, 8, "corners", runner=_serial_runner,
                        options=CountOptions(split_depth=depth, budget=budget, table_bytes=table_bytes))
        assert big.totals["tours"] == 4 * 137_300
        # without a table the walk outgrows a small budget and splits itself (with one, a
        # warm table may finish it in one round)
        assert table_bytes or budget > 1_000_000 or big.rounds > 1


@pytest.mark.parametrize("n,tours", [(5, 320), (6, 1_984), (7, 388_312)])
def test_study_on_the_runner(n, tours):
    res = run_count(n, n, "all", scheduler="threads", workers=2, options=CountOptions(budget=100_000))
    assert res.totals["tours"] == tours
    assert res.tasks["computed"] == res.tasks["total"] > 0


def test_study_resumes_from_a_store(tmp_path):
    from knightgui_core.run.store import ResultStore
    with ResultStore(tmp_path / "s.sqlite") as st:
        a = run_count(8, 8, "corners", scheduler="threads", workers=2, store=st,
                      options=CountOptions(budget=30_000))
    with ResultStore(tmp_path / "s.sqlite") as st:
        b = run_count(8, 8, "corners", scheduler="threads", workers=2, store=st,
                      options=CountOptions(budget=30_000))
    assert a.per_start == b.per_start
    assert b.tasks["from_store"] == b.tasks["total"] == a.tasks["total"] > 1
    assert b.tasks["computed"] == 0


def test_cancel_stops_with_no_table():
    res = run_count(8, 8, "all", scheduler="threads", workers=2, cancel=lambda: True)
    assert res.cancelled and res.per_start == {}


def test_make_task_params_are_json():
    t = make_task(8, 8, "a1", [(1, 2)], 5)
    assert t.params["prefixes"] == [[1, 2]]


def test_boards_over_64_squares_use_both_words_and_agree_with_the_enumerator():
    """Squares 64..127 live in the second word: 9×9 and 5×14 against the general kernel."""
    for rows, cols, starts in ((9, 9, ("c3",)), (5, 14, ("a1", "n5", "g3"))):
        cb = CountBoard(rows, cols)
        for s in starts:
            e = count_kernel(rows, cols, s)
            assert _whole(cb, s)[::2] == (e["solutions"], e["dead_ends"]), (rows, cols, s)


def _same(a: dict, b: dict, tol: float = 1e-12) -> bool:
    """Per-start records equal: counts exactly, probabilities within ``tol``."""
    if a.keys() != b.keys():
        return False
    for k in a:
        ra, rb = a[k], b[k]
        if ra.keys() != rb.keys():
            return False
        for f in ra:
            if isinstance(ra[f], float):
                if abs(ra[f] - rb[f]) > tol:
                    return False
            elif ra[f] != rb[f]:
                return False
    return True


@pytest.mark.parametrize("runner", ["dask", "serial"])
def test_each_class_is_reported_once_as_soon_as_it_is_counted(runner):
    """on_start gives every class once, with the figures of the final table to the last
    bit, before the count ends; on_tasks only moves forward, ends at the tasks' total with
    nothing queued, and states the queue growing when a task hands subtrees back."""
    events: list[tuple] = []
    res = run_count(7, 7, "all", options=CountOptions(budget=20_000, table_bytes=0),
                    runner=_serial_runner if runner == "serial" else None,
                    scheduler="threads", workers=2,
                    on_start=lambda name, members, rec: events.append(("start", name,
                                                                       members, rec)),
                    on_tasks=lambda done, queued: events.append(("tasks", done, queued)))
    starts = [e for e in events if e[0] == "start"]
    assert [e[1] for e in starts] != [] and sorted(e[1] for e in starts) == sorted(res.classes)
    for _, name, members, rec in starts:
        assert members == res.classes[name]
        assert all(rec == res.per_start[m] for m in members)
    tasks = [e[1:] for e in events if e[0] == "tasks"]
    done = [d for d, _ in tasks]
    assert done == sorted(done) and tasks[-1] == (res.tasks["total"], 0)
    assert res.rounds > 1 and max(d + q for d, q in tasks) == res.tasks["total"]
    assert any(q2 > q1 for (_, q1), (_, q2) in zip(tasks, tasks[1:]))   # the queue grew
    # the first class is reported before the last task is in
    last = next(i for i, e in enumerate(events) if e[:2] == ("tasks", res.tasks["total"]))
    assert events.index(starts[0]) < last
