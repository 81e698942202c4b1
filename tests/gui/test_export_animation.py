"""File ▸ Export animation…: the settings dialog, the export on its own thread with a
progress dialog, Cancel, and a window closed while an export runs."""
from __future__ import annotations

import sys

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QDialogButtonBox, QPushButton

from knightgui.animation import export as ax
from knightgui.animation.dialog import AnimationDialog, AnimationSettings

from gui_helpers import some_tour

iio = pytest.importorskip("imageio.v3")


def ok_enabled(dlg: AnimationDialog) -> bool:
    return dlg.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()


def test_dialog_says_what_the_settings_make(qtbot):
    dlg = AnimationDialog(some_tour(8, 8))
    qtbot.addWidget(dlg)
    assert dlg.settings() == AnimationSettings()
    assert dlg.summary.text().startswith("64 frames of 480×480, 1 move a frame")
    assert ok_enabled(dlg)
    dlg.side.setValue(100)          # 100 // 8 = 12 px a square
    dlg.step.setValue(7)
    assert dlg.summary.text().startswith("10 frames of 96×96, 7 moves a frame")
    assert dlg.settings() == AnimationSettings("gif", ax.FPS_DEFAULT, 7, 100)


def test_dialog_refuses_what_cannot_be_made(qtbot, monkeypatch):
    dlg = AnimationDialog(some_tour(100, 100))
    qtbot.addWidget(dlg)
    dlg.step.setValue(1)            # 10,000 frames: more than a GIF can hold
    assert "more than a GIF can hold" in dlg.summary.text() and not ok_enabled(dlg)
    dlg.step.setValue(0)
    assert ok_enabled(dlg)
    monkeypatch.setitem(sys.modules, "av", None)     # no PyAV here
    dlg.fmt.setCurrentIndex(dlg.fmt.findData("mp4"))
    assert dlg.summary.text() == ax.HOW_TO_GET["mp4"] and not ok_enabled(dlg)


def test_menu_entry_and_no_tour(window, dialogs):
    titles = [a.text() for a in window.menuBar().actions()[0].menu().actions()]
    assert "Export animation…" in titles
    assert window.results.tour is None                  # nothing solved yet
    assert window.files.export_animation(filename="x.gif") is False
    assert dialogs and dialogs[-1][0] == "No tour"


def _exporter(window):
    return window.files._animations


@pytest.fixture
def slow_frames(monkeypatch):
    """Each frame takes 20 ms more, so an export is still running when it is cancelled."""
    import time
    frames = ax.FrameRenderer.frames

    def slow(self):
        for f in frames(self):
            time.sleep(0.02)
            yield f
    monkeypatch.setattr(ax.FrameRenderer, "frames", slow)


def test_export_runs_on_its_thread_and_the_window_stays_live(window, qtbot, tmp_path):
    window.show_tour(some_tour(100, 100))
    out = tmp_path / "big.gif"
    ticks: list[int] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start(10)
    assert window.files.export_animation(filename=str(out), settings=AnimationSettings())
    ex = _exporter(window)
    assert ex.job is not None and ex.job.isRunning()
    seen: list[int] = []
    ex.job.progress.connect(lambda done, total: seen.append(done))
    with qtbot.waitSignal(ex.finished, timeout=120_000) as blocker:
        pass
    timer.stop()
    ok, text = blocker.args
    assert ok, text
    assert text.startswith("Exported big.gif: 245 frames of 400×400")
    assert window.statusBar().currentMessage() == text
    assert len(ticks) >= 5 and seen and seen[-1] == 245      # the GUI thread kept running
    assert iio.improps(out).shape == (245, 400, 400, 3)
    assert ex.job is None and ex.progress is None


def test_cancel_leaves_no_file(window, qtbot, tmp_path, slow_frames):
    window.show_tour(some_tour(30, 30))
    out = tmp_path / "c.gif"
    assert window.files.export_animation(filename=str(out),
                                         settings=AnimationSettings(moves_per_frame=1,
                                                                    size=90))
    ex = _exporter(window)
    qtbot.waitUntil(lambda: ex.progress.value() >= 3, timeout=60_000)
    button = ex.progress.findChild(QPushButton)
    assert button.text() == "Cancel"
    with qtbot.waitSignal(ex.finished, timeout=120_000) as blocker:
        button.click()                                  # as the user does
    ok, text = blocker.args
    assert not ok and text == "Export cancelled; no file was written"
    assert window.statusBar().currentMessage() == text
    assert list(tmp_path.iterdir()) == []


def test_a_refused_path_is_one_dialog_line(window, dialogs, tmp_path):
    window.show_tour(some_tour(8, 8))
    folder = tmp_path / "f.gif"
    folder.mkdir()
    assert window.files.export_animation(filename=str(folder),
                                         settings=AnimationSettings()) is False
    assert dialogs[-1][0] == "Cannot export the animation"
    assert "is a folder" in dialogs[-1][1] and "\n" not in dialogs[-1][1]


def test_closing_the_window_cancels_the_export(qtbot, dialogs, tmp_path, slow_frames):
    from knightgui.window.main import MainWindow
    w = MainWindow(restore_settings=False)
    qtbot.addWidget(w)
    w.show()
    w.show_tour(some_tour(30, 30))
    out = tmp_path / "closing.gif"
    assert w.files.export_animation(filename=str(out),
                                    settings=AnimationSettings(moves_per_frame=1, size=90))
    job = _exporter(w).job
    qtbot.waitUntil(lambda: _exporter(w).progress.value() >= 2, timeout=60_000)
    w.close()
    assert job.isFinished() and job.cancelled
    assert list(tmp_path.iterdir()) == []


def test_the_whole_path_a_user_takes(window, qtbot, tmp_path, monkeypatch):
    """File ▸ Export animation…: the dialog (accepted with a smaller size), the file dialog
    (a name without a suffix gets the format's), then the export."""
    from PySide6.QtWidgets import QDialog, QFileDialog
    window.show_tour(some_tour(8, 8))
    asked: list[str] = []

    def accept(dlg):
        dlg.side.setValue(160)
        dlg.fmt.setCurrentIndex(dlg.fmt.findData("gif"))
        return QDialog.DialogCode.Accepted

    def save_name(parent, caption, directory, filters):
        asked.append(filters)
        return str(tmp_path / "film"), filters
    monkeypatch.setattr(AnimationDialog, "exec", accept)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_name))
    action = next(a for a in window.menuBar().actions()[0].menu().actions()
                  if a.text() == "Export animation…")
    action.trigger()
    ex = _exporter(window)
    assert asked == ["GIF (*.gif)"] and ex.job is not None
    with qtbot.waitSignal(ex.finished, timeout=60_000) as blocker:
        pass
    assert blocker.args[0], blocker.args[1]
    assert iio.improps(tmp_path / "film.gif").shape == (64, 160, 160, 3)
    assert ex.last.size == 160                  # the next export starts from these settings


def test_dialog_starts_at_one_pixel_a_square_on_a_big_board(qtbot):
    from knightgui_core.walks.solve import solve
    dlg = AnimationDialog(solve(600, 600).tour)
    qtbot.addWidget(dlg)
    assert dlg.side.value() == 600 and ok_enabled(dlg)
    assert dlg.summary.text().startswith("111 frames of 600×600")


def test_the_dialog_names_the_tour_it_exports(window, monkeypatch):
    from PySide6.QtWidgets import QDialog

    from knightgui.animation import dialog as animation_dialog
    seen = []

    def fake_exec(self):
        seen.append(self.what.text())
        return QDialog.DialogCode.Rejected
    monkeypatch.setattr(animation_dialog.AnimationDialog, "exec", fake_exec)
    t = some_tour(8, 8)
    window.show_tour(t)
    assert window.files.export_animation() is False          # the dialog, then Cancel
    name = t.board.name
    assert seen == [f"Exports the 8×8 open tour from {name(int(t.path[0]))} to "
                    f"{name(int(t.path[-1]))} (the tour on the board)"]
