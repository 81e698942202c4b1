"""The kernels that Python code calls, for the ahead-of-time build of the bundle.

In development numba JIT-compiles every kernel (``knightgui_core.system.jit``); the bundle
ships one extension module instead, ``knightgui_aot``, built by ``packaging/build_aot.py``
with ``numba.pycc``: it needs neither numba nor LLVM at run time, which keeps the bundle
small. Each name in :data:`EXPORTS` becomes the function :func:`symbol` of that extension;
helpers called only from other kernels are compiled into their callers. An ahead-of-time
function has exactly one signature: :func:`knightgui_core.warmup.exercise_all` calls every
export through the public API, the build reads the signatures it leaves behind, and
``tests/core/test_kernel_exports.py`` checks that each export was compiled exactly once.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from numba.core.dispatcher import Dispatcher
    from numba.core.typing.templates import Signature

#: kernel module (relative to the package) → the kernels Python calls in it
EXPORTS: dict[str, tuple[str, ...]] = {
    "walks.close_kernel": ("repair_closed_kernel",),
    "tietree.counting.count_kernel": ("count_begin", "next_tie", "count_run"),
    "tietree.counting.memo_kernel": ("memo_run", "memo_fold", "memo_rehash"),
    "tietree.counting.interleave_kernel": ("many_begin", "many_run"),
    "tietree.counting.bits_memo_kernel": ("count_batch_memo",),
    "tietree.alltours.alltours_kernel": ("count_all",),
    "tietree.alltours.alltours_list_kernel": ("list_all",),
    "tietree.alltours.symtours_kernel": ("count_orbit_paths",),
    "frontier.pair_kernel": ("pair_expand", "pair_absorb", "pair_regrow"),
    "frontier.word_kernel": ("word_expand", "word_absorb", "word_regrow"),
    "frontier.spill_kernel": ("spill_route",),
    "frontier.bound_kernel": ("relaxed_step", "relaxed_totals", "relaxed_regrow"),
    "construct.construct_kernel": ("grid_path", "strip_path", "rotate_to", "remap", "place", "place_blocks"),
    "tietree.enumeration.enumerate_kernel": ("new_state", "advance_kernel", "count_kernel", "collect_kernel"),
    "tietree.enumeration.bitboard_kernel": ("fresh_bits_state", "advance_bits", "count_bits",
                                            "collect_bits", "count_batch_bits"),
    "construct.hamsearch_kernel": ("local_neighbours", "ham_search"),
    "tietree.enumeration.keep_kernel": ("collect_delta", "collect_delta_bits"),
    "tietree.enumeration.options_kernel": ("options_rows", "options_rows_bits"),
    "studies.orders.walk_kernel": ("orders_chunk", "one_walk"),
    "studies.orders.tree_kernel": ("orders_tree", "order_codes"),
    "walks.phased_kernel": ("phased_walk",),
    "tietree.enumeration.stream_kernel": ("collect_paths", "collect_paths_bits"),
    "board.tables_kernel": ("neighbour_table", "wrapped_neighbour_table", "compact_table"),
    "board.validate_kernel": ("path_is_tour", "path_is_tour_table"),
    "board.canonical_kernel": ("canonical_rows_kernel",),
    "walks.walk_kernel": ("greedy_walk",),
    "walks.table_walk_kernel": ("table_greedy_walk",),
    "walks.table_backtrack_kernel": ("table_backtrack_walk", "backtrack_begin", "backtrack_run",
                                     "backtrack_begin_from"),
    "walks.hand.completions_kernel": ("completions_begin", "completions_run"),
    "walks.flood_kernel": ("two_colouring", "free_groups"),
    "studies.uncrossed.search_kernel": ("uncrossed_search",),
    "studies.magic.search_kernel": ("magic_search",),
}


def symbol(module: str, name: str) -> str:
    """The name of a kernel in the compiled extension: the last part of its module (kernel
    module names are unique in the package, ``tests/test_architecture.py`` checks it) and
    its name: ``walks.walk_kernel``, ``greedy_walk`` → ``walk_kernel__greedy_walk``."""
    return f"{module.rpartition('.')[2]}__{name}"


def python_signatures(dispatcher: Dispatcher) -> list[Signature]:
    """The distinct signatures a JIT kernel was compiled for, as Python calls it: calls
    from other kernels may add variants typed with literal constants (``Literal[bool]
    (True)``), which a call from Python never has, so literals count as their plain type."""
    from numba.core import types
    from numba.core.typing import signature

    seen = {}
    for args in dispatcher.signatures:
        plain = tuple(types.unliteral(a) for a in args)
        if plain not in seen:
            overload = dispatcher.overloads[args]
            # CompileResult is a namedtuple over a field list built at run time: mypy sees no fields
            ret = overload.signature.return_type  # type: ignore[attr-defined]
            seen[plain] = signature(ret, *plain)
    return list(seen.values())
