"""File and image actions of the window: open and save tours (JSON, CSV), export PNG, SVG and
the construction as an animation, copy the image. Every failure is a dialog.
:class:`FileActions` takes its collaborators explicitly, so it is built and tested alone."""
from __future__ import annotations

import functools
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QFileDialog, QWidget

from knightgui import export
from knightgui_core.board.tour import Tour

if TYPE_CHECKING:       # its module is imported when the first animation is exported
    from knightgui.animation.dialog import AnimationExporter

log = logging.getLogger("knightgui.window")

#: what reading or writing a file may raise when the file, the disk or the contents refuse
#: (TourError and the engine's other input errors are ValueErrors)
FILE_ERRORS = (OSError, ValueError)


def file_error_text(name: str | os.PathLike[str], e: BaseException) -> str:
    """One line that says which file and what went wrong ("tour.json: No space left on
    device")."""
    why = (e.strerror if isinstance(e, OSError) and e.strerror else str(e)) or type(e).__name__
    return f"{Path(name).name}: {why.splitlines()[0]}"


def attempt(name: str | os.PathLike[str], work: Callable[[], object],
            fail: Callable[[str], None], done: Callable[[str], None], done_text: str) -> bool:
    """The one error path of every file action (the window's and the Analysis view's):
    run ``work()``; a refusal (:data:`FILE_ERRORS`) goes to ``fail`` as one line and returns
    False, nothing else changes; success says ``done_text`` through ``done``."""
    try:
        work()
    except FILE_ERRORS as e:
        fail(file_error_text(name, e))
        return False
    done(done_text)
    return True


def tour_words(t: Tour) -> str:
    """Which tour an export writes, in words: "the 8×8 open tour from d4 to d3, solution 1
    (the tour on the board)"."""
    b = t.board
    which = (t.method or {}).get("solution")
    return (f"the {b.rows}×{b.cols} {'closed' if t.closed else 'open'} tour from "
            f"{b.name(int(t.path[0]))} to {b.name(int(t.path[-1]))}"
            + (f", solution {int(which):,}" if isinstance(which, int) else "")
            + " (the tour on the board)")


def guarded(fn):
    """Wrap a slot: an exception becomes a dialog and a log line, never a crash."""
    @functools.wraps(fn)
    def wrapper(self, *args, **kwargs):
        try:
            return fn(self, *args, **kwargs)
        except Exception as e:  # noqa: BLE001
            log.exception("error in %s", fn.__name__)
            self.show_error("Unexpected error", f"{type(e).__name__}: {e}")
            return None
    return wrapper


class FileActions:
    """Open, save and export for a window.

    ``parent``: the dialogs' parent; ``view``: the :class:`knightgui.board.view.BoardView`
    to export; ``current_tour()``: the complete tour on the board, or None; ``show_tour(tour)``:
    put an opened tour on the board; ``status(text)``: one line for the status bar;
    ``show_error(title, text)``: the error dialog. ``last_dir`` is the folder of the last
    file chosen (remembered in the settings)."""

    def __init__(self, parent: QWidget, view, current_tour: Callable[[], Tour | None],
                 show_tour: Callable[[Tour], None], status: Callable[[str], None],
                 show_error: Callable[[str, str], None]) -> None:
        self.parent = parent
        self.view = view
        self.current_tour = current_tour
        self.show_tour = show_tour
        self.status = status
        self.show_error = show_error
        self.last_dir = ""
        self._animations: AnimationExporter | None = None     # made on first use

    def _ask(self, save: bool, caption: str, filters: str, suffix: str = ""):
        directory = self.last_dir or os.getcwd()
        if save:
            name, _ = QFileDialog.getSaveFileName(self.parent, caption, directory, filters)
        else:
            name, _ = QFileDialog.getOpenFileName(self.parent, caption, directory, filters)
        if name:
            self.last_dir = str(Path(name).parent)
            if suffix and not Path(name).suffix:
                name += suffix
        return name

    @guarded
    def open_tour(self, *_, filename=None):
        """Open a tour file (JSON or CSV) and show it; a bad file is one dialog line."""
        name = filename or self._ask(False, "Open tour", "Tours (*.json *.csv);;All files (*)")
        if not name:
            return False
        loaded: list[Tour] = []
        if not self._attempt("Cannot open the tour", name, lambda: loaded.append(Tour.load(name)),
                             ""):
            return False
        tour = loaded[0]
        self.show_tour(tour)
        self.status(f"Opened {Path(name).name}: {tour.rows}×{tour.cols} "
                    f"{'closed' if tour.closed else 'open'} tour")
        return True

    def _attempt(self, title: str, name: str, work: Callable[[], object],
                 done_text: str) -> bool:
        """:func:`attempt` with this window's error dialog and status line."""
        return attempt(name, work, lambda text: self.show_error(title, text),
                       lambda text: self.status(text) if text else None, done_text)

    def _need_tour(self):
        t = self.current_tour()
        if t is None:
            self.show_error("No tour", "The board shows no complete tour to save or export (a "
                            "watched search's path or a walk is not one): step to a found "
                            "solution (Right) or Solve (Ctrl+R) first.")
        return t

    @guarded
    def save_tour(self, *_, filename=None):
        """Save the complete tour on the board as JSON or CSV."""
        t = self._need_tour()
        if t is None:
            return False
        name = filename or self._ask(True, "Save tour", "JSON (*.json);;CSV (*.csv)", ".json")
        if not name:
            return False
        return self._attempt("Cannot save the tour", name, lambda: t.save(name), f"Saved {name}")

    @guarded
    def export_png(self, *_, filename=None):
        """Export the board as a PNG image."""
        name = filename or self._ask(True, "Export PNG", "PNG image (*.png)", ".png")
        if not name:
            return False
        return self._attempt("Cannot export", name,
                             lambda: export.write_png(self.view, name),   # temp file, then rename
                             f"Exported {name}")

    @guarded
    def export_svg(self, *_, filename=None):
        """Export the tour as an SVG drawing (boards up to 100×100)."""
        t = self._need_tour()
        if t is None:
            return False
        if max(t.rows, t.cols) > export.SVG_MAX_SIDE:
            self.show_error("SVG export", f"SVG export is limited to {export.SVG_MAX_SIDE}×"
                            f"{export.SVG_MAX_SIDE} boards; export a PNG instead.")
            return False
        name = filename or self._ask(True, "Export SVG", "SVG image (*.svg)", ".svg")
        if not name:
            return False
        return self._attempt("Cannot export", name,
                             lambda: export.save_svg(t, name, numbers=self.view.show_numbers),
                             f"Exported {name}")

    @guarded
    def export_animation(self, *_, filename=None, settings=None):
        """Export the tour's construction as a GIF or MP4 (knightgui/animation/dialog.py):
        settings dialog, file, export on a thread with a progress dialog and Cancel."""
        t = self._need_tour()
        if t is None:
            return False
        self.status(f"Export animation: {tour_words(t)}")
        if self._animations is None:
            from knightgui.animation.dialog import AnimationExporter
            self._animations = AnimationExporter(
                self.parent, lambda fmt: self._ask(True, "Export animation",
                                                   f"{fmt.upper()} (*.{fmt})", f".{fmt}"),
                self.status, self.show_error, tour_words)
        return self._animations.start(t, filename, settings)

    @guarded
    def copy_image(self, *_):
        """Copy the board's image to the clipboard."""
        export.copy_image(self.view)
        self.status("Image copied to the clipboard")
