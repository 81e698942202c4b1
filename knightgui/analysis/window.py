"""The Analysis view: how good is Warnsdorff's rule? A window of its own (View ▸ Analysis),
one tab per page of :data:`knightgui.analysis.pages.PAGES`, so the plots get room.

``AnalysisWindow.show_tour`` carries what a page asks to show on the board: a
:class:`knightgui_core.board.tour.Tour`, or the :class:`knightgui_core.walks.result.Walk`
of a walk that got stuck. Studies run one at a time on the view's
:class:`knightgui.analysis.base.StudyRunner`; Cancel shows the partial result.

Built ``staged``, the view shows its tabs at once, each saying "Preparing this page…", and
builds one page per turn of the event loop, the shown one first (a page's plots take
0.2–0.25 s to make); a tab clicked before its page is built gets it at once. :attr:`pages`
and :meth:`page` build what is still missing.
"""
from __future__ import annotations

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QTabWidget

from knightgui.analysis.base import AnalysisPage, StudyRunner
from knightgui.analysis.pages import PAGES
from knightgui.window.engine_warmup import show_in

#: milliseconds between building two pages of a staged view: room for a paint and the input
#: that waited
BUILD_GAP_MS = 30


class AnalysisWindow(QMainWindow):
    """The Analysis view; see the module docstring."""

    show_tour = Signal(object)
    #: a page asks to use a square as the start: (Board, flat square)
    start_chosen = Signal(object, int)
    #: default size: the main window's, so every plot gets at least 360×220 pixels
    DEFAULT_SIZE = QSize(1280, 820)

    def __init__(self, parent=None, *, staged: bool = False):
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("analysis")
        self.setWindowTitle("Analysis")
        self.runner = StudyRunner(self)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self._built: dict[str, AnalysisPage] = {}
        self._waiting: dict[str, type[AnalysisPage]] = {}   # staged: pages not built yet
        for cls in PAGES:
            self._waiting[cls.title] = cls
            self.tabs.addTab(QLabel("Preparing this page…",
                                    alignment=Qt.AlignmentFlag.AlignCenter), cls.title)
        self.runner.busyChanged.connect(self._busy)
        self.setCentralWidget(self.tabs)
        show_in(self.statusBar())          # the engine's warm-up, while a study waits for it
        self.resize(self.DEFAULT_SIZE)
        self.tabs.currentChanged.connect(self._shown)
        if staged:
            QTimer.singleShot(BUILD_GAP_MS, self._build_next)
        else:
            self._build_all()
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.shutdown)

    @property
    def pages(self) -> dict[str, AnalysisPage]:
        """Every page by its title (the ones not built yet are built now)."""
        self._build_all()
        return self._built

    def _build_all(self) -> None:
        for title in list(self._waiting):
            self._build(title)

    def _build_next(self) -> None:
        """Build one waiting page (the one in front first), then come back on the next turn
        of the event loop."""
        front = self.tabs.tabText(self.tabs.currentIndex())
        if self._waiting:
            self._build(front if front in self._waiting else next(iter(self._waiting)))
        if self._waiting:
            QTimer.singleShot(BUILD_GAP_MS, self._build_next)

    def _shown(self, index: int) -> None:
        """A tab brought to the front gets its page on the next turn of the event loop (its
        note says "Preparing this page…" until then)."""
        title = self.tabs.tabText(index)
        if title in self._waiting:
            QTimer.singleShot(BUILD_GAP_MS, lambda: self._build(title))

    def _build(self, title: str) -> None:
        """Make the page titled ``title`` and put it in its tab, in place of the note."""
        cls = self._waiting.pop(title, None)
        if cls is None:
            return
        page = cls(self.runner)
        page.show_tour.connect(self.show_tour)
        chosen = getattr(page, "startChosen", None)
        if chosen is not None:
            chosen.connect(self.start_chosen)
        page.set_busy(self.runner.running)
        self._built[title] = page
        i = [self.tabs.tabText(k) for k in range(self.tabs.count())].index(title)
        current = self.tabs.currentIndex()
        note = self.tabs.widget(i)
        self.tabs.blockSignals(True)       # the same tab stays in front
        self.tabs.removeTab(i)
        self.tabs.insertTab(i, page, title)
        self.tabs.setCurrentIndex(current)
        self.tabs.blockSignals(False)
        if note is not None:
            note.deleteLater()

    def page(self, title: str) -> AnalysisPage:
        """The page whose tab reads ``title`` (built now if it was not yet)."""
        self._build(title)
        return self._built[title]

    def show_page(self, title: str) -> AnalysisPage:
        """Bring the page titled ``title`` to the front."""
        page = self.page(title)
        self.tabs.setCurrentWidget(page)
        return page

    @property
    def running(self) -> bool:
        """Whether a study of any page is running."""
        return self.runner.running

    def _busy(self, busy: bool) -> None:
        for page in self._built.values():
            page.set_busy(busy)

    def shutdown(self, timeout_ms: int = 30000) -> bool:
        """Stop a running study and wait for the study thread; True when it ended."""
        return self.runner.shutdown(timeout_ms)
