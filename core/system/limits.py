"""Memory checks before large allocations: a board too big for this machine is refused with
one sentence instead of failing inside numpy's allocator (or the kernel's)."""
from __future__ import annotations

import os
import resource

from .text import size_text

__all__ = ["available_memory", "check_memory", "process_rss"]


def available_memory() -> int:
    """Bytes this process could still allocate: ``MemAvailable`` on Linux, else physical
    memory; a cgroup limit (v2 ``memory.max``) lowers it."""
    avail = None
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    avail = int(line.split()[1]) * 1024
                    break
    except (OSError, ValueError, IndexError):
        pass
    if avail is None:
        try:
            avail = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        except (ValueError, OSError, AttributeError):
            avail = 1 << 40     # unknown: do not refuse on a guess
    try:
        with open("/sys/fs/cgroup/memory.max", encoding="ascii") as f:
            v = f.read().strip()
        if v.isascii() and v.isdigit():
            avail = min(avail, int(v))
    except OSError:
        pass
    return int(avail)


def check_memory(need: int, what: str, error: type[Exception] = MemoryError) -> None:
    """Raise ``error`` with one sentence when ``need`` bytes exceed what is available."""
    avail = available_memory()
    if need > avail:
        raise error(f"{what} needs about {size_text(need)} of memory and {size_text(avail)} is "
                    "available; choose a smaller board")


def process_rss() -> tuple[int, int]:
    """This process's resident bytes now and at most so far."""
    now = peak = 0
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    now = int(line.split()[1]) * 1024
                elif line.startswith("VmHWM:"):
                    peak = int(line.split()[1]) * 1024
    except OSError:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return now, max(now, peak)
