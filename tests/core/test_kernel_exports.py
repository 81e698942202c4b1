"""The bundle's ahead-of-time kernels: every exported kernel has one signature, and the
argument check that guards the compiled functions refuses what they would misread."""
import importlib
from typing import NamedTuple

import numpy as np
import pytest

import knightgui_core.system.jit as jit
from knightgui_core import kernel_exports as exports
from knightgui_core import warmup


@pytest.mark.jit_only
def test_every_export_is_compiled_for_exactly_one_signature():
    warmup.exercise_all()
    from numba.core.registry import CPUDispatcher

    for mod, names in exports.EXPORTS.items():
        m = importlib.import_module(f"knightgui_core.{mod}")
        for name in names:
            sigs = exports.python_signatures(getattr(m, name))
            assert len(sigs) == 1, (mod, name, sigs)
        # a kernel that Python calls but that is not exported would run as plain Python
        # in the bundle: every dispatcher compiled for a call from Python must be listed
        for name, obj in vars(m).items():
            if isinstance(obj, CPUDispatcher) and obj.__module__ == m.__name__:
                called = any(not any(type(a).__name__.startswith("Literal") for a in sig)
                             for sig in obj.signatures)
                if called and name not in names:
                    # helpers may be compiled for a call from another kernel only
                    assert name.startswith("_") or name in _HELPERS, (mod, name)


# called only from other kernels (numba records those calls as signatures too)
_HELPERS = {"step", "popcount", "new_state", "tied", "low", "pop_into",
            "xorshift64", "local_neighbours", "init_key", "start_state", "popcount2",
            # the table walks' (walks/table_walk_kernel.py, table_backtrack_kernel.py)
            "table_outlets", "table_visit", "move_keys", "centre_of", "rule_key", "onward_key",
            "table_rank",
            # the board layouts the walk loops run on (walks/walk_loop_kernel.py)
            "pad_nxt", "pad_rc", "pad_sq", "pad_cand_rc", "pad_bsq", "arrive", "phase_nxt",
            "phase_arrive",
            "nxt_in_order",
            # the breadth-first flood and its free-groups visitor (walks/flood_kernel.py)
            "flood", "reach",
            # the streaming loop and its two layouts (tietree/enumeration/stream_kernel.py)
            "collect_rows",
            # the shared count loop (tietree/counting/count_kernel.py): the engine runs its
            # specialised copies; test_memo_count calls the plain loop from Python to hold it
            # to count_run, which would make this test fail when run after that one
            "count_loop"}


SIG = ((("array", "int32", 1, False), ("int",), ("array", "uint64", 2, True), ("bool",)),
        "bool")


def _checked():
    calls = []

    def fn(*args):
        calls.append(args)
        return 1

    return jit.checked(fn, "k", SIG), calls


def test_checked_call_passes_matching_arguments_and_converts_a_bool_result():
    f, calls = _checked()
    ro = np.zeros((2, 2), np.uint64)
    ro.setflags(write=False)            # a read-only argument may be read-only
    out = f(np.zeros(3, np.int32), np.int64(5), ro, np.bool_(True))
    assert out is True and len(calls) == 1
    f(np.zeros(3, np.int32), 5, np.zeros((2, 2), np.uint64), False)
    assert len(calls) == 2


@pytest.mark.parametrize("bad, what", [
    ((np.zeros(3, np.int64), 1, np.zeros((2, 2), np.uint64), True), "int32[1d]"),
    ((np.zeros(6, np.int32)[::2], 1, np.zeros((2, 2), np.uint64), True), "strided"),
    ((np.zeros((3, 1), np.int32), 1, np.zeros((2, 2), np.uint64), True), "int32[1d]"),
    (([0, 1, 2], 1, np.zeros((2, 2), np.uint64), True), "got list"),
    ((np.zeros(3, np.int32), 1.5, np.zeros((2, 2), np.uint64), True), "integer"),
    ((np.zeros(3, np.int32), 1, np.zeros((2, 2), np.int64), True), "uint64[2d]"),
    ((np.zeros(3, np.int32), 1, np.zeros((2, 2), np.uint64), None), "a bool"),
    ((np.zeros(3, np.int32), 1, np.zeros((2, 2), np.uint64)), "takes 4 arguments"),
])
def test_checked_call_refuses_what_the_compiled_code_would_misread(bad, what):
    f, calls = _checked()
    with pytest.raises(TypeError, match=what.replace("[", r"\[").replace("]", r"\]")):
        f(*bad)
    assert calls == []


def test_checked_call_refuses_a_read_only_array_for_a_written_one():
    f, calls = _checked()
    a = np.zeros(3, np.int32)
    a.setflags(write=False)
    with pytest.raises(TypeError, match="writable int32"):
        f(a, 1, np.zeros((2, 2), np.uint64), True)
    assert calls == []


class _Record(NamedTuple):
    squares: np.ndarray
    count: int


def test_checked_call_checks_a_records_fields_one_by_one():
    calls = []
    f = jit.checked(lambda *a: calls.append(a), "k",
                    ((("tuple", (("array", "int32", 1, False), ("int",))), ("int",)), "other"))
    f(_Record(np.zeros(3, np.int32), 4), 1)
    assert len(calls) == 1
    with pytest.raises(TypeError, match=r"argument 1 field squares must be a C-contiguous"):
        f(_Record(np.zeros(3, np.int64), 4), 1)
    with pytest.raises(TypeError, match=r"argument 1 field count must be an integer"):
        f(_Record(np.zeros(3, np.int32), 4.5), 1)
    with pytest.raises(TypeError, match=r"argument 1 must be a record of 2 fields, got list"):
        f([np.zeros(3, np.int32), 4], 1)
    assert len(calls) == 1


def test_python_bit_helpers_match_numba_intrinsics():
    xs = [1, 2, 3, 12, 1 << 40, (1 << 64) - 1, 1 << 63]
    want_lz = [64 - x.bit_length() for x in xs]
    want_tz = [(x & -x).bit_length() - 1 for x in xs]
    assert [jit.py_leading_zeros(np.uint64(x)) for x in xs] == want_lz
    assert [jit.py_trailing_zeros(np.uint64(x)) for x in xs] == want_tz
    if jit.MODE == "jit":
        from numba import njit

        lz = njit(lambda v: jit.leading_zeros(v))
        tz = njit(lambda v: jit.trailing_zeros(v))
        assert [int(lz(np.uint64(x))) for x in xs] == want_lz
        assert [int(tz(np.uint64(x))) for x in xs] == want_tz
