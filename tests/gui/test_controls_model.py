"""The controls panel edits the model and shows it: every control, both ways (issue 24)."""
from __future__ import annotations

from knightgui.panels.controls.panel import ControlsPanel


def _panel(qtbot) -> ControlsPanel:
    p = ControlsPanel()
    qtbot.addWidget(p)
    return p


def test_every_widget_writes_its_field(qtbot):
    p = _panel(qtbot)
    s = lambda: p.model.settings              # noqa: E731
    p.square_lock.setChecked(False)
    assert s().square is False
    p.rows.setValue(10)
    p.cols.setValue(12)
    assert (s().rows, s().cols) == (10, 12)
    p.mode.setCurrentIndex(p.mode.findData("exhaustive"))
    assert s().mode == "exhaustive"
    p.closed.setChecked(True)
    assert s().closed is True
    p.start.setText("b3")
    p.start.editingFinished.emit()
    assert s().start == "b3"
    p.end.setCurrentIndex(p.end.findText("a1"))
    assert s().end == "a1"
    corner = p.dash_labels[2].text()
    p.dash[2].setCurrentIndex(p.dash[2].findText("full"))
    assert s().dashes == ((corner, "full"),)
    p.keep.setValue(5000)
    p.limit.setValue(7)
    assert (s().keep, s().limit) == (5000, 7)
    p.mode.setCurrentIndex(p.mode.findData("single"))
    p.tie.setCurrentIndex(p.tie.findData("first"))
    p.order.setText("87654321")
    p.seed.setValue(9)
    p.method.setCurrentIndex(p.method.findText("greedy"))
    assert (s().tie, s().order, s().seed, s().method) == ("first", "87654321", 9, "greedy")


def test_every_field_set_in_the_model_shows_in_its_widget(qtbot):
    p = _panel(qtbot)
    boards: list[tuple[int, int]] = []
    p.boardChanged.connect(lambda r, c: boards.append((r, c)))
    p.model.update(square=False, rows=10, cols=12, mode="exhaustive", closed=True,
                   start="b3", end="a1", keep=5000, limit=7, tie="first",
                   order="87654321", seed=9, method="greedy",
                   dashes=(("l10", "A"),))
    assert not p.square_lock.isChecked()
    assert (p.rows.value(), p.cols.value()) == (10, 12) and boards == [(10, 12)]
    assert p.mode.currentData() == "exhaustive" and p.closed.isChecked()
    assert p.start.text() == "b3" and p.end.currentText() == "a1" and p.end.isEnabled()
    assert [p.end.itemText(i) for i in range(p.end.count())] == list(p.model.end_choices())
    i = [lab.text() for lab in p.dash_labels].index("l10")
    assert p.dash[i].currentText() == "A"
    assert (p.keep.value(), p.limit.value(), p.seed.value()) == (5000, 7, 9)
    assert p.tie.currentData() == "first" and p.order.text() == "87654321"
    assert p.method.currentText() == "greedy"
    assert p.enum_box.isEnabled() and not p.rules_box.isEnabled()
    # the tails on offer are the model's
    p.model.update(rows=8, cols=8, start="b8", end="a6")
    offered = [p.tail.itemData(i) for i in range(1, p.tail.count())]
    assert offered == [names for _k, names in p.model.tail_choices()] and offered
    p.model.update(tail=offered[0])
    assert p.tail.currentData() == offered[0]


def test_a_refused_value_is_said_and_the_widget_shows_the_model_again(qtbot):
    p = _panel(qtbot)
    said: list[str] = []
    p.message.connect(said.append)
    p.model.update(mode="exhaustive", closed=True)
    assert not p.set_end(p.board().parse("d4"))
    assert said[-1].startswith("cannot end on d4")
    assert p.model.settings.end == "c7" and p.end.currentText() == "c7"


def test_settings_restore_through_the_model(qtbot):
    p = _panel(qtbot)
    p.set_state({"rows": 6, "square": True, "start": "c3", "mode": "exhaustive"})
    assert (p.rows.value(), p.cols.value(), p.start.text()) == (6, 6, "c3")
    assert p.state() == p.model.to_dict()
