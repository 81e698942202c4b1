"""The main window's actions, menus and toolbar, built in one place (the window keeps its
behaviour; this module only lays out what the user can trigger and its shortcuts)."""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtGui import QAction, QActionGroup, QIcon, QKeySequence, QPainter, QPixmap
from PySide6.QtWidgets import (
    QLabel,
    QMainWindow,
    QMenu,
    QSpinBox,
    QStyle,
    QToolBar,
    QWidget,
)

from knightgui.analysis.opener import AnalysisOpener
from knightgui.panels.controls.section import WheelGuard, guard_wheel
from knightgui.window.help import add_help_menu

__all__ = ["action", "make_actions", "WindowActions"]


def action(w: QMainWindow, text: str, slot: Callable[..., object],
           shortcut: str | QKeySequence.StandardKey | None = None,
           checkable: bool = False, tip: str | None = None,
           icon: QStyle.StandardPixmap | None = None) -> QAction:
    """One window action: icon, shortcut (also in its tooltip), status tip; added to ``w`` so
    its shortcut works wherever the focus is."""
    a = QAction(text, w)
    if icon is not None:
        a.setIcon(dimmed_when_disabled(w.style().standardIcon(icon)))
    if shortcut:
        a.setShortcut(QKeySequence(shortcut))
    a.setCheckable(checkable)
    if tip:
        a.setStatusTip(tip)
        a.setToolTip(f"{text} ({shortcut})" if shortcut else text)
    a.triggered.connect(slot)
    w.addAction(a)
    return a


def dimmed_when_disabled(icon: QIcon) -> QIcon:
    """``icon`` with a faded copy for its disabled state (some styles' play and pause icons
    look the same enabled or not)."""
    out = QIcon()
    for side in (16, 22, 24, 32, 48):
        pm = icon.pixmap(QSize(side, side))
        if pm.isNull():
            continue
        faded = QPixmap(pm.size())
        faded.setDevicePixelRatio(pm.devicePixelRatio())
        faded.fill(Qt.GlobalColor.transparent)
        p = QPainter(faded)
        p.setOpacity(0.3)
        p.drawPixmap(0, 0, pm)
        p.end()
        out.addPixmap(pm, QIcon.Mode.Normal)
        out.addPixmap(faded, QIcon.Mode.Disabled)
    return out if not out.isNull() else icon


def _fill(bar: QMenu | QToolBar, items: Iterable[QAction | QWidget | None]) -> None:
    """Add ``items`` to ``bar`` in order: an action, a widget (a toolbar's), None a
    separator."""
    for item in items:
        if item is None:
            bar.addSeparator()
        elif isinstance(item, QAction):
            bar.addAction(item)
        elif isinstance(bar, QToolBar):
            bar.addWidget(item)


class _EnabledFollower(QObject):
    """Keeps ``label`` enabled as ``box`` is (the toolbar's "Go to" with its box)."""

    def __init__(self, label: QLabel, box: QWidget) -> None:
        super().__init__(box)
        self.label = label

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:  # noqa: N802 - Qt's name
        """The box enabled or disabled: the label follows."""
        if ev.type() == QEvent.Type.EnabledChange and isinstance(obj, QWidget):
            self.label.setEnabled(obj.isEnabled())
        return False


@dataclass(frozen=True)
class WindowActions:
    """What the user can trigger in the main window, typed: the actions (menus, toolbar,
    shortcuts) and the toolbar's boxes. Made once by :func:`make_actions`."""

    solve: QAction
    cancel: QAction
    first: QAction
    prev: QAction
    next: QAction
    last: QAction
    new_only: QAction
    play: QAction
    watch: QAction
    watch_pause: QAction
    watch_step: QAction
    anim: QAction
    open: QAction
    open_solutions: QAction
    save: QAction
    png: QAction
    svg: QAction
    export_anim: QAction
    copy: QAction
    quit: QAction
    numbers: QAction
    path: QAction
    ties: QAction
    sums: QAction
    fit: QAction
    analysis: QAction
    colour_group: QActionGroup
    colour: dict[str, QAction]
    view_menu: QMenu
    jump_box: QSpinBox
    play_speed: QSpinBox
    anim_speed: QSpinBox
    watch_speed: QSpinBox


def make_actions(w) -> WindowActions:
    """The window's actions, its File / View / Run menus and the stepping toolbar; the
    window connects what they change (``w.act.jump_box``, …)."""

    A = functools.partial(action, w)
    S = QStyle.StandardPixmap
    f = w.files
    r = w.results
    colour_group = QActionGroup(w)
    colour: dict[str, QAction] = {}
    for key, text in (("auto", "Colour: automatic"), ("checker", "Colour: checkerboard"),
                      ("moves", "Colour: by move number")):
        a = A(text, w._view_toggled, checkable=True)
        colour_group.addAction(a)
        colour[key] = a
    tb = QToolBar("Stepping")
    tb.setObjectName("stepping")
    w.addToolBar(tb)
    jump_box = QSpinBox(minimum=1, maximum=2_000_000_000)
    jump_box.setKeyboardTracking(False)
    jump_box.setToolTip("jump to solution number (Enter)")
    play_speed = QSpinBox(minimum=1, maximum=240, value=10, suffix=" /s")
    play_speed.setToolTip("solutions per second while playing")
    anim_speed = QSpinBox(minimum=1, maximum=100_000, value=20, suffix=" moves/s")
    anim_speed.setToolTip("speed of the construction animation")
    watch_speed = QSpinBox(minimum=0, maximum=10_000, value=100, suffix=" moves/s")
    watch_speed.setSpecialValueText("max")
    watch_speed.setToolTip("speed of Watch: forward moves a second (max: as fast as the "
                           "board can be painted)")
    def solve(*_: object) -> None:
        """Solve, then give the board the keyboard: the stepping keys (Left, Right, Home,
        End) work at once, not only after a click on the board."""
        w.solve()
        w.view.setFocus()

    acts = WindowActions(
        solve=A("Solve", solve, "Ctrl+R", tip="solve with the current controls"),
        cancel=A("Cancel", w.cancel, "Esc", tip="stop the running search"),
        first=A("First", r.first, "Home", tip="first solution", icon=S.SP_MediaSkipBackward),
        prev=A("Previous", r.previous, "Left", tip="previous solution",
               icon=S.SP_MediaSeekBackward),
        next=A("Next", r.next, "Right", tip="next solution", icon=S.SP_MediaSeekForward),
        last=A("Last", r.last, "End", tip="last solution found", icon=S.SP_MediaSkipForward),
        new_only=A("New tours only", r.set_new_only, "U", True,
                   "step through new tours only: skip a solution that is an earlier one "
                   "turned, mirrored, reversed or (a closed tour) started elsewhere"),
        play=A("Play", w.toggle_play, "Space", True, "play the solutions",
               icon=S.SP_MediaPlay),
        watch=A("Watch", w.toggle_watch, "W", True,
                "watch the exhaustive search itself: the path grows and backs up, ties and "
                "dead ends are marked (off: finish at full speed)"),
        watch_pause=A("Pause watch", w.pause_watch, "Shift+W", True, "pause the watched search",
                      icon=S.SP_MediaPause),
        watch_step=A("Step search", w.step_watch, ".", tip="one forward move of the watched "
                     "search (pauses it)"),
        anim=A("Animate", w.toggle_animation, "Ctrl+A", True,
               "play the construction of the shown tour move by move"),
        open=A("Open tour…", f.open_tour, QKeySequence.StandardKey.Open),
        open_solutions=A("Open solutions…", w.open_solutions, "Ctrl+Shift+O",
                         tip="step through a file written by enumerate --out"),
        save=A("Save tour…", f.save_tour, QKeySequence.StandardKey.Save),
        png=A("Export PNG…", f.export_png, "Ctrl+E"),
        svg=A("Export SVG…", f.export_svg),
        export_anim=A("Export animation…", f.export_animation,
                      tip="the construction of the tour as an animated GIF or an MP4 film"),
        copy=A("Copy image", f.copy_image, "Ctrl+Shift+C"),
        quit=A("Quit", w.close, QKeySequence.StandardKey.Quit),
        numbers=A("Move numbers", w._view_toggled, "N", True),
        path=A("Tour path", w._view_toggled, "P", True),
        ties=A("Highlight ties", w._view_toggled, "T", True),
        sums=A("Row and column sums", w._view_toggled, "S", True,
               "beside a whole tour on a board up to 26 a side: the sum of the move numbers "
               "in each rank (right) and file (above), green where a semi-magic tour's"),
        fit=A("Zoom to fit", w.view.fit, "F"),
        analysis=A("Analysis", AnalysisOpener(w).open, "Ctrl+Shift+A",
                   tip="how good is Warnsdorff's rule: move orders, tie-breaks, with plots"),
        colour_group=colour_group, colour=colour,
        view_menu=w.menuBar().addMenu("&View"),
        jump_box=jump_box, play_speed=play_speed, anim_speed=anim_speed,
        watch_speed=watch_speed)
    # the toolbar's short names (the menus keep the long ones): every control fits 1024 px
    acts.new_only.setIconText("New only")
    acts.watch_step.setIconText("Step")
    for a in (acts.numbers, acts.path, acts.sums, colour["auto"]):
        a.setChecked(True)

    file_menu = w.menuBar().addMenu("&File")
    w.menuBar().insertMenu(acts.view_menu.menuAction(), file_menu)
    _fill(file_menu, (acts.open, acts.open_solutions, acts.save, None, acts.png, acts.svg,
                      acts.export_anim, acts.copy, None, acts.quit))
    _fill(acts.view_menu, (acts.numbers, acts.path, acts.ties, acts.sums, None, *colour.values(), None,
                           acts.fit, None, acts.analysis, None,
                           *(d.toggleViewAction() for d in (w.controls_dock, w.counter_dock,
                                                            w.timing_dock, w.matrix_dock))))
    _fill(w.menuBar().addMenu("&Run"),
          (acts.solve, acts.cancel, None, acts.first, acts.prev, acts.next, acts.last,
           acts.new_only, acts.play, None, acts.watch, acts.watch_pause, acts.watch_step, None,
           acts.anim))
    go_to = QLabel(" Go to ")
    go_to.setBuddy(jump_box)
    jump_box.installEventFilter(_EnabledFollower(go_to, jump_box))
    _fill(tb, (acts.solve, acts.cancel, None, acts.first, acts.prev, acts.next, acts.last,
               go_to, jump_box, acts.new_only, acts.play, play_speed, None, acts.watch,
               acts.watch_pause, acts.watch_step, watch_speed, None, acts.anim, anim_speed))
    acts.cancel.setEnabled(False)
    for box in (jump_box, play_speed, anim_speed, watch_speed):     # as wide as their text
        box.setMaximumWidth(box.fontMetrics().horizontalAdvance(box.suffix() + "000000") + 24)
    # the toolbar's boxes take the wheel only with the focus, as the Controls panel's do
    guard_wheel(tb.findChildren(QWidget), WheelGuard(tb))
    add_help_menu(w)
    w.view.setFocus()          # the board has the keyboard from the start (stepping keys)
    return acts
