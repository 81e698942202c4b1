"""Canonical forms: every image of a real tour under the board's symmetries, reversed, or (for a
cycle) started elsewhere, gets one id; different tours get different ids."""
from __future__ import annotations

import json

import numpy as np
import pytest

from knightgui_core.board.canonical import (
    SYMMETRY_NAMES,
    canonical_form,
    canonical_id,
    is_cycle,
    relation,
    symmetry_maps,
    symmetry_order,
)
from knightgui_core.board.squares import Board
from knightgui_core.board.tour import check_path
from knightgui_core.tietree.enumeration.enumerator import Enumerator


def _tours(rows, cols, start, end=None, k=40):
    return [s.path.astype(np.int64) for s in Enumerator(rows, cols, start, end).first(k)]


def _images(b: Board, p: np.ndarray):
    """Every image of the tour under a symmetry, forwards and backwards."""
    for g in symmetry_maps(b.rows, b.cols):
        q = g[p]
        yield q
        yield q[::-1]


@pytest.mark.parametrize("rows,cols,start,end", [(8, 8, "a8", None), (8, 8, "a8", "c7"),
                                                 (6, 6, "c3", None), (5, 6, "a1", None),
                                                 (6, 6, "a1", "b3")])
def test_every_image_of_a_real_tour_has_one_id(rows, cols, start, end):
    b = Board(rows, cols)
    for p in _tours(rows, cols, start, end, k=12):
        ident = canonical_id(b, p)
        for q in _images(b, p):
            assert check_path(b, q) is None            # the image is a tour too
            assert canonical_id(b, q) == ident
            np.testing.assert_array_equal(canonical_form(b, q), canonical_form(b, p))
        if is_cycle(b, p):
            assert ident.startswith(f"C{rows}x{cols}-")
            for shift in (1, 7, len(p) - 1):
                assert canonical_id(b, np.roll(p, shift)) == ident
                assert canonical_id(b, np.roll(p[::-1], shift)) == ident
        else:
            assert ident.startswith(f"O{rows}x{cols}-")


def test_different_tours_have_different_ids_and_a_plain_check_agrees():
    """Ids split 8×8 tours exactly as a plain comparison of every image does."""
    b = Board(8, 8)
    tours = _tours(8, 8, "a8", None, k=200) + _tours(8, 8, "c6", None, k=200)

    def plain_key(p):
        if is_cycle(b, p):
            forms = []
            for q in _images(b, p):
                i = int(np.argmin(q))
                forms.append(tuple(np.roll(q, -i)))
            return min(forms)
        return min(tuple(q) for q in _images(b, p))

    by_id, by_plain = {}, {}
    for i, p in enumerate(tours):
        by_id.setdefault(canonical_id(b, p), set()).add(i)
        by_plain.setdefault(plain_key(p), set()).add(i)
    assert sorted(map(sorted, by_id.values())) == sorted(map(sorted, by_plain.values()))
    assert len(by_id) > 100


def test_symmetry_order_and_relation():
    b = Board(8, 8)
    p = _tours(8, 8, "a8", None, k=1)[0]
    assert symmetry_order(b, p) in (1, 2, 4, 8)
    names = dict(zip(SYMMETRY_NAMES, symmetry_maps(8, 8)))
    assert relation(b, p, p) == "the same tour"
    assert relation(b, names["rotated 90° clockwise"][p], p) is not None
    assert relation(b, p, names["rotated 90° clockwise"][p]) == "rotated 90° clockwise"
    assert relation(b, p, p[::-1]) == "reversed"
    assert relation(b, p, names["mirrored left–right"][p][::-1]) == "mirrored left–right, reversed"
    other = _tours(8, 8, "c6", None, k=1)[0]
    assert relation(b, p, other) is None
    # a symmetric tour: a cycle built to be its own 180° turn has order at least 2
    for c in _tours(6, 6, "a1", "b3", k=200):
        if symmetry_order(Board(6, 6), c) > 1:
            g = symmetry_maps(6, 6)[3]
            assert canonical_id(Board(6, 6), g[c]) == canonical_id(Board(6, 6), c)
            break


def test_an_oblong_board_has_four_symmetries():
    assert symmetry_maps(5, 6).shape == (4, 30) and symmetry_maps(6, 6).shape == (8, 36)
    for g in symmetry_maps(5, 6):
        assert sorted(g) == list(range(30))


@pytest.mark.parametrize("bad", [np.array([]), np.array([0, 99]), np.array([[0, 1]]),
                                 np.array([0.5, 1.0])])
def test_a_path_that_is_not_squares_is_one_clear_error(bad):
    with pytest.raises(ValueError, match="squares of the"):
        canonical_id(Board(5, 5), bad)


def test_check_json_has_the_canonical_id_and_symmetry(tmp_path, capsys):
    from knightgui.cli import run
    from knightgui_core.board.tour import Tour
    b = Board(8, 8)
    p = _tours(8, 8, "a8", "c7", k=1)[0]
    g = symmetry_maps(8, 8)[5]
    ids = []
    for i, q in enumerate((p, g[p][::-1])):
        f = tmp_path / f"t{i}.json"
        Tour(b, q.astype(np.int32), True, {"method": "test"}).save(f)
        assert run(["check", str(f), "--json"]) == 0
        d = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        ids.append(d["canonical"])
        assert d["symmetry"] in (1, 2, 4, 8)
    assert ids[0] == ids[1] and ids[0].startswith("C8x8-")
