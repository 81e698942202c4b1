"""File ▸ Export animation…: the settings dialog, the export on a thread of its own, and a
progress dialog with Cancel (:mod:`knightgui.animation.export` draws and encodes).

:class:`AnimationExporter` is what :class:`knightgui.window.files.FileActions` calls: it asks
for the settings and the file, runs the export on an :class:`ExportThread` (the window stays
live) whose Cancel stops it between two frames (no file is left), and says the outcome in
the status bar or an error dialog. Closing the window cancels it and waits for its thread.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, Qt, QThread, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QProgressDialog,
    QSpinBox,
    QWidget,
)

from knightgui.animation import export as ax
from knightgui_core.board.tour import Tour
from knightgui_core.system import files
from knightgui_core.system.errors import Cancelled


@dataclass(frozen=True)
class AnimationSettings:
    """What the dialog asks: the format and the export's settings (0 moves a frame: auto)."""

    fmt: str = "gif"
    fps: int = ax.FPS_DEFAULT
    moves_per_frame: int = 0
    size: int = ax.SIZE_DEFAULT


class AnimationDialog(QDialog):
    """The tour exported (``what``, in words), format, frames a second, moves a frame and
    size, and a line that says what they make or why they cannot (OK only when they can)."""

    def __init__(self, tour: Tour, parent: QWidget | None = None,
                 initial: AnimationSettings = AnimationSettings(), what: str = ""):
        super().__init__(parent)
        self.setWindowTitle("Export animation")
        self.setMinimumWidth(360)         # the summary on one line for the usual boards
        self.tour = tour
        self.what = QLabel(f"Exports {what}" if what else "")
        self.what.setWordWrap(True)
        self.fmt = QComboBox()
        for fmt in ax.FORMATS:
            self.fmt.addItem(f"{fmt.upper()} (.{fmt})", fmt)
        self.fps = QSpinBox(minimum=ax.FPS_MIN, maximum=ax.FPS_MAX, value=initial.fps,
                            suffix=" frames/s")
        self.step = QSpinBox(minimum=0, maximum=max(len(tour.path), 1),
                             value=initial.moves_per_frame)
        self.step.setSpecialValueText("auto")
        self.step.setToolTip("moves added in each frame (auto: about "
                             f"{ax.TARGET_FRAMES} frames in all)")
        # a board bigger than the last size: one pixel a square at least
        side = max(initial.size, min(max(tour.rows, tour.cols), ax.SIZE_MAX))
        self.side = QSpinBox(minimum=ax.SIZE_MIN, maximum=ax.SIZE_MAX, value=side,
                             suffix=" px")
        self.side.setToolTip("the longer side of the picture, rounded down to whole squares")
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        if what:
            form.addRow(self.what)
        form.addRow("Format", self.fmt)
        form.addRow("Speed", self.fps)
        form.addRow("Moves per frame", self.step)
        form.addRow("Size", self.side)
        form.addRow(self.summary)
        form.addRow(self.buttons)
        self.fmt.setCurrentIndex(max(self.fmt.findData(initial.fmt), 0))
        for box in (self.fps, self.step, self.side):
            box.valueChanged.connect(self._update)
        self.fmt.currentIndexChanged.connect(self._update)
        self._update()

    def settings(self) -> AnimationSettings:
        """The settings as the boxes show them."""
        return AnimationSettings(self.fmt.currentData(), self.fps.value(), self.step.value(),
                                 self.side.value())

    def _update(self, *_: object) -> None:
        s = self.settings()
        why = ax.missing_encoder(s.fmt)
        if why is None:
            try:
                p = ax.plan(self.tour, s.fmt, s.fps, s.moves_per_frame, s.size)
            except ax.AnimationError as e:
                why = str(e)
        self.summary.setText(why if why else
                             f"{p.frames:,} frames of {p.width}×{p.height}, "
                             f"{p.moves_per_frame:,} move{'s' if p.moves_per_frame != 1 else ''} a frame, "
                             f"{p.seconds:.1f} s")
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(why is None)


class ExportThread(QThread):
    """One export on a thread of its own: ``progress(done, total)`` frames as it goes, then
    ``done(ok, text)`` (ok False with the reason, or a cancel)."""

    progress = Signal(int, int)
    done = Signal(bool, str)

    def __init__(self, tour: Tour, filename: str, s: AnimationSettings,
                 parent: QObject | None = None):
        super().__init__(parent)
        self.setObjectName("knightgui-animation")
        self.tour, self.filename, self.s = tour, filename, s
        self.stop = threading.Event()
        self.cancelled = False

    def run(self) -> None:
        """Export; every outcome ends in one ``done`` signal."""
        try:
            res = ax.export_animation(self.tour, self.filename, fps=self.s.fps,
                                      moves_per_frame=self.s.moves_per_frame,
                                      size=self.s.size, progress=self.progress.emit,
                                      cancel=self.stop)
        except Cancelled:
            self.cancelled = True
            self.done.emit(False, "Export cancelled; no file was written")
        except (OSError, ValueError) as e:
            self.done.emit(False, str(getattr(e, "strerror", None) or e).splitlines()[0])
        except Exception as e:  # noqa: BLE001 - the thread must always report
            self.done.emit(False, f"{type(e).__name__}: {e}")
        else:
            p = res.plan
            self.done.emit(True, f"Exported {res.path.name}: {p.frames:,} frames of "
                           f"{p.width}×{p.height}, {res.bytes:,} bytes")


class AnimationExporter(QObject):
    """The window's animation export: dialog, file, thread, progress (see the module).
    ``ask_file(fmt)`` gives the file name (or "" to stop), ``status`` and ``show_error`` say
    the outcome, ``describe(tour)`` names the tour in the dialog."""

    finished = Signal(bool, str)

    def __init__(self, parent: QWidget, ask_file: Callable[[str], str],
                 status: Callable[[str], None], show_error: Callable[[str, str], None],
                 describe: Callable[[Tour], str] | None = None):
        super().__init__(parent)
        self.window = parent
        self.ask_file, self.status, self.show_error = ask_file, status, show_error
        self.describe = describe
        self.last = AnimationSettings()
        self.job: ExportThread | None = None
        self.progress: QProgressDialog | None = None
        parent.installEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        """The window closing: cancel a running export and wait for its thread."""
        if obj is self.window and event.type() == QEvent.Type.Close:
            self.shutdown()
        return False

    def shutdown(self) -> None:
        """Cancel the running export, if any, and wait for its thread to end."""
        if self.job is not None:
            self.job.stop.set()
            self.job.wait()

    def start(self, tour: Tour, filename: str | None = None,
              s: AnimationSettings | None = None) -> bool:
        """Ask what is missing (settings, file), then export on the thread; False when the
        user stopped before, an encoder is missing or an export is already running."""
        if self.job is not None:
            self.status("An animation is being exported; wait for it or cancel it")
            return False
        if s is None:
            dlg = AnimationDialog(tour, self.window, self.last,
                                  self.describe(tour) if self.describe else "")
            if dlg.exec() != QDialog.DialogCode.Accepted:
                return False
            s = dlg.settings()
        self.last = s
        why = ax.missing_encoder(s.fmt)
        if why:
            self.show_error("Export animation", why)
            return False
        name = filename or self.ask_file(s.fmt)
        if not name:
            return False
        try:
            files.check_write_target(name)      # a folder or a device: said at once
        except OSError as e:
            self.show_error("Cannot export the animation", str(e))
            return False
        self.job = ExportThread(tour, name, s, self)
        bar = QProgressDialog(f"Drawing and encoding {s.fmt.upper()}…", "Cancel", 0, 1,
                              self.window)
        bar.setWindowTitle("Export animation")
        bar.setWindowModality(Qt.WindowModality.WindowModal)
        bar.setMinimumDuration(300)
        bar.setAutoClose(False)
        bar.setAutoReset(False)
        bar.canceled.connect(self.job.stop.set)
        self.job.progress.connect(self._progress)
        self.job.done.connect(self._done)
        self.progress = bar
        self.job.start()
        return True

    def _progress(self, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress.setMaximum(total)
            self.progress.setValue(done)
            if done >= total:
                self.progress.setLabelText("Writing the file…")

    def _done(self, ok: bool, text: str) -> None:
        thread, self.job = self.job, None
        if thread is not None:
            thread.wait()
            thread.deleteLater()
        if self.progress is not None:
            self.progress.close()
            self.progress.deleteLater()
            self.progress = None
        if ok or (thread is not None and thread.cancelled):
            self.status(text)
        else:
            self.show_error("Cannot export the animation", text)
        self.finished.emit(ok, text)
