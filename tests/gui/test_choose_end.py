"""Choosing the square a tour ends on: a right-click or shift-click on the board sets it and
ticks what an end needs (closed tour, Exhaustive mode), and the help says so."""
from __future__ import annotations

from knightgui.window.help import GETTING_STARTED, MOUSE_AND_KEYS


def _status(window) -> str:
    return window.statusBar().currentMessage()


def test_a_right_click_sets_the_end_and_ticks_closed_tour(window):
    c = window.controls
    b = c.board()
    assert c.mode.currentData() == "single" and not c.closed.isChecked()
    assert c.start.text() == "a8" and not c.end.isVisible()
    window.view.squareClicked.emit(b.parse("c7"), True)        # right-click on c7
    assert c.closed.isChecked() and c.mode.currentData() == "exhaustive"
    assert c.end.isVisible() and c.end.currentText() == "c7"
    assert window.view.end_sq == b.parse("c7")
    assert _status(window).startswith("End set to c7 (closed tour ticked, Exhaustive mode "
                                      "chosen")
    window.view.squareClicked.emit(b.parse("b6"), True)        # nothing more to tick
    assert c.end.currentText() == "b6" and _status(window).startswith("End set to b6 —")
    window.view.squareClicked.emit(b.parse("d4"), True)        # no move from a8
    assert _status(window) == ("cannot end on d4: a closed tour ends a knight move from its "
                               "start a8 (b6, c7)")
    assert c.end.currentText() == "b6"


def test_an_open_tour_says_where_it_could_end(window):
    b = window.controls.board()
    window.view.squareClicked.emit(b.parse("h1"), True)
    assert _status(window) == ("cannot end on h1: a closed tour ends a knight move from its "
                               "start a8 (b6, c7)")
    assert not window.controls.closed.isChecked()              # nothing changed


def test_the_help_says_what_the_end_click_does():
    assert "closed" in dict((k, w) for _a, k, w in MOUSE_AND_KEYS)["Shift-click or right-click"]
    assert "right-click" in GETTING_STARTED and "<i>closed\ntour</i> is ticked" in GETTING_STARTED


def test_exhaustive_mode_always_shows_the_end_and_how_to_get_one(window):
    c = window.controls
    c.mode.setCurrentIndex(c.mode.findData("exhaustive"))
    assert not c.closed.isChecked()
    assert c.end.isVisible() and not c.end.isEnabled()
    assert c.end.currentText() == "open tour: tick closed tour"
    c.closed.setChecked(True)
    assert c.end.isEnabled() and c.end.currentText() in ("b6", "c7")
