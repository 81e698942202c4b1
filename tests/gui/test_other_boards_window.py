"""Other boards and pieces in the window (issue 27): the Edges and Piece boxes both ways,
a tour on the torus drawn with its wrapped moves as two halves, the enumeration on a
cylinder, a tour file of another board opened with its board."""
from __future__ import annotations

import numpy as np

from knightgui.panels.controls.panel import ControlsPanel
from knightgui_core.board.squares import Board
from knightgui_core.board.tour import Tour
from knightgui_core.walks.solve import solve

from gui_helpers import wait_until


def test_edges_and_piece_boxes_both_ways(qtbot):
    p = ControlsPanel()
    qtbot.addWidget(p)
    said: list[str] = []
    p.message.connect(said.append)
    p.model.update(dashes=(("h1", "full"),))
    p.topology.setCurrentIndex(p.topology.findData("cylinder"))
    assert p.model.settings.topology == "cylinder" and p.model.settings.dashes == ()
    assert not any(cb.isEnabled() for cb in p.dash)            # the knight's plane only
    p.model.update(topology="torus")
    assert p.topology.currentData() == "torus"
    i = p.piece.findData("2,3")
    p.piece.setCurrentIndex(i)
    p.piece.activated.emit(i)
    assert p.model.settings.leaper == "2,3"
    p.piece.setEditText(" 3, 4 ")                               # typed by hand
    p.piece.lineEdit().editingFinished.emit()
    assert p.model.settings.leaper == "3,4"
    p.piece.setEditText("2,2")
    p.piece.lineEdit().editingFinished.emit()
    assert p.model.settings.leaper == "3,4" and any("Piece" in t for t in said)
    assert p.piece.currentText() == "3,4"                       # the box shows the model again
    p.model.update(leaper="1,4")
    assert p.piece.currentText() == "giraffe (1,4)"


def _solve_on(window, qtbot, topology, leaper, n, closed):
    c = window.controls
    c.topology.setCurrentIndex(c.topology.findData(topology))
    c.model.update(leaper=leaper, rows=n, closed=closed, start="a1")
    with qtbot.waitSignal(window.worker.tourSolved, timeout=120_000):
        window.solve()
    wait_until(qtbot, lambda: not window.results.running)


def test_a_torus_tour_is_drawn_with_its_wrapped_moves_in_halves(window, qtbot):
    _solve_on(window, qtbot, "torus", "1,2", 8, True)
    v = window.view
    board = Board(8, 8, "torus")
    assert v.board == board and window.results.tour.board == board
    assert window.results.tour.closed and len(v.path) == 64
    item = v.path_item
    steps = item._steps
    assert steps is not None and len(steps) == 64              # the closing move too
    xa, ya, xb, yb = item._segment_xy(np.arange(64))
    p = np.append(v.path, v.path[0])
    wrapped = int(((p[1:] % 8 - p[:-1] % 8) != steps[:, 0]).sum()
                  + ((p[1:] // 8 - p[:-1] // 8) != steps[:, 1]).sum() > 0)
    assert wrapped >= 1
    assert len(xa) > 64                                         # two halves per wrapped move
    lengths = np.hypot(xb - xa, yb - ya)
    assert np.allclose(lengths, np.sqrt(5))                     # every line is one leap long
    window.grab()                                               # paints (clipped) without error
    window.controls.topology.setCurrentIndex(window.controls.topology.findData("cylinder"))
    assert "edges changed" in window.timing.labels["status"].text()
    assert window.view.board == Board(8, 8, "cylinder")

def test_the_enumeration_on_a_cylinder_steps_through_its_tours(window, qtbot):
    c = window.controls
    c.model.update(rows=5, topology="cylinder", mode="exhaustive", start="a1")
    window.solve()
    wait_until(qtbot, lambda: not window.results.running and len(window.results.store) > 0)
    b = Board(5, 5, "cylinder")
    assert window.results.board == b and window.view.board == b
    assert window.results.tour.board == b
    assert window.results.next()
    assert window.results.tour is not None and window.results.tour.board == b


def test_a_tour_of_another_board_opens_on_its_board(window, qtbot, tmp_path):
    res = solve(10, 10, topology="plane", leaper=(2, 3), closed=True)
    assert res.ok
    path = tmp_path / "zebra.json"
    res.tour.save(path)
    window.show_tour(Tour.load(path))
    s = window.controls.model.settings
    assert (s.topology, s.leaper, s.rows) == ("plane", "2,3", 10)
    assert window.view.board == Board(10, 10, "plane", (2, 3))
    assert window.view.closed
