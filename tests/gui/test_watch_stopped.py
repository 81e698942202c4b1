"""A stopped or finished Watch: its solutions stay steppable, the panels say it stopped, and
File ▸ Export animation… writes the tour the board shows, never an earlier run's."""
from __future__ import annotations

import numpy as np
import pytest

from knightgui.animation import export as ax
from knightgui.animation.dialog import AnimationSettings

from gui_helpers import open_exhaustive, wait_until

iio = pytest.importorskip("imageio.v3")

SMALL = AnimationSettings("gif", ax.FPS_DEFAULT, 6, 120)


def _first_tour(window, qtbot):
    """Solve and stop once the first solution is on the board."""
    window.solve()
    wait_until(qtbot, lambda: window.results.tour is not None)
    window.act.cancel.trigger()


def _watch_until(window, qtbot, solutions: int):
    """Watch until ``solutions`` are found, then Esc on a partial path (a frame that is a
    whole tour is shown as that solution)."""
    window.act.watch.setChecked(True)
    window.act.watch_speed.setValue(2000)       # moves a second: far from the search's end
    window.solve()
    wait_until(qtbot, lambda: window.watcher.last is not None
               and window.watcher.last.solutions >= solutions)
    while len(window.view.path) == window.controls.board().size:
        window.watcher.step_once()
    window.act.cancel.trigger()                 # Esc
    assert not window.watcher.active


def test_stopped_watch_keeps_its_solutions_steppable_and_says_stopped(window, qtbot):
    open_exhaustive(window, 8, "a1")
    _watch_until(window, qtbot, 3)
    found = window.watcher.last.solutions
    c = window.counter
    assert c.found.text() == f"{found:,}" and c.current.text() == "—"
    assert "Stopped" in c.state.text() and "Watching" not in c.state.text()
    caption = window.matrix.caption.text()
    assert "stopped" in caption.lower() and "Watching" not in caption
    assert window.act.next.isEnabled()
    window.act.next.trigger()                   # ▶: solution 1 of the watched search
    assert c.current.text() == "1"
    first = window.view.path.copy()
    assert len(first) == 64 and window.controls.board().name(int(first[0])) == "a1"
    window.act.last.trigger()
    assert c.current.text() == f"{found:,}"
    assert not np.array_equal(window.view.path, first)
    window.act.first.trigger()
    np.testing.assert_array_equal(window.view.path, first)


def test_export_after_a_stopped_watch_writes_the_tour_on_the_board(window, qtbot, dialogs,
                                                                    tmp_path):
    open_exhaustive(window, 8, "a8")            # an earlier run shows a8's first tour
    _first_tour(window, qtbot)
    assert window.results.tour is not None
    window.controls.start.setText("h1")
    window.controls.start.editingFinished.emit()
    _watch_until(window, qtbot, 2)
    name = window.controls.board().name
    assert name(int(window.view.path[0])) == "h1"
    # the board shows the stopped search's path, not a tour: nothing to export, said so
    assert window.files.export_animation(filename=str(tmp_path / "none.gif"),
                                         settings=SMALL) is False
    assert dialogs[-1][0] == "No tour" and "no complete tour" in dialogs[-1][1]
    assert not (tmp_path / "none.gif").exists()
    window.act.next.trigger()                   # the watched search's first solution
    shown = window.view.path.copy()
    assert len(shown) == 64 and name(int(shown[0])) == "h1"
    assert window.files.export_animation(filename=str(tmp_path / "a.gif"), settings=SMALL)
    exporter = window.files._animations
    wait_until(qtbot, lambda: exporter.job is None)
    frames = iio.imread(tmp_path / "a.gif", index=None)
    from knightgui_core.board.tour import Tour
    ax.export_animation(Tour(window.controls.board(), shown, False, {}), tmp_path / "b.gif",
                        fps=SMALL.fps, moves_per_frame=SMALL.moves_per_frame, size=SMALL.size)
    want = iio.imread(tmp_path / "b.gif", index=None)
    assert frames.shape == want.shape
    np.testing.assert_array_equal(frames[-1], want[-1])


def test_export_says_which_tour_it_writes(window, qtbot, tmp_path, monkeypatch):
    from knightgui.animation import dialog as animation_dialog
    seen = []

    def fake_start(self, tour, filename=None, s=None):
        seen.append(window.statusBar().currentMessage())
        return False
    monkeypatch.setattr(animation_dialog.AnimationExporter, "start", fake_start)
    open_exhaustive(window, 8, "a1")
    _watch_until(window, qtbot, 2)
    window.act.next.trigger()
    window.act.next.trigger()                   # solution 2 of the watched search
    name = window.controls.board().name
    end = name(int(window.view.path[-1]))
    window.files.export_animation()
    assert seen == [f"Export animation: the 8×8 open tour from a1 to {end}, solution 2 "
                    "(the tour on the board)"]


def test_a_tour_being_animated_can_still_be_saved(window, qtbot, tmp_path):
    from gui_helpers import some_tour
    t = some_tour(6, 6)
    window.show_tour(t)
    window.act.anim_speed.setValue(1)
    window.act.anim.trigger()                   # the construction plays, move by move
    assert window.animator.running and len(window.view.path) < 36
    assert window.files.save_tour(filename=str(tmp_path / "t.json"))
    from knightgui_core.board.tour import Tour
    np.testing.assert_array_equal(Tour.load(str(tmp_path / "t.json")).path, t.path)
    window.act.anim.trigger()                   # stop: the whole tour again


def test_a_watch_stopped_on_a_solution_shows_and_exports_that_solution(window, qtbot,
                                                                        tmp_path):
    open_exhaustive(window, 8, "d4")
    window.act.watch.setChecked(True)
    window.act.watch_speed.setValue(1)
    window.solve()
    wait_until(qtbot, lambda: window.watcher.active)
    step = window.watcher.step_once()            # paused: one move at a time
    for _ in range(5000):
        if step.solution:
            break
        step = window.watcher.step_once()
    assert step.solution and len(window.view.path) == 64
    shown = window.view.path.copy()
    window.act.cancel.trigger()                  # Esc on the complete d4 tour
    assert window.counter.current.text() == f"{step.solutions:,}"
    np.testing.assert_array_equal(window.view.path, shown)
    t = window.tour_on_board()
    assert t is not None and window.controls.board().name(int(t.path[0])) == "d4"
    np.testing.assert_array_equal(t.path, shown)
    assert window.files.export_animation(filename=str(tmp_path / "d4.gif"), settings=SMALL)
    wait_until(qtbot, lambda: window.files._animations.job is None)
    from knightgui_core.board.tour import Tour
    ax.export_animation(Tour(window.controls.board(), shown, False, {}), tmp_path / "b.gif",
                        fps=SMALL.fps, moves_per_frame=SMALL.moves_per_frame, size=SMALL.size)
    np.testing.assert_array_equal(iio.imread(tmp_path / "d4.gif", index=None),
                                  iio.imread(tmp_path / "b.gif", index=None))
