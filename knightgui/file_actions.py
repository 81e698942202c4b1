"""File and image actions of the window (a mixin of :class:`MainWindow`): open and save
tours (JSON, CSV), export PNG and SVG, copy the image. Every failure is a dialog."""
from __future__ import annotations

import logging
import os
from pathlib import Path

from PySide6.QtWidgets import QFileDialog

from knightgui_core.tour import Tour, TourError

from . import export

log = logging.getLogger("knightgui.window")


def guarded(fn):
    """Wrap a slot: an exception becomes a dialog and a log line, never a crash."""
    def wrapper(self, *args, **kwargs):
        try:
            return fn(self, *args, **kwargs)
        except Exception as e:  # noqa: BLE001
            log.exception("error in %s", fn.__name__)
            self.show_error("Unexpected error", f"{type(e).__name__}: {e}")
            return None
    wrapper.__name__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    return wrapper


class FileActions:
    """Needs ``self.view``, ``self.results``, ``self.controls``, ``self.matrix``,
    ``self.counter``, ``self.animator``, ``self.last_dir``, ``self.show_error`` and a status
    bar. Also shows tours that come from elsewhere (a file, the analysis dock)."""

    @guarded
    def show_tour(self, tour):
        """Show a tour from elsewhere: a file, or the analysis dock (a ``Tour``, or for a walk
        that got stuck a dict with ``board``, ``path`` and ``message``)."""
        if tour is None:
            return
        if isinstance(tour, dict):
            self._show_walk(tour)
            return
        self.animator.stop(restore=False)
        self.results.forget()
        self.results.tour = tour
        self.results.ties = None
        self._set_board_controls(tour.rows, tour.cols)
        self.view.set_board(tour.rows, tour.cols)
        self.view.set_tour(tour.path, tour.closed)
        self.matrix.clear("Tour from elsewhere: no options matrix")
        self.counter.set_counts(state="tour shown")

    def _show_walk(self, walk: dict):
        b = walk["board"]
        self.animator.stop(restore=False)
        self.results.forget()
        self.results.tour = None
        self._set_board_controls(b.rows, b.cols)
        self.view.set_board(b.rows, b.cols)
        self.view.set_tour(walk["path"], False)
        self.matrix.clear("Walk from the analysis: no options matrix")
        self.counter.set_counts(state="incomplete walk")
        self.statusBar().showMessage(str(walk.get("message", "incomplete walk")))

    def _set_board_controls(self, rows: int, cols: int):
        c = self.controls
        c.blockSignals(True)
        try:
            c.square_lock.setChecked(rows == cols)
            c.rows.setValue(rows)
            c.cols.setValue(cols)
        finally:
            c.blockSignals(False)

    def _ask(self, save: bool, caption: str, filters: str, suffix: str = ""):
        directory = self.last_dir or os.getcwd()
        if save:
            name, _ = QFileDialog.getSaveFileName(self, caption, directory, filters)
        else:
            name, _ = QFileDialog.getOpenFileName(self, caption, directory, filters)
        if name:
            self.last_dir = str(Path(name).parent)
            if suffix and not Path(name).suffix:
                name += suffix
        return name

    @guarded
    def open_tour(self, *_, filename=None):
        name = filename or self._ask(False, "Open tour", "Tours (*.json *.csv);;All files (*)")
        if not name:
            return False
        try:
            tour = Tour.load(name)
        except TourError as e:
            self.show_error("Cannot open the tour", f"{Path(name).name}: {e}")
            return False
        self.show_tour(tour)
        self.statusBar().showMessage(f"Opened {Path(name).name}: {tour.rows}×{tour.cols} "
                                     f"{'closed' if tour.closed else 'open'} tour")
        return True

    def _need_tour(self):
        t = self.results.tour
        if t is None:
            self.show_error("No tour", "There is no complete tour on the board to save.")
        return t

    @guarded
    def save_tour(self, *_, filename=None):
        t = self._need_tour()
        if t is None:
            return False
        name = filename or self._ask(True, "Save tour", "JSON (*.json);;CSV (*.csv)", ".json")
        if not name:
            return False
        try:
            t.save(name)
        except (TourError, OSError) as e:
            self.show_error("Cannot save the tour", str(e))
            return False
        self.statusBar().showMessage(f"Saved {name}")
        return True

    @guarded
    def export_png(self, *_, filename=None):
        name = filename or self._ask(True, "Export PNG", "PNG image (*.png)", ".png")
        if not name:
            return False
        try:
            export.write_png(self.view, name)      # temp file, then rename
        except OSError as e:
            self.show_error("Cannot export", f"Could not write {name}: {e}")
            return False
        self.statusBar().showMessage(f"Exported {name}")
        return True

    @guarded
    def export_svg(self, *_, filename=None):
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
        try:
            export.save_svg(t, name, numbers=self.view.show_numbers)
        except (ValueError, OSError) as e:
            self.show_error("Cannot export", str(e))
            return False
        self.statusBar().showMessage(f"Exported {name}")
        return True

    @guarded
    def copy_image(self, *_):
        export.copy_image(self.view)
        self.statusBar().showMessage("Image copied to the clipboard")
