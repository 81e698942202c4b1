"""The window a newcomer meets (issue 35, item 1): the Controls panel fits the default window
(1280×820) without a scroll bar in every mode, and 1024×700 with at most a vertical one;
Solve and Cancel are in sight; a mode's own controls show only in that mode; a remembered
value that changes what Solve does is in sight after a restart; the mouse wheel over a box
without the keyboard focus scrolls the panel instead of changing the box."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QScrollArea, QWidget

from gui_helpers import wait_until

#: the modes a newcomer meets: the model's values for each
MODES = {"single tour": {"mode": "single"},
         "exhaustive, closed": {"mode": "exhaustive", "closed": True},
         "every tour": {"mode": "exhaustive", "all_tours": True}}


def _window(qtbot, restore: bool = False):
    from knightgui.window.main import MainWindow
    w = MainWindow(restore_settings=restore)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    return w


def _settle(qtbot, window, width: int, height: int) -> None:
    window.resize(width, height)
    wait_until(qtbot, lambda: (window.width(), window.height()) == (width, height), timeout=5)
    qtbot.wait(60)           # the docks and the scroll area are laid out


def _scroll_areas(window) -> list[QScrollArea]:
    areas = window.controls_dock.findChildren(QScrollArea)
    assert areas, "the Controls dock has no scroll area"
    return areas


def _open_groups(panel: QWidget) -> None:
    """Open every group of the panel that opens and closes (the tallest the panel gets)."""
    for g in panel.findChildren(QWidget):
        if callable(getattr(g, "set_open", None)):
            g.set_open(True)


def _in_sight(w: QWidget) -> bool:
    """The whole of ``w`` is on screen: shown, and not clipped by a scroll area."""
    return w.isVisible() and w.visibleRegion().boundingRect().size() == w.size()


@pytest.mark.parametrize("mode", list(MODES))
def test_the_controls_fit_the_default_window(qtbot, mode):
    w = _window(qtbot)
    w.controls.model.update(**MODES[mode])
    _settle(qtbot, w, 1280, 820)
    for a in _scroll_areas(w):
        assert not a.verticalScrollBar().isVisible(), f"{mode}: scrolls up and down at 1280×820"
        assert not a.horizontalScrollBar().isVisible(), f"{mode}: scrolls sideways at 1280×820"
        inner = a.widget()
        assert inner is not None and inner.minimumSizeHint().width() <= a.viewport().width()
        assert inner.minimumSizeHint().height() <= a.viewport().height()
    c = w.controls
    assert _in_sight(c.solve_btn) and _in_sight(c.cancel_btn), mode
    if MODES[mode]["mode"] == "exhaustive":
        assert _in_sight(c.all_tours), "the every-tour box is out of sight"
    w.close()


@pytest.mark.parametrize("mode", list(MODES))
def test_at_1024x700_the_controls_scroll_up_and_down_at_most(qtbot, mode):
    w = _window(qtbot)
    w.controls.model.update(**MODES[mode])
    _open_groups(w.controls)
    _settle(qtbot, w, 1024, 700)
    for a in _scroll_areas(w):
        assert not a.horizontalScrollBar().isVisible(), f"{mode}: scrolls sideways at 1024×700"
        inner = a.widget()
        assert inner is not None and inner.minimumSizeHint().width() <= a.viewport().width()
    assert _in_sight(w.controls.solve_btn) and _in_sight(w.controls.cancel_btn), mode
    w.close()


def test_a_mode_shows_its_own_controls_only(qtbot):
    w = _window(qtbot)
    c = w.controls
    _settle(qtbot, w, 1280, 820)
    assert c.rules_box.isVisible() and not c.enum_box.isVisible()
    assert not c.all_tours.isVisible() and not c.end.isVisible()
    c.model.update(mode="exhaustive")
    qtbot.wait(20)
    assert c.enum_box.isVisible() and not c.rules_box.isVisible() and c.all_tours.isVisible()
    assert c.end.isVisible() and not c.end.isEnabled()  # an open tour: no end, said so
    c.model.update(closed=True)
    assert c.end.isEnabled() and c.dash_box.isVisible()
    c.model.update(closed=False, all_tours=True)       # every path takes no dashes
    assert not c.dash_box.isVisible() and c.enum_box.isVisible()
    assert set(c.mode_groups) <= set(type(c.model.enabled()).__dataclass_fields__)
    w.close()


def test_a_closed_group_names_what_it_holds(qtbot):
    w = _window(qtbot)
    c = w.controls
    _settle(qtbot, w, 1280, 820)
    assert not c.dash_box.is_open() and _in_sight(c.dash_box.summary)
    assert c.dash_box.summary.text() == "none"
    c.model.update(dashes=(("h1", "full"),))
    assert "h1 full" in c.dash_box.summary.text()
    assert not c.dash[0].isVisible()                   # closed: the boxes are hidden
    c.dash_box.button.click()
    assert c.dash_box.is_open() and not c.dash_box.summary.isVisible()
    i = [lab.text() for lab in c.dash_labels].index("h1")
    assert _in_sight(c.dash[i]) and c.dash[i].currentText() == "full"
    w.close()


def test_a_remembered_every_tour_box_is_in_sight_after_a_restart(qtbot, dialogs):
    w = _window(qtbot, restore=True)
    w.controls.model.update(mode="exhaustive", all_tours=True, limit=300,
                            dashes=(("h1", "full"),))
    w.close()
    w2 = _window(qtbot, restore=True)
    _settle(qtbot, w2, 1280, 820)
    c = w2.controls
    assert c.model.settings.all_tours and c.all_tours.isChecked()
    assert _in_sight(c.all_tours), "Solve runs every knight's path, and the box saying so is hidden"
    assert _in_sight(c.limit) and c.limit.value() == 300
    w2.controls.model.update(all_tours=False)         # the dashes apply again: their header says so
    head = c.dash_box.summary
    assert "h1 full" in head.text()
    wait_until(qtbot, lambda: c.dash_box.is_open() or _in_sight(head), timeout=5)
    w2.close()


def _wheel(window, box: QWidget, qtbot, notch: int = -1) -> None:
    """One notch of the mouse wheel (-1 down, 1 up) over the middle of ``box``, as the system
    sends it."""
    pos = box.mapTo(window, box.rect().center())
    QTest.wheelEvent(window.windowHandle(), pos, QPoint(0, 120 * notch))
    qtbot.wait(20)


def test_the_wheel_over_an_unfocused_box_scrolls_the_panel(qtbot):
    w = _window(qtbot)
    c = w.controls
    c.model.update(mode="exhaustive", closed=True)
    _open_groups(c)
    _settle(qtbot, w, 1024, 700)
    w.activateWindow()
    c.start.setFocus()
    wait_until(qtbot, lambda: c.start.hasFocus(), timeout=5)
    box = next(cb for cb in c.dash if cb.isEnabled() and _in_sight(cb))
    bar = next(a for a in _scroll_areas(w) if a.verticalScrollBar().maximum() > 0
               ).verticalScrollBar()
    before, top = box.currentIndex(), bar.value()
    _wheel(w, box, qtbot)
    assert box.currentIndex() == before, "the wheel changed a corner dash it only passed over"
    assert not box.hasFocus(), "the wheel took the focus"
    assert bar.value() > top, "the panel did not scroll"
    # the spin boxes too: Stop after, the wheel up
    c.limit.setValue(0)
    assert _in_sight(c.limit)
    _wheel(w, c.limit, qtbot, notch=1)
    assert c.limit.value() == 0 and bar.value() < top + 1
    # with the keyboard focus the box takes the wheel
    box.setFocus()
    wait_until(qtbot, lambda: box.hasFocus(), timeout=5)
    at = bar.value()
    _wheel(w, box, qtbot)
    assert box.currentIndex() != before and bar.value() == at
    w.close()
