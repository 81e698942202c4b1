""""Can it be finished?" answers in the Play group, where it stays while the path stays: the
status bar's copy is wiped by any hovered button's tip, the group's is not."""
from __future__ import annotations

from PySide6.QtGui import QStatusTipEvent
from PySide6.QtWidgets import QApplication

from gui_helpers import wait_until


def test_the_answer_stays_in_the_play_group_until_the_path_changes(window, qtbot):
    window.controls.model.update(rows=6, cols=6, square=True)
    window.controls.model.update(mode="play")
    p = window.play
    b = p.model.board
    for n in ("a1", "b3", "c5"):
        window.view.squareClicked.emit(b.parse(n), False)
    info = window.controls.play_box.info
    p.act_ask.trigger()
    assert "Counting" in info.text()
    wait_until(qtbot, lambda: p.model.answer is not None, timeout=30)
    a = p.model.answer
    want = f"Can be finished: {a.open:,} ways ({a.closed:,} closed)"
    assert want in info.text() and "move 3" in info.text()
    # hovering a toolbar button: its (empty) status tip clears the status bar
    QApplication.sendEvent(window, QStatusTipEvent(""))
    assert window.statusBar().currentMessage() == ""
    p.hint()                                    # another message: the answer still shows
    assert want in info.text() and info.isVisible()
    p.hint()
    p.undo()                                    # the path changed: the answer is gone
    assert want not in info.text() and "move 2" in info.text()
