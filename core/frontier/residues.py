"""The exact counts of the frontier count: residues modulo 2^64 and large primes, as many
as a bound on the board's totals needs (Brégman's bound on a permanent, or the exact count
of a relaxed problem where it is cheap and smaller), joined by the Chinese remainder
theorem."""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from ..system.control import CancelLike

__all__ = ["bregman_bits", "count_bound_bits", "moduli_for", "crt", "RELAXED_CELLS"]


def _is_prime(n: int) -> bool:
    if n < 2:
        return False
    small = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)
    for p in small:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for a in small:                      # deterministic below 3.3e24
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def _degrees(rows: int, cols: int) -> list[int]:
    moves = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
    return [sum(1 for dr, dc in moves if 0 <= r + dr < rows and 0 <= c + dc < cols)
            for r in range(rows) for c in range(cols)]


def bregman_bits(rows: int, cols: int) -> float:
    """log2 of a bound on the directed Hamiltonian paths of the board's knight graph ``G``,
    and so on its cycles and undirected paths. A directed path ``s … t`` is a cycle through
    an added cell joined to every cell, that is a permutation moving each cell to a
    neighbour: at most the permanent of that graph's adjacency matrix, which Brégman's
    theorem bounds by ``Π r! ^ (1/r)`` over its row sums ``r`` (``deg(v) + 1``, and ``N``
    for the added cell). The plainer bound ``N · Π deg(v)`` (a first cell, then a
    neighbour to go to from every other) is taken where it is smaller; one bit of margin
    covers the floating point."""
    n = rows * cols
    degs = _degrees(rows, cols)
    bregman = (sum(math.lgamma(d + 2) / (d + 1) for d in degs)
               + math.lgamma(n + 1) / n) / math.log(2)
    plain = math.log2(n) + sum(math.log2(max(1, d)) for d in degs)
    return min(bregman, plain) * (1 + 1e-9) + 1.0


#: the relaxed count (:mod:`.bound`) is asked where it is cheap: boards at most
#: this high, and at most this many cells on the longest board (measured: docs/counts.md;
#: 7×7 open, the dearest, 12-18 s on one thread, in short rounds a cancel stops; 8×8
#: closed 23 s, one residue instead of two)
RELAXED_CELLS = {True: {1: 4000, 2: 4000, 3: 2000, 4: 1200, 5: 400, 6: 120, 7: 56, 8: 64},
                 False: {1: 4000, 2: 4000, 3: 1200, 4: 400, 5: 120, 6: 42, 7: 49}}


def _relaxed(rows: int, longest: int, closed_only: bool,
             cancel: CancelLike = None) -> tuple[int, ...] | None:
    """The relaxed bound of every total of ``rows`` × ``n``, ``n`` ≤ ``longest`` (as far
    as it was counted), or None where it is not cheap or cannot save a residue: it is
    counted in one word fewer than the residues Brégman's bound asks for, and stops (the
    longer lengths left to Brégman) where it would need more. ``cancel``: the bound stops
    with :class:`~knightgui_core.system.errors.Cancelled` within a fraction of a second."""
    if rows * longest > RELAXED_CELLS[closed_only].get(rows, 0):
        return None
    residues = len(_moduli(lambda product: math.log2(product) > bregman_bits(rows, longest)))
    if residues == 1:
        return None
    from .bound import RELAXED_WORDS, relaxed_bounds
    got = relaxed_bounds(rows, longest, min(RELAXED_WORDS, residues - 1),
                         closed_only=closed_only, cancel=cancel)
    return tuple(c if closed_only else max(c, p) for c, p in zip(got.cycles, got.paths))


def _moduli(enough: Callable[[int], bool]) -> list[int]:
    """2^64 (written 0) and the primes below 2^62 from the top, until ``enough(product)``."""
    mods = [0]
    product = 1 << 64
    p = (1 << 62) - 1
    while not enough(product):
        while not _is_prime(p):
            p -= 2
        mods.append(p)
        product *= p
        p -= 2
    return mods


def _needs(rows: int, cols: int | Sequence[int], closed_only: bool,
           cancel: CancelLike) -> list[tuple[float, int | None]]:
    """Each length's :func:`bregman_bits` and its exact relaxed count (None where there is
    none)."""
    lengths = sorted({int(cols)} if isinstance(cols, int) else {int(c) for c in cols})
    relaxed = _relaxed(rows, lengths[-1], closed_only, cancel) or ()
    return [(bregman_bits(rows, n), relaxed[n - 1] if n <= len(relaxed) else None)
            for n in lengths]


def count_bound_bits(rows: int, cols: int | Sequence[int], closed_only: bool = False,
                     cancel: CancelLike = None) -> float:
    """log2 of a bound on every total the frontier count keeps for the ``rows`` × ``n``
    boards, ``n`` in ``cols``: the undirected closed tours and (unless ``closed_only``) the
    undirected paths. The smaller, for each length, of :func:`bregman_bits` and the exact
    relaxed count (:mod:`.bound`: subgraphs of degrees 1 and 2 with no or two
    cells of degree 1) where that is cheap."""
    return max(bits if exact is None else min(bits, math.log2(max(1, exact)))
               for bits, exact in _needs(rows, cols, closed_only, cancel))


def moduli_for(rows: int, cols: int | Sequence[int], closed_only: bool = False,
               cancel: CancelLike = None) -> list[int]:
    """The moduli whose product exceeds every count of the boards ``rows`` × ``n``, ``n`` in
    ``cols`` (:func:`count_bound_bits`; an exact relaxed count is compared exactly):
    2^64 (written 0, the word's wrap-around) and primes below 2^62. ``cancel``: read by the
    relaxed bound between its rounds (:class:`~knightgui_core.system.errors.Cancelled`)."""
    need = _needs(rows, cols, closed_only, cancel)
    return _moduli(lambda product: all(
        product > exact if exact is not None and math.log2(max(1, exact)) < bits
        else math.log2(product) > bits for bits, exact in need))


def crt(residues: Sequence[int], mods: Sequence[int]) -> int:
    """The least non-negative integer with these residues (modulus 0 meaning 2^64)."""
    x, m = 0, 1
    for r, q in zip(residues, mods):
        q = q or (1 << 64)
        # x + m·t ≡ r (mod q)
        t = ((int(r) - x) * pow(m, -1, q)) % q
        x += m * t
        m *= q
    return x
