"""The status bar's message is never lost to its width: the permanent widgets beside it
(the engine's warm-up progress, the hovered square) leave it the rest of the bar, and a
message wider than that room is put whole in the status bar's tooltip.

* :class:`ElidedLabel` is a label drawn with an ellipsis when it is narrower than its text
  (its :meth:`~PySide6.QtWidgets.QLabel.text` stays whole): a permanent widget given a
  maximum width never cuts into the message, nor shows half a word itself.
* :class:`MessageTip` watches the bar: on a new message, and when the bar or a widget beside
  the message changes size, the tooltip is the message when it does not fit, else empty.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QLabel, QSizeGrip, QStatusBar, QStyleOption, QWidget

__all__ = ["ElidedLabel", "MessageTip", "message_room"]

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


class MessageTip(QObject):
    """Puts a status message that is cut by the bar's width whole in the bar's tooltip (see
    the module docstring); ``beside`` are the bar's permanent widgets."""

    def __init__(self, bar: QStatusBar, *beside: QWidget) -> None:
        super().__init__(bar)
        self.bar = bar
        bar.messageChanged.connect(self.update)
        for w in (bar, *beside):
            w.installEventFilter(self)

    def update(self, *_: object) -> None:
        """The tooltip follows the message shown now and the room it has."""
        bar = self.bar
        text = bar.currentMessage()
        cut = bool(text) and bar.fontMetrics().horizontalAdvance(text) > message_room(bar)
        tip = text if cut else ""
        if bar.toolTip() != tip:
            bar.setToolTip(tip)

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:  # noqa: N802 - Qt's name
        if ev.type() in (QEvent.Type.Resize, QEvent.Type.Move, QEvent.Type.Show,
                         QEvent.Type.Hide):
            self.update()
        return False

