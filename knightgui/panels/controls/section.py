"""Helpers of the controls panel: :class:`Section`, a group of rows that opens and closes
(closed, its header sums up what it holds, so a value that changes what Solve does is never
out of sight); :class:`FieldsScroll`, a scroll area as tall as its contents (Qt's asks for
24 lines at most), scrolling up and down only; and :class:`WheelGuard`, which lets the wheel
change a box only while it has the focus (else the scroll area scrolls).
"""
from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QEvent, QObject, QSize, Qt, Signal
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QComboBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)


class Section(QWidget):
    """A titled group of form rows that opens and closes (see the module docstring); rows
    go into :attr:`form`."""

    def __init__(self, title: str, tip: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._open = False
        self.button = QToolButton()
        self.button.setText(title)
        self.button.setAutoRaise(True)
        self.button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.button.setArrowType(Qt.ArrowType.RightArrow)
        self.button.setToolTip(tip)
        self.summary = QLabel(wordWrap=True)
        self.summary.setToolTip("what this group holds (click the title to open it)")
        self.summary.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.summary.setMinimumWidth(60)
        head = QHBoxLayout()
        head.setContentsMargins(0, 0, 0, 0)
        head.addWidget(self.button, 0, Qt.AlignmentFlag.AlignLeft)
        head.addWidget(self.summary, 1)
        self.body = QWidget()
        self.form = QFormLayout(self.body)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.form.setContentsMargins(18, 0, 12, 0)     # the fields end where the groups' do
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 2, 0, 2)
        lay.setSpacing(2)
        lay.addLayout(head)
        lay.addWidget(self.body)
        self.button.clicked.connect(lambda: self.set_open(not self._open))
        self.set_open(False)

    def is_open(self) -> bool:
        """Whether the rows are shown."""
        return self._open

    def set_open(self, on: bool) -> None:
        """Show (``on``) or hide the rows; the summary shows while they are hidden."""
        self._open = on
        self.button.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        self.body.setVisible(on)
        self.summary.setVisible(not on)

    def set_summary(self, text: str, marked: bool = False) -> None:
        """What the header says while the group is closed; in bold when ``marked`` (a value
        set that changes what Solve does)."""
        self.summary.setText(text)
        self.summary.setStyleSheet("font-weight: bold;" if marked else "")


class FieldsScroll(QScrollArea):
    """The scroll area of the controls (see the module docstring): ``widget`` inside,
    resized to the area's width, never scrolled sideways."""

    def __init__(self, widget: QWidget) -> None:
        super().__init__()
        self.setWidget(widget)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

    def sizeHint(self) -> QSize:
        """As tall as the contents want (and as wide, with room for the scroll bar)."""
        w = self.widget()
        if w is None:
            return super().sizeHint()
        hint = w.sizeHint()
        bar = self.verticalScrollBar().sizeHint().width()
        return QSize(hint.width() + bar, hint.height() + 2 * self.frameWidth())

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:
        """The contents changed their layout (a group shown, hidden, opened): ask the panel
        for the new height."""
        if obj is self.widget() and ev.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()
        return super().eventFilter(obj, ev)

    def fit_width(self) -> None:
        """As wide as the widest row needs, plus the vertical scroll bar: never sideways."""
        w = self.widget()
        if w is not None:
            bar = self.verticalScrollBar().sizeHint().width()
            self.setMinimumWidth(w.minimumSizeHint().width() + bar + 2 * self.frameWidth())


class WheelGuard(QObject):
    """Wheel events reach a spin box or combo box only when it has the keyboard focus (see
    the module docstring)."""

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:
        """An unfocused box lets the wheel go to its parents (the scroll area scrolls)."""
        if ev.type() == QEvent.Type.Wheel and isinstance(obj, QWidget) and not obj.hasFocus():
            ev.ignore()      # filtered but not accepted: Qt offers it to the parents
            return True
        return False


def guard_wheel(widgets: Iterable[QWidget], guard: WheelGuard) -> None:
    """Give every spin box and combo box among ``widgets`` ``Qt.StrongFocus`` and ``guard``."""
    for w in widgets:
        if isinstance(w, (QAbstractSpinBox, QComboBox)):
            w.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            w.installEventFilter(guard)


class SideSpinBox(QSpinBox):
    """A board side: a number typed over the limit (or 0) is kept until Enter or focus-out,
    not cut to fewer digits as Qt's box does, then the nearest allowed side is taken and
    :attr:`refused` says so. Without keyboard tracking the board is rebuilt once."""

    refused = Signal(str)

    def __init__(self, maximum: int, value: int) -> None:
        super().__init__(minimum=1, maximum=maximum, value=value)
        self.setKeyboardTracking(False)

    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:
        t = text.strip()
        if t.isascii() and t.isdigit() and len(t) <= 12 and not 1 <= int(t) <= self.maximum():
            return QValidator.State.Intermediate, text, pos
        return super().validate(text, pos)

    def fixup(self, text: str) -> str:
        t = text.strip()
        if t.isascii() and t.isdigit() and len(t) <= 12:
            n = int(t)
            side = min(max(n, 1), self.maximum())
            why = (f"at most {self.maximum():,} squares a side" if n > self.maximum()
                   else "at least 1 square a side")
            self.refused.emit(f"a board has {why}: {n:,} was typed, {side:,} is used")
            return str(side)
        return super().fixup(text)
