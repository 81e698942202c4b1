"""The Analysis view: how good is Warnsdorff's rule? A window of its own (View ▸ Analysis), one
tab per page of :data:`knightgui.panels.analysis_pages.PAGES`, so the plots get the room they
need beside the board instead of a corner of it.

``AnalysisWindow.show_tour`` (``Signal(object)``) carries what a page asks to show on the
board:

* a :class:`knightgui_core.board.tour.Tour` for a walk that visited every square, or
* for a walk that got stuck, a :class:`knightgui_core.walks.walk_result.Walk` (board, the
  squares visited so far, a message saying where and after how many squares it stopped).

Studies run on the view's own :class:`knightgui.worker.SolverThread` (through
:class:`knightgui.panels.analysis_base.StudyRunner`), one at a time, in bounded chunks;
Cancel stops them between two chunks and the partial result is shown.
"""
from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import QApplication, QMainWindow, QTabWidget

from ..engine_warmup import show_in
from .analysis_base import AnalysisPage, StudyRunner
from .analysis_pages import PAGES


class AnalysisWindow(QMainWindow):
    """The Analysis view; see the module docstring."""

    show_tour = Signal(object)
    #: a page asks to use a square as the start: (rows, cols, flat square)
    start_chosen = Signal(object, int)        # (Board, flat square)
    #: default size: the main window's, so every plot gets at least 360×220 pixels
    DEFAULT_SIZE = QSize(1280, 820)

    def __init__(self, parent=None):
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("analysis")
        self.setWindowTitle("Analysis")
        self.runner = StudyRunner(self)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.pages: dict[str, AnalysisPage] = {}
        for cls in PAGES:
            page = cls(self.runner)
            page.show_tour.connect(self.show_tour)
            chosen = getattr(page, "startChosen", None)
            if chosen is not None:
                chosen.connect(self.start_chosen)
            self.pages[cls.title] = page
            self.tabs.addTab(page, cls.title)
        self.runner.busyChanged.connect(self._busy)
        self.setCentralWidget(self.tabs)
        show_in(self.statusBar())          # the engine's warm-up, while a study waits for it
        self.resize(self.DEFAULT_SIZE)
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.shutdown)

    def page(self, title: str) -> AnalysisPage:
        """The page whose tab reads ``title``."""
        return self.pages[title]

    def show_page(self, title: str) -> AnalysisPage:
        """Bring the page titled ``title`` to the front."""
        page = self.pages[title]
        self.tabs.setCurrentWidget(page)
        return page

    @property
    def running(self) -> bool:
        """Whether a study of any page is running."""
        return self.runner.running

    def _busy(self, busy: bool) -> None:
        for page in self.pages.values():
            page.set_busy(busy)

    def shutdown(self, timeout_ms: int = 30000) -> bool:
        """Stop a running study and wait for the study thread; True when it ended."""
        return self.runner.shutdown(timeout_ms)
