"""A complete tour in play mode: "Finish it" and "Can it be finished?" have nothing left to
do, so they are disabled (their tooltips say the tour is complete) until Undo takes a move
back."""
from __future__ import annotations

from knightgui_core.board.squares import Board


def test_finish_and_ask_are_disabled_while_the_tour_is_complete(window):
    from knightgui_core.walks.solve import solve
    window.controls.model.update(rows=5, cols=5, square=True)
    window.controls.model.update(mode="play")
    p, g = window.play, window.controls.play_box
    b = Board(5, 5)
    for s in solve(5, 5, start=0).path:
        window.view.squareClicked.emit(int(s), False)
    assert p.model.finished
    for btn in (g.finish_btn, g.ask_btn):
        assert not btn.isEnabled() and "complete" in btn.toolTip()
    assert not p.act_finish.isEnabled() and not p.act_ask.isEnabled()
    p.act_undo.trigger()
    assert not p.model.finished and len(p.model.path) == b.size - 1
    for btn in (g.finish_btn, g.ask_btn):
        assert btn.isEnabled() and "complete" not in btn.toolTip()
    assert p.act_finish.isEnabled() and p.act_ask.isEnabled()
