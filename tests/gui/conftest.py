"""Fixtures for the window tests: isolated settings, recorded dialogs, a window that is
always closed (and its solver thread stopped) at the end, and small tours built without the
engine."""
from __future__ import annotations

import pytest

from knightgui.settings import use_folder as use_settings_folder


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path_factory):
    """Each window test gets its own empty settings folder (never the user's own)."""
    d = tmp_path_factory.mktemp("qsettings")
    use_settings_folder(str(d))
    from knightgui import settings
    assert settings.qsettings().fileName().startswith(str(d)), "settings not isolated"
    yield


@pytest.fixture
def dialogs(monkeypatch):
    """Record QMessageBox dialogs instead of blocking on them."""
    from PySide6.QtWidgets import QMessageBox
    seen: list[tuple[str, str]] = []

    def fake(parent, title, text, *a, **k):
        seen.append((title, text))
        return QMessageBox.Ok
    for name in ("warning", "critical", "information"):
        monkeypatch.setattr(QMessageBox, name, staticmethod(fake))
    return seen


@pytest.fixture
def window(qtbot, dialogs):
    from knightgui.main_window import MainWindow
    w = MainWindow(restore_settings=False)
    qtbot.addWidget(w)
    w.resize(1200, 800)
    w.show()
    qtbot.waitExposed(w)
    yield w
    w.close()
    assert not w.worker.isRunning()
