"""Tours that a board symmetry maps onto itself, counted on the quotient (the orbit graph).

A *symmetric* tour here is an undirected closed tour or open path whose set of moves a board
symmetry σ maps onto itself: ``half-turn`` (r, c) → (R−1−r, C−1−c), ``quarter-turn`` (r, c) →
(c, n−1−r) on an n×n board, ``mirror-rows`` (r → R−1−r), ``mirror-cols`` (c → C−1−c),
``diagonal`` (r, c) → (c, r) on n×n. σ maps moves onto moves, so it acts on such a tour T as a
symmetry of a cycle or of a path. The *orbits* of σ are the sets {v, σv, σ²v, …}; a square
with σv = v is *fixed*, a move {v, σv} is a *fixed move*. Each case below is one count of the
kernel (:mod:`.symtours_kernel`): paths from a start square through exactly one square of each
orbit, weighted by the ways the last square lets the images close.

**Closed tours (N squares, a cycle v₀ … v_{N−1}).** σ rotates or reflects the cycle.

* *Rotation.* σ of order k (2, or 4 for the quarter turn) turns the cycle by N/k:
  v_{i+N/k} = σ^j v_i with σ^j of order k. So σ fixes no square, every orbit has k squares,
  and v₀ … v_{N/k−1} is a path through one square of each orbit whose last square is a move
  from σ^j v₀ (j = 1; j = 1 or 3 for the quarter turn — j = 2 would close after half the
  board); every such path lifts to a tour. From a fixed v₀, each tour is met twice (once each
  way round): the weighted paths over 2 (end weight: the number of such j). A move changes
  the square's colour, so σ^j v₀ = v_{N/k} has v₀'s colour exactly when N/k is even: σ must
  keep the colours then and swap them otherwise (on 8×8 the quarter turn swaps colours and
  N/4 = 16 is even: no quarter-turn tour, the known result).
* *Reflection.* An involution reflecting a cycle of even length fixes two of its squares or
  two of its moves (an odd cycle one of each: never on the knight's boards, whose moves change
  colour). So σ fixes exactly two squares, or none and the tour uses two fixed moves. Two
  fixed moves {a, σa}, {b, σb}: without them the tour is two paths, each the other's image,
  each through one square of every orbit from a to b or σb: the paths from a through one
  square of each orbit ending in {b, σb} (each tour once). Two fixed squares f, g: the paths
  from f through one square of every other orbit ending a move from g, over 2 (the two
  halves). The quarter turn is of order 4: it only rotates.
* So a symmetry fixing more than two squares has no closed tour (the diagonal fixes n; a
  mirror of an odd side fixes a whole row or column), nor has an odd board.

**Open paths (v₀ … v_{N−1}).** A path's only symmetries are itself and its reversal, so σ
reverses it: σ v_i = v_{N−1−i} (σ² is the identity: never the quarter turn). An even N has its
middle move {v_{N/2−1}, v_{N/2}} fixed: for each fixed move {w, σw}, the paths from w through
one square of every other orbit, any end (each path once). An odd N has its middle square
fixed, and no other: the paths from it through one square of every other orbit, over 2. A
symmetry with two or more fixed squares, or with neither a fixed square nor a fixed move, has
no symmetric open path. The mirrors fix no move (a move changes both coordinates), so they
have none on a board with an even side across the mirror (nothing fixed) or a side of three or
more along it (three fixed squares or more).

Every count here is checked in the tests against the filtered list of all tours.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...board.squares import Board
from ..counting.subtrees import CountError
from ..counting.table import TransTable
from .symtours_kernel import OrbitSearch, OrbitTable, Quotient, count_orbit_paths

__all__ = ["SYMMETRIES", "MAX_ORBITS", "Part", "Plan", "PartCounter", "plan", "count_part",
           "count_plan", "permutation", "is_symmetric"]

SYMMETRIES = ("half-turn", "quarter-turn", "mirror-rows", "mirror-cols", "diagonal")
#: the kernel keeps the unvisited orbits in one machine word
MAX_ORBITS = 64
#: the board's squares the kernel takes (its neighbour table)
MAX_SQUARES = 128
#: how the reasons name each symmetry
PHRASES = {"half-turn": "half turn", "quarter-turn": "quarter turn",
           "mirror-rows": "mirror of the rows", "mirror-cols": "mirror of the columns",
           "diagonal": "diagonal mirror"}
#: states with fewer orbits left are walked, not looked up
MEMO_MIN = 4


def permutation(name: str, rows: int, cols: int) -> np.ndarray:
    """int64[N]: the image of each square (index ``row * cols + col``) under the symmetry
    ``name``; :class:`CountError` for an unknown name or a square-only symmetry on a
    rectangle."""
    if name not in SYMMETRIES:
        raise CountError(f"unknown symmetry {name[:40]!r}: one of {', '.join(SYMMETRIES)}")
    if name in ("quarter-turn", "diagonal") and rows != cols:
        raise CountError(f"{name} maps only a square board onto itself ({cols}×{rows} is not)")
    r, c = np.divmod(np.arange(rows * cols, dtype=np.int64), cols)
    if name == "half-turn":
        r2, c2 = rows - 1 - r, cols - 1 - c
    elif name == "quarter-turn":
        r2, c2 = c, rows - 1 - r
    elif name == "mirror-rows":
        r2, c2 = rows - 1 - r, c
    elif name == "mirror-cols":
        r2, c2 = r, cols - 1 - c
    else:
        r2, c2 = c, r
    return np.asarray(r2 * cols + c2, dtype=np.int64)


@dataclass(frozen=True)
class Part:
    """One count of the kernel: paths from ``start`` through one square of each orbit in
    ``todo`` (a bit an orbit), each weighted by ``endw`` of its last square."""

    start: int
    todo: int
    endw: tuple[int, ...]
    what: str
    #: turn (closed, rotated), moves / squares (closed, reflected about two fixed moves or
    #: squares), open-move / open-square (a path reversed about its middle move or square)
    kind: str


@dataclass
class Plan:
    """How the symmetric tours of one kind are counted: the parts' weighted paths summed and
    divided by ``divisors`` (part by part), or ``reason`` (one sentence) why there are none."""

    board: Board
    symmetry: str
    closed: bool
    perm: np.ndarray
    orbit: np.ndarray
    orbits: int
    parts: list[Part] = field(default_factory=list)
    divisors: list[int] = field(default_factory=list)
    reason: str = ""


def _orbits(perm: np.ndarray) -> tuple[np.ndarray, list[list[int]]]:
    n = len(perm)
    orbit = np.full(n, -1, dtype=np.int64)
    members: list[list[int]] = []
    for s in range(n):
        if orbit[s] < 0:
            cyc = [s]
            t = int(perm[s])
            while t != s:
                cyc.append(t)
                t = int(perm[t])
            for x in cyc:
                orbit[x] = len(members)
            members.append(cyc)
    return orbit, members


def _check_board(board: Board, perm: np.ndarray) -> None:
    if board.topology != "plane":
        raise CountError("symmetric tours are counted on the plane board only")
    if board.size > MAX_SQUARES:
        raise CountError(f"symmetric tours are counted on boards of at most {MAX_SQUARES} "
                         f"squares ({board.describe()} has {board.size})")
    nbr = board.neighbours
    for s in range(board.size):       # a symmetry of the plane maps every leaper's moves
        mine = {int(perm[t]) for t in nbr[s] if t >= 0}
        if mine != {int(t) for t in nbr[int(perm[s])] if t >= 0}:
            raise CountError("this symmetry does not map the piece's moves onto moves")


def plan(board: Board, symmetry: str, closed: bool) -> Plan:
    """The parts that count the ``symmetry``'s closed tours (or open paths) of ``board``,
    with the reasoning of the module docstring; a plan with ``reason`` set has none."""
    perm = permutation(symmetry, board.rows, board.cols)
    _check_board(board, perm)
    orbit, members = _orbits(perm)
    n, norb = board.size, len(members)
    p = Plan(board, symmetry, closed, perm, orbit, norb)
    said = PHRASES[symmetry]
    if norb > MAX_ORBITS:
        raise CountError(f"the quotient of {board.describe()} by the {PHRASES[symmetry]} has {norb} "
                         f"orbits; the count takes at most {MAX_ORBITS}")
    nbr = board.neighbours
    adj = [{int(t) for t in nbr[s] if t >= 0} for s in range(n)]
    fixed = [s for s in range(n) if perm[s] == s]
    fixed_moves = [(s, int(perm[s])) for s in range(n)
                   if s < perm[s] and int(perm[s]) in adj[s] and perm[perm[s]] == s]
    order = 4 if symmetry == "quarter-turn" else 2
    everything = (1 << norb) - 1
    a, b = board.leaper
    if n < 2:
        p.reason = "a board of one square has no move"
        return p
    if (a + b) % 2 == 0:
        p.reason = f"the ({a},{b})-leaper never changes the colour of its square: no tour at all"
        return p
    if closed:
        if n % 2:
            p.reason = ("a closed tour changes colour at every move, so it needs an even "
                        "number of squares")
            return p
        if len(fixed) > 2:
            p.reason = (f"the {said} fixes {len(fixed)} squares; a closed tour it maps "
                        "onto itself turns about two of them at most")
            return p
        why = []
        if not fixed:               # rotation of the cycle by N/order
            v0 = min(range(n), key=lambda s: (len(adj[s]), s))
            flips = (board.coords(v0)[0] + board.coords(v0)[1]
                     + board.coords(int(perm[v0]))[0] + board.coords(int(perm[v0]))[1]) % 2
            if bool(flips) != bool((n // order) % 2):
                why.append(f"the {said} {'swaps' if flips else 'keeps'} the colours, so a "
                           f"tour it turns along itself needs {n // order} (the squares over "
                           f"{order}) to be {'odd' if flips else 'even'}")
            else:
                images = [int(perm[v0]), int(perm[perm[perm[v0]]])] if order == 4 \
                    else [int(perm[v0])]
                endw = tuple(sum(1 for t in images if t in adj[s]) for s in range(n))
                p.parts.append(Part(v0, everything & ~(1 << int(orbit[v0])), endw,
                                    "turned along itself", "turn"))
                p.divisors.append(2)
        if order == 2 and not fixed:    # reflection about two fixed moves
            for i, (a0, _) in enumerate(fixed_moves):
                for (b0, b1) in fixed_moves[i + 1:]:
                    endw = tuple(1 if s in (b0, b1) else 0 for s in range(n))
                    p.parts.append(Part(a0, everything & ~(1 << int(orbit[a0])), endw,
                                        f"reflected about {board.name(a0)}-"
                                        f"{board.name(int(perm[a0]))} and "
                                        f"{board.name(b0)}-{board.name(b1)}", "moves"))
                    p.divisors.append(1)
            if len(fixed_moves) < 2:
                why.append(f"the {said} fixes {len(fixed_moves)} move"
                           f"{'' if len(fixed_moves) == 1 else 's'}, and a tour it reflects "
                           "uses two")
        if order == 2 and len(fixed) == 2:      # reflection about two fixed squares
            f, g = fixed
            endw = tuple(1 if g in adj[s] else 0 for s in range(n))
            p.parts.append(Part(f, everything & ~(1 << int(orbit[f])) & ~(1 << int(orbit[g])),
                                endw, f"reflected about {board.name(f)} and {board.name(g)}", "squares"))
            p.divisors.append(2)
        if not p.parts:
            p.reason = "; ".join(why) if why else f"the {said} admits no closed tour here"
        return p
    if order == 4:
        p.reason = ("a path's only symmetries are itself and its reversal, and twice a "
                    "quarter turn (a half turn) moves squares: no open path is mapped onto "
                    "itself by a quarter turn")
        return p
    if len(fixed) >= 2:
        p.reason = (f"the {said} fixes {len(fixed)} squares; a path it maps onto itself is "
                    "reversed and keeps one square (its middle) at most")
    elif len(fixed) == 1:
        f = fixed[0]
        p.parts.append(Part(f, everything & ~(1 << int(orbit[f])), (1,) * n,
                            f"reversed about {board.name(f)}", "open-square"))
        p.divisors.append(2)
    elif not fixed_moves:
        p.reason = (f"a path the {said} reverses has its middle move from a square to its "
                    "image, and no move joins a square to its image here")
    else:
        for (w, w1) in fixed_moves:
            p.parts.append(Part(w, everything & ~(1 << int(orbit[w])), (1,) * n,
                                f"reversed about {board.name(w)}-{board.name(w1)}",
                                "open-move"))
            p.divisors.append(1)
    return p


def _orbit_adjacency(board: Board, orbit: np.ndarray, norb: int) -> np.ndarray:
    oadj = [0] * norb
    nbr = board.neighbours
    for s in range(board.size):
        for t in nbr[s]:
            if t >= 0 and orbit[t] != orbit[s]:
                oadj[int(orbit[s])] |= 1 << int(orbit[t])
    return np.array(oadj, dtype=np.uint64)


class PartCounter:
    """The kernel's count of one part, a budget of states at a time (:meth:`step`), with
    its arrays and a fresh table kept between steps; ``paths`` once ``done``."""

    def __init__(self, p: Plan, part: Part, table_bytes: int = 64 << 20):
        board, L = p.board, p.orbits
        self.endw = np.array(part.endw, dtype=np.int64)
        if (self.endw.shape != (board.size,) or (self.endw < 0).any()
                or not 0 <= part.start < board.size or part.todo >> L):
            raise CountError("a symmetric count's part does not fit its board")
        endorb = 0
        for s in np.flatnonzero(self.endw):
            endorb |= 1 << int(p.orbit[s])
        self.part = Quotient(np.ascontiguousarray(board.neighbours, dtype=np.int32),
                             np.ascontiguousarray(p.orbit, dtype=np.int64),
                             _orbit_adjacency(board, p.orbit, L), np.int64(part.start),
                             np.uint64(part.todo), self.endw, np.uint64(endorb & part.todo))
        self.search = OrbitSearch(np.zeros(L + 1, np.int64), np.zeros(L + 1, np.uint64),
                                  np.zeros(L + 1, np.int64), np.zeros(L + 1, np.int64),
                                  np.zeros(L, np.int64), np.zeros(2, np.int64),
                                  np.zeros(4, np.int64))
        t = TransTable(L, table_bytes) if table_bytes else None
        if t is not None:
            t.grow_to_limit()               # at its full size now: its arrays stay these
        self._table = OrbitTable(t.tab if t is not None else np.zeros((2, 8), np.uint64),
                                 np.int64(t.buckets if t is not None else 0),
                                 np.int64(MEMO_MIN))
        self.out = np.zeros(3, dtype=np.int64)
        self.paths = self.hits = self.nodes = 0

    @property
    def done(self) -> bool:
        """The count is finished (``paths`` holds it)."""
        return bool(self.search.status[3])

    def step(self, budget: int = 1 << 62) -> bool:
        """Expand at most ``budget`` more states; True when the count is finished."""
        self.out[:] = 0
        count_orbit_paths(self.part, self.search, self._table, np.int64(max(1, int(budget))),
                          self.out)
        self.hits += int(self.out[1])
        self.nodes += int(self.out[2])
        if self.done:
            self.paths = int(self.out[0])
        return self.done


def count_part(p: Plan, part: Part, table_bytes: int = 64 << 20) -> dict[str, int]:
    """The weighted paths of one part (the kernel, a fresh table): ``{"paths", "hits",
    "nodes"}``."""
    c = PartCounter(p, part, table_bytes)
    while not c.step():
        pass
    return {"paths": c.paths, "hits": c.hits, "nodes": c.nodes}


def count_plan(p: Plan, table_bytes: int = 64 << 20) -> int:
    """The symmetric tours (or paths) of a plan, counted part by part on this thread."""
    total = 0
    for part, div in zip(p.parts, p.divisors):
        got = count_part(p, part, table_bytes)["paths"]
        if got % div:
            raise CountError(f"a symmetric count came out odd where it pairs ({part.what})")
        total += got // div
    return total


def is_symmetric(board: Board, tour: list[int], symmetry: str, closed: bool) -> bool:
    """Whether the moves of ``tour`` (closed: with its last square back to the first) are
    mapped onto themselves by ``symmetry``."""
    perm = permutation(symmetry, board.rows, board.cols)
    t = [int(x) for x in tour]
    pairs = list(zip(t, t[1:])) + ([(t[-1], t[0])] if closed else [])
    moves = {frozenset(e) for e in pairs}
    return {frozenset((int(perm[a]), int(perm[b]))) for a, b in pairs} == moves
