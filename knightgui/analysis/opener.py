"""View ▸ Analysis without a frozen window.

A first opening imports the studies (numba and the kernels' modules: most of two seconds)
and makes the pages' plots. :class:`AnalysisOpener` imports those modules on a thread of its
own while the status bar says "Preparing the Analysis view…", then opens the view, which
builds its pages one per turn of the event loop (:class:`knightgui.analysis.window.
AnalysisWindow` ``staged``); the first Run does not wait for the imports either.
"""
from __future__ import annotations

import importlib
import logging
import threading
from typing import Any, Protocol

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QStatusBar


class MainWindow(Protocol):
    """What the opener uses of :class:`knightgui.window.main.MainWindow` (which imports
    this module through its actions)."""

    analysis: Any

    def open_analysis(self, *_: object, staged: bool = False) -> Any: ...

    def statusBar(self) -> QStatusBar: ...

    def isVisible(self) -> bool: ...

log = logging.getLogger("knightgui.window")

#: what the Analysis view and its studies import: the view itself, then the studies
ANALYSIS_MODULES: tuple[str, ...] = (
    "knightgui.analysis.window",
    "knightgui_core.studies.tiebreaks",
    "knightgui_core.studies.tiebreaks.result",
    "knightgui_core.studies.published",
    "knightgui_core.studies.orders",
    "knightgui_core.studies.orders.runner",
    "knightgui_core.studies.count_study",
    "knightgui_core.run.store",
)
PREPARING = "Preparing the Analysis view…"


class AnalysisOpener(QObject):
    """Opens the window's Analysis view (:meth:`open`, the View ▸ Analysis action): made on a
    first use after its modules are imported off the GUI thread, shown at once afterwards."""

    _imported = Signal()

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)  # type: ignore[arg-type]  # a QMainWindow
        self._window = window
        self._thread: threading.Thread | None = None
        self._imported.connect(self._open, Qt.ConnectionType.QueuedConnection)

    def open(self, *_: object) -> None:
        """Show the Analysis view; the first time, import its modules on a thread first (a
        second request meanwhile changes nothing)."""
        if self._window.analysis is not None:
            self._window.open_analysis()
            return
        if self._thread is not None:
            return
        self._window.statusBar().showMessage(PREPARING)
        self._thread = threading.Thread(target=self._load, name="analysis-import",
                                        daemon=True)
        self._thread.start()

    def _load(self) -> None:
        """On the thread: import the modules (a failure is logged; opening the view then
        says what is wrong, as it always did)."""
        for name in ANALYSIS_MODULES:
            try:
                importlib.import_module(name)
            except Exception:  # noqa: BLE001 - the view's own import reports it
                log.exception("could not import %s", name)
                break
        self._imported.emit()

    def _open(self) -> None:
        """On the GUI thread, once imported: make and show the view in stages."""
        self._thread = None
        w = self._window
        if w.statusBar().currentMessage() == PREPARING:
            w.statusBar().clearMessage()
        if w.isVisible():            # not after the window was closed meanwhile
            w.open_analysis(staged=True)
