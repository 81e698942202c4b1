"""The controls the first both-ways tests leave out: the square lock, every-tour box and the
ECD/XCD tail box, widget to model and model to widget; the enabled state follows the model."""
from __future__ import annotations

from knightgui.panels.controls.panel import ControlsPanel


def _panel(qtbot) -> ControlsPanel:
    p = ControlsPanel()
    qtbot.addWidget(p)
    return p


def test_square_lock_both_ways(qtbot):
    p = _panel(qtbot)
    p.model.update(square=False)
    assert not p.square_lock.isChecked()
    p.square_lock.setChecked(True)
    assert p.model.settings.square is True
    p.rows.setValue(6)
    assert (p.model.settings.cols, p.cols.value()) == (6, 6)     # columns follow rows


def test_every_tour_box_both_ways(qtbot):
    p = _panel(qtbot)
    assert not p.all_tours.isEnabled()                            # single mode
    p.model.update(mode="exhaustive")
    assert p.all_tours.isEnabled() and not p.all_tours.isChecked()
    p.all_tours.setChecked(True)
    assert p.model.settings.all_tours is True
    p.model.update(all_tours=False)
    assert not p.all_tours.isChecked()


def test_tail_box_both_ways(qtbot):
    p = _panel(qtbot)
    p.model.update(mode="exhaustive", closed=True, start="f5", end="d4")
    offered = [p.tail.itemData(i) for i in range(1, p.tail.count())]
    assert offered == [t for _k, t in p.model.tail_choices()] and p.tail.isEnabled()
    p.tail.setCurrentIndex(2)
    assert p.model.settings.tail == offered[1]
    p.model.update(tail=None)
    assert p.tail.currentIndex() == 0 and p.tail.currentData() is None
    p.model.update(mode="single")
    assert not p.tail.isEnabled() and p.tail.count() == 1
