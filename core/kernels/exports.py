"""The kernels that Python code calls, for the ahead-of-time build of the bundle.

In development every kernel is JIT-compiled by numba (``knightgui_core._jit``). The bundle instead
ships one compiled extension module, ``knightgui_aot``, built by ``packaging/build_aot.py``
with ``numba.pycc``: it needs neither numba nor LLVM at run time, which keeps the bundle
small. Each name listed in :data:`EXPORTS` becomes the function ``<module>__<name>`` of that
extension; helpers called only from other kernels are compiled into their callers.

An ahead-of-time function has exactly one signature, so each exported kernel must always be
called with the same argument types. :func:`exercise` calls every one of them through the
public API; the build reads the signatures it leaves behind, and
``tests/core/test_kernel_exports.py`` checks that each export was compiled exactly once.
"""
from __future__ import annotations

EXPORTS: dict[str, tuple[str, ...]] = {
    "close": ("repair_closed_kernel",),
    "construct": ("grid_path", "strip_path", "rotate_to", "remap", "place", "place_blocks"),
    "enumerate": ("new_state", "advance_kernel", "count_kernel", "collect_kernel"),
    "enumerate64": ("fresh_bits_state", "advance_bits", "count_bits", "collect_bits",
                    "count_batch_bits"),
    "hamsearch": ("local_neighbours", "ham_search"),
    "orders": ("orders_chunk", "one_walk"),
    "validate": ("path_is_tour",),
    "walk": ("greedy_walk", "backtrack_walk"),
}


def symbol(module: str, name: str) -> str:
    """The name of a kernel in the compiled extension: ``walk.greedy_walk`` →
    ``walk__greedy_walk``."""
    return f"{module}__{name}"


def python_signatures(dispatcher) -> list:
    """The distinct signatures a JIT kernel was compiled for, as Python calls it: calls
    from other kernels may add variants typed with literal constants (``Literal[bool]
    (True)``), which a call from Python never has, so literals count as their plain type."""
    from numba.core import types
    from numba.core.typing import signature

    seen = {}
    for args in dispatcher.signatures:
        plain = tuple(types.unliteral(a) for a in args)
        if plain not in seen:
            seen[plain] = signature(dispatcher.overloads[args].signature.return_type, *plain)
    return list(seen.values())


def exercise() -> None:
    """Call every exported kernel at least once through the public API (small boards,
    a second or two with warm caches)."""
    import numpy as np

    from ..construct import construct_closed, construct_open
    from ..enumerate import warm_up as warm_enumeration
    from ..solve import solve
    from ..studies import orders, tiebreaks
    from ..tour import check_path
    from ..board import Board

    for rows, cols, closed, method in (
            (8, 8, False, "greedy"), (8, 8, True, "auto"), (12, 12, True, "auto"),
            (5, 5, False, "backtrack"), (6, 6, True, "backtrack"),
            (30, 30, False, "construct"), (31, 33, False, "construct"),
            (32, 30, True, "construct"), (3, 40, False, "construct"),
            (4, 41, False, "construct"), (5, 60, True, "construct"),
            (6, 61, False, "construct")):
        res = solve(rows, cols, closed=closed, method=method)
        assert res.ok, (rows, cols, closed, method, res.message)
        assert check_path(Board(rows, cols), res.path, closed) is None
    construct_closed(10, 12, start=5)
    construct_closed(40, 3)
    construct_open(7, 9, start=3)
    # thin strips: mirrored, transposed, and entered in the middle
    for rows, cols, start in ((3, 40, 3 * 40 - 1), (3, 40, 40 + 20), (4, 41, 20),
                              (4, 41, 41 * 3 + 37), (41, 4, 4 * 20), (40, 3, 3 * 20 + 1)):
        construct_open(rows, cols, start=start)
    # a path that is not a tour, and one held in a wider integer type
    board = Board(5, 5)
    assert check_path(board, np.arange(25, dtype=np.int64)) is not None
    warm_enumeration()
    orders.warm_up()
    orders.run_orders(5, "last", orders=orders.all_orders()[:3].copy())
    tiebreaks.run_tiebreaks(12, n_min=5, starts="corners")
