"""A new size keeps a corner start a corner (a8 on 8×8 is a100 on 100×100), and "Finish it"
says what the rule did in plain English."""
from __future__ import annotations

from knightgui_core.walks.hand.finish import RuleFinish

from gui_helpers import wait_until


def test_a_corner_start_follows_the_board_to_its_new_size(window):
    c = window.controls
    assert c.start.text() == "a8"
    c.rows.setValue(100)                          # the square lock: 100 × 100
    assert (c.rows.value(), c.cols.value()) == (100, 100)
    assert c.start.text() == "a100"
    b = c.board()
    assert window.view.start_sq == b.parse("a100") == b.index(0, 99)
    c.rows.setValue(8)
    assert c.start.text() == "a8"
    c.start.setText("d4")
    c.start.editingFinished.emit()
    c.rows.setValue(12)                           # not a corner: stays where it was
    assert c.start.text() == "d4"


def test_finish_it_says_what_the_rule_did_in_plain_english(window, qtbot):
    window.controls.model.update(closed=True)
    window.controls.model.update(mode="play")
    p = window.play
    b = p.model.board
    for n in ("a1", "b3"):
        window.view.squareClicked.emit(b.parse(n), False)
    window.solve()                                 # Solve finishes in play mode
    wait_until(qtbot, lambda: p.model.finished, timeout=60)
    status = window.statusBar().currentMessage()
    assert status.startswith("Warnsdorff's rule finished the closed tour in 62 moves")
    assert "undone" not in status
    backed = RuleFinish(True, tuple(range(60)), False, 200, 43, "")
    assert p._finished_text(backed).startswith(
        "Warnsdorff's rule finished the closed tour in 60 moves, backing out of 43 dead "
        "ends on the way")
