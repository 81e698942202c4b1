"""How the controls panel is laid out: its groups of widgets, built once, no behaviour.

:class:`ControlsLayout` creates the widgets of
:class:`knightgui.panels.controls.panel.ControlsPanel` and their tooltips, group by group,
in a scroll area that scrolls up and down only, with Solve, Cancel and the note always in
sight below it. A mode's own group is registered in :attr:`ControlsLayout.mode_groups`
under the flag of :class:`~knightgui.request.model.Enabled` that says the mode is on; the
panel shows it only then. Boxes take the wheel only when focused (:func:`guard_wheel`).
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
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from knightgui.panels.controls.section import FieldsScroll, Section, SideSpinBox, WheelGuard, guard_wheel
from knightgui.panels.play_group import PlayGroup
from knightgui.request.model import MAX_SIDE
from knightgui.request.types import SYMMETRY_CHOICES
from knightgui_core.board.dash import DASH_STATES
from knightgui_core.board.rules import METHODS, TIE_HELP, TIE_RULES
from knightgui_core.board.squares import LEAPER_NAMES

MODES = (("single", "Single tour"), ("exhaustive", "Exhaustive (options matrix)"),
         ("play", "Play (a tour by hand)"))
#: the Edges box: topology → its text
EDGES = (("plane", "plane"), ("cylinder", "cylinder (columns wrap)"),
         ("torus", "torus (rows and columns wrap)"))
#: the Piece box: every leaper known by name (any other A,B can be typed); one that keeps
#: its square's colour (a + b even) says so: it has no tour of a plane board
PIECES = tuple((f"{a},{b}", f"{name} ({a},{b})" + (" — one colour only" if (a + b) % 2 == 0
                                                   else ""))
               for (a, b), name in LEAPER_NAMES.items())


def _form(g: QWidget) -> QFormLayout:
    """A form in ``g`` whose fields take the width there is (and no more than they need)."""
    f = QFormLayout(g)
    f.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
    return f


def _combo(tip: str | None = None) -> QComboBox:
    """A combo box as narrow as a few characters when room is short (never widening)."""
    cb = QComboBox()
    cb.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    cb.setMinimumContentsLength(6)
    if tip:
        cb.setToolTip(tip)
    return cb


class ControlsLayout:
    """The widgets of the controls panel, as attributes (see the module docstring)."""

    def build(self, lay: QVBoxLayout) -> None:
        """Every group, top to bottom, in a scroll area; the buttons below it."""
        self.fields = QWidget()
        col = QVBoxLayout(self.fields)
        col.setContentsMargins(4, 4, 4, 4)
        self._build_mode(col)
        self._build_board(col)
        self._build_squares(col)
        self._build_rules(col)
        self._build_exhaustive(col)
        self.play_box = PlayGroup()           # a tour by hand: shown in play mode only
        col.addWidget(self.play_box)
        self._build_dashes(col)
        #: the groups one mode uses, under the flag of ``Enabled`` that says it is on
        self.mode_groups: dict[str, QWidget] = {"rules": self.rules_box,
                                                "exhaustive": self.enum_box,
                                                "play": self.play_box}
        self.fields_scroll = FieldsScroll(self.fields)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.fields_scroll)
        self._build_buttons(lay)
        lay.addStretch(1)
        self.wheel_guard = WheelGuard(self.fields)
        guard_wheel(self.fields.findChildren(QWidget), self.wheel_guard)

    def _build_mode(self, lay: QVBoxLayout) -> None:
        """The Mode group: what Solve finds (and, in an exhaustive run, which tours)."""
        g = QGroupBox("Mode")
        f = _form(g)
        self.mode = _combo("what Solve finds: one tour, or every tour Warnsdorff's rule "
                           "allows from the start (stepped through, with its options matrix)")
        for key, text in MODES:
            self.mode.addItem(text, key)
        f.addRow(self.mode)
        self.all_tours = QCheckBox("every tour, not only Warnsdorff's")
        self.all_tours.setToolTip("list every knight's path from the start (boards of at "
                                  "most 128 squares), not only those Warnsdorff's rule allows;"
                                  " no options matrix")
        f.addRow(self.all_tours)
        self.symmetry = _combo("every tour: only the tours this board symmetry maps onto "
                               "themselves (closed ones with 'closed' ticked), counted on the "
                               "quotient; listed up to 36 squares, counted only beyond; the "
                               "board draws its centre or axis")
        for key in SYMMETRY_CHOICES:
            self.symmetry.addItem("none: every path from the start" if key == "none"
                                  else key, key)
        f.addRow("Symmetry", self.symmetry)
        self.mode_form = f
        lay.addWidget(g)

    def _build_board(self, lay: QVBoxLayout) -> None:
        """The Board group: rows × cols, the square lock, edges, piece."""
        g = QGroupBox("Board")
        f = _form(g)
        self.rows = SideSpinBox(MAX_SIDE, 8)
        self.rows.setToolTip("rows of the board")
        self.cols = SideSpinBox(MAX_SIDE, 8)
        self.cols.setToolTip("columns of the board")
        self.square_lock = QCheckBox("square")
        self.square_lock.setChecked(True)
        self.square_lock.setToolTip("keep columns equal to rows")
        rc = QHBoxLayout()
        rc.addWidget(self.rows, 1)
        rc.addWidget(QLabel("×"))
        rc.addWidget(self.cols, 1)
        rc.addWidget(self.square_lock)
        f.addRow("Size", rc)
        self.topology = _combo("the board's edges: on a cylinder a move off the right edge "
                               "comes back on the left; on a torus the top and bottom wrap too")
        for key, text in EDGES:
            self.topology.addItem(text, key)
        f.addRow("Edges", self.topology)
        self.piece = _combo("the piece: an (A,B)-leaper jumps A squares one way and B the "
                            "other (the knight is 1,2); choose one or type A,B and press Enter")
        self.piece.setEditable(True)
        self.piece.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        for key, text in PIECES:
            self.piece.addItem(text, key)
        f.addRow("Piece", self.piece)
        lay.addWidget(g)

    def _build_squares(self, lay: QVBoxLayout) -> None:
        """The Squares group: start (or a line for the tours a symmetry keeps, which start
        anywhere), closed tour, end."""
        g = QGroupBox("Squares")
        f = _form(g)
        self.start = QLineEdit("a8")
        self.start.setPlaceholderText("e.g. a8 or 1,8 (empty: first corner)")
        self.start.setToolTip("click a square on the board to set the start")
        f.addRow("Start", self.start)
        #: in the Start field's place while a symmetry is chosen: those tours take no start
        self.start_any = QLabel("any square: each symmetric tour has its own start")
        self.start_any.setWordWrap(True)
        self.start_any.setToolTip("the tours a symmetry keeps start anywhere: the Start "
                                  "field is not used (choose 'none' to list the paths "
                                  "from a start)")
        f.addRow("Start", self.start_any)
        self.closed = QCheckBox("closed tour")
        self.closed.setToolTip("a closed tour ends a knight move from its start; in "
                               "Exhaustive mode choose that end in End, or right-click "
                               "(shift-click) it on the board")
        f.addRow(self.closed)
        self.end = _combo("the square the closed tour ends on: a knight move from the "
                          "start; right-click or shift-click it on the board (that also "
                          "ticks closed tour)")
        f.addRow("End", self.end)
        self.squares_form = f
        lay.addWidget(g)

    def _build_rules(self, lay: QVBoxLayout) -> None:
        """The Warnsdorff rule group (single tours): tie-break, move order, seed, method."""
        self.rules_box = g = QGroupBox("Warnsdorff rule")
        f = _form(g)
        self.tie = _combo("how Warnsdorff's rule breaks a tie between squares with as few "
                          "onward moves")
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
        self.seed.setToolTip("the seed of the tie rules that choose at random")
        f.addRow("Seed", self.seed)
        self.method = _combo("auto: Warnsdorff first, then backtracking (small boards) or "
                             "the construction; greedy: Warnsdorff's rule only")
        self.method.addItems(list(METHODS))
        f.addRow("Method", self.method)
        lay.addWidget(g)

    def _build_dashes(self, lay: QVBoxLayout) -> None:
        """The Corner dashes group (closed until opened): a box per corner, the tail."""
        self.dash_box = g = Section("Corner dashes", "corner dashes: a corner's squares "
                                    "visited in a fixed pattern (A, B or full); click to "
                                    "show or hide them")
        f = g.form
        self.dash_labels: list[QLabel] = []
        self.dash: list[QComboBox] = []
        for _ in range(4):
            lab, cb = QLabel(), _combo()
            cb.addItems(DASH_STATES)
            self.dash_labels.append(lab)
            self.dash.append(cb)
            f.addRow(lab, cb)
        self.tail = _combo("optional end corner dash (ECD) or extended end corner dash "
                           "(XCD) tail: reserved from the start")
        f.addRow("ECD/XCD tail", self.tail)
        lay.addWidget(g)

    def _build_exhaustive(self, lay: QVBoxLayout) -> None:
        """The Exhaustive run group: stop after, keep."""
        self.enum_box = g = QGroupBox("Exhaustive run")
        f = _form(g)
        self.limit = QSpinBox(minimum=0, maximum=2_000_000_000, value=0, singleStep=100)
        self.limit.setSpecialValueText("all")
        self.limit.setToolTip("stop after this many solutions (all: run to the end)")
        f.addRow("Stop after", self.limit)
        self.keep = QSpinBox(minimum=100, maximum=5_000_000, value=1_000_000, singleStep=10_000)
        self.keep.setToolTip("solutions kept in memory for stepping (counting goes on)")
        f.addRow("Keep", self.keep)
        lay.addWidget(g)

    def _build_buttons(self, lay: QVBoxLayout) -> None:
        """Solve, Cancel and the note that says what is wrong (below the scroll area)."""
        b = QHBoxLayout()
        b.setContentsMargins(6, 4, 6, 0)
        self.solve_btn = QPushButton("Solve")
        self.solve_btn.setDefault(True)
        self.solve_btn.setToolTip("run with the controls as they are (Ctrl+R)")
        self.cancel_btn = QPushButton("Cancel")
        self.cancel_btn.setEnabled(False)
        self.cancel_btn.setToolTip("stop the running search (Esc)")
        b.addWidget(self.solve_btn)
        b.addWidget(self.cancel_btn)
        lay.addLayout(b)
        self.note = QLabel(wordWrap=True)
        self.note.setStyleSheet("color: #a03030; margin: 0 6px 4px 6px;")
        self.note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        lay.addWidget(self.note)
