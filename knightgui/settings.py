"""Settings remembered between sessions (QSettings, organisation and application
``knightgui``): the controls, the view options, speeds, window geometry and dock layout.

Where Qt keeps them in a file (``<folder>/knightgui/knightgui.conf``, :func:`settings_file`),
only a regular file (or a link to one) of at most :data:`SETTINGS_BYTES` is read and
written: anything else (a FIFO would block the start) is left alone, the window starts with
the defaults and one warning line says why, and :func:`save` raises :class:`SettingsError`.
Every remembered value is read through the check of what it sets: a bad one keeps the
default, with one warning line naming the key.
"""
from __future__ import annotations

import atexit
import json
import logging
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QSettings, QStandardPaths

from knightgui_core.system.errors import ResourceError
from knightgui_core.system.text import shorten, strict_loads

# the window and the Analysis view are passed in, not imported: both import this module
# (tests/test_architecture.py forbids the loop)
MainWindowLike = Any
AnalysisWindowLike = Any

log = logging.getLogger("knightgui.settings")

ORG = APP = "knightgui"
#: The saved controls (a flat object of about 300 bytes) beyond these bounds are ignored.
CONTROLS_BYTES = 64 * 1024
CONTROLS_DEPTH = 4
#: A settings file above this size is not read (the largest value, a position played by
#: hand, is at most 16 MiB of text: :meth:`knightgui.play.files.PlayFiles.set_state`).
SETTINGS_BYTES = 64 * 1024 * 1024
#: The longest remembered folder (File ▸ Open's last folder).
PATH_CHARS = 4096

_folder: str | None = None          # use_folder's, else Qt's user configuration folder
_warned: set[str] = set()           # each refusal of a settings file is said once
_spare: list[str] = []              # the private file that stands in for a refused one


def use_folder(folder: str) -> None:
    """Keep this process's settings in ``folder`` (tests, benchmarks, screenshots: never the
    user's own): the native and the INI paths both, as Qt 6's ``QSettings(org, app)`` uses
    the native format whatever the default."""
    global _folder
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, folder)
    _folder = folder


def settings_file() -> Path | None:
    """The file ``QSettings(ORG, APP)`` keeps this user's settings in, under
    :func:`use_folder`'s folder or Qt's user configuration folder; ``None`` on Windows and
    macOS, whose native settings are not a file Qt opens."""
    if sys.platform in ("win32", "darwin"):
        return None
    folder = _folder or QStandardPaths.writableLocation(
        QStandardPaths.StandardLocation.GenericConfigLocation)
    return Path(folder) / ORG / f"{APP}.conf"


def refusal(path: Path) -> str | None:
    """Why the settings file ``path`` is neither read nor written (one phrase: ``is a FIFO
    (named pipe), not a regular file``), or ``None`` when it may be or is not there yet;
    looked at with ``stat`` only."""
    try:
        lst = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (OSError, ValueError) as e:
        return f"cannot be looked at ({getattr(e, 'strerror', None) or e})"
    link = "a link to " if stat.S_ISLNK(lst.st_mode) else ""
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return "is a link to nothing"
    except OSError as e:
        return f"cannot be looked at ({e.strerror or e})"
    if not stat.S_ISREG(st.st_mode):
        return f"is {link}{_kind(st.st_mode)}, not a regular file"
    if st.st_size > SETTINGS_BYTES:
        return (f"is {st.st_size:,} bytes; settings files above {SETTINGS_BYTES:,} bytes are "
                "not read")
    return None


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def qsettings() -> QSettings:
    """The application's settings store: its file when :func:`refusal` finds nothing wrong
    with it, else a private, empty file of this process and one warning line."""
    path = settings_file()
    if path is None:
        return QSettings(ORG, APP)
    why = refusal(path)
    if why is None:
        return QSettings(str(path), QSettings.Format.IniFormat)
    text = f"the settings file {path} {why}: the window starts with the default settings"
    if text not in _warned:
        _warned.add(text)
        log.warning("%s", text)
    return QSettings(_spare_file(), QSettings.Format.IniFormat)


def _spare_file() -> str:
    """A file in a private temporary folder, removed when the process ends."""
    if not _spare:
        folder = tempfile.mkdtemp(prefix="knightgui-settings-")
        atexit.register(shutil.rmtree, folder, True)
        _spare.append(os.path.join(folder, f"{APP}.conf"))
    return _spare[0]


def _warn(key: str, value: object, wants: str) -> None:
    """One line: the remembered ``key`` holds ``value``, not what it ``wants``."""
    shown = repr(value[:100] if isinstance(value, str) else value)    # a long text: its start
    log.warning("the remembered %s %s is not %s; its default serves", key, shorten(shown, 60),
                wants)


def _read(s: QSettings, key: str, default: Any, parse: Callable[[object], Any],
          wants: str) -> Any:
    """``parse`` of the value at ``key``; ``default`` when there is none, or when ``parse``
    gives None (with one warning line: it is not what the key ``wants``)."""
    v = s.value(key)
    if v is None:
        return default
    got = parse(v)
    if got is None:
        _warn(key, v, wants)
        return default
    return got


def _whole(s: QSettings, key: str, lo: int, hi: int, default: int) -> int:
    """The whole number at ``key`` (INI text or an int) in ``lo..hi``, else ``default``."""
    def parse(v: object) -> int | None:
        if isinstance(v, str):
            t = v.strip()
            digits = t[1:] if t[:1] in "+-" and t else t
            v = int(t) if digits.isascii() and digits.isdigit() and len(digits) <= 20 else None
        return v if isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi else None
    return _read(s, key, default, parse, f"a whole number from {lo:,} to {hi:,}")


_FLAGS = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}


def _flag(s: QSettings, key: str, default: bool) -> bool:
    """The flag at ``key`` (QSettings gives back text: ``true``/``false``), else ``default``."""
    return _read(s, key, default, lambda v: v if isinstance(v, bool) else
                 _FLAGS.get(v.strip().lower()) if isinstance(v, str) else None, "true or false")


def _choice(s: QSettings, key: str, choices: tuple[str, ...], default: str) -> str:
    return _read(s, key, default, lambda v: v if isinstance(v, str) and v in choices else None,
                 f"one of {', '.join(choices)}")


def text_value(s: QSettings, key: str, limit: int = PATH_CHARS) -> str:
    """The text at ``key`` (a folder, a file, an address) of at most ``limit`` characters,
    else ``""`` (with one warning line when something else is there)."""
    return _read(s, key, "", lambda v: v if isinstance(v, str) and len(v) <= limit
                 and "\x00" not in v else None, f"a text of at most {limit:,} characters")


def _bytes(s: QSettings, key: str) -> QByteArray | None:
    """The saved layout at ``key`` (Qt checks its contents when it restores it)."""
    v = s.value(key)
    if v is None or v == "":
        return None
    if isinstance(v, QByteArray):
        return v if not v.isEmpty() else None
    _warn(key, v, "a saved layout")
    return None


class SettingsError(ResourceError):
    """The settings file could not be written, or was not, being no regular file (one
    line: where, and why)."""


def save(window: MainWindowLike) -> None:
    """Save the controls' model, the view options, speeds, folders and the window layout;
    :class:`SettingsError` when the file could not be written or :func:`refusal` refuses it."""
    path = settings_file()
    why = refusal(path) if path is not None else None
    if why is not None:
        raise SettingsError(f"could not write the settings to {path}: it {why}; the "
                            "settings were not saved")
    s = qsettings()
    s.setValue("controls", json.dumps(window.controls.state()))
    v = window.view
    s.setValue("view/numbers", v.show_numbers)
    s.setValue("view/path", v.show_path)
    s.setValue("view/ties", v.show_ties)
    s.setValue("view/sums", window.act.sums.isChecked())
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
    geo = _bytes(s, "analysis/geometry")
    if geo is not None:
        view.restoreGeometry(geo)
    page = _whole(s, "analysis/page", 0, max(view.tabs.count() - 1, 0), 0)
    view.tabs.setCurrentIndex(page)


COLOURS = ("auto", "checker", "moves")


def load(window: MainWindowLike) -> None:
    """Apply saved settings; anything missing keeps its default, anything malformed too,
    with one warning line."""
    s = qsettings()
    _load_controls(window, s.value("controls"))
    window.play.files.set_state(s.value("play/position", ""))  # bounded and checked there
    window.set_view_options(numbers=_flag(s, "view/numbers", True),
                            path=_flag(s, "view/path", True),
                            ties=_flag(s, "view/ties", False),
                            colour=_choice(s, "view/colour", COLOURS, "auto"),
                            sums=_flag(s, "view/sums", True))
    acts = window.act
    for key, box in (("speed/play", acts.play_speed), ("speed/animation", acts.anim_speed),
                     ("speed/watch", acts.watch_speed)):
        box.setValue(_whole(s, key, box.minimum(), box.maximum(), box.value()))
    window.files.last_dir = text_value(s, "dir/last")
    geo = _bytes(s, "window/geometry")
    if geo is not None:
        window.restoreGeometry(geo)
    state = _bytes(s, "window/state")
    if state is not None:
        window.state_restored = bool(window.restoreState(state))


def _load_controls(window: MainWindowLike, text: object) -> None:
    """The saved controls (JSON text, bounded: a settings file edited by hand cannot nest or
    grow without limit) through the controls' model: a field its validator refuses keeps
    its default, one warning line each."""
    from knightgui.request.types import CHECKS
    if text is None or text == "":
        return
    try:
        if not isinstance(text, str) or len(text) > CONTROLS_BYTES:
            raise ValueError
        st = strict_loads(text, CONTROLS_DEPTH)
        if not isinstance(st, dict):
            raise ValueError
    except ValueError:
        _warn("controls", text, f"a JSON object of at most {CONTROLS_BYTES:,} characters")
        return
    for key, value in st.items():
        check = CHECKS.get(key)
        if check is None or (key == "dashes" and isinstance(value, list)
                             and all(isinstance(d, str) for d in value)):
            continue                    # an old field, or the old form the model converts
        try:
            check(value)
        except (TypeError, ValueError) as e:
            log.warning("the remembered controls' %s; its default serves", shorten(str(e), 120))
    try:
        window.controls.set_state(st)
    except (TypeError, ValueError) as e:      # fields that do not go together (an end square)
        log.warning("the remembered controls do not go together (%s); the defaults serve",
                    shorten(str(e), 120))
