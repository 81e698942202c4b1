"""Squirrel and Cull's algorithm (the 1996 table), and Ganzfried's fix for 74×74, against a
plain-Python reading of the papers' algorithm and the figures Ganzfried reports."""
import numpy as np
import pytest

from knightgui_core.board.rules import TIE_CODES, TIE_HELP, parse_order, parse_tie
from knightgui_core.board.squares import MOVES, Board
from knightgui_core.board.tour import check_path
from knightgui_core.studies.tiebreaks import run_tiebreaks
from knightgui_core.walks.solve import solve
from knightgui_core.walks.squirrel import (
    GANZFRIED_N,
    GANZFRIED_ORDER,
    PAPER_MOVES,
    VARIANTS,
    _rows,
    plan,
    squirrel_walk,
)
from knightgui_core.walks.walk_kernel import greedy_walk

NO_SCORE = np.zeros(0, dtype=np.int8)


def papers_walk(n, variant, skip=False):
    """The papers' algorithm step by step, in their coordinates (a, b), 1-based, from
    (1, 1): Warnsdorff's rule, ties to the first move of the current order; the order
    changes when the knight stands on the current switch square. ``skip=True`` reads the
    table the other way (the phase in force is the first whose switch square is still
    unvisited). Returns our flat squares (a = file, b = rank)."""
    table = _rows(n, variant)
    orders = [digits for digits, _ in table]
    switch = [where(n) if where is not None else None for _, where in table]
    on = lambda a, b: 1 <= a <= n and 1 <= b <= n          # noqa: E731
    visited = {(1, 1)}
    path = [(1, 1)]
    t = 0
    while True:
        x, y = path[-1]
        if skip:
            while t < len(orders) - 1 and switch[t] is not None and switch[t] in visited:
                t += 1
        elif t < len(orders) - 1 and switch[t] == (x, y):
            t += 1
        best, fewest = None, 9
        for k in orders[t]:
            da, db = PAPER_MOVES[int(k) - 1]
            s = (x + da, y + db)
            if not on(*s) or s in visited:
                continue
            exits = sum(1 for ea, eb in PAPER_MOVES
                        if on(s[0] + ea, s[1] + eb) and (s[0] + ea, s[1] + eb) not in visited)
            if exits < fewest:
                best, fewest = s, exits
        if best is None:
            return [(b - 1) * n + (a - 1) for a, b in path]
        visited.add(best)
        path.append(best)


@pytest.mark.parametrize("variant", VARIANTS)
def test_kernel_walks_the_papers_algorithm(variant):
    for n in range(5, 37):
        assert squirrel_walk(n, 0, variant)[0].tolist() == papers_walk(n, variant), (variant, n)


def test_the_order_changes_on_the_switch_square_and_never_skips_a_phase():
    # on these sides a later switch square is visited before the earlier one is reached:
    # reading the table as "first unvisited switch square" would skip a phase there
    differ = [n for n in range(5, 17)
              if papers_walk(n, "squirrel", skip=True) != papers_walk(n, "squirrel")]
    assert differ == [7, 9, 11, 12, 14]
    for n in differ:
        assert squirrel_walk(n, 0)[0].tolist() == papers_walk(n, "squirrel")


def test_table_entries_as_the_1996_paper_prints_them():
    # n ≡ 3 (mod 8): fifth switch square ((n − 1)/2 + 1, n − 2), i.e. (6, 9) on 11×11
    p = plan(11, "a1")
    assert p.orders[4] == "61825437" and p.switch[4] == (9 - 1) * 11 + (6 - 1)
    # n ≡ 5 (mod 16) and n ≡ 13 (mod 16): third switch square (n − 2, (n − 1)/2 − 2 or − 6)
    assert plan(37, "a1").switch[2] == (16 - 1) * 37 + (35 - 1)
    assert plan(29, "a1").switch[2] == (8 - 1) * 29 + (27 - 1)
    assert plan(29, "a1", "squirrel-unsplit").switch[2] == (12 - 1) * 29 + (27 - 1)
    # n ≡ 2 (mod 8) on 10×10: the third switch square (n − 15, 4) is off the board
    assert plan(10, "a1").switch.tolist()[2] == -1


def test_ganzfried_fix_is_the_fixed_order_21345678_on_74_only():
    fix = plan(GANZFRIED_N, "a1", "squirrel-ganzfried")
    assert fix.orders == (GANZFRIED_ORDER,) == ("21345678",) and fix.switch.tolist() == [-1]
    assert plan(GANZFRIED_N, "a1").orders == plan(GANZFRIED_N, "a1", "squirrel").orders
    assert len(plan(GANZFRIED_N, "a1").orders) == 6
    for n in (73, 75, 82, 90):
        assert plan(n, "a1", "squirrel-ganzfried").orders == plan(n, "a1").orders


def test_ganzfried_fix_changes_74_and_nothing_else_5_to_120():
    for n in range(5, 121):
        b = Board(n, n)
        for c in sorted(set(b.corners)):
            fixed, _ = squirrel_walk(n, c, "squirrel-ganzfried")
            assert len(fixed) == n * n and check_path(b, fixed) is None and fixed[0] == c, \
                (n, c)
            plain, _ = squirrel_walk(n, c)
            if n == GANZFRIED_N:
                assert len(plain) < n * n          # the table's one failure
            else:
                assert plain.tolist() == fixed.tolist(), (n, c)


def test_the_fix_is_plain_warnsdorff_with_the_papers_order():
    # the papers' 21345678 is our 65781234 (their 12345678 is our 56781234)
    ours = "".join(str(MOVES.index(PAPER_MOVES[int(k) - 1]) + 1) for k in GANZFRIED_ORDER)
    assert ours == "65781234"
    n = GANZFRIED_N
    path = np.empty(n * n, dtype=np.int32)
    ties = np.empty(n * n, dtype=np.uint8)
    m = greedy_walk(n, n, 0, int(TIE_CODES["first"]), parse_order(ours).positions(), 0, NO_SCORE,
                    path, ties)
    assert m == n * n
    assert squirrel_walk(n, 0, "squirrel-ganzfried")[0].tolist() == path.tolist()
    # and the same plain walk with the papers' 12345678 does not complete there
    m = greedy_walk(n, n, 0, int(TIE_CODES["first"]), parse_order("56781234").positions(), 0,
                    NO_SCORE, path, ties)
    assert m < n * n


def test_the_rule_by_name_in_solve_and_the_study():
    assert parse_tie("ganzfried") == parse_tie("Squirrel_Ganzfried") == \
        TIE_CODES["squirrel-ganzfried"]
    assert "Ganzfried" in TIE_HELP["squirrel-ganzfried"] and "1996" in TIE_HELP["squirrel"]
    assert not solve(74, 74, tie="squirrel", method="greedy").ok
    res = solve(74, 74, start="a74", tie="squirrel-ganzfried", method="greedy")
    assert res.ok and res.tour.method["tie"] == "squirrel-ganzfried"
    study = run_tiebreaks(76, n_min=70, rules=["squirrel", "squirrel-ganzfried"],
                          starts="corners")
    assert study.failing_n("squirrel") == [74] and study.failing_n("squirrel-ganzfried") == []
    assert study.tried[1].tolist() == [4] * 7


@pytest.mark.slow
def test_full_sweep_5_to_2000_from_the_corner():
    res = run_tiebreaks(2000, rules=["squirrel", "squirrel-ganzfried"])
    assert res.failing_n("squirrel") == [74]
    assert res.failing_n("squirrel-ganzfried") == []
    assert int(res.completed[1].sum()) == 1996


def test_ganzfried_figure_for_the_table():
    from knightgui_core.studies import published
    fig = next(f for f in published.FIGURES if f.key == "ganzfried-squirrel-74")
    res = run_tiebreaks(80, rules=[fig.rule])
    assert res.failing_n(fig.rule) == [n for n in fig.failing_n if n <= 80] == [74]
