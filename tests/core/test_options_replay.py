"""An options matrix rebuilt from a solution's path is the search's own (both kernels,
open and closed tours, dashes, tails), and a path that is not a solution is refused."""
from __future__ import annotations

import numpy as np
import pytest

from knightgui_core.tietree.enumeration.enumerator import EnumerationError, Enumerator

CASES = [dict(rows=8, cols=8, start="a8", end="c7"),
         dict(rows=8, cols=8, start="d5"),
         dict(rows=6, cols=6, start="a1", end="b3", dashes={"f6": "full"}),
         dict(rows=5, cols=5, start="c3"),
         dict(rows=8, cols=8, start="b8", end="a6", dashes={"h1": "full"},
              tail=("c2", "a1", "b3", "c5", "a6")),
         dict(rows=9, cols=9, start="a1"),
         dict(rows=6, cols=7, start="a1", end="b3", dashes={"g6": "A"})]


@pytest.mark.parametrize("bits", [True, False])
@pytest.mark.parametrize("kw", CASES)
def test_rebuilt_matrix_is_the_searchs_own(kw, bits):
    if bits and kw["rows"] * kw["cols"] > 64:
        pytest.skip("the bitboard kernel takes at most 64 squares")
    en = Enumerator(**kw, bits=bits)
    sols = en.first(400)
    assert sols, kw
    replay = en.options_replay()                 # made after the search moved on: no matter
    assert replay is en.options_replay()
    nonempty = 0
    for s in sols:
        got = replay.matrix(s.path)
        assert got.dtype == np.int8 and got.shape == s.mo.shape
        np.testing.assert_array_equal(got, s.mo)
        nonempty += int((got != 0).any())
    assert nonempty > 0                          # the cases do have ties to rebuild


def test_a_path_that_is_not_a_solution_is_refused():
    en = Enumerator(8, 8, start="a8", end="c7")
    sol = en.first(1)[0]
    replay = en.options_replay()
    bad = sol.path.copy()
    bad[[10, 20]] = bad[[20, 10]]                     # two squares swapped: not a knight tour
    with pytest.raises(EnumerationError, match="not a solution"):
        replay.matrix(bad)
    for wrong in (sol.path[:-1], sol.path.astype(float), np.full(64, 64), np.full(64, -1),
                  sol.path.reshape(8, 8)):
        with pytest.raises(EnumerationError, match="64 squares"):
            replay.matrix(wrong)
    other = Enumerator(8, 8, start="d5").first(1)[0]     # a tour from another start
    with pytest.raises(EnumerationError, match="start"):
        replay.matrix(other.path)
    rule = Enumerator(8, 8, start="a8", end="c7", tail=None)
    turned = sol.path.copy()
    turned[1:] = sol.path[1:][::-1]                         # a8, then the tour backwards
    with pytest.raises(EnumerationError):
        rule.options_replay().matrix(turned)


def test_replay_constants_agree_with_the_search_kernels():
    from knightgui_core.tietree.enumeration import enumerate_kernel as k
    from knightgui_core.tietree.enumeration import options_kernel as options
    assert options.BLOCKED == k.BLOCKED
