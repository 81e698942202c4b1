"""A plain pure-Python Warnsdorff walk: the baseline the numba solver is compared against.

The textbook program: list the unvisited knight moves, count each one's unvisited neighbours,
take the fewest, the first in a fixed order on ties; written without recursion so that it
reaches 100×100.
"""
from __future__ import annotations

OFFSETS = [(-2, -1), (-2, 1), (-1, 2), (1, 2), (2, 1), (2, -1), (1, -2), (-1, -2)]


def warnsdorff_py(n_rows: int, n_cols: int, row: int = 0, col: int = 0):
    board = [[0] * n_cols for _ in range(n_rows)]
    path = [(row, col)]
    board[row][col] = 1
    for step in range(2, n_rows * n_cols + 1):
        best = None
        for dr, dc in OFFSETS:
            r, c = row + dr, col + dc
            if 0 <= r < n_rows and 0 <= c < n_cols and board[r][c] == 0:
                count = 0
                for er, ec in OFFSETS:
                    rr, cc = r + er, c + ec
                    if 0 <= rr < n_rows and 0 <= cc < n_cols and board[rr][cc] == 0:
                        count += 1
                if best is None or count < best[0]:
                    best = (count, r, c)
        if best is None:
            return path
        _, row, col = best
        board[row][col] = step
        path.append((row, col))
    return path
