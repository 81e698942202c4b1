"""Plain, slow second implementations that the front door's answers are checked against:
knight moves by their definition, a depth-first search over every path, and the tie tree of
Warnsdorff's strict rule walked with exact fractions. Small boards only."""
from __future__ import annotations

from fractions import Fraction


def knight_neighbours(rows: int, cols: int) -> list[list[int]]:
    """For each flat square ``row * cols + col``, the squares a knight move away."""
    out = []
    for sq in range(rows * cols):
        r, c = divmod(sq, cols)
        out.append([(r + dr) * cols + (c + dc)
                    for dc, dr in ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1),
                                   (-2, 1), (-1, 2))
                    if 0 <= r + dr < rows and 0 <= c + dc < cols])
    return out


def every_path(rows: int, cols: int) -> tuple[int, int]:
    """Directed knight's paths through every square (over every start), and the undirected
    closed tours: a depth-first search over visited sets."""
    nb = knight_neighbours(rows, cols)
    n = rows * cols
    full = (1 << n) - 1
    paths = closed = 0

    def walk(sq: int, seen: int, start: int) -> None:
        nonlocal paths, closed
        if seen == full:
            paths += 1
            closed += start in nb[sq]
            return
        for q in nb[sq]:
            if not seen >> q & 1:
                walk(q, seen | 1 << q, start)

    for s in range(n):
        walk(s, 1 << s, s)
    return paths, (closed // (2 * n) if n > 1 else 0)


def warnsdorff_tree(rows: int, cols: int, start: int) -> dict:
    """Every walk of Warnsdorff's strict rule from ``start``, every tie followed: the tours
    (as tuples of squares), the closed ones, the dead ends, and the exact probabilities
    that breaking each tie uniformly at random completes a tour, and a closed one."""
    nb = knight_neighbours(rows, cols)
    n = rows * cols
    seen = [False] * n
    seen[start] = True
    path = [start]
    out: dict = {"tours": set(), "closed": 0, "dead_ends": 0, "p_success": Fraction(0),
                 "p_closed": Fraction(0)}

    def walk(sq: int, p: Fraction) -> None:
        if len(path) == n:
            out["tours"].add(tuple(path))
            out["p_success"] += p
            if start in nb[sq]:
                out["closed"] += 1
                out["p_closed"] += p
            return
        free = [q for q in nb[sq] if not seen[q]]
        if not free:
            out["dead_ends"] += 1
            return
        exits = {q: sum(not seen[r] for r in nb[q]) for q in free}
        fewest = min(exits.values())
        tied = [q for q in free if exits[q] == fewest]
        for q in tied:
            seen[q] = True
            path.append(q)
            walk(q, p / len(tied))
            path.pop()
            seen[q] = False

    walk(start, Fraction(1))
    return out
