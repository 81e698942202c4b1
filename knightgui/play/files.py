"""A tour by hand: positions on file and in the settings.

A position is saved as a tour file with a partial path
(:meth:`knightgui.play.model.PlayModel.to_dict`). :class:`PlayFiles` stands in front of the
window's File ▸ Open tour… and Save tour…: in play mode Save writes the position, and Open
resumes play from a position, else opens a tour. The settings keep the same JSON text.
"""
from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from knightgui.play.model import PLAY_KEY, PlayModel
from knightgui.window.files import file_error_text
from knightgui_core.board.tour import MAX_FILE_BYTES
from knightgui_core.system import files
from knightgui_core.system.text import shorten, strict_loads

__all__ = ["PlayFiles"]

log = logging.getLogger("knightgui.settings")


class PlayFiles:
    """Open, save and the settings of a :class:`knightgui.play.controller.PlayController`."""

    def __init__(self, play: Any) -> None:
        self.play = play
        w = play.w
        w.act.open.triggered.disconnect(w.files.open_tour)
        w.act.open.triggered.connect(self.open_file)
        w.act.save.triggered.disconnect(w.files.save_tour)
        w.act.save.triggered.connect(self.save_file)

    def state(self) -> str:
        """The position as JSON text (the settings keep it)."""
        return json.dumps(self.play.model.to_dict()) if self.play.model.path else ""

    def set_state(self, text: object) -> None:
        """Restore :meth:`state`; a bad value leaves the board empty, with one warning line."""
        if text is None or text == "":
            return
        try:
            if not isinstance(text, str) or len(text) > MAX_FILE_BYTES // 16:
                raise ValueError("not a played position of at most "
                                 f"{MAX_FILE_BYTES // 16:,} characters")
            self.play.adopt(PlayModel.from_dict(strict_loads(text)), enter=False)
        except ValueError as e:
            log.warning("the remembered position played by hand is not restored: %s",
                        shorten(str(e), 160))

    def open_file(self, *_: object, filename: str | None = None) -> bool:
        """File ▸ Open tour…: a position resumes play; any other file is a tour."""
        f = self.play.w.files
        name = filename or f._ask(False, "Open tour", "Tours (*.json *.csv);;All files (*)")
        if not name:
            return False
        if not self.opens(name):
            return bool(f.open_tour(filename=name))
        try:
            self.open_position(name)
        except (OSError, ValueError) as e:
            self.play.w.show_error("Cannot open the position", file_error_text(name, e))
            return False
        return True

    def save_file(self, *_: object, filename: str | None = None) -> bool:
        """File ▸ Save tour…: in play mode the position, else the tour on the board."""
        f = self.play.w.files
        if not self.play.active:
            return bool(f.save_tour(filename=filename))
        name = filename or f._ask(True, "Save position", "JSON (*.json)", ".json")
        if not name:
            return False
        try:
            self.save_position(name)
        except (OSError, ValueError) as e:
            self.play.w.show_error("Cannot save the position", file_error_text(name, e))
            return False
        self.play.say(f"Saved {Path(name).name}: {self.play.position_text()}")
        return True

    def opens(self, name: str) -> bool:
        """Whether ``name`` is a position being played (a tour file marked partial)."""
        try:
            d = _read(name)
        except (OSError, ValueError):
            return False
        return isinstance(d, dict) and d.get(PLAY_KEY) is True

    def open_position(self, name: str) -> None:
        """Resume the position of file ``name`` (``ValueError``/``OSError`` when not one)."""
        self.play.adopt(PlayModel.from_dict(_read(name)))
        self.play.say(f"Opened {Path(name).name}: {self.play.position_text()} — play on")

    def save_position(self, name: str) -> None:
        """Write the position to ``name`` (the tour file's JSON with the partial path)."""
        if not self.play.model.path:
            raise ValueError("there is no move to save yet: click a start square")
        files.write_text(Path(name), json.dumps(self.play.model.to_dict()), make_parents=True)


def _read(name: str) -> object:
    """The JSON of file ``name``, through the engine's one bounded reader."""
    return strict_loads(files.read_text(Path(name), MAX_FILE_BYTES,
                                        memory_factor=files.PARSE_MEMORY_FACTOR))
