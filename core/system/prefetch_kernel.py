"""A hint to the processor: start fetching one row of a two-dimensional array into the cache
now, for a read that comes a little later (LLVM's ``llvm.prefetch``, read, keep in all
levels). It changes no result, only when the memory arrives.

``prefetch_row(arr, row)`` is a numba intrinsic, so the bundle's ahead-of-time kernels carry
the instruction too; in the bundle's Python, where numba is absent, it does nothing.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from .jit import MODE

__all__ = ["prefetch_row"]


def _no_prefetch(arr: Any, row: Any) -> None:
    """Nothing to do outside a compiled kernel."""
    return None


if MODE == "jit":
    from llvmlite import ir
    from numba import types
    from numba.core import cgutils
    from numba.core.extending import intrinsic

    @intrinsic
    def _prefetch_row(typingctx: Any, arr: Any, row: Any) -> Any:
        """Prefetch the first element of row ``row`` of a 2-D array (no bounds check: a
        prefetch of any address is harmless)."""
        if not (isinstance(arr, types.Array) and arr.ndim == 2
                and isinstance(row, types.Integer)):
            return None

        def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
            aryty = sig.args[0]
            ary = context.make_array(aryty)(context, builder, args[0])
            zero = context.get_constant(types.intp, 0)
            ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1], zero],
                                           wraparound=False, boundscheck=False)
            i32 = ir.IntType(32)
            fnty = ir.FunctionType(ir.VoidType(), [cgutils.voidptr_t, i32, i32, i32])
            fn = cgutils.get_or_insert_function(
                builder.module, fnty, "llvm.prefetch." + cgutils.voidptr_t.intrinsic_name)
            # read (0), keep in every cache level (3), data cache (1)
            builder.call(fn, [builder.bitcast(ptr, cgutils.voidptr_t), i32(0), i32(3), i32(1)])
            return context.get_dummy_value()

        return types.void(arr, row), codegen

    prefetch_row = cast(Callable[[Any, Any], None], _prefetch_row)
else:
    prefetch_row = _no_prefetch
