"""The engine's one warm-up loads every kernel the window reaches first."""
import pytest


@pytest.mark.jit_only
def test_warm_up_loads_the_window_kernels():
    from knightgui_core.studies.orders_kernel import one_walk, orders_tree
    from knightgui_core.tietree import bitboard_kernel as k64
    from knightgui_core.tietree import enumerate_kernel as k
    from knightgui_core.walks import walk_kernel as walk
    from knightgui_core.warmup import warm_up

    assert warm_up() >= 0.0
    for fn in (k.advance_kernel, k.collect_kernel, k.count_kernel, k64.advance_bits,
               k64.collect_bits, k64.count_bits, k64.count_batch_bits, walk.greedy_walk,
               orders_tree, one_walk):
        assert fn.signatures, fn


def test_core_has_one_warm_up():
    """No other module of the engine or the app defines a warm-up of its own."""
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[2]
    found = [str(p.relative_to(root)) for d in ("core", "knightgui") for p in (root / d).rglob("*.py")
             if re.search(r"^def (warm_up|exercise)\b", p.read_text(), re.M)]
    assert found == ["core/warmup.py"], found
