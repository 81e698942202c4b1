"""The exact counts of the frontier count: residues modulo 2^64 and large primes, as many
as a bound on the board's directed Hamiltonian paths needs, joined by the Chinese remainder
theorem."""
from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["count_bound_bits", "moduli_for", "crt"]


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
    out = []
    for r in range(rows):
        for c in range(cols):
            out.append(sum(1 for dr, dc in ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2),
                                            (2, -1), (-1, -2), (-2, -1))
                           if 0 <= r + dr < rows and 0 <= c + dc < cols))
    return out


def count_bound_bits(rows: int, cols: int) -> float:
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


def moduli_for(rows: int, cols: int) -> list[int]:
    """The moduli whose product exceeds every count of the board
    (:func:`count_bound_bits`): 2^64 (written 0, the word's wrap-around) and primes below
    2^62."""
    bits = count_bound_bits(rows, cols)
    mods = [0]
    product_bits = 64.0
    p = (1 << 62) - 1
    while product_bits <= bits:
        while not _is_prime(p):
            p -= 2
        mods.append(p)
        product_bits += math.log2(p)
        p -= 2
    return mods


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
