"""The tours a board symmetry keeps start anywhere: the board marks no requested start or
end for them, the Start field is not used, the symmetry box says what "none" lists, and a
closed tour without a symmetry says what to change in plain words."""
from __future__ import annotations

from gui_helpers import open_exhaustive, wait_until


def _kinds(window) -> dict[str, list[tuple[int, int]]]:
    out: dict[str, list[tuple[int, int]]] = {}
    for col, row, kind in window.view.markers._items:
        out.setdefault(kind, []).append((col, row))
    return out


def test_symmetric_tours_mark_no_requested_start_or_end(window, qtbot):
    open_exhaustive(window, 6, "d4")
    c = window.controls
    b = c.board()
    window.view.squareClicked.emit(b.parse("b3"), True)        # closed, ending on b3
    assert c.end.currentText() == "b3" and window.view.end_sq == b.parse("b3")
    c.all_tours.setChecked(True)                               # every path: no end
    assert window.view.end_sq == -1
    c.symmetry.setCurrentIndex(c.symmetry.findData("half-turn"))
    assert window.view.start_sq == -1 and window.view.end_sq == -1
    assert not _kinds(window) and not c.start.isEnabled()
    window.solve()
    wait_until(qtbot, lambda: not window.results.running)
    assert window.results.show_solution(0)
    path = window.view.path
    kinds = _kinds(window)
    assert set(kinds) == {"start", "end"}                      # the tour's own, no "want"
    assert kinds["start"] == [(int(path[0]) % 6, int(path[0]) // 6)]
    c.symmetry.setCurrentIndex(c.symmetry.findData("none"))    # every path from d4 again
    assert c.start.isEnabled() and window.view.start_sq == b.parse("d4")


def test_the_symmetry_box_and_a_closed_every_path_run_say_what_they_mean(window):
    open_exhaustive(window, 6, "a1")
    c = window.controls
    c.all_tours.setChecked(True)
    c.closed.setChecked(True)
    c.symmetry.setCurrentIndex(c.symmetry.findData("none"))
    assert c.symmetry.currentText() == "none: every path from the start"
    note = c.note.text()
    assert "untick 'closed tour', or choose a symmetry" in note
    assert "Every tour:" not in note


def test_a_symmetry_says_the_tours_start_anywhere_in_the_start_fields_place(window):
    open_exhaustive(window, 6, "d4")
    c = window.controls
    assert c.start.isVisibleTo(c) and not c.start_any.isVisibleTo(c)
    c.all_tours.setChecked(True)
    c.symmetry.setCurrentIndex(c.symmetry.findData("half-turn"))
    assert not c.start.isVisibleTo(c) and c.start_any.isVisibleTo(c)
    assert c.start_any.text().startswith("any square")
    c.symmetry.setCurrentIndex(c.symmetry.findData("none"))    # the paths from d4 again
    assert c.start.isVisibleTo(c) and c.start.text() == "d4"
    assert not c.start_any.isVisibleTo(c)
