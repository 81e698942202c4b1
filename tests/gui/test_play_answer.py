""""Can it be finished?" answers in the Play group, where it stays while the path stays: the
status bar's copy goes with the next message, the group's does not."""
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
    window.statusBar().clearMessage()           # the status bar forgets it
    p.hint()                                    # another message: the answer still shows
    assert want in info.text() and info.isVisible()
    p.hint()
    p.undo()                                    # the path changed: the answer is gone
    assert want not in info.text() and "move 2" in info.text()


def test_a_hovered_buttons_tip_gives_the_status_line_back(window):
    bar = window.statusBar()
    bar.showMessage("Can still be finished: 12 ways to finish")
    QApplication.sendEvent(window, QStatusTipEvent("solve with the current controls"))
    assert bar.currentMessage() == "solve with the current controls"
    QApplication.sendEvent(window, QStatusTipEvent(""))        # the pointer leaves
    assert bar.currentMessage() == "Can still be finished: 12 ways to finish"
    QApplication.sendEvent(window, QStatusTipEvent("stop the running search"))
    bar.showMessage("Cancelled")                                # said while the tip shows
    QApplication.sendEvent(window, QStatusTipEvent(""))
    assert bar.currentMessage() == "Cancelled"
