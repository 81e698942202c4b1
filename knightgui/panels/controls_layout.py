"""How the controls panel is laid out: its groups of widgets, built once.

:class:`ControlsLayout` is the part of :class:`knightgui.panels.controls.ControlsPanel` that
creates the widgets and their tooltips, group by group (Board, Squares, Warnsdorff rule,
Corner dashes, Exhaustive run, the buttons). It holds no behaviour: which field each widget
writes and how the panel redraws from the model stay in ``controls.py``.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QRegularExpressionValidator
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
)

from knightgui_core.board.dash import DASH_STATES
from knightgui_core.board.rules import METHODS, TIE_HELP, TIE_RULES
from knightgui_core.board.squares import LEAPER_NAMES

from ..request import MAX_SIDE

MODES = (("single", "Single tour"), ("exhaustive", "Exhaustive (options matrix)"))
#: the Edges box: topology → its text
EDGES = (("plane", "plane"), ("cylinder", "cylinder (columns wrap)"),
         ("torus", "torus (rows and columns wrap)"))
#: the Piece box: the leapers offered by name (any other A,B can be typed)
PIECES = tuple((f"{a},{b}", f"{name} ({a},{b})") for (a, b), name in LEAPER_NAMES.items()
               if (a + b) % 2 == 1 or name == "knight")




class ControlsLayout:
    """The widgets of the controls panel, as attributes, built into one vertical layout."""

    def build(self, lay: QVBoxLayout) -> None:
        """Every group, top to bottom."""
        self._build_board(lay)
        self._build_squares(lay)
        self._build_rules(lay)
        self._build_dashes(lay)
        self._build_exhaustive(lay)
        self._build_buttons(lay)

    def _build_board(self, lay: QVBoxLayout) -> None:
        """The Board group: rows × cols, the square lock, closed tour, mode."""
        g = QGroupBox("Board")
        f = QFormLayout(g)
        self.rows = QSpinBox(minimum=1, maximum=MAX_SIDE, value=8)
        self.cols = QSpinBox(minimum=1, maximum=MAX_SIDE, value=8)
        self.square_lock = QCheckBox("square")
        self.square_lock.setChecked(True)
        self.square_lock.setToolTip("keep columns equal to rows")
        rc = QHBoxLayout()
        rc.addWidget(self.rows)
        rc.addWidget(QLabel("×"))
        rc.addWidget(self.cols)
        rc.addWidget(self.square_lock)
        f.addRow("Rows × cols", rc)
        self.closed = QCheckBox("closed tour")
        self.closed.setToolTip("a closed tour ends a knight move from its start")
        f.addRow(self.closed)
        self.topology = QComboBox()
        for key, text in EDGES:
            self.topology.addItem(text, key)
        self.topology.setToolTip("the board's edges: on a cylinder a move off the right edge "
                                 "comes back on the left; on a torus the top and bottom "
                                 "wrap too")
        f.addRow("Edges", self.topology)
        self.piece = QComboBox()
        self.piece.setEditable(True)
        self.piece.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        for key, text in PIECES:
            self.piece.addItem(text, key)
        self.piece.setToolTip("the piece: an (A,B)-leaper jumps A squares one way and B the "
                              "other (the knight is 1,2); choose one or type A,B and press "
                              "Enter")
        f.addRow("Piece", self.piece)
        self.mode = QComboBox()
        for key, text in MODES:
            self.mode.addItem(text, key)
        f.addRow("Mode", self.mode)
        lay.addWidget(g)

    def _build_squares(self, lay: QVBoxLayout) -> None:
        """The Squares group: start and end."""
        g = QGroupBox("Squares")
        f = QFormLayout(g)
        self.start = QLineEdit("a8")
        self.start.setPlaceholderText("e.g. a8 or 1,8 (empty: first corner)")
        self.start.setToolTip("click a square on the board to set the start")
        f.addRow("Start", self.start)
        self.end = QComboBox()
        self.end.setToolTip("only squares a knight move from the start; shift-click or "
                            "right-click a square on the board")
        f.addRow("End", self.end)
        lay.addWidget(g)

    def _build_rules(self, lay: QVBoxLayout) -> None:
        """The Warnsdorff rule group (single tours): tie-break, move order, seed, method."""
        self.rules_box = g = QGroupBox("Warnsdorff rule")
        f = QFormLayout(g)
        self.tie = QComboBox()
        for t in TIE_RULES:
            self.tie.addItem(t, t)
            if t in TIE_HELP:
                self.tie.setItemData(self.tie.count() - 1, TIE_HELP[t], Qt.ItemDataRole.ToolTipRole)
        f.addRow("Tie-break", self.tie)
        self.order = QLineEdit("12345678")
        self.order.setValidator(QRegularExpressionValidator(r"[1-8]{0,8}"))
        self.order.setToolTip("move order: the 8 move types 1..8 in priority order")
        f.addRow("Move order", self.order)
        self.seed = QSpinBox(minimum=0, maximum=2**31 - 1, value=0)
        f.addRow("Seed", self.seed)
        self.method = QComboBox()
        self.method.addItems(list(METHODS))
        self.method.setToolTip("auto: Warnsdorff first, then backtracking (small boards) or "
                               "the construction; greedy: Warnsdorff's rule only")
        f.addRow("Method", self.method)
        lay.addWidget(g)

    def _build_dashes(self, lay: QVBoxLayout) -> None:
        """The Corner dashes group: one box per corner, and the ECD/XCD tail."""
        self.dash_box = g = QGroupBox("Corner dashes")
        f = QFormLayout(g)
        self.dash_labels: list[QLabel] = []
        self.dash: list[QComboBox] = []
        for _ in range(4):
            lab, cb = QLabel(), QComboBox()
            cb.addItems(DASH_STATES)
            self.dash_labels.append(lab)
            self.dash.append(cb)
            f.addRow(lab, cb)
        self.tail = QComboBox()
        self.tail.setToolTip("optional end corner dash (ECD) or extended end corner dash "
                             "(XCD) tail: reserved from the start")
        f.addRow("ECD/XCD tail", self.tail)
        lay.addWidget(g)

    def _build_exhaustive(self, lay: QVBoxLayout) -> None:
        """The Exhaustive run group: keep, stop after, every tour."""
        self.enum_box = g = QGroupBox("Exhaustive run")
        f = QFormLayout(g)
        self.keep = QSpinBox(minimum=100, maximum=5_000_000, value=1_000_000, singleStep=10_000)
        self.keep.setToolTip("solutions kept in memory for stepping (counting goes on)")
        f.addRow("Keep", self.keep)
        self.limit = QSpinBox(minimum=0, maximum=2_000_000_000, value=0, singleStep=100)
        self.limit.setSpecialValueText("all")
        f.addRow("Stop after", self.limit)
        self.all_tours = QCheckBox("every tour, not only Warnsdorff's")
        self.all_tours.setToolTip("list every knight's path from the start (boards of at "
                                  "most 128 squares), not only those Warnsdorff's rule allows;"
                                  " no options matrix")
        f.addRow(self.all_tours)
        lay.addWidget(g)

    def _build_buttons(self, lay: QVBoxLayout) -> None:
        """Solve, Cancel and the note that says what is wrong."""
        b = QHBoxLayout()
        self.solve_btn = QPushButton("Solve")
        self.solve_btn.setDefault(True)
        self.cancel_btn = QPushButton("Cancel")
        self.cancel_btn.setEnabled(False)
        b.addWidget(self.solve_btn)
        b.addWidget(self.cancel_btn)
        lay.addLayout(b)
        self.note = QLabel(wordWrap=True)
        self.note.setStyleSheet("color: #a03030;")
        lay.addWidget(self.note)
        lay.addStretch(1)
