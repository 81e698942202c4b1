"""The Help menu: the user guide (F1), Getting started, Keyboard shortcuts, the
documentation, About.

The user guide and the reference documents open in a window of the app
(:class:`knightgui.guide.viewer.GuideWindow`), which renders their Markdown itself: they read
the same with or without a desktop launcher, offline, installed or bundled. Getting started is
the guide's first page; where the guide is missing, its viewer says where it looked and shows
the short summary :data:`GETTING_STARTED`.

The shortcuts page is built from the window's own actions when it opens, so it lists what
the keys really do (a renamed action or a new shortcut shows up by itself); the mouse and the
keys that are not actions are added from :data:`MOUSE_AND_KEYS`.
"""
from __future__ import annotations

import platform

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QMainWindow,
    QMenu,
    QMessageBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from knightgui import __version__
from knightgui.guide import find_docs, find_guide
from knightgui.guide.viewer import GuideWindow

__all__ = ["add_help_menu", "shortcut_rows", "about_text", "GETTING_STARTED"]

#: what the mouse and the keys that are no menu action do on the board
MOUSE_AND_KEYS = (
    ("Board", "Click a square", "set the start"),
    ("Board", "Shift-click or right-click", "set the end of a closed tour (ticks closed "
                                            "tour and chooses Exhaustive mode)"),
    ("Board", "Wheel / drag", "zoom / pan"),
    ("Board", "Hover a square", "its name, move number and onward moves in the status bar"),
    ("Controls", "Tab / Shift+Tab", "move between the controls; the wheel changes a box only "
                                    "when it has the focus"),
)

GETTING_STARTED = """\
<h2>Getting started</h2>
<p><b>A tour.</b> Click a square to start there and press <b>Solve</b> (Ctrl+R). Warnsdorff's
rule moves the knight to the square with the fewest onward moves; the tie rule in the
Controls panel decides between equals. Any board from 5&times;5 to 2000&times;2000: type its
size in the Controls panel. Where the rule gets stuck, the status bar says what finished the
tour.</p>
<p><b>Every tour the rule allows.</b> Choose <i>Exhaustive (options matrix)</i>, pick a start
(and, with a right-click or shift-click, the square a closed tour ends on: <i>closed
tour</i> is ticked for you) and Solve: every tie is followed, the tours stream in, and you
step through them with &#9664; &#9654; (Left, Right, Home, End). The options matrix beside
the board shows how each tour chose at its ties. <i>New tours only</i> (U) skips a tour that
is an earlier one turned, mirrored or reversed. <i>Watch</i> (W) plays the search itself.</p>
<p><b>Your own tour.</b> Play &#9656; Play a tour by hand (Ctrl+P): click the squares one
knight's move at a time; the numbers on the board are the onward moves, Ctrl+Z undoes one.
</p>
<p><b>Other boards and pieces.</b> <i>Edges</i> wraps the board into a cylinder or a torus;
<i>Piece</i> swaps the knight for another leaper (a zebra, a giraffe, or any A,B typed).</p>
<p><b>Export.</b> File &#9656; Export PNG (Ctrl+E), Export SVG and Export animation (a GIF
or MP4 of the tour being drawn).</p>
<p><b>Studies.</b> View &#9656; Analysis (Ctrl+Shift+A): the 40,320 move orders on 8&times;8,
how each tie rule fares on growing boards, and how many Warnsdorff tours each board has.
The same studies run from the command line (<code>knightgui study --help</code>).</p>
<p><b>The first run</b> prepares the engine (its kernels are compiled once and kept); the
status bar shows how far it is.</p>
<p>Help &#9656; User guide (F1) is the whole guide, with pictures and a search box;
Help &#9656; Keyboard shortcuts lists every key.</p>
"""


def about_text() -> str:
    """The About box: version, licence, and where the figures come from."""
    return (
        f"<h3>knightgui {__version__}</h3>"
        "<p>A Knight's Tour Explorer: tours by Warnsdorff's rule, every tour the rule "
        "allows, and studies of its tie-break rules.</p>"
        "<p><b>Figures.</b> Phadke's 1981 counts (989,931 strict closed tours from the 53 "
        "start/end pairs of 8&times;8) and Marateck's analysis are reproduced exactly; "
        "Knuth's random-tie odds (97.2 % on 6&times;6, 97.9 % on 8&times;8) are computed "
        "exactly; the numbers of Warnsdorff tours on 10&times;10 and 11&times;11 were first "
        "published by this project. Every figure comes from a command anyone can re-run "
        "(the Results pages, docs/results/index.md, say which) and is checked against a second "
        "implementation in the tests.</p>"
        "<p>MIT licence. Built with PySide6 (Qt), pyqtgraph, NumPy, numba and Dask.</p>"
        f"<p><small>Python {platform.python_version()}, PySide6 {pyside_version}</small></p>")


def _menu_of(window: QMainWindow) -> dict[QAction, str]:
    """Each action of the menu bar's menus → the menu's title (without its &)."""
    where: dict[QAction, str] = {}
    for top in window.menuBar().actions():
        menu = top.menu()
        if isinstance(menu, QMenu):
            for a in menu.actions():
                where.setdefault(a, top.text().replace("&", ""))
    return where


def shortcut_rows(window: QMainWindow) -> list[tuple[str, str, str]]:
    """(where, keys, what) for every action of ``window`` that has a shortcut, then the mouse
    and the other keys: what the Keyboard shortcuts page shows."""
    where = _menu_of(window)
    rows = []
    for a in window.actions():
        keys = a.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        if not keys:
            continue
        what = a.text().replace("&", "")
        tip = a.statusTip()
        rows.append((where.get(a, "Window"), keys, f"{what}: {tip}" if tip else what))
    rows.sort(key=lambda r: (r[0], r[2]))
    return rows + list(MOUSE_AND_KEYS)


def shortcuts_dialog(window: QMainWindow) -> QDialog:
    rows = shortcut_rows(window)
    table = QTableWidget(len(rows), 3)
    table.setHorizontalHeaderLabels(["Where", "Keys", "What it does"])
    for i, row in enumerate(rows):
        for j, text in enumerate(row):
            table.setItem(i, j, QTableWidgetItem(text))
    table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    table.verticalHeader().setVisible(False)
    table.setWordWrap(True)
    fit = QHeaderView.ResizeMode.ResizeToContents
    for column, mode in enumerate((fit, fit, QHeaderView.ResizeMode.Stretch)):
        table.horizontalHeader().setSectionResizeMode(column, mode)
    table.resizeRowsToContents()
    d = QDialog(window)
    d.setObjectName("shortcuts")
    d.setWindowTitle("Keyboard shortcuts")
    lay = QVBoxLayout(d)
    lay.addWidget(table)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(d.reject)
    lay.addWidget(buttons)
    d.resize(760, 560)
    return d


class _Guides:
    """The guide viewers of one main window, made on first use and kept (with their page
    and history) while the window lives; a hidden viewer whose pages changed on disk is made
    again."""

    def __init__(self, window: QMainWindow) -> None:
        self.window = window
        self.viewers: dict[str, GuideWindow] = {}

    def viewer(self, kind: str) -> GuideWindow:
        guide = find_guide() if kind == "guide" else find_docs()
        old = self.viewers.get(kind)
        if old is not None and (old.isVisible() or old.guide.pages == guide.pages):
            return old
        if old is not None:
            old.deleteLater()
        title = "User guide" if kind == "guide" else "Documentation"
        # a missing guide: Getting started, without its last line (it points to the guide)
        missing = "<hr>" + GETTING_STARTED.rsplit("<p>Help &#9656; User guide", 1)[0]
        v = GuideWindow(guide, self.window, title=title,
                        missing_html=missing if kind == "guide" else "")
        v.setObjectName("guide" if kind == "guide" else "documentation")
        self.viewers[kind] = v
        return v

    def show(self, kind: str, where: str | None) -> GuideWindow:
        """The viewer of ``kind`` ("guide" or "docs") on screen and raised; ``where`` is
        "first" (Getting started), "contents", or None (the page it shows already)."""
        v = self.viewer(kind)
        if where == "first":
            v.show_first()
        elif where == "contents":
            v.show_contents()
        v.show()
        v.raise_()
        v.activateWindow()
        return v

    def documentation(self) -> GuideWindow:
        """The reference documents of a source checkout; elsewhere the user guide, its note
        line saying where the reference documents are."""
        if find_docs().found:
            return self.show("docs", None)
        v = self.show("guide", "contents")
        v.say("The reference documents (architecture, counts, figures) come with the source "
              "code, in its docs folder; this is the user guide.")
        return v


def add_help_menu(window: QMainWindow) -> QMenu:
    """The Help menu at the end of ``window``'s menu bar."""
    menu = window.menuBar().addMenu("&Help")

    def shortcuts(*_: object) -> None:
        d = shortcuts_dialog(window)         # owned by the window, deleted on close
        d.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        d.setModal(False)
        d.show()

    def about(*_: object) -> None:
        QMessageBox.about(window, "About knightgui", about_text())

    guides = _Guides(window)
    for text, slot, keys, tip in (
            ("User guide", lambda *_: guides.show("guide", None), "F1",
             "the user guide, in a window of its own: pictures, contents and search"),
            ("Getting started", lambda *_: guides.show("guide", "first"), None,
             "the first page of the user guide"),
            ("Keyboard shortcuts", shortcuts, "Ctrl+/",
             "every key and mouse action of the window"),
            ("Documentation", lambda *_: guides.documentation(), None,
             "the reference documents (docs/*.md of the source), in a window of their own"),
            ("About knightgui", about, None, "version, licence, where the figures come from")):
        a = QAction(text, window)
        if keys:
            a.setShortcut(QKeySequence(keys))
        a.setStatusTip(tip)
        a.triggered.connect(slot)
        window.addAction(a)
        menu.addAction(a)
    menu.insertSeparator(menu.actions()[2])
    return menu
