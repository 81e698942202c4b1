"""A damaged or hostile settings file never keeps the window from starting, and saving never
writes through it to something that is not a regular file.

Values out of range or of the wrong type (speeds of 2^66, words where numbers belong) keep
their defaults with one warning line each; a settings file that is a FIFO, a device, a
folder, or a link to one of these (or to nothing) is not opened: the window starts with the
defaults, one warning line says why, and closing the window leaves the thing as it was.

A FIFO opened for reading blocks until something writes to it: every test with a FIFO
watches it (:func:`fifo_watch`, another process) that connects a writer, then hangs up, the
moment anything opens it, so a regression fails the test instead of hanging it."""
from __future__ import annotations

import contextlib
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from knightgui import settings

BIG = 2**66
pytestmark = pytest.mark.timeout(300)      # a bound on a hang, never the measure of a pass


#: the watcher (its own process: a reader blocked in Qt's open holds the interpreter's lock, so
#: no thread of this process could run): a writer for every reader, hung up at once
WATCH = """
import os, sys, time
while True:
    try:
        fd = os.open(sys.argv[1], os.O_WRONLY | os.O_NONBLOCK)
    except OSError:                 # ENXIO: no reader yet (the usual case)
        time.sleep(0.02)
        continue
    print("opened", flush=True)     # said before the hang-up that lets the reader go on
    os.close(fd)
"""


@contextlib.contextmanager
def fifo_watch(fifo: Path):
    """Yield a list that, once the block ends, holds an entry for each time something had
    the FIFO open for reading; each such reader got a writer that hung up at once (it read
    an empty file), so the test goes on."""
    opened: list[str] = []
    watcher = subprocess.Popen([sys.executable, "-c", WATCH, str(fifo)],
                               stdout=subprocess.PIPE, text=True)
    try:
        yield opened
    finally:
        watcher.kill()
        out, _ = watcher.communicate(timeout=60)
        opened.extend(out.split())


def _window(qtbot):
    """A window that restores the settings, shown until its board has painted once."""
    from knightgui.window.main import MainWindow
    w = MainWindow(restore_settings=True)
    qtbot.addWidget(w)
    with qtbot.waitSignal(w.firstPaint, timeout=60_000):
        w.show()
    return w


def _assert_defaults(w) -> None:
    assert (w.act.play_speed.value(), w.act.anim_speed.value(),
            w.act.watch_speed.value()) == (10, 20, 100)
    assert (w.view.show_numbers, w.view.show_path, w.view.show_ties) == (True, True, False)
    assert w.view.colour_mode == "auto"
    st = w.controls.model.settings
    assert (st.rows, st.cols, st.seed) == (8, 8, 0)


def _lines(caplog, text: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if text in r.getMessage()]


def _settings_file() -> Path:
    path = settings.settings_file()
    assert path is not None
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def _write_ini(path: Path, values: dict[str, str]) -> None:
    groups: dict[str, list[str]] = {}
    for key, value in values.items():
        group, _, name = key.rpartition("/")
        groups.setdefault(group or "General", []).append(f"{name}={value}")
    path.write_text("".join(f"[{g}]\n" + "\n".join(v) + "\n\n" for g, v in groups.items()))


def test_the_settings_file_is_the_one_qt_keeps_the_settings_in(tmp_path):
    """:func:`settings.settings_file` names the file ``QSettings(org, app)`` uses, in a
    fresh process where only ``XDG_CONFIG_HOME`` says where (the user's setup)."""
    code = ("from PySide6.QtCore import QSettings\n"
            "from knightgui import settings\n"
            "print(settings.settings_file())\n"
            "print(QSettings(settings.ORG, settings.APP).fileName())\n")
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=env, timeout=120)
    ours, qts = r.stdout.split()
    assert ours == qts == str(tmp_path / "knightgui" / "knightgui.conf"), r.stderr


def test_hostile_values_start_the_window_with_the_defaults(qtbot, dialogs, caplog):
    """Before, a speed of 2^66 ended in "uncaught exception | OverflowError: int too big to
    convert" (a dialog over the window) and words where numbers belong were dropped without
    a word."""
    from PySide6.QtCore import QSettings
    s = QSettings(str(_settings_file()), QSettings.Format.IniFormat)
    for key, value in {
            "speed/play": str(BIG), "speed/watch": str(BIG), "speed/animation": "fast",
            "view/numbers": "maybe", "view/colour": "12", "view/ties": str(BIG),
            "controls": json.dumps({"rows": "many", "seed": 2**40, "cols": 8}),
            "play/position": "not a position", "window/geometry": "oops",
            "window/state": str(BIG)}.items():
        s.setValue(key, value)
    s.sync()
    del s
    with caplog.at_level("WARNING"):
        w = _window(qtbot)
    _assert_defaults(w)
    assert not [d for d in dialogs if d[0] == "Unexpected error"], dialogs
    for key in ("speed/play", "speed/watch", "speed/animation", "view/numbers",
                "view/colour", "view/ties", "controls' rows", "controls' seed",
                "position played by hand", "window/geometry", "window/state"):
        said = _lines(caplog, key)
        assert len(said) == 1, (key, [r.getMessage() for r in caplog.records])
        assert "\n" not in said[0]
    assert not _lines(caplog, "uncaught") and not _lines(caplog, "could not restore")


def test_good_values_are_still_remembered(qtbot, dialogs, caplog):
    _write_ini(_settings_file(), {"speed/play": "42", "speed/watch": "0",
                                  "view/numbers": "false", "view/colour": "moves"})
    with caplog.at_level("WARNING"):
        w = _window(qtbot)
    assert (w.act.play_speed.value(), w.act.watch_speed.value()) == (42, 0)
    assert w.view.show_numbers is False and w.view.colour_mode == "moves"
    assert not _lines(caplog, "remembered")


def test_the_sums_toggle_is_remembered(qtbot, dialogs):
    """View ▸ Row and column sums, turned off, stays off in the next window."""
    w = _window(qtbot)
    assert w.act.sums.isChecked()                      # on by default
    w.act.sums.setChecked(False)
    w.close()
    again = _window(qtbot)
    assert not again.act.sums.isChecked()


@pytest.mark.parametrize("where", ["the settings file", "the organisation's file"])
def test_a_fifo_for_a_settings_file_starts_the_window_with_defaults(qtbot, dialogs, caplog,
                                                                     where):
    """Before, Qt opened the FIFO and the start blocked with nothing on screen (it reads the
    organisation-wide ``knightgui.conf`` beside the folder too)."""
    path = _settings_file()
    fifo = path if where == "the settings file" else path.parent.parent / "knightgui.conf"
    os.mkfifo(fifo)
    with fifo_watch(fifo) as opened, caplog.at_level("WARNING"):
        w = _window(qtbot)
        _assert_defaults(w)
        w.act.play_speed.setValue(33)
        w.close()
    assert not opened, "the FIFO was opened"
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert not [d for d in dialogs if d[0] == "Unexpected error"]
    if fifo == path:
        assert len(_lines(caplog, "is a FIFO (named pipe), not a regular file: the window "
                                  "starts with the default settings")) == 1
        assert len(_lines(caplog, "the settings were not saved")) == 1
    else:                               # Qt's own file is used and saved as ever
        assert "play=33" in path.read_text()


def _make_target(kind: str, where: Path) -> Path:
    target = where / f"target-{kind}"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "folder":
        target.mkdir()
    elif kind == "device":
        try:   # a /dev/null-like node of the test's own (never a real /dev node)
            os.mknod(target, stat.S_IFCHR | 0o600, os.makedev(1, 3))
        except (PermissionError, OSError) as e:
            pytest.skip(f"cannot make a device node here: {e}")
    return target                        # "nothing": a link to a name that does not exist


@pytest.mark.parametrize("kind", ["fifo", "device", "folder", "nothing"])
def test_saving_through_a_link_to_no_regular_file_leaves_it_alone(qtbot, dialogs, caplog,
                                                                  tmp_path, kind):
    """Before, closing the window with ``knightgui.conf`` a link to a device turned the
    device node into a regular file holding the settings (Qt writes the link's target)."""
    path = _settings_file()
    target = _make_target(kind, tmp_path)
    before = os.lstat(target).st_mode if kind != "nothing" else None
    path.symlink_to(target)
    watch = fifo_watch(target) if kind == "fifo" else contextlib.nullcontext([])
    with watch as opened, caplog.at_level("WARNING"):
        w = _window(qtbot)
        _assert_defaults(w)
        with pytest.raises(settings.SettingsError, match="the settings were not saved"):
            settings.save(w)
        w.close()                       # one more refusal, in one line
    assert not opened, "the FIFO was opened"
    assert path.is_symlink() and os.readlink(path) == str(target)
    if before is None:
        assert not os.path.lexists(target)
    else:
        assert os.lstat(target).st_mode == before
    assert len(_lines(caplog, "the window starts with the default settings")) == 1
    said = _lines(caplog, "the settings were not saved")
    assert len(said) == 1 and str(path) in said[0]


def test_a_link_to_a_regular_settings_file_is_read_and_written_through(qtbot, dialogs,
                                                                       tmp_path):
    """A settings file kept elsewhere (a dotfiles folder) behind a link: read, and saved
    into the file the link names; the link stays a link."""
    path = _settings_file()
    real = tmp_path / "dotfiles" / "knightgui.conf"
    real.parent.mkdir()
    _write_ini(real, {"speed/play": "42"})
    path.symlink_to(real)
    w = _window(qtbot)
    assert w.act.play_speed.value() == 42
    w.act.play_speed.setValue(7)
    w.close()
    assert path.is_symlink() and "play=7" in real.read_text()


def test_the_count_pages_remembered_texts_are_checked_too(qtbot, caplog):
    """The tour counts page's scheduler address and store file: a list (an unquoted comma in
    the file) or a text too long keeps the field empty, one warning line each (before, the
    list's Python text was put in the field)."""
    from knightgui.analysis.base import StudyRunner
    from knightgui.analysis.counts import CountStudyPage
    _write_ini(_settings_file(), {"count/scheduler": "tcp://a, tcp://b",
                                  "count/store": "x" * (settings.PATH_CHARS + 1)})
    with caplog.at_level("WARNING"):
        page = CountStudyPage(StudyRunner())
    qtbot.addWidget(page)
    assert page.scheduler_edit.text() == "" and page.store_edit.text() == ""
    assert len(_lines(caplog, "count/scheduler")) == 1 and len(_lines(caplog, "count/store")) == 1
