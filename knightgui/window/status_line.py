"""The status bar's message is never lost to its width: a message wider than the room the
permanent widgets beside it leave is whole in the bar's tooltip (:class:`StatusBar`, checked
on a new message, a resize and a new layout of those widgets); :class:`ElidedLabel` ends in
"…" when narrower than its text, so a permanent widget given a maximum width cuts neither
the message nor a word of its own.
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
    """The window's status bar: a message cut by the bar's width is whole in its tooltip (see
    the module docstring)."""

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
