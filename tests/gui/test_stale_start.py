"""A board made stale by a new start: one green ring marks a start, the new one (not the
stale tour's beside it), and the stale note names every change since the solve, the start
among them."""
from __future__ import annotations

from gui_helpers import wait_until


def _starts(window) -> list[tuple[int, int, str]]:
    return [(c, r, k) for c, r, k in window.view.markers._items if k in ("start", "want")]


def test_a_new_start_is_the_one_start_marked_and_the_note_names_every_change(window, qtbot):
    c = window.controls
    c.model.update(rows=6, cols=6, square=True, start="a1", mode="single")
    window.solve()
    wait_until(qtbot, lambda: not window.results.running and window.results.tour is not None)
    assert _starts(window) == [(0, 0, "start")]
    c.closed.setChecked(True)                      # first change: closed (and its end)
    assert "open/closed changed" in window.counter.state.text()
    window.view.squareClicked.emit(c.board().parse("c3"), False)     # then the start
    assert window.view.path[0] == 0                # the stale tour stays drawn
    assert _starts(window) == [(2, 2, "want")]
    note = window.counter.state.text()
    assert "start" in note and "open/closed" in note, note
    window.solve()                                 # a new run: the note starts afresh
    wait_until(qtbot, lambda: not window.results.running and window.results.tour is not None)
    assert _starts(window) == [(2, 2, "start")]
    c.model.update(mode="exhaustive")
    assert window.counter.state.text().startswith("Stale: mode changed")
