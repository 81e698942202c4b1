"""Which boards have knight's tours (SPEC §8). Answers at once, never searches."""
from __future__ import annotations


def closed_tour_exists(rows: int, cols: int) -> bool:
    """Schwenk (1991): a closed tour on m×n (m <= n) exists unless m and n are both odd,
    m is 1, 2 or 4, or m == 3 and n is 4, 6 or 8."""
    m, n = sorted((int(rows), int(cols)))
    if m < 1:
        return False
    if m % 2 == 1 and n % 2 == 1:
        return False
    if m in (1, 2, 4):
        return False
    if m == 3 and n in (4, 6, 8):
        return False
    return True


def open_tour_exists(rows: int, cols: int) -> bool:
    """An open tour on m×n (m <= n) exists for 1×1, 3×4, 3×n (n >= 7) and m >= 4, n >= 5."""
    m, n = sorted((int(rows), int(cols)))
    if m < 1:
        return False
    if m == 1:
        return n == 1
    if m == 3:
        return n == 4 or n >= 7
    return m >= 4 and n >= 5


def tour_exists(rows: int, cols: int, closed: bool) -> bool:
    """Whether the ``rows`` × ``cols`` board has a closed (or, ``closed`` False, an open) tour."""
    return closed_tour_exists(rows, cols) if closed else open_tour_exists(rows, cols)


def why_no_tour(rows: int, cols: int, closed: bool) -> str | None:
    """A sentence saying why no tour of that kind exists, or ``None`` when one does."""
    if tour_exists(rows, cols, closed):
        return None
    m, n = sorted((int(rows), int(cols)))
    board = f"{rows}×{cols}"
    if m < 1:
        return f"a {board} board has no squares"
    if closed:
        if m % 2 == 1 and n % 2 == 1:
            return (f"no closed tour exists on {board}: it has an odd number of squares, and a "
                    "closed tour alternates colours")
        if m in (1, 2, 4):
            return f"no closed tour exists on {board}: a side of {m} is too narrow (Schwenk 1991)"
        return f"no closed tour exists on 3×{n} boards with n = 4, 6 or 8 (Schwenk 1991)"
    return (f"no open tour exists on {board}: open tours need 1×1, 3×4, 3×n with n ≥ 7, "
            "or both sides ≥ 4 with one ≥ 5")
