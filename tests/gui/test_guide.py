"""The user guide inside the app: Help ▸ User guide (F1) and Getting started open a window that
renders the guide's Markdown, with its pictures, links between pages, Back and Forward, a
contents list, a search over every page, and a visible answer to every click (a web link
with no browser to take it is copied and said so; a missing guide says where it was looked
for). The guide here is a few small pages written into tmp_path."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt, QUrl
from PySide6.QtGui import QColor, QDesktopServices, QGuiApplication, QImage, QPixmap, QTextDocument
from PySide6.QtWidgets import QApplication

from knightgui.guide import find_guide, locate
from knightgui.guide.locate import Guide, load_guide
from knightgui.guide.viewer import GuideWindow
from knightgui.window import help as help_menu

ROOT = Path(__file__).resolve().parents[2]

INDEX = """# Contents

1. [Getting started](getting-started.md)
2. [Playing a tour](play.md)
"""
FIRST = """# Getting started

Click a square and press **Solve**.

![The window](img/window.png)

Then read [how to play](play.md#undo-a-move), or the [project site](https://example.org/knightgui).
"""
PLAY = """# Playing a tour

Play mode lets you move the knight yourself.

## The board

Each number is the count of onward moves.

## Undo a move

Ctrl+Z takes a move back. A zebra leaps (2,3).
"""


@pytest.fixture
def guide_dir(tmp_path):
    d = tmp_path / "guide"
    (d / "img").mkdir(parents=True)
    (d / "index.md").write_text(INDEX)
    (d / "getting-started.md").write_text(FIRST)
    (d / "play.md").write_text(PLAY)
    img = QImage(1800, 300, QImage.Format.Format_RGB32)   # wider than any viewer
    img.fill(QColor("steelblue"))
    assert img.save(str(d / "img" / "window.png"))
    return d


@pytest.fixture
def viewer(qtbot, guide_dir):
    v = GuideWindow(find_guide((guide_dir,)))
    qtbot.addWidget(v)
    v.resize(900, 600)
    v.show()
    qtbot.waitExposed(v)
    return v


def _page(v: GuideWindow) -> str:
    p = v.current_page()
    return p.name if p else ""


def _click_link(qtbot, v: GuideWindow, href: str) -> None:
    """A left click on the link ``href`` where it is drawn on the page."""
    doc = v.browser.document()
    block = doc.begin()
    while block.isValid():
        for it in block:
            frag = it.fragment()
            if frag.charFormat().anchorHref() == href:
                cursor = v.browser.textCursor()
                cursor.setPosition(frag.position() + frag.length() // 2)
                v.browser.setTextCursor(cursor)
                v.browser.ensureCursorVisible()
                rect = v.browser.cursorRect(cursor)
                pos = QPoint(rect.center().x(), rect.center().y())
                qtbot.mouseClick(v.browser.viewport(), Qt.MouseButton.LeftButton, pos=pos)
                return
        block = block.next()
    raise AssertionError(f"no link {href} on {_page(v)}")


def _help(window):
    menus = {a.text().replace("&", ""): a.menu() for a in window.menuBar().actions()}
    return {a.text(): a for a in menus["Help"].actions() if a.text()}


def _guide_window(name: str = "guide") -> GuideWindow:
    return next(w for w in QApplication.topLevelWidgets()
                if isinstance(w, GuideWindow) and w.objectName() == name and w.isVisible())


def test_the_viewer_opens_on_the_contents_and_lists_the_pages_in_its_order(viewer):
    assert _page(viewer) == "index.md"
    titles = [viewer.contents.item(i).text() for i in range(viewer.contents.count())]
    assert titles == ["Contents", "Getting started", "Playing a tour"]
    assert viewer.contents.currentItem().text() == "Contents"
    viewer.show_first()
    assert _page(viewer) == "getting-started.md"
    assert "Click a square and press Solve." in viewer.browser.toPlainText()
    assert "**" not in viewer.browser.toPlainText()          # rendered, not raw Markdown
    assert viewer.contents.currentItem().text() == "Getting started"
    assert viewer.windowTitle() == "Getting started"


def test_the_title_is_the_pages_own_and_qt_adds_the_app_name_once(viewer):
    # the app sets the display name "knightgui", which Qt appends to every window title:
    # the title the viewer sets must not name the app itself
    viewer.show_first()
    assert viewer.windowTitle() == "Getting started"
    assert "knightgui" not in viewer.windowTitle()
    viewer.browser.setSource(QUrl())            # no page: the viewer's own title
    assert viewer.windowTitle() == "User guide"


def test_a_click_on_the_contents_list_opens_that_page(viewer, qtbot):
    item = viewer.contents.item(2)
    rect = viewer.contents.visualItemRect(item)
    qtbot.mouseClick(viewer.contents.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: _page(viewer) == "play.md")
    assert "Ctrl+Z takes a move back." in viewer.browser.toPlainText()


def test_a_relative_link_opens_the_page_at_its_heading_and_back_returns(viewer, qtbot):
    viewer.show_first()
    assert not viewer.act_back.isEnabled() or _page(viewer) == "getting-started.md"
    _click_link(qtbot, viewer, "play.md#undo-a-move")
    qtbot.waitUntil(lambda: _page(viewer) == "play.md")
    assert viewer.browser.textCursor().block().text() == "Undo a move"
    assert viewer.act_back.isEnabled() and not viewer.act_forward.isEnabled()
    viewer.act_back.trigger()
    qtbot.waitUntil(lambda: _page(viewer) == "getting-started.md")
    assert viewer.act_forward.isEnabled()
    viewer.act_forward.trigger()
    qtbot.waitUntil(lambda: _page(viewer) == "play.md")
    viewer.act_contents.trigger()
    qtbot.waitUntil(lambda: _page(viewer) == "index.md")


def test_the_screenshot_is_loaded_and_fits_the_page_width(viewer, qtbot):
    viewer.show_first()
    doc = viewer.browser.document()
    image = doc.resource(QTextDocument.ResourceType.ImageResource, QUrl("img/window.png"))
    assert isinstance(image, (QImage, QPixmap)) and not image.isNull()
    assert (image.width(), image.height()) == (1800, 300)

    def drawn_width() -> float:
        block = doc.begin()
        while block.isValid():
            for it in block:
                fmt = it.fragment().charFormat()
                if fmt.isImageFormat():
                    return fmt.toImageFormat().width()
            block = block.next()
        return 0.0
    qtbot.waitUntil(lambda: 0 < drawn_width() <= viewer.browser.viewport().width())
    assert viewer.browser.horizontalScrollBar().maximum() == 0


def test_search_finds_a_word_on_another_page_and_opens_it_at_the_hit(viewer, qtbot):
    viewer.show_first()
    qtbot.keyClick(viewer, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: viewer.search_box.hasFocus())
    qtbot.keyClicks(viewer.search_box, "zebra")
    qtbot.waitUntil(lambda: viewer.results.count() == 1)
    assert viewer.search_count.text() == "“zebra”: 1 hit on 1 page"
    item = viewer.results.item(0)
    assert item.text().startswith("Playing a tour\n") and "zebra leaps" in item.text()
    rect = viewer.results.visualItemRect(item)
    qtbot.mouseClick(viewer.results.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: _page(viewer) == "play.md")
    assert viewer.browser.textCursor().selectedText() == "zebra"
    assert len(viewer.browser.extraSelections()) == 1           # the hit is highlighted


def test_search_says_when_no_page_has_the_word(viewer, qtbot):
    qtbot.keyClicks(viewer.search_box, "giraffe")
    qtbot.waitUntil(lambda: viewer.search_count.text() == "No page has “giraffe”.")
    assert viewer.results.count() == 0


def test_a_web_link_without_a_browser_is_copied_and_said(viewer, qtbot, monkeypatch):
    asked: list[str] = []
    monkeypatch.setattr(QDesktopServices, "openUrl",
                        staticmethod(lambda url: asked.append(url.toString()) or False))
    viewer.show_first()
    _click_link(qtbot, viewer, "https://example.org/knightgui")
    qtbot.waitUntil(lambda: "copied" in viewer.note.text())
    assert asked == ["https://example.org/knightgui"]
    assert "https://example.org/knightgui" in viewer.note.text()
    assert QGuiApplication.clipboard().text() == "https://example.org/knightgui"
    assert _page(viewer) == "getting-started.md"                  # the page stays


def test_a_web_link_with_a_browser_opens_outside(viewer, qtbot, monkeypatch):
    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(lambda url: True))
    viewer.show_first()
    _click_link(qtbot, viewer, "https://example.org/knightgui")
    qtbot.waitUntil(lambda: viewer.note.text().startswith("Opened outside knightgui"))


def test_a_link_to_a_missing_page_says_so(viewer, qtbot, guide_dir):
    (guide_dir / "getting-started.md").write_text(FIRST + "\nSee [gone](gone.md).\n")
    viewer.show_first()
    viewer.browser.reload()
    _click_link(qtbot, viewer, "gone.md")
    qtbot.waitUntil(lambda: viewer.note.text() == "That page is not in the guide: gone.md")


def test_a_link_out_of_the_guide_opens_here_or_says_where_it_lives(viewer, qtbot, guide_dir):
    (guide_dir.parent / "counts.md").write_text("# Counts\n\n1,728 tours.\n")
    (guide_dir / "getting-started.md").write_text(
        FIRST + "\nSee [counts](../counts.md) and [results](../results/phadke.md).\n")
    viewer.show_first()
    viewer.browser.reload()
    _click_link(qtbot, viewer, "../results/phadke.md")
    qtbot.waitUntil(lambda: viewer.note.text().endswith(": docs/results/phadke.md"))
    assert "come with the source code" in viewer.note.text()
    _click_link(qtbot, viewer, "../counts.md")
    qtbot.waitUntil(lambda: _page(viewer) == "counts.md")
    assert "1,728 tours." in viewer.browser.toPlainText()


def test_a_missing_guide_folder_says_where_it_looked(qtbot, tmp_path):
    v = GuideWindow(find_guide((tmp_path / "nowhere",)))
    qtbot.addWidget(v)
    v.show()
    qtbot.waitExposed(v)
    text = v.browser.toPlainText()
    assert "The user guide is missing" in text
    assert str(tmp_path / "nowhere") in text
    assert "not found" in v.note.text()
    v.show_first()                                  # Getting started: the same message
    assert "The user guide is missing" in v.browser.toPlainText()


@pytest.fixture
def tmp_guide_in_app(monkeypatch, guide_dir):
    """The app's Help menu reads the guide of tmp_path."""
    monkeypatch.setattr(help_menu, "find_guide", lambda: find_guide((guide_dir,)))
    return guide_dir


def test_f1_opens_the_user_guide_and_getting_started_its_first_page(window, qtbot,
                                                                     tmp_guide_in_app):
    acts = _help(window)
    assert acts["User guide"].shortcut().toString() == "F1"
    qtbot.keyClick(window, Qt.Key.Key_F1)
    qtbot.waitUntil(lambda: any(isinstance(w, GuideWindow) and w.isVisible()
                                for w in QApplication.topLevelWidgets()))
    v = _guide_window()
    assert _page(v) == "index.md"
    _click_link(qtbot, v, "play.md")
    qtbot.waitUntil(lambda: _page(v) == "play.md")
    acts["Getting started"].trigger()
    qtbot.waitUntil(lambda: _page(v) == "getting-started.md")
    assert _guide_window() is v                         # one viewer, its history kept
    assert v.act_back.isEnabled()
    v.close()


def test_the_app_without_a_guide_shows_the_message_and_the_summary(window, qtbot, monkeypatch,
                                                                   tmp_path):
    monkeypatch.setattr(help_menu, "find_guide", lambda: find_guide((tmp_path / "none",)))
    _help(window)["Getting started"].trigger()
    v = _guide_window()
    text = v.browser.toPlainText()
    assert "The user guide is missing" in text and "Play a tour by hand" in text
    v.close()


def test_documentation_is_never_silent(window, qtbot, monkeypatch, tmp_path, tmp_guide_in_app):
    monkeypatch.setattr(help_menu, "find_docs", lambda: Guide(None, looked_in=(tmp_path,)))
    _help(window)["Documentation"].trigger()
    v = _guide_window()
    assert "reference documents" in v.note.text() and _page(v) == "index.md"
    v.close()
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "usage.md").write_text("# Usage\n\nEvery command of the window.\n")
    monkeypatch.setattr(help_menu, "find_docs",
                        lambda: load_guide(docs, ("usage.md",), ("usage.md",)))
    _help(window)["Documentation"].trigger()
    d = _guide_window("documentation")
    assert _page(d) == "usage.md" and "Every command of the window." in d.browser.toPlainText()
    d.close()


def test_without_docs_guide_the_checkout_docs_are_the_guide(monkeypatch, tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "knightgui"\n')
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "usage.md").write_text("# Using knightgui\n")
    (tmp_path / "docs" / "counts.md").write_text("# Counts\n")
    (tmp_path / "docs" / "develop").mkdir()
    (tmp_path / "docs" / "develop" / "runner.md").write_text("# Runner\n")
    monkeypatch.setattr(locate, "CHECKOUT", tmp_path)
    monkeypatch.setattr(locate, "guide_candidates",
                        lambda: (tmp_path / "pkg" / "pages", tmp_path / "docs" / "guide"))
    g = locate.find_guide()
    assert g.found and g.first is not None and g.first.name == "usage.md"
    assert [p.name for p in g.pages] == ["usage.md", "counts.md", "runner.md"]
    (tmp_path / "docs" / "usage.md").unlink()
    (tmp_path / "docs" / "counts.md").unlink()
    (tmp_path / "docs" / "develop" / "runner.md").unlink()
    (tmp_path / "README.md").write_text("# knightgui\n")
    g = locate.find_guide()
    assert g.found and g.first is not None and g.first.name == "README.md"


def test_the_installed_guide_beside_the_viewer_comes_first():
    here = Path(locate.__file__).resolve().parent
    assert locate.guide_candidates() == (here / "pages", ROOT / "docs" / "guide")


def test_the_wheel_and_the_bundle_ship_the_guide_where_the_viewer_looks():
    tomllib = pytest.importorskip("tomllib")          # Python 3.11 and later
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    for package in ("knightgui.guide", "knightgui.guide.pages", "knightgui.guide.pages.img"):
        assert package in conf["packages"], package
    assert conf["package-dir"]["knightgui.guide.pages"] == "docs/guide"
    data = conf["package-data"]["knightgui.guide.pages"]
    assert "**/*.md" in data and "img/**/*" in data
    spec = (ROOT / "packaging" / "knightgui.spec").read_text()
    assert 'GUIDE = ROOT / "docs" / "guide"' in spec and '"knightgui/guide/pages"' in spec


@pytest.mark.skipif(sys.platform == "win32", reason="paths")
def test_the_real_guide_opens_when_the_checkout_has_one(qtbot):
    g = find_guide()
    if not (ROOT / "docs" / "guide" / "getting-started.md").is_file():
        pytest.skip("docs/guide is not written yet")
    v = GuideWindow(g)
    qtbot.addWidget(v)
    v.show_first()
    assert _page(v) == "getting-started.md" and v.browser.toPlainText().strip()


def test_installed_the_docs_of_other_packages_are_never_taken(monkeypatch, tmp_path):
    """Installed, the folder above the package is site-packages: its docs/ is not ours."""
    (tmp_path / "docs" / "guide").mkdir(parents=True)
    (tmp_path / "docs" / "guide" / "index.md").write_text("# Another package\n")
    (tmp_path / "README.md").write_text("# Another package\n")
    monkeypatch.setattr(locate, "CHECKOUT", tmp_path)
    monkeypatch.setattr(locate, "HERE", tmp_path / "knightgui" / "guide")
    assert not locate.in_checkout()
    assert locate.guide_candidates() == (tmp_path / "knightgui" / "guide" / "pages",)
    assert not locate.find_docs().found
    g = locate.find_guide()
    assert not g.found and tmp_path / "knightgui" / "guide" / "pages" in g.looked_in
