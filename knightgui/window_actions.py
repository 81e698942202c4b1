"""The main window's actions, menus and toolbar, built in one place (the window keeps its
behaviour; this module only lays out what the user can trigger and its shortcuts)."""
from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QLabel, QMainWindow, QMenu, QSpinBox, QStyle, QToolBar

__all__ = ["action", "make_actions"]


def action(w: QMainWindow, text: str, slot, shortcut=None, checkable: bool = False,
        tip: str | None = None, icon=None) -> QAction:
    """One window action: icon, shortcut (also in its tooltip), status tip; added to ``w`` so
    its shortcut works wherever the focus is."""
    a = QAction(text, w)
    if icon is not None:
        a.setIcon(w.style().standardIcon(icon))
    if shortcut:
        a.setShortcut(QKeySequence(shortcut))
    a.setCheckable(checkable)
    if tip:
        a.setStatusTip(tip)
        a.setToolTip(f"{text} ({shortcut})" if shortcut else text)
    a.triggered.connect(slot)
    w.addAction(a)
    return a


def _fill(menu: QMenu, items: Iterable[QAction | None]) -> None:
    """Add ``items`` to ``menu`` in order; None is a separator."""
    for item in items:
        if item is None:
            menu.addSeparator()
        else:
            menu.addAction(item)


def make_actions(w) -> None:
    """The window's actions, its File / View / Run menus and the stepping toolbar, set as
    attributes of ``w`` (``w.act_solve``, ``w.jump_box``, …) for the window to connect."""

    def A(*args, **kw) -> QAction:
        return action(w, *args, **kw)

    w.act_solve = A("Solve", w.solve, "Ctrl+R", tip="solve with the current controls")
    w.act_cancel = A("Cancel", w.cancel, "Esc", tip="stop the running search")
    S = QStyle.StandardPixmap
    w.act_first = A("First", w.results.first, "Home", tip="first solution",
                    icon=S.SP_MediaSkipBackward)
    w.act_prev = A("Previous", w.results.previous, "Left", tip="previous solution",
                   icon=S.SP_MediaSeekBackward)
    w.act_next = A("Next", w.results.next, "Right", tip="next solution",
                   icon=S.SP_MediaSeekForward)
    w.act_last = A("Last", w.results.last, "End", tip="last solution found",
                   icon=S.SP_MediaSkipForward)
    w.act_play = A("Play", w.toggle_play, "Space", True, "play the solutions",
                   icon=S.SP_MediaPlay)
    w.act_anim = A("Animate", w.toggle_animation, "Ctrl+A", True,
                   "play the construction of the shown tour move by move")
    f = w.files
    w.act_open = A("Open tour…", f.open_tour, QKeySequence.StandardKey.Open)
    w.act_open_solutions = A("Open solutions…", w.open_solutions, "Ctrl+Shift+O",
                             tip="step through a file written by enumerate --out")
    w.act_save = A("Save tour…", f.save_tour, QKeySequence.StandardKey.Save)
    w.act_png = A("Export PNG…", f.export_png, "Ctrl+E")
    w.act_svg = A("Export SVG…", f.export_svg)
    w.act_copy = A("Copy image", f.copy_image, "Ctrl+Shift+C")
    w.act_quit = A("Quit", w.close, QKeySequence.StandardKey.Quit)
    w.act_numbers = A("Move numbers", w._view_toggled, "N", True)
    w.act_path = A("Tour path", w._view_toggled, "P", True)
    w.act_ties = A("Highlight ties", w._view_toggled, "T", True)
    w.act_fit = A("Zoom to fit", w.view.fit, "F")
    w.act_analysis = A("Analysis", w.open_analysis, "Ctrl+Shift+A",
                       tip="how good is Warnsdorff's rule: move orders, tie-breaks, "
                           "with plots")
    w.colour_group = QActionGroup(w)
    w.colour_actions = {}
    for key, text in (("auto", "Colour: automatic"), ("checker", "Colour: checkerboard"),
                      ("moves", "Colour: by move number")):
        a = A(text, w._view_toggled, checkable=True)
        w.colour_group.addAction(a)
        w.colour_actions[key] = a
    w.act_numbers.setChecked(True)
    w.act_path.setChecked(True)
    w.colour_actions["auto"].setChecked(True)

    _fill(w.menuBar().addMenu("&File"),
          (w.act_open, w.act_open_solutions, w.act_save, None, w.act_png, w.act_svg,
           w.act_copy, None, w.act_quit))
    w.view_menu = m = w.menuBar().addMenu("&View")
    _fill(m, (w.act_numbers, w.act_path, w.act_ties, None, *w.colour_actions.values(), None,
              w.act_fit, None, w.act_analysis, None,
              *(d.toggleViewAction() for d in (w.controls_dock, w.counter_dock, w.timing_dock,
                                               w.matrix_dock))))
    _fill(w.menuBar().addMenu("&Run"),
          (w.act_solve, w.act_cancel, None, w.act_first, w.act_prev, w.act_next, w.act_last,
           w.act_play, None, w.act_anim))

    tb = QToolBar("Stepping")
    tb.setObjectName("stepping")
    w.addToolBar(tb)
    for a in (w.act_solve, w.act_cancel):
        tb.addAction(a)
    tb.addSeparator()
    for a in (w.act_first, w.act_prev, w.act_next, w.act_last):
        tb.addAction(a)
    tb.addWidget(QLabel(" Go to "))
    w.jump_box = QSpinBox(minimum=1, maximum=2_000_000_000)
    w.jump_box.setKeyboardTracking(False)
    w.jump_box.setToolTip("jump to solution number (Enter)")
    tb.addWidget(w.jump_box)
    tb.addAction(w.act_play)
    w.play_speed = QSpinBox(minimum=1, maximum=240, value=10, suffix=" /s")
    w.play_speed.setToolTip("solutions per second while playing")
    tb.addWidget(w.play_speed)
    tb.addSeparator()
    tb.addAction(w.act_anim)
    w.anim_speed = QSpinBox(minimum=1, maximum=100_000, value=20, suffix=" moves/s")
    w.anim_speed.setToolTip("speed of the construction animation")
    tb.addWidget(w.anim_speed)
    w.act_cancel.setEnabled(False)

