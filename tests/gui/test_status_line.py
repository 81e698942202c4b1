"""The status bar never cuts its message without a way to read it: the engine's warm-up
progress beside it keeps to a maximum width (its own text ends in "…" and is whole in its
tooltip), and a message wider than the room left is whole in the status bar's tooltip."""
from __future__ import annotations

from PySide6.QtWidgets import QSizeGrip, QWidget

READY = "Ready — choose a board and press Solve (Ctrl+R)"
LONG = ("Watch plays a search: choose Exhaustive mode (not every tour) or the backtrack "
        "method, then Solve (Ctrl+R) — and this sentence goes on past any status bar")
STAGE = "every tie followed, over 64 squares"


def _room(bar) -> int:
    """The width Qt draws the message in: from x = 6 to 2 px before the first visible
    widget of the bar (QStatusBarPrivate::messageRect)."""
    right = bar.width() - 12
    for w in bar.findChildren(QWidget):
        if w.parent() is bar and w.isVisible() and not isinstance(w, QSizeGrip):
            right = min(right, w.x() - 2)
    return right - 6


def _readable(bar, qtbot, text: str) -> bool:
    bar.showMessage(text)
    qtbot.wait(20)                                 # the bar lays its widgets out
    fits = bar.fontMetrics().horizontalAdvance(text) <= _room(bar)
    return fits or bar.toolTip() == text


def test_a_long_message_beside_the_engine_progress_is_readable_at_1024(window, qtbot):
    window.resize(1024, 700)
    window.engine_status.show_progress(3, 12, STAGE)
    window.hover_label.setText("d4  ·  move 12  ·  3 outlets")
    qtbot.wait(50)
    bar = window.statusBar()
    assert window.engine_status.isVisible()
    assert window.engine_status.label.text().endswith(f"({STAGE})")     # whole, elided
    assert STAGE in window.engine_status.toolTip()
    assert _readable(bar, qtbot, READY) and bar.toolTip() == ""          # it fits: no tip
    assert _readable(bar, qtbot, LONG) and bar.toolTip() == LONG
    assert _readable(bar, qtbot, READY) and bar.toolTip() == ""
    window.engine_status.show_progress(12, 12, "")                       # the warm-up ends
    assert _readable(bar, qtbot, LONG)
