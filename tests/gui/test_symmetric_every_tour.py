"""Every-tour mode with a board symmetry (issue 38, item 1): the symmetric tours listed and
stepped through, the centre or axis drawn, the reason shown when there are none."""
from __future__ import annotations

from knightgui_core.board.squares import Board
from knightgui_core.tietree.symmetric_tours import is_symmetric

from gui_helpers import open_exhaustive, wait_until


def _every(window, size: int, symmetry: str, closed: bool) -> None:
    open_exhaustive(window, size, "a1")
    c = window.controls
    c.all_tours.setChecked(True)
    c.closed.setChecked(closed)
    c.symmetry.setCurrentIndex(c.symmetry.findData(symmetry))
    assert c.model.settings.symmetry == symmetry


def test_half_turn_closed_tours_of_6x6_are_listed_and_stepped(window, qtbot):
    _every(window, 6, "half-turn", True)
    assert window.view.symmetry_item.name == "half-turn"
    assert not window.controls.symmetry.isHidden()
    window.solve()
    wait_until(qtbot, lambda: not window.results.running, timeout=60)
    r = window.results
    assert r.exhausted and r.found == len(r.store) == 78
    board = Board(6, 6)
    for i in (0, 40, 77):
        assert r.show_solution(i)
        path = [int(x) for x in window.view.path]
        assert sorted(path) == list(range(36))
        assert is_symmetric(board, path, "half-turn", True)
    assert "the half-turn maps onto itself" in window.matrix.caption.text()


def test_the_axis_follows_the_symmetry_and_leaves_with_every_tour(window, qtbot):
    _every(window, 6, "mirror-rows", False)
    item = window.view.symmetry_item
    assert item.name == "mirror-rows" and len(item.segments()) == 1
    seg = item.segments()[0]
    assert (seg.y1(), seg.y2()) == (3.0, 3.0)            # between the third and fourth rows
    window.controls.all_tours.setChecked(False)
    assert item.name == "" and window.controls.symmetry.isHidden()


def test_a_symmetry_with_no_tour_says_why(window, qtbot):
    _every(window, 6, "diagonal", True)
    window.solve()
    wait_until(qtbot, lambda: "fixes 6 squares" in window.statusBar().currentMessage(),
               timeout=30)
