"""Settings remembered between sessions (QSettings, organisation and application
``knightgui``): the controls, the view options, speeds, window geometry and dock layout."""
from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QByteArray, QSettings

from knightgui_core.system.errors import ResourceError
from knightgui_core.system.text import strict_loads

# the window and the Analysis view are passed in, not imported: both import this module
# (tests/test_architecture.py forbids the loop)
MainWindowLike = Any
AnalysisWindowLike = Any

ORG = APP = "knightgui"
#: The saved controls are a flat object of about 300 bytes; a larger or deeper value (a
#: settings file edited by hand, or damaged) is ignored and the defaults serve.
CONTROLS_BYTES = 64 * 1024
CONTROLS_DEPTH = 4


def use_folder(folder: str) -> None:
    """Keep this process's settings in ``folder`` (tests, benchmarks, screenshots: never the
    user's own). ``QSettings(org, app)`` uses the native format whatever the default format
    is (Qt 6), so its path is the one that counts; the INI path is set too."""
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, folder)


def qsettings() -> QSettings:
    """The application's settings store (organisation and application ``knightgui``)."""
    return QSettings(ORG, APP)


def _bool(v: object, default: bool) -> bool:
    """A stored flag (QSettings may give back text), ``default`` when missing."""
    if v is None:
        return default
    if isinstance(v, bool):
        return v
    return str(v).lower() in ("true", "1", "yes")


class SettingsError(ResourceError):
    """The settings file could not be written (one line: where, and Qt's status)."""


def save(window: MainWindowLike) -> None:
    """Save the controls' model, the view options, speeds, folders and the window layout;
    :class:`SettingsError` when the file could not be written."""
    s = qsettings()
    s.setValue("controls", json.dumps(window.controls.state()))
    v = window.view
    s.setValue("view/numbers", v.show_numbers)
    s.setValue("view/path", v.show_path)
    s.setValue("view/ties", v.show_ties)
    s.setValue("view/colour", v.colour_mode)
    s.setValue("speed/play", window.act.play_speed.value())
    s.setValue("speed/animation", window.act.anim_speed.value())
    s.setValue("speed/watch", window.act.watch_speed.value())
    s.setValue("dir/last", window.files.last_dir)
    s.setValue("play/position", window.play.files.state())     # a tour by hand, partly played
    s.setValue("window/geometry", window.saveGeometry())
    s.setValue("window/state", window.saveState())
    if window.analysis is not None:
        s.setValue("analysis/geometry", window.analysis.saveGeometry())
        s.setValue("analysis/page", window.analysis.tabs.currentIndex())
    s.sync()
    if s.status() != QSettings.Status.NoError:
        raise SettingsError(f"could not write the settings to {s.fileName()} "
                            f"({s.status().name})")


def load_analysis(view: AnalysisWindowLike) -> None:
    """Put the Analysis view where it was last time (first time: its default size)."""
    s = qsettings()
    geo = s.value("analysis/geometry")
    if isinstance(geo, QByteArray) and not geo.isEmpty():
        view.restoreGeometry(geo)
    try:
        page = int(str(s.value("analysis/page", 0)))
    except (TypeError, ValueError):
        page = 0
    if 0 <= page < view.tabs.count():
        view.tabs.setCurrentIndex(page)


def load(window: MainWindowLike) -> None:
    """Apply saved settings; anything missing or malformed keeps its default."""
    s = qsettings()
    try:   # bounded: a settings file edited by hand cannot nest or grow without limit
        text = str(s.value("controls", "{}") or "{}")
        st = strict_loads(text, CONTROLS_DEPTH) if len(text) <= CONTROLS_BYTES else None
        if isinstance(st, dict) and st:
            window.controls.set_state(st)
    except (TypeError, ValueError):
        pass
    window.play.files.set_state(s.value("play/position", ""))  # bounded and checked there
    mode = s.value("view/colour", "auto")
    window.set_view_options(numbers=_bool(s.value("view/numbers"), True),
                            path=_bool(s.value("view/path"), True),
                            ties=_bool(s.value("view/ties"), False),
                            colour=mode if mode in ("auto", "checker", "moves") else "auto")
    acts = window.act
    for key, box in (("speed/play", acts.play_speed), ("speed/animation", acts.anim_speed),
                     ("speed/watch", acts.watch_speed)):
        try:
            box.setValue(int(str(s.value(key, box.value()))))
        except (TypeError, ValueError):
            pass
    window.files.last_dir = str(s.value("dir/last", "") or "")
    geo = s.value("window/geometry")
    if isinstance(geo, QByteArray) and not geo.isEmpty():
        window.restoreGeometry(geo)
    state = s.value("window/state")
    if isinstance(state, QByteArray) and not state.isEmpty():
        window.state_restored = bool(window.restoreState(state))
