"""What a random read of memory costs on this machine, by the size of the memory read.

    .venv/bin/python bench/latency.py [--reads 2000000] [--sizes 1,4,16,64,128,512]

The transposition table of the count (core/tietree/counting) reads one bucket at a random place
of up to a GiB at every lookup; how long that takes sets what a lookup may cost. For each size
(MiB) a buffer is mapped as the table maps its memory (anonymous, offered as transparent huge
pages where the system has them) and read at random 64-byte lines two ways, in one jitted loop
each:

* *dependent*: each read gives the place of the next (a random cycle through every line), so
  no two reads overlap: the latency of one read;
* *independent*: the places are known beforehand, so the processor keeps several reads in
  flight: what a read costs when the search need not wait for it (the table's lookup in
  flight, memo_kernel.py).

It prints nanoseconds a read and the load average (the machine may be shared). No target:
the figures explain the table's design (docs/counts.md, "The transposition table").
"""
from __future__ import annotations

import argparse
import mmap
import os
import time

import numpy as np
from numba import njit

LINE_WORDS = 8          # int64 words in a 64-byte line


@njit
def _dependent(buf: np.ndarray, reads: int) -> int:
    """Follow the cycle stored in the lines' first words for ``reads`` steps."""
    i = 0
    for _ in range(reads):
        i = buf[i * LINE_WORDS]
    return i


@njit
def _independent(buf: np.ndarray, places: np.ndarray) -> int:
    """Sum the first word of each line in ``places``."""
    s = 0
    for j in range(places.shape[0]):
        s += buf[places[j] * LINE_WORDS]
    return s


def _buffer(nbytes: int) -> tuple[mmap.mmap, np.ndarray]:
    """``nbytes`` of anonymous memory, offered as huge pages, as int64 words."""
    mm = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    if hasattr(mmap, "MADV_HUGEPAGE"):
        try:
            mm.madvise(mmap.MADV_HUGEPAGE)
        except OSError:
            pass
    return mm, np.frombuffer(mm, dtype=np.int64)


def measure(mib: int, reads: int, rng: np.random.Generator) -> tuple[float, float]:
    """Nanoseconds a read, dependent and independent, over ``mib`` MiB."""
    lines = (mib << 20) // (LINE_WORDS * 8)
    mm, buf = _buffer(lines * LINE_WORDS * 8)
    try:
        order = rng.permutation(lines)
        nxt = np.empty(lines, dtype=np.int64)
        nxt[order[:-1]] = order[1:]
        nxt[order[-1]] = order[0]
        buf[::LINE_WORDS] = nxt                 # touches every page before the clock starts
        places = rng.integers(0, lines, reads)
        _dependent(buf, 16)
        _independent(buf, places[:16])
        t0 = time.perf_counter()
        _dependent(buf, reads)
        dep = time.perf_counter() - t0
        t0 = time.perf_counter()
        _independent(buf, places)
        ind = time.perf_counter() - t0
    finally:
        del buf
        mm.close()
    return dep / reads * 1e9, ind / reads * 1e9


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reads", type=int, default=2_000_000)
    ap.add_argument("--sizes", default="1,4,16,64,128,512", help="MiB, comma-separated")
    a = ap.parse_args()
    try:
        sizes = [int(x) for x in a.sizes.split(",")]
    except ValueError:
        ap.error(f"--sizes: expected whole MiB separated by commas, got {a.sizes!r}")
    if a.reads < 1 or any(s < 1 for s in sizes):
        ap.error("--reads and every size must be at least 1")
    rng = np.random.default_rng(1)
    print(f"load average {os.getloadavg()[0]:.1f}; {a.reads:,} random reads of 64-byte lines a size")
    print(f"{'MiB':>5} {'dependent ns':>13} {'independent ns':>15}")
    for mib in sizes:
        dep, ind = measure(mib, a.reads, rng)
        print(f"{mib:>5} {dep:>13.1f} {ind:>15.1f}", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
