"""The guide viewer: a window of the app that shows a folder of Markdown pages.

Qt renders the Markdown (:class:`QTextBrowser`): no browser, network or launcher is needed.
The window has the page (images narrowed to its width), Back, Forward and Contents
(Alt+Left, Alt+Right, Alt+Home), a Contents list and a Search box (Ctrl+F) over every
page, whose hits open the page with every hit highlighted. A relative link to a page opens
it here (``page.md#heading`` scrolls to the heading); any other link goes to the desktop's
launcher, or, where there is none, to the clipboard, as the note line says.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QSize, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import (
    QAction,
    QColor,
    QDesktopServices,
    QGuiApplication,
    QImage,
    QKeySequence,
    QPixmap,
    QResizeEvent,
    QTextBlock,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFragment,
)
from PySide6.QtWidgets import (
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QSplitter,
    QStyle,
    QTabWidget,
    QTextBrowser,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from knightgui.guide.locate import MARKDOWN_SUFFIXES, Guide, slug

__all__ = ["GuideWindow", "GuideBrowser", "SearchHit", "search_pages", "EXTERNAL_SCHEMES"]

#: links that always leave the viewer
EXTERNAL_SCHEMES = ("http", "https", "mailto", "ftp")
#: at most this many hits are listed per page, and in all
HITS_PER_PAGE = 20
HITS_IN_ALL = 300
_PAGE_ROLE = Qt.ItemDataRole.UserRole
_HIT_ROLE = Qt.ItemDataRole.UserRole + 1


@dataclass(frozen=True)
class SearchHit:
    """One occurrence of the searched text: its page, which occurrence on the page it is
    (0 the first), and the words around it."""

    page: Path
    nth: int
    snippet: str


def _plain_text(page: Path) -> str:
    """The page's text as the viewer shows it (the Markdown rendered, its marks gone)."""
    doc = QTextDocument()
    try:
        doc.setMarkdown(page.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return ""
    return doc.toPlainText().replace("\ufffc", " ")


def search_pages(texts: dict[Path, str], query: str) -> list[SearchHit]:
    """Every occurrence of ``query`` (case ignored) in ``texts`` (page → its plain text), in
    the order of the pages, at most :data:`HITS_PER_PAGE` per page and :data:`HITS_IN_ALL`
    in all."""
    q = " ".join(query.split()).casefold()
    hits: list[SearchHit] = []
    if not q:
        return hits
    for page, text in texts.items():
        folded = text.casefold()
        at, nth = folded.find(q), 0
        while at >= 0 and nth < HITS_PER_PAGE and len(hits) < HITS_IN_ALL:
            start, end = max(0, at - 40), min(len(text), at + len(q) + 60)
            snippet = " ".join(text[start:end].split())
            hits.append(SearchHit(page, nth, ("…" if start else "") + snippet
                                  + ("…" if end < len(text) else "")))
            nth += 1
            at = folded.find(q, at + len(q))
    return hits


def _fragments(block: QTextBlock) -> Iterator[QTextFragment]:
    """The fragments of ``block`` (runs of one format: a link, an image, plain text)."""
    it = block.begin()
    while not it.atEnd():
        yield it.fragment()
        it += 1


class GuideBrowser(QTextBrowser):
    """The page: Markdown from a file, links handed to :attr:`linkClicked` (never followed
    by Qt itself), images no wider than the page."""

    linkClicked = Signal(QUrl)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.anchorClicked.connect(self.linkClicked)
        self._fit = QTimer(self, singleShot=True, interval=0)
        self._fit.timeout.connect(self.fit_images)
        self.sourceChanged.connect(lambda _u: self._fit.start())

    def fit_images(self) -> None:
        """Each image of the page at its own size, or narrowed (its shape kept) to the width
        of the page when it is wider: a screenshot never needs a sideways scroll."""
        doc = self.document()
        # the room with the scroll bar shown: the bar showing up later leaves the images be
        bar = self.verticalScrollBar()
        room = (self.width() - 2 * self.frameWidth() - 2 * doc.documentMargin() - 4
                - max(bar.sizeHint().width(), bar.width() if bar.isVisible() else 0))
        if room < 40:
            return
        changes = []
        block = doc.begin()
        while block.isValid():
            for frag in _fragments(block):
                fmt = frag.charFormat()
                if not fmt.isImageFormat():
                    continue
                img = fmt.toImageFormat()
                res = doc.resource(QTextDocument.ResourceType.ImageResource, QUrl(img.name()))
                size = res.size() if isinstance(res, (QImage, QPixmap)) else QSize()
                if size.isEmpty():
                    continue
                width = min(float(size.width()), room)
                height = size.height() * width / size.width()
                if abs(img.width() - width) > 0.5 or abs(img.height() - height) > 0.5:
                    img.setWidth(width)
                    img.setHeight(height)
                    changes.append((frag.position(), frag.length(), img))
            block = block.next()
        for pos, length, img in changes:
            cursor = QTextCursor(doc)
            cursor.setPosition(pos)
            cursor.setPosition(pos + length, QTextCursor.MoveMode.KeepAnchor)
            cursor.setCharFormat(img)

    def resizeEvent(self, e: QResizeEvent) -> None:  # noqa: N802  (Qt's name)
        super().resizeEvent(e)
        self._fit.start()

    def scroll_to_heading(self, fragment: str) -> bool:
        """Scroll the heading whose anchor is ``fragment`` to the top (False: none)."""
        block = self.document().begin()
        while block.isValid():
            if block.blockFormat().headingLevel() > 0 and slug(block.text()) == fragment.lower():
                self.setTextCursor(QTextCursor(block))
                top = self.document().documentLayout().blockBoundingRect(block).top()
                self.verticalScrollBar().setValue(int(top))
                return True
            block = block.next()
        return False


class GuideWindow(QMainWindow):
    """The viewer of one :class:`~knightgui.guide.locate.Guide` (see the module docstring);
    ``missing_html`` is added to the page shown when the guide has no page."""

    def __init__(self, guide: Guide, parent: QWidget | None = None, *,
                 title: str = "User guide", missing_html: str = "") -> None:
        super().__init__(parent)
        if parent is not None:
            self.setWindowFlag(Qt.WindowType.Window, True)
        self.guide = guide
        self.setObjectName("guide")
        # the page's title only: the application display name ("knightgui") is added by Qt
        self._title = title
        self.setWindowTitle(title)
        self._missing_html = missing_html
        self._texts: dict[Path, str] | None = None     # every page's plain text, on first search
        self._highlight = ""

        self.browser = GuideBrowser()
        self.browser.setObjectName("guide-page")
        self.browser.linkClicked.connect(self.follow)
        self.browser.sourceChanged.connect(self._page_changed)

        self.contents = QListWidget()
        self.contents.setObjectName("guide-contents")
        for page in guide.pages:
            item = QListWidgetItem(guide.title(page))
            item.setData(_PAGE_ROLE, str(page))
            where = guide.folder
            item.setToolTip(page.relative_to(where).as_posix()
                            if where is not None and page.is_relative_to(where) else page.name)
            self.contents.addItem(item)
        self.contents.itemActivated.connect(self._open_item)
        self.contents.itemClicked.connect(self._open_item)

        self.search_box = QLineEdit()
        self.search_box.setObjectName("guide-search")
        self.search_box.setPlaceholderText("Search the guide")
        self.search_box.setClearButtonEnabled(True)
        self.search_box.textChanged.connect(self.search)
        self.search_count = QLabel("Type a word to find it on every page.")
        self.search_count.setWordWrap(True)
        self.results = QListWidget()
        self.results.setObjectName("guide-results")
        self.results.setWordWrap(True)
        self.results.setAlternatingRowColors(True)
        self.results.itemActivated.connect(self._open_hit)
        self.results.itemClicked.connect(self._open_hit)
        self.search_box.returnPressed.connect(self._open_first_hit)
        search_tab = QWidget()
        lay = QVBoxLayout(search_tab)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.search_box)
        lay.addWidget(self.search_count)
        lay.addWidget(self.results)

        self.side = QTabWidget()
        self.side.addTab(self.contents, "Contents")
        self.side.addTab(search_tab, "Search")
        split = QSplitter()
        split.addWidget(self.side)
        split.addWidget(self.browser)
        split.setStretchFactor(1, 1)
        split.setSizes([230, 720])
        self.setCentralWidget(split)

        self.note = QLabel()
        self.note.setObjectName("guide-note")
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.statusBar().addWidget(self.note, 1)

        S = QStyle.StandardPixmap
        tb = self.addToolBar("Guide")
        tb.setObjectName("guide-toolbar")
        tb.setMovable(False)
        tb.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)

        def act(text: str, slot, keys: QKeySequence, icon: QStyle.StandardPixmap,
                tip: str) -> QAction:
            a = QAction(self.style().standardIcon(icon), text, self)
            a.setShortcut(keys)
            a.setToolTip(f"{tip} ({keys.toString(QKeySequence.SequenceFormat.NativeText)})")
            a.triggered.connect(slot)
            tb.addAction(a)
            return a

        self.act_back = act("Back", self.browser.backward, QKeySequence("Alt+Left"),
                            S.SP_ArrowBack, "the page before")
        self.act_forward = act("Forward", self.browser.forward, QKeySequence("Alt+Right"),
                               S.SP_ArrowForward, "the page after")
        self.act_contents = act("Contents", self.show_contents, QKeySequence("Alt+Home"),
                                S.SP_FileDialogContentsView, "the contents page")
        self.act_back.setEnabled(False)
        self.act_forward.setEnabled(False)
        self.browser.backwardAvailable.connect(self.act_back.setEnabled)
        self.browser.forwardAvailable.connect(self.act_forward.setEnabled)
        find = QAction("Search", self)
        find.setShortcut(QKeySequence.StandardKey.Find)
        find.triggered.connect(self.focus_search)
        self.addAction(find)
        self.resize(1000, 720)

        if guide.found:
            self.open_page(guide.contents or guide.pages[0])
        else:
            self.show_missing()

    # -- pages ------------------------------------------------------------------------------
    def current_page(self) -> Path | None:
        """The file of the page shown (None when the guide is missing)."""
        url = self.browser.source()
        return Path(url.toLocalFile()).resolve() if url.isLocalFile() else None

    def open_page(self, page: Path | None = None, fragment: str = "") -> None:
        """Show ``page`` (the first page when None), scrolled to the heading ``fragment``."""
        if not self.guide.found:
            self.show_missing()
            return
        page = (page or self.guide.first or self.guide.pages[0]).resolve()
        if page != self.current_page():
            self.browser.setSource(QUrl.fromLocalFile(str(page)),
                                   QTextDocument.ResourceType.MarkdownResource)
        if fragment and not self.browser.scroll_to_heading(fragment):
            self.say(f"No heading “{fragment}” on this page.")

    def show_first(self) -> None:
        """The guide's first page (Getting started)."""
        self.open_page(self.guide.first)

    def show_contents(self) -> None:
        """The contents page."""
        self.open_page(self.guide.contents)

    def show_missing(self) -> None:
        """The page shown when the guide has no page: where it was looked for."""
        where = "".join(f"<li><code>{p}</code></li>" for p in self.guide.looked_in)
        self.browser.setHtml(
            "<h2>The user guide is missing</h2>"
            "<p>knightgui could not find the pages of its user guide. It looked in:</p>"
            f"<ul>{where}</ul>"
            "<p>The guide is installed with knightgui (<code>knightgui/guide/pages</code>) "
            "and is in <code>docs/guide</code> of the source; reinstalling knightgui brings "
            "it back.</p>" + self._missing_html)
        self.say("The user guide was not found; this page says where it was looked for.")

    def _page_changed(self, url: QUrl) -> None:
        # (the url passed, since source() may still name the page before while this runs)
        page = Path(url.toLocalFile()).resolve() if url.isLocalFile() else None
        self.setWindowTitle(self.guide.title(page) if page else self._title)
        for i in range(self.contents.count()):
            item = self.contents.item(i)
            if page is not None and item.data(_PAGE_ROLE) == str(page):
                self.contents.setCurrentItem(item)
                break
        else:
            self.contents.clearSelection()
        self.browser.setExtraSelections([])
        if self._highlight:
            self._mark_hits(self._highlight)

    def _open_item(self, item: QListWidgetItem) -> None:
        self.open_page(Path(item.data(_PAGE_ROLE)))

    # -- links ------------------------------------------------------------------------------
    def follow(self, url: QUrl) -> None:
        """A clicked link: a page of the guide opens here, anything else outside."""
        if url.scheme() in EXTERNAL_SCHEMES:
            self.open_outside(url)
            return
        if url.isRelative() and not url.path():          # #heading on this page
            if not self.browser.scroll_to_heading(url.fragment()):
                self.say(f"No heading “{url.fragment()}” on this page.")
            return
        target = self.browser.source().resolved(url) if url.isRelative() else url
        if not target.isLocalFile():
            self.open_outside(target)
            return
        path = Path(target.toLocalFile())
        if path.suffix.lower() in MARKDOWN_SUFFIXES:
            if path.is_file():
                self.open_page(path, target.fragment())
            elif self.guide.folder is not None and not path.resolve().is_relative_to(
                    self.guide.folder):
                self.say(f"That page is one of the reference documents, which come with the "
                         f"source code, not with the app: {self._outside_name(path)}")
            else:
                self.say(f"That page is not in the guide: {path.name}")
        elif path.exists():
            self.open_outside(QUrl.fromLocalFile(str(path)))
        else:
            self.say(f"That file is not in the guide: {path.name}")

    def _outside_name(self, path: Path) -> str:
        """``path`` as the source's docs folder names it (``docs/results/index.md`` for a
        link ``../results/index.md`` from the guide)."""
        folder = self.guide.folder
        if folder is None:
            return path.name
        parts = Path(*path.resolve().parts[len(folder.parent.parts):]) \
            if path.resolve().is_relative_to(folder.parent) else Path(path.name)
        return f"docs/{parts.as_posix()}"

    def open_outside(self, url: QUrl) -> bool:
        """Hand ``url`` to the desktop (True), else copy it to the clipboard and say so."""
        shown = url.toLocalFile() if url.isLocalFile() else url.toString()
        if QDesktopServices.openUrl(url):
            self.say(f"Opened outside knightgui: {shown}")
            return True
        QGuiApplication.clipboard().setText(shown)
        if url.isLocalFile():
            self.say(f"No program here opens this file, so its path is copied to the "
                     f"clipboard: {shown}")
        else:
            self.say(f"No web browser could be started, so the address is copied to the "
                     f"clipboard: {shown}")
        return False

    def say(self, text: str) -> None:
        """The note line under the page (one line, stays until the next note)."""
        self.note.setText(text)
        self.note.setToolTip(text)

    # -- search -----------------------------------------------------------------------------
    def focus_search(self) -> None:
        """The Search tab, its box focused and its text selected (Ctrl+F)."""
        self.side.setCurrentIndex(1)
        self.search_box.setFocus()
        self.search_box.selectAll()

    def page_texts(self) -> dict[Path, str]:
        """Every page's plain text, read once."""
        if self._texts is None:
            self._texts = {p: _plain_text(p) for p in self.guide.pages}
        return self._texts

    def search(self, query: str) -> list[SearchHit]:
        """List where ``query`` is on every page; the Search tab shows the list."""
        self.results.clear()
        self.side.setCurrentIndex(1)
        q = " ".join(query.split())
        if not q:
            self.search_count.setText("Type a word to find it on every page.")
            self._highlight = ""
            self.browser.setExtraSelections([])
            return []
        hits = search_pages(self.page_texts(), q)
        for hit in hits:
            item = QListWidgetItem(f"{self.guide.title(hit.page)}\n{hit.snippet}")
            item.setData(_PAGE_ROLE, str(hit.page))
            item.setData(_HIT_ROLE, hit.nth)
            self.results.addItem(item)
        pages = len({h.page for h in hits})
        self.search_count.setText(
            f"“{q}”: {len(hits)} {'hit' if len(hits) == 1 else 'hits'} on {pages} "
            f"{'page' if pages == 1 else 'pages'}" if hits else f"No page has “{q}”.")
        return hits

    def _open_first_hit(self) -> None:
        if self.results.count():
            self.results.setCurrentRow(0)
            self._open_hit(self.results.item(0))

    def _open_hit(self, item: QListWidgetItem) -> None:
        q = " ".join(self.search_box.text().split())
        self._highlight = q
        self.open_page(Path(item.data(_PAGE_ROLE)))
        self._mark_hits(q, int(item.data(_HIT_ROLE)))

    def _mark_hits(self, query: str, nth: int | None = None) -> None:
        """Highlight every ``query`` on the page; select and show the ``nth``."""
        doc = self.browser.document()
        marks = []
        fmt = QTextCharFormat()
        fmt.setBackground(QColor(255, 230, 120))
        cursor = doc.find(query, 0)
        count = 0
        while not cursor.isNull():
            sel = QTextEdit.ExtraSelection()
            sel.cursor = cursor
            sel.format = fmt
            marks.append(sel)
            if count == nth:
                self.browser.setTextCursor(cursor)
                self.browser.ensureCursorVisible()
            count += 1
            cursor = doc.find(query, cursor)
        self.browser.setExtraSelections(marks)
