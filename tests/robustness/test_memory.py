"""Memory stays flat over many consecutive solves (issue 9): RSS growth under 10% after
warm-up. `make test` runs 200 solves; `make stress` (KNIGHTGUI_STRESS=1) runs 1,000."""
import gc
import os

import pytest

from knightgui_core.walks.solve import solve

SOLVES = 1_000 if os.environ.get("KNIGHTGUI_STRESS") == "1" else 200


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc")
def test_consecutive_100x100_solves_keep_memory_flat():
    for _ in range(20):                       # warm-up: compile, caches, allocator pools
        solve(100, 100, tie="random", seed=1)
    gc.collect()
    before = rss_bytes()
    for i in range(SOLVES):
        res = solve(100, 100, tie="random", seed=i, closed=bool(i % 2))
        assert res.ok
    gc.collect()
    after = rss_bytes()
    growth = (after - before) / before
    print(f"{SOLVES} solves: RSS {before / 2**20:.1f} → {after / 2**20:.1f} MiB "
          f"({growth * 100:+.2f}%)")
    assert growth < 0.10
