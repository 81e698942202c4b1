"""Stepping through an exhaustive run shows exactly the engine's solutions and their options
matrices (docs/spec.md §4 worked example: a8→c7)."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from knightgui_core.tietree.enumeration.enumerator import Enumerator

from gui_helpers import wait_until

N = 50


def _enumerate(window, qtbot, start="a8", end="c7"):
    c = window.controls
    c.mode.setCurrentIndex(c.mode.findData("exhaustive"))
    c.closed.setChecked(True)
    c.rows.setValue(8)
    c.start.setText(start)
    c.start.editingFinished.emit()
    c.end.setCurrentIndex(c.end.findText(end))
    window.solve()
    wait_until(qtbot, lambda: not window.results.running, timeout=120)


def _model_matrix(model) -> np.ndarray:
    """Read the options matrix back through the Qt model (display role), rows 1..L."""
    rows = model.rowCount()
    out = np.zeros((rows + 1, 8), dtype=np.int64)
    for r in range(rows):
        for c in range(1, 8):
            text = model.data(model.index(r, c))
            out[r + 1, c] = int(text) if text else 0
    return out


@pytest.fixture(scope="module")
def engine_solutions():
    return Enumerator(8, 8, start="a8", end="c7").first(N)


def test_first_50_solutions_match_the_engine_both_ways(window, qtbot, engine_solutions):
    _enumerate(window, qtbot)
    r = window.results
    assert r.exhausted and r.found == 14_258
    assert "All Solutions Exhausted" in window.counter.text()
    assert r.current == 0
    for i, sol in enumerate(engine_solutions):
        if i:
            assert r.next()
        assert r.current == i
        np.testing.assert_array_equal(window.view.path, sol.path)
        expect = sol.mo.astype(np.int64)
        expect[:, 0] = 0                          # column 0 is not a slot
        np.testing.assert_array_equal(_model_matrix(window.matrix.model), expect)
        assert window.matrix.model.branch == sol.branch
        assert window.counter.values["current"] == i + 1
    for i in range(N - 2, -1, -1):
        assert r.previous()
        np.testing.assert_array_equal(window.view.path, engine_solutions[i].path)
    assert not r.previous()                      # nothing before the first


def test_worked_example_options_matrix_in_the_model(window, qtbot):
    _enumerate(window, qtbot)
    m = window.matrix.model
    got = {(r + 1, c): int(m.data(m.index(r, c)))
           for r in range(m.rowCount()) for c in range(1, 8) if m.data(m.index(r, c))}
    assert got == {(2, 1): 3, (20, 1): 1, (20, 2): 2, (41, 1): 1, (41, 2): 3, (43, 1): 1,
                   (47, 1): 3, (48, 1): 2, (49, 1): 2}
    assert m.data(m.index(5, 0)) == "a3" and m.data(m.index(6, 0)) == "b1"   # moves 6, 7
    window.results.next()
    assert m.branch == 49 and m.headerData(48, Qt.Vertical) == "▶ 49"
    assert m.data(m.index(48, 1), Qt.BackgroundRole) is not None


def test_keys_jump_and_end(window, qtbot, engine_solutions):
    _enumerate(window, qtbot)
    window.activateWindow()
    window.view.setFocus()
    r = window.results
    window.act.next.trigger()
    window.act.next.trigger()
    assert r.current == 2
    window.act.first.trigger()
    assert r.current == 0
    window.act.last.trigger()
    assert r.current == 14_257
    assert window.counter.values["current"] == 14_258
    assert not r.next()
    assert "All Solutions Exhausted" in window.statusBar().currentMessage()
    window.act.jump_box.setValue(37)
    np.testing.assert_array_equal(window.view.path, engine_solutions[36].path)
    assert window.act.next.shortcut().toString() == "Right"
    assert window.act.play.shortcut().toString() == "Space"


def test_arrow_keys_step_when_the_board_has_focus(window, qtbot):
    _enumerate(window, qtbot)
    window.activateWindow()
    window.view.setFocus()
    qtbot.waitUntil(lambda: window.isActiveWindow(), timeout=5000)
    r = window.results
    qtbot.keyClick(window.view, Qt.Key_Right)
    qtbot.keyClick(window.view, Qt.Key_Right)
    assert r.current == 2
    qtbot.keyClick(window.view, Qt.Key_Left)
    assert r.current == 1
    qtbot.keyClick(window.view, Qt.Key_End)
    assert r.current == 14_257
    qtbot.keyClick(window.view, Qt.Key_Home)
    assert r.current == 0
    qtbot.keyClick(window.view, Qt.Key_Space)
    assert window.act.play.isChecked()
    qtbot.keyClick(window.view, Qt.Key_Space)
    assert not window.act.play.isChecked()


def test_play_steps_forward_until_stopped(window, qtbot):
    _enumerate(window, qtbot)
    window.act.play_speed.setValue(200)
    window.toggle_play()
    assert window.act.play.isChecked()
    wait_until(qtbot, lambda: window.results.current >= 5, timeout=10)
    window.toggle_play()
    k = window.results.current
    qtbot.wait(50)
    assert window.results.current == k


def test_animation_shows_candidates_with_outlets(window, qtbot):
    _enumerate(window, qtbot)
    path = window.view.path.copy()
    window.act.anim_speed.setValue(1)
    window.toggle_animation()
    assert window.animator.running
    items = window.view.candidates._items
    assert items, "candidates of move 2 are shown"
    # move 2 from a8: the candidates are c7 (reserved end, excluded) and b6
    assert {(c, r) for c, r, *_ in items} == {(1, 5)}
    assert len(window.view.path) == 1
    window.toggle_animation()                        # stop: the whole tour is back
    assert not window.animator.running
    np.testing.assert_array_equal(window.view.path, path)
