"""One loop, several layouts: :func:`knightgui_core.system.jit.specialise` and the walk loops
written once (walks/walk_loop_kernel.py) run on the padded plane and on neighbour tables."""
from __future__ import annotations

import numpy as np
import pytest

from knightgui_core.board.squares import Board
from knightgui_core.system.jit import njit, specialise
from knightgui_core.walks import walk_kernel, walk_loop_kernel


@njit(cache=False)
def _double(x):
    return 2 * x


@njit(cache=False)
def _square(x):
    return x * x


@njit(cache=False)
def _apply_sum(a):
    total = 0
    for v in a:
        total += _double(v)
    return total


@pytest.mark.jit_only   # reads numba's dispatcher (py_func); the bundle's kernels are compiled
def test_a_copy_calls_what_it_is_bound_to_and_the_template_is_unchanged():
    a = np.arange(5, dtype=np.int64)
    squares = specialise(_apply_sum, "apply_sum_squares", _double=_square)
    assert squares(a) == 30
    assert _apply_sum(a) == 20
    again = specialise(_apply_sum, "apply_sum_squares", _double=_square)
    assert again.py_func.__qualname__ == squares.py_func.__qualname__
    other = specialise(_apply_sum, "apply_sum_squares", _double=_double)
    assert other.py_func.__qualname__ != squares.py_func.__qualname__   # a new cache entry


@pytest.mark.jit_only   # reads the copy's qualname, which names its cache entry
def test_a_changed_constant_beside_a_binding_is_a_new_cache_entry(tmp_path, monkeypatch):
    """Two visitors with the same bytecode but another constant (``x * 3`` against ``x * 4``)
    must not share a cached copy: the digest reads the file a binding is written in."""
    import importlib
    monkeypatch.syspath_prepend(str(tmp_path))
    names = []
    for i, k in enumerate((3, 4)):
        (tmp_path / f"visitor_{i}.py").write_text(f"def triple(x):\n    return x * {k}\n")
        mod = importlib.import_module(f"visitor_{i}")
        names.append((mod.triple.__code__.co_code,
                      specialise(_apply_sum, "apply_sum_k", _double=njit(cache=False)(mod.triple))))
    (code3, three), (code4, four) = names
    assert code3 == code4                   # the bytecode alone could not tell them apart
    assert three.py_func.__qualname__ != four.py_func.__qualname__
    a = np.arange(5, dtype=np.int64)
    assert (three(a), four(a)) == (30, 40)

def test_a_name_the_kernel_does_not_call_is_refused():
    with pytest.raises(NameError, match="does not call 'nope'"):
        specialise(_apply_sum, "bad", nope=_square)


def test_the_padded_layout_names_the_squares_the_table_names():
    rows, cols = 7, 9
    nbr = Board(rows, cols).neighbours
    W = cols + 4
    off = walk_kernel._padded_state(rows, cols, np.zeros(0, np.int8))[3]
    L = (off, cols)
    for s in range(rows * cols):
        p = (s // cols + 2) * W + s % cols + 2
        assert walk_kernel.pad_sq(L, p) == s
        rc = walk_loop_kernel.cand_rc((nbr, cols), s, 0, 0, 0)
        assert walk_kernel.pad_rc(L, p) == rc
        assert walk_kernel.pad_bsq(L, p, *rc) == s
        for t in range(8):
            q = walk_kernel.pad_nxt(L, p, t)
            r, c = walk_kernel.pad_rc(L, q)
            assert walk_kernel.pad_cand_rc(L, q, *rc, t) == (r, c)   # carried, not divided
            on = 0 <= r < rows and 0 <= c < cols
            assert (walk_kernel.pad_sq(L, q) if on else -1) == nbr[s, t]
