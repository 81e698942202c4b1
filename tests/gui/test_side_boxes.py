"""Typing a board side over the limit, or 0, is said, not cut silently (issue 35)."""
from __future__ import annotations

from PySide6.QtCore import Qt


def _type(qtbot, box, text):
    box.setFocus()
    box.lineEdit().selectAll()
    qtbot.keyClicks(box.lineEdit(), text)
    qtbot.keyClick(box.lineEdit(), Qt.Key.Key_Return)


def test_a_side_over_the_limit_keeps_its_digits_and_is_said(window, qtbot):
    c = window.controls
    said = []
    c.message.connect(said.append)
    changes = []
    c.rows.valueChanged.connect(changes.append)
    _type(qtbot, c.rows, "100000")
    assert c.rows.value() == c.rows.maximum() == 2000        # not 1000
    assert changes == [2000]                                   # one rebuild, not one a digit
    assert any("at most 2,000" in m and "100,000" in m for m in said), said


def test_a_side_of_zero_is_said(window, qtbot):
    c = window.controls
    said = []
    c.message.connect(said.append)
    c.rows.setValue(9)
    _type(qtbot, c.rows, "0")
    assert c.rows.value() == 1
    assert any("at least 1" in m for m in said), said


def test_a_side_typed_in_range_is_taken_on_enter(window, qtbot):
    c = window.controls
    _type(qtbot, c.cols, "12")
    assert c.cols.value() == 12


def test_the_camel_is_offered_and_said_to_keep_its_colour(window):
    c = window.controls
    i = c.piece.findData("1,3")
    assert i >= 0, [c.piece.itemText(k) for k in range(c.piece.count())]
    assert "camel" in c.piece.itemText(i) and "one colour" in c.piece.itemText(i)
