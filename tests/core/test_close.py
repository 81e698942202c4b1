"""Closing open tours by rotations (knightgui_core.walks.close_kernel.repair_closed)."""
from __future__ import annotations

import numpy as np
import pytest

from knightgui_core.board.existence import closed_tour_exists
from knightgui_core.board.squares import Board
from knightgui_core.board.tour import check_path
from knightgui_core.construct.huge import construct_closed
from knightgui_core.walks.close_kernel import _infer_cols, repair_closed


def warnsdorff(board: Board, start: int, rng: np.random.Generator) -> np.ndarray | None:
    """Plain Warnsdorff walk with random ties (an independent, pure-Python path source)."""
    nb = board.neighbours
    free = np.ones(board.size, dtype=bool)
    outlets = (nb >= 0).sum(axis=1)
    path = [start]
    free[start] = False
    outlets[nb[start][nb[start] >= 0]] -= 1
    q = start
    for _ in range(board.size - 1):
        cands = [s for s in nb[q] if s >= 0 and free[s]]
        if not cands:
            return None
        best = min(outlets[s] for s in cands)
        q = int(rng.choice([s for s in cands if outlets[s] == best]))
        path.append(q)
        free[q] = False
        outlets[nb[q][nb[q] >= 0]] -= 1
    return np.array(path, dtype=np.int32)


def scrambled(board: Board, rotations: int, rng) -> np.ndarray:
    """An open tour far from closed: a constructed closed tour cut open, then randomly
    rotated (each rotation keeps a Hamiltonian path)."""
    path = construct_closed(board.rows, board.cols)
    path = np.roll(path, -int(rng.integers(board.size)))
    nb = board.neighbours
    for _ in range(rotations):
        end = path[-1]
        pos = np.empty(board.size, dtype=np.int64)
        pos[path] = np.arange(board.size)
        opts = [pos[w] for w in nb[end] if w >= 0 and pos[w] < board.size - 2]
        i = int(rng.choice(opts))
        path[i + 1:] = path[i + 1:][::-1].copy()
    return path


def is_closed(board, path):
    return check_path(board, path, True) is None


def test_closes_warnsdorff_tours_on_even_boards_6_to_60():
    rng = np.random.default_rng(0)
    for n in range(6, 61, 2):
        board = Board(n, n)
        p = None
        while p is None:
            p = warnsdorff(board, int(rng.integers(board.size)), rng)
        assert check_path(board, p) is None
        ok, q = repair_closed(board.neighbours, p, max_steps=20 * board.size, seed=0)
        assert ok, n
        assert is_closed(board, q)


def test_closes_rectangles_5_to_30_with_a_few_seeds():
    rng = np.random.default_rng(1)
    for rows in range(5, 31, 3):
        for cols in range(rows, 31, 4):
            if not closed_tour_exists(rows, cols):
                continue
            board = Board(rows, cols)
            p = None
            while p is None:
                p = warnsdorff(board, int(rng.integers(board.size)), rng)
            results = [repair_closed(board.neighbours, p, 20 * board.size, seed)
                       for seed in range(3)]
            assert any(ok for ok, _ in results), (rows, cols)
            for ok, q in results:
                assert check_path(board, q, ok) is None


def test_closes_scrambled_large_paths():
    rng = np.random.default_rng(2)
    for rows, cols in ((100, 100), (120, 90), (301, 300)):
        board = Board(rows, cols)
        p = scrambled(board, 40, rng)
        assert not is_closed(board, p)
        ok, q = repair_closed(board.neighbours, p, max_steps=100_000, seed=5)
        assert ok and is_closed(board, q)


def test_out_of_steps_returns_a_valid_open_path():
    board = Board(40, 40)
    p = scrambled(board, 60, np.random.default_rng(4))
    assert not is_closed(board, p)
    ok, q = repair_closed(board.neighbours, p, max_steps=0, seed=0)
    assert not ok and np.array_equal(q, p)
    stats = np.zeros(2, dtype=np.int64)
    ok, q = repair_closed(board.neighbours, p, max_steps=1, seed=0, stats=stats)
    assert stats[0] <= 1
    assert check_path(board, q, ok) is None
    assert ok == is_closed(board, q)


def test_input_path_is_not_modified_and_seed_is_reproducible():
    board = Board(30, 30)
    p = scrambled(board, 30, np.random.default_rng(6))
    keep = p.copy()
    a = repair_closed(board.neighbours, p, 10_000, seed=3)
    b = repair_closed(board.neighbours, p, 10_000, seed=3)
    assert np.array_equal(p, keep)
    assert a[0] == b[0] and np.array_equal(a[1], b[1])


def test_already_closed_path_is_returned_as_is():
    board = Board(8, 8)
    p = construct_closed(8, 8)
    ok, q = repair_closed(board.neighbours, p, 0, 0)
    assert ok and np.array_equal(p, q)


def test_bad_input_is_refused():
    board = Board(6, 6)
    p = construct_closed(6, 6)
    with pytest.raises(ValueError, match="each of the N squares"):
        repair_closed(board.neighbours, np.concatenate([p[:-1], p[:1]]), 10, 0)
    with pytest.raises(ValueError, match=r"\[N, k\]"):
        repair_closed(board.neighbours, p[:-1], 10, 0)
    with pytest.raises(ValueError, match="max_steps"):
        repair_closed(board.neighbours, p, -1, 0)


def test_board_width_is_inferred_from_the_neighbour_table():
    for rows, cols in ((6, 6), (5, 17), (30, 3), (3, 30)):
        assert _infer_cols(Board(rows, cols).neighbours) == cols
