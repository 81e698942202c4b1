"""The status bar's message is never lost to its width: the permanent widgets beside it
(the engine's warm-up progress, the hovered square) leave it the rest of the bar, and a
message wider than that room is put whole in the status bar's tooltip.

* :class:`ElidedLabel` is a label drawn with an ellipsis when it is narrower than its text
  (its :meth:`~PySide6.QtWidgets.QLabel.text` stays whole): a permanent widget given a
  maximum width never cuts into the message, nor shows half a word itself.
* :class:`StatusBar` is the window's status bar: on a new message, a resize, and a new layout
  of the widgets beside the message, its tooltip is the message when it does not fit, else
  empty.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QLabel, QSizeGrip, QStatusBar, QStyleOption, QWidget

__all__ = ["ElidedLabel", "StatusBar", "message_room"]

# QStatusBar draws its message from x = 6 to 2 px before the first visible permanent
# widget (or to 12 px before the bar's right edge): QStatusBarPrivate::messageRect
_LEFT, _GAP, _RIGHT = 6, 2, 12


class ElidedLabel(QLabel):
    """A one-line label that ends in "…" when it is narrower than its text."""

    def minimumSizeHint(self):  # noqa: N802 - Qt's name
        hint = super().minimumSizeHint()
        hint.setWidth(min(hint.width(), self.fontMetrics().horizontalAdvance("…") * 4))
        return hint

    def paintEvent(self, _event) -> None:  # noqa: N802 - Qt's name
        p = QPainter(self)
        opt = QStyleOption()
        opt.initFrom(self)
        r = self.contentsRect()
        text = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight,
                                             r.width())
        self.style().drawItemText(p, r, int(self.alignment()), opt.palette,
                                  self.isEnabled(), text, self.foregroundRole())
        p.end()


def message_room(bar: QStatusBar) -> int:
    """The width, in pixels, the bar's message is drawn in: up to its first visible widget."""
    right = bar.width() - _RIGHT
    for w in bar.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly):
        if w.isVisible() and not w.isWindow() and not isinstance(w, QSizeGrip):
            right = min(right, w.x() - _GAP)
    return right - _LEFT


class StatusBar(QStatusBar):
    """The window's status bar: a message cut by the bar's width is whole in its tooltip
    (see the module docstring). The room is checked on a new message, a resize, and a new
    layout of the widgets beside the message (one shown, hidden or given a new text)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.messageChanged.connect(self.update_tip)

    def update_tip(self, *_: object) -> None:
        """The tooltip follows the message shown now and the room it has."""
        text = self.currentMessage()
        cut = bool(text) and self.fontMetrics().horizontalAdvance(text) > message_room(self)
        tip = text if cut else ""
        if self.toolTip() != tip:
            self.setToolTip(tip)

    def resizeEvent(self, ev) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(ev)
        self.update_tip()

    def event(self, ev: QEvent) -> bool:
        # a virtual override, not an event filter: it is never called once the bar's
        # destruction has begun
        done = super().event(ev)
        if ev.type() == QEvent.Type.LayoutRequest:   # the widgets beside it moved
            self.update_tip()
        return done
