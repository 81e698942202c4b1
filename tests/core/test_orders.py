"""Move-order analysis (docs/spec.md §7): conventions, kernel against a plain reference walk,
symmetries, progress/cancel and CSV."""
import csv
import io
import itertools
from dataclasses import replace

import numpy as np
import pytest

from knightgui_core.board.squares import DCOL, DROW, Board, move_type
from knightgui_core.studies.orders import (
    N_ORDERS,
    OrderError,
    all_orders,
    digits,
    matrix_pairs,
    order_index,
    order_types,
    replay,
    run_orders,
)

MATRIX_ORDER = "⟨1,2⟩⟨2,1⟩⟨1,−2⟩⟨2,−1⟩⟨−1,2⟩⟨−2,1⟩⟨−1,−2⟩⟨−2,−1⟩"
PRINTED_TOUR = """
 1  4 61 20 41  6 43 22
34 19  2  5 60 21 40  7
 3 64 35 62 37 42 23 44
18 33 48 57 46 59  8 39
49 14 63 36 55 38 45 24
32 17 56 47 58 27 54  9
13 50 15 30 11 52 25 28
16 31 12 51 26 29 10 53
"""


def matrix_square(board, r, c):
    """Flat index of matrix square (r, c): row r from the top, column c."""
    return (board.rows - 1 - r) * board.cols + c


def reference_walk(board, order, tie, start):
    """docs/spec.md §2 read literally: candidates = unvisited neighbours, outlets = unvisited
    neighbours of the candidate, fewest wins, ties by position in the order."""
    nb = board.neighbours
    visited = np.zeros(board.size, dtype=bool)
    visited[start] = True
    path, q = [start], start
    while True:
        best = None
        for t in order:
            c = int(nb[q, t - 1])
            if c < 0 or visited[c]:
                continue
            outlets = sum(1 for u in nb[c] if u >= 0 and not visited[u])
            if best is None or outlets < best[0] or (tie == "last" and outlets == best[0]):
                best = (outlets, c)
        if best is None:
            return path
        q = best[1]
        visited[q] = True
        path.append(q)


# ------------------------------------------------------------------ conventions (issue 6)
def test_matrix_order_maps_to_phadke_digits():
    o = order_types(MATRIX_ORDER)
    assert digits(o) == "12438756"
    # (dcol, drow) = (dy, -dx) for every pair
    for t, (dx, dy) in zip(o, [(1, 2), (2, 1), (1, -2), (2, -1), (-1, 2), (-2, 1), (-1, -2),
                               (-2, -1)]):
        assert (DCOL[t - 1], DROW[t - 1]) == (dy, -dx)
    assert order_types(matrix_pairs(o)).tolist() == o.tolist()


def test_walk_from_matrix_origin_is_the_printed_closed_tour():
    board = Board(8, 8)
    w = replay(8, MATRIX_ORDER, "first", matrix_square(board, 0, 0))
    assert w.complete and w.closed
    expected = np.array([[int(v) for v in line.split()]
                         for line in PRINTED_TOUR.strip().splitlines()])
    got = np.zeros((8, 8), dtype=int)
    for k, sq in enumerate(w.path):
        got[7 - sq // 8, sq % 8] = k + 1  # matrix row 0 = top
    assert (got == expected).all()


def test_walk_from_matrix_1_3_stops_after_60_at_5_0():
    board = Board(8, 8)
    w = replay(8, MATRIX_ORDER, "first", matrix_square(board, 1, 3))
    assert not w.complete
    assert len(w.path) == 60
    assert w.path[-1] == matrix_square(board, 5, 0)
    assert "after 60 of 64" in w.message


def test_analysis_flags_agree_with_the_two_convention_walks():
    o = order_types(MATRIX_ORDER)
    res = run_orders(8, "first", orders=o[None, :])
    board = res.board
    assert res.closed[0, matrix_square(board, 0, 0)] == 1
    assert res.lengths[0, matrix_square(board, 1, 3)] == 60


# ------------------------------------------------------------------ kernel vs reference
@pytest.mark.parametrize("rows,cols", [(5, 5), (6, 6), (8, 8), (5, 7), (7, 4)])
@pytest.mark.parametrize("tie", ["first", "last"])
def test_kernel_matches_reference_walk(rows, cols, tie):
    rng = np.random.default_rng(rows * 100 + cols + (tie == "last"))
    table = all_orders()[rng.choice(N_ORDERS, 12, replace=False)]
    res = run_orders(rows, tie, cols=cols, orders=table)
    board = Board(rows, cols)
    for i, order in enumerate(table):
        for s in range(board.size):
            ref = reference_walk(board, [int(t) for t in order], tie, s)
            assert res.lengths[i, s] == len(ref)
            closed = len(ref) == board.size and board.is_knight_move(ref[-1], ref[0])
            assert res.closed[i, s] == closed
        s = int(rng.integers(board.size))
        rp = replay(rows, order, tie, s, cols=cols)
        assert rp.path.tolist() == reference_walk(board, [int(t) for t in order], tie, s)


# ------------------------------------------------------------------ symmetries
@pytest.fixture(scope="module")
def five_first():
    return run_orders(5, "first")


@pytest.fixture(scope="module")
def five_last():
    return run_orders(5, "last")


def test_first_totals_equal_last_totals(five_first, five_last):
    a, b = five_first.summary(), five_last.summary()
    for key in ("orders", "walks", "failed_walks", "orders_with_failure",
                "max_failures_per_order", "closed_walks"):
        assert getattr(a, key) == getattr(b, key), key
    assert a.failed_walks > 0
    assert (five_first.distribution() == five_last.distribution()).all()
    assert (five_first.failures_per_start == five_last.failures_per_start).all()


def test_last_with_an_order_is_first_with_its_reverse(five_first, five_last):
    table = all_orders()
    rev = np.array([order_index(o[::-1]) for o in table[::997]])
    assert (five_last.lengths[::997] == five_first.lengths[rev]).all()


def _board_symmetries():
    """The 8 symmetries of the square as integer 2×2 matrices acting on (x, y)."""
    for a, b in itertools.product((1, -1), (1, -1)):
        yield np.array([[a, 0], [0, b]])
        yield np.array([[0, a], [b, 0]])


def test_walks_commute_with_board_symmetries(five_first):
    n, res, table = 5, five_first, all_orders()
    board = res.board
    for m in _board_symmetries():
        tmap = {}
        for t in range(1, 9):
            dx, dy = m @ (int(DCOL[t - 1]), int(DROW[t - 1]))
            tmap[t] = move_type(int(dx), int(dy))
        perm_sq = np.empty(board.size, dtype=int)
        for s in range(board.size):
            c, r = board.coords(s)
            x, y = m @ (2 * c - (n - 1), 2 * r - (n - 1))  # doubled coordinates about the centre
            perm_sq[s] = board.index(int(x + n - 1) // 2, int(y + n - 1) // 2)
        for i in range(0, N_ORDERS, 2011):
            j = order_index([tmap[int(t)] for t in table[i]])
            assert (res.lengths[j, perm_sq] == res.lengths[i]).all()
        fps = res.failures_per_start
        assert (fps[perm_sq] == fps).all()


# ------------------------------------------------------------------ figures and bookkeeping
def test_figures_are_consistent(five_first):
    r = five_first
    assert r.orders == N_ORDERS and r.walks == N_ORDERS * 25 and r.complete
    dist = r.distribution()
    assert dist.sum() == r.orders
    assert (dist * np.arange(dist.size)).sum() == r.failed_walks
    assert r.orders - dist[0] == r.orders_with_failure
    assert dist.size - 1 == r.max_failures_per_order
    assert r.failures_per_start.sum() == r.failed_walks
    assert r.closed_walks == 0  # a 5×5 board has an odd number of squares: no closed tour
    worst = r.worst(5)
    assert worst[0]["failed_walks"] == r.max_failures_per_order
    assert [w["failed_walks"] for w in worst] == sorted((w["failed_walks"] for w in worst),
                                                        reverse=True)
    w0 = worst[0]
    assert order_types(w0["matrix"]).tolist() == order_types(w0["order"]).tolist()
    assert len(w0["failed_starts"]) == w0["failed_walks"]
    # every listed failed start really fails when replayed
    for name in w0["failed_starts"]:
        assert not replay(5, w0["order"], "first", name).complete


def test_six_by_six_has_closed_walks_and_closed_flags_replay():
    table = all_orders()[::400]
    r = run_orders(6, "first", orders=table)
    assert r.closed_walks > 0
    i, s = map(int, np.argwhere(r.closed == 1)[0])
    rp = replay(6, table[i], "first", s)
    assert rp.complete and rp.closed


def test_order_numbering_is_lexicographic():
    t = all_orders()
    assert t.shape == (N_ORDERS, 8)
    assert digits(t[0]) == "12345678" and digits(t[1]) == "12345687"
    assert digits(t[-1]) == "87654321"
    keys = [digits(o) for o in t[::101]]
    assert keys == sorted(keys)
    for i in (0, 1, 142, 20000, N_ORDERS - 1):
        assert order_index(t[i]) == i


@pytest.mark.parametrize("bad", ["1234567", "12345677", "⟨1,2⟩⟨2,1⟩", "⟨1,1⟩" * 8, "abc",
                                 [1, 2, 3, 4, 5, 6, 7, 9]])
def test_bad_orders_are_refused(bad):
    with pytest.raises(OrderError):
        order_types(bad)


def test_bad_parameters_are_refused():
    with pytest.raises(OrderError):
        run_orders(8, "middle")
    with pytest.raises(OrderError):
        run_orders(0)
    with pytest.raises(OrderError):
        run_orders(17)
    with pytest.raises(OrderError):
        replay(8, "12345678", "first", 64)


def test_progress_and_cancel():
    seen = []
    r = run_orders(5, chunk=5000, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (N_ORDERS, N_ORDERS)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen) and len(seen) == 9
    calls = []

    def cancel():
        calls.append(1)
        return len(calls) > 2  # let two chunks run

    r = run_orders(5, chunk=1000, cancel=cancel)
    assert not r.complete and r.orders == 2000 and r.lengths.shape == (2000, 25)
    assert r.summary().complete is False


def test_csv_export(tmp_path, five_first):
    p = five_first.save_csv(tmp_path / "orders.csv")
    rows = list(csv.reader(io.StringIO(p.read_text(encoding="utf-8"))))
    assert rows[0] == ["index", "order", "matrix", "failed_walks", "closed_walks",
                       "failed_starts"]
    assert len(rows) == N_ORDERS + 1
    fpo = five_first.failures_per_order
    i = int(np.argmax(fpo))
    rec = rows[i + 1]
    assert int(rec[0]) == i and rec[1] == digits(all_orders()[i])
    assert int(rec[3]) == fpo[i] and len(rec[5].split()) == fpo[i]
    q = five_first.save_csv(tmp_path / "starts.csv", table="starts")
    srows = list(csv.reader(io.StringIO(q.read_text(encoding="utf-8"))))
    assert srows[0] == ["square", "col", "row", "failed_walks"] and len(srows) == 26
    assert sum(int(x[3]) for x in srows[1:]) == five_first.failed_walks
    assert not list(tmp_path.glob(".*.tmp"))


@pytest.mark.slow
def test_eight_by_eight_first_and_last_agree():
    a, b = run_orders(8, "first"), run_orders(8, "last")
    assert a.walks == 2_580_480
    assert replace(a.summary(), seconds=0, tie="") == replace(b.summary(), seconds=0, tie="")
    assert a.closed_walks > 0 and a.failed_walks > 0



@pytest.mark.parametrize("rows,cols,tie,chunk", [(8, 8, "first", 5040), (8, 8, "last", 40320),
                                                 (6, 7, "first", 977), (5, 5, "last", 1)])
def test_shared_walks_equal_one_walk_per_order(rows, cols, tie, chunk):
    """Orders that resolve their ties alike share a walk (orders_tree); every order's length
    and closedness from every start equal its own walk's (orders_chunk)."""
    own = run_orders(rows, tie, cols=cols, shared=False)
    shared = run_orders(rows, tie, cols=cols, chunk=chunk)
    np.testing.assert_array_equal(shared.lengths, own.lengths)
    np.testing.assert_array_equal(shared.closed, own.closed)


def test_a_subset_of_orders_shares_walks_too():
    sub = all_orders()[::97].copy()
    own = run_orders(8, "first", orders=sub, shared=False)
    shared = run_orders(8, "first", orders=sub)
    np.testing.assert_array_equal(shared.lengths, own.lengths)
