"""The Play group of the controls panel, shown in play mode only: its buttons, three to a
row, and their tooltips; :class:`knightgui.play.controller.PlayController` wires them.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QGroupBox, QLabel, QPushButton, QSpinBox

__all__ = ["PlayGroup", "INFO_LINES"]

#: lines of the position's text: the position (it may wrap once) and the answer
INFO_LINES = 3


class PlayGroup(QGroupBox):
    """Undo, Redo, Hint, New; "Finish it"; "Can it be finished?" with its time budget; and
    what the position is, with the answer of "Can it be finished?" for it."""

    def __init__(self) -> None:
        super().__init__("Play")
        g = QGridLayout(self)
        g.setContentsMargins(6, 4, 6, 4)
        g.setVerticalSpacing(3)

        def button(text: str, tip: str) -> QPushButton:
            b = QPushButton(text)
            b.setToolTip(tip)
            return b

        self.undo_btn = button("Undo", "take the last move back (Ctrl+Z); clicking a square "
                               "of the path takes the path back to it")
        self.redo_btn = button("Redo", "play the move undone again (Ctrl+Shift+Z)")
        self.hint_btn = button("Hint", "the square Warnsdorff's rule takes next, under the "
                               "tie rule above, and the squares tying with it (H)")
        self.new_btn = button("New", "clear the board: the next click is a new start")
        self.ask_btn = button("Can it be finished?", "count every way to finish the path "
                              "(exact, within the budget); one finish is drawn dimmed")
        self.budget = QSpinBox(minimum=1, maximum=600, value=10, suffix=" s")
        self.budget.setToolTip("the time the count may take; past it the answer says what "
                               "is known")
        self.finish_btn = button("Finish it", "Warnsdorff's rule finishes the tour from here "
                                 "(backtracking when stuck; closed when 'closed tour' is "
                                 "ticked); undo walks back into it")
        self.info = QLabel("Click a square to start")
        self.info.setWordWrap(True)
        # room for the position and the answer: a new text never changes the panel's height
        self.info.setMinimumHeight(INFO_LINES * self.info.fontMetrics().lineSpacing())
        self.info.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        g.addWidget(self.undo_btn, 0, 0)
        g.addWidget(self.redo_btn, 0, 1)
        g.addWidget(self.hint_btn, 0, 2)
        g.addWidget(self.new_btn, 1, 0)
        g.addWidget(self.finish_btn, 1, 1, 1, 2)
        g.addWidget(self.ask_btn, 2, 0, 1, 2)
        g.addWidget(self.budget, 2, 2)
        g.addWidget(self.info, 3, 0, 1, 3)
