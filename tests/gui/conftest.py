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
    from knightgui.window.main import MainWindow
    w = MainWindow(restore_settings=False)
    qtbot.addWidget(w)
    w.resize(1200, 800)
    w.show()
    qtbot.waitExposed(w)
    yield w
    w.close()
    assert not w.worker.isRunning()


@pytest.fixture
def analysis_view(qtbot):
    """The Analysis view on screen; at the end it shuts down within 30 s, its study thread
    stopped."""
    from knightgui.analysis.window import AnalysisWindow
    v = AnalysisWindow()
    qtbot.addWidget(v)
    v.show()
    qtbot.waitExposed(v)
    yield v
    assert v.shutdown(30000)
    assert not v.running and not v.runner.worker.isRunning()


@pytest.fixture
def board_view(qtbot):
    """A board view alone on screen, 640 × 640."""
    from knightgui.board.view import BoardView
    v = BoardView()
    qtbot.addWidget(v)
    v.resize(640, 640)
    v.show()
    qtbot.waitExposed(v)
    return v
