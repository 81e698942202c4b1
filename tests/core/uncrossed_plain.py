"""A second, plain implementation of the longest uncrossed knight's path and cycle, for the
tests: every uncrossed path is listed by a bare depth-first search in pure Python (no bound,
no table: each new move is tested against every earlier one with exact integer geometry),
and the longest are told apart up to the board's symmetries by their move sets. Small boards
only (up to 20 squares or so in a few seconds)."""
from __future__ import annotations


def _turn(p, q, r):
    v = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    return (v > 0) - (v < 0)


def segments_cross(a, b, c, d) -> bool:
    """Whether segment ab and segment cd (points as (x, y)) meet anywhere but at a shared
    end: a proper crossing, a touch inside one of them, or an overlap."""
    shared = {a, b} & {c, d}
    if shared:
        if len(shared) == 2:
            return True                       # the same segment
        # sharing one end, they meet elsewhere only if collinear and overlapping
        o = a if a in shared else b
        p = b if o == a else a
        q = d if o == c else c
        if _turn(o, p, q) != 0:
            return False
        return (p[0] - o[0]) * (q[0] - o[0]) + (p[1] - o[1]) * (q[1] - o[1]) > 0
    d1, d2 = _turn(a, b, c), _turn(a, b, d)
    d3, d4 = _turn(c, d, a), _turn(c, d, b)
    if d1 * d2 < 0 and d3 * d4 < 0:
        return True

    def on(p, q, r):                          # r on segment pq, given collinear
        return min(p[0], q[0]) <= r[0] <= max(p[0], q[0]) and \
            min(p[1], q[1]) <= r[1] <= max(p[1], q[1])
    return ((d1 == 0 and on(a, b, c)) or (d2 == 0 and on(a, b, d))
            or (d3 == 0 and on(c, d, a)) or (d4 == 0 and on(c, d, b)))


def _symmetries(rows, cols):
    maps = [lambda x, y: (x, y), lambda x, y: (cols - 1 - x, y),
            lambda x, y: (x, rows - 1 - y), lambda x, y: (cols - 1 - x, rows - 1 - y)]
    if rows == cols:
        maps += [lambda x, y: (y, x), lambda x, y: (rows - 1 - y, x),
                 lambda x, y: (y, cols - 1 - x), lambda x, y: (rows - 1 - y, cols - 1 - x)]
    return maps


def plain_longest(rows: int, cols: int, cycle: bool = False) -> tuple[int, int, int]:
    """(length in moves, count up to symmetry, count of move sets on the board)."""
    squares = [(x, y) for y in range(rows) for x in range(cols)]
    jumps = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
    best = [0]
    found: set = set()

    def fits(path, q):
        a = path[-1]
        return all(not segments_cross(a, q, path[i], path[i + 1]) for i in range(len(path) - 2))

    def note(moves):
        key = frozenset(frozenset(m) for m in moves)
        if len(moves) > best[0]:
            best[0] = len(moves)
            found.clear()
        if len(moves) == best[0]:
            found.add(key)

    def grow(path, seen):
        moves = list(zip(path, path[1:]))
        if not cycle and moves:
            note(moves)
        if cycle and len(path) >= 4:
            a, z = path[-1], path[0]
            if (abs(a[0] - z[0]), abs(a[1] - z[1])) in ((1, 2), (2, 1)) and \
                    all(not segments_cross(a, z, path[i], path[i + 1])
                        for i in range(1, len(path) - 2)):
                note(moves + [(a, z)])
        for dx, dy in jumps:
            q = (path[-1][0] + dx, path[-1][1] + dy)
            if 0 <= q[0] < cols and 0 <= q[1] < rows and q not in seen and fits(path, q):
                seen.add(q)
                path.append(q)
                grow(path, seen)
                path.pop()
                seen.discard(q)

    for s in squares:
        grow([s], {s})
    classes = set()
    for key in found:
        images = []
        for g in _symmetries(rows, cols):
            images.append(tuple(sorted(tuple(sorted(g(*p) for p in m)) for m in key)))
        classes.add(min(images))
    return best[0], len(classes), len(found)
