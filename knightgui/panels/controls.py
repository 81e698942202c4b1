"""The controls panel: board size, tour kind, squares, rules, dashes, tail; Solve / Cancel.

The panel is a view and editor of a :class:`knightgui.request.RequestModel` (``.model``):
every change of a widget is written into the model, which checks it; observers of the model
(the window) learn which fields changed. The panel says at once what is wrong (an impossible
board, a bad square, an end that is not a knight move from the start) through
:attr:`ControlsPanel.message`; :meth:`request` returns the model's validated
:class:`knightgui.request.Request` or raises ``ValueError`` with a sentence.
"""
from __future__ import annotations


from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QRegularExpressionValidator
from PySide6.QtWidgets import (QCheckBox, QComboBox, QFormLayout, QGroupBox, QHBoxLayout,
                               QLabel, QLineEdit, QPushButton, QSpinBox, QVBoxLayout, QWidget)

from knightgui_core.board.squares import Board, BoardError, parse_coords
from knightgui_core.board.dash import DASH_STATES
from knightgui_core.board.dash import corners as _corners, free_corners as _free_corners
from knightgui_core.board.dash import list_tails as _list_tails
from knightgui_core.board.rules import METHODS, TIE_HELP, TIE_RULES

from ..request import MAX_SIDE, Request, RequestModel
MODES = (("single", "Single tour"), ("exhaustive", "Exhaustive (options matrix)"))


class ControlsPanel(QWidget):
    solveRequested = Signal(object)    # Request
    cancelRequested = Signal()
    boardChanged = Signal(int, int)    # rows, cols
    squaresChanged = Signal(int, int)  # start, end (flat, -1 = none)
    message = Signal(str)              # for the status bar ("" = all is well)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.model = RequestModel()
        self._preferred_end = "c7"  # Phadke's worked example a8→c7
        lay = QVBoxLayout(self)
        # --- board
        g = QGroupBox("Board")
        f = QFormLayout(g)
        self.rows = QSpinBox(minimum=1, maximum=MAX_SIDE, value=8)
        self.cols = QSpinBox(minimum=1, maximum=MAX_SIDE, value=8)
        self.square_lock = QCheckBox("square", checked=True)
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
        self.mode = QComboBox()
        for key, text in MODES:
            self.mode.addItem(text, key)
        f.addRow("Mode", self.mode)
        lay.addWidget(g)
        # --- squares
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
        # --- rules (single tour)
        self.rules_box = g = QGroupBox("Warnsdorff rule")
        f = QFormLayout(g)
        self.tie = QComboBox()
        for t in TIE_RULES:
            self.tie.addItem(t, t)
            if t in TIE_HELP:
                self.tie.setItemData(self.tie.count() - 1, TIE_HELP[t], Qt.ToolTipRole)
        f.addRow("Tie-break", self.tie)
        self.order = QLineEdit("12345678")
        self.order.setValidator(QRegularExpressionValidator(r"[1-8]{0,8}"))
        self.order.setToolTip("move order: the 8 move types 1..8 in priority order")
        f.addRow("Move order", self.order)
        self.seed = QSpinBox(minimum=0, maximum=2**31 - 1, value=0)
        f.addRow("Seed", self.seed)
        self.method = QComboBox()
        self.method.addItems(METHODS)
        self.method.setToolTip("auto: Warnsdorff first, then backtracking (small boards) or "
                               "the construction; greedy: Warnsdorff's rule only")
        f.addRow("Method", self.method)
        lay.addWidget(g)
        # --- dashes and tail
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
        # --- exhaustive
        self.enum_box = g = QGroupBox("Exhaustive run")
        f = QFormLayout(g)
        self.keep = QSpinBox(minimum=100, maximum=5_000_000, value=1_000_000, singleStep=10_000)
        self.keep.setToolTip("solutions kept in memory for stepping (counting goes on)")
        f.addRow("Keep", self.keep)
        self.limit = QSpinBox(minimum=0, maximum=2_000_000_000, value=0, singleStep=100)
        self.limit.setSpecialValueText("all")
        f.addRow("Stop after", self.limit)
        lay.addWidget(g)
        # --- buttons
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

        self.rows.valueChanged.connect(self._rows_changed)
        self.cols.valueChanged.connect(self._board_changed)
        self.square_lock.toggled.connect(self._rows_changed)
        self.closed.toggled.connect(self._board_changed)
        self.mode.currentIndexChanged.connect(self._board_changed)
        self.start.editingFinished.connect(self._squares_changed)
        self.end.currentIndexChanged.connect(self._end_changed)
        for cb in self.dash:
            cb.currentIndexChanged.connect(self._check)
        self.tail.currentIndexChanged.connect(self._check)
        for w in (self.tie, self.method):
            w.currentIndexChanged.connect(self._check)
        for w in (self.seed, self.keep, self.limit):
            w.valueChanged.connect(self._check)
        self.order.textChanged.connect(self._check)
        self.solve_btn.clicked.connect(self._solve_clicked)
        self.cancel_btn.clicked.connect(self.cancelRequested.emit)
        self._board_changed()

    # ----------------------------------------------------------- accessors
    def board(self) -> Board:
        return Board(self.rows.value(), self.cols.value())

    def mode_key(self) -> str:
        return self.mode.currentData()

    def start_square(self) -> int:
        """Flat start square, -1 when the text is not a square of the board."""
        text = self.start.text().strip()
        if not text:
            return 0
        try:
            return self.board().parse(text)
        except BoardError:
            return -1

    def end_square(self) -> int:
        sq = self.end.currentData()
        return -1 if sq is None else int(sq)

    def set_busy(self, busy: bool):
        self.cancel_btn.setEnabled(busy)

    # -------------------------------------------------------------- setters
    def set_start(self, sq: int):
        self.start.setText(self.board().name(sq))
        self._squares_changed()

    def set_end(self, sq: int) -> bool:
        """Choose ``sq`` as the end; says why not (and returns False) when it cannot be."""
        b = self.board()
        i = self.end.findData(int(sq))
        if i < 0:
            s = self.start_square()
            why = "the tour is open" if not self.closed.isChecked() else (
                f"{b.name(sq)} is not a knight move from the start "
                f"{b.name(s) if s >= 0 else '?'}")
            self.message.emit(f"cannot end on {b.name(sq)}: {why}")
            return False
        self.end.setCurrentIndex(i)
        return True

    # -------------------------------------------------------------- reactions
    def _rows_changed(self, *_):
        if self.square_lock.isChecked() and self.cols.value() != self.rows.value():
            self.cols.setValue(self.rows.value())  # triggers _board_changed
            return
        self._board_changed()

    def _rename_start(self, b: Board):
        """Keep the start on the same (col, row) when the board changes, written in the
        board's naming (a ``col,row`` entry is shown as its letter name)."""
        coords = parse_coords(self.start.text().strip())
        if coords is None:
            return
        col, row = coords
        if b.contains(col, row):
            self.start.setText(b.name(b.index(col, row)))

    def _board_changed(self, *_):
        exhaustive = self.mode_key() == "exhaustive"
        self.rules_box.setEnabled(not exhaustive)
        self.enum_box.setEnabled(exhaustive)
        b = self.board()
        self._rename_start(b)
        cs = _corners(b)
        for i, (lab, cb) in enumerate(zip(self.dash_labels, self.dash)):
            lab.setText(cs[i].name if i < len(cs) else "—")
            cb.setVisible(i < len(cs))
            lab.setVisible(i < len(cs))
        self.boardChanged.emit(b.rows, b.cols)
        self._squares_changed()

    def _squares_changed(self, *_):
        b = self.board()
        s = self.start_square()
        keep = self.end.currentText() if self.end.currentData() is not None \
            else self._preferred_end
        self.end.blockSignals(True)
        self.end.clear()
        closed = self.closed.isChecked()
        if not closed:
            self.end.addItem("(open tour: no end)", None)
        elif s >= 0:
            ends = sorted((int(t) for t in b.neighbours[s] if t >= 0),
                          key=lambda q: (q % b.cols, q // b.cols))
            for t in ends:
                self.end.addItem(b.name(t), t)
            i = self.end.findText(keep)
            self.end.setCurrentIndex(max(i, 0))
        self.end.setEnabled(closed and self.mode_key() == "exhaustive")
        self.end.blockSignals(False)
        self._end_changed()

    def _end_changed(self, *_):
        b = self.board()
        s, e = self.start_square(), self.end_square()
        if e >= 0:
            self._preferred_end = b.name(e)
        # dashes: only free corners
        free = {}
        if s >= 0:
            try:
                free = _free_corners(b, s, e if e >= 0 and self._uses_end() else None)
            except Exception:  # noqa: BLE001 - a bad board just disables the dashes
                free = {}
        cs = _corners(b)
        for i, cb in enumerate(self.dash):
            if i >= len(cs):
                continue
            reason = free.get(cs[i].name, "no start square") if s >= 0 else "no start square"
            cb.setEnabled(reason is None)
            if reason is not None:
                cb.setCurrentIndex(0)
            cb.setToolTip(f"{cs[i].name} is not free: {reason}" if reason else
                          f"dash corner {cs[i].name}: off, A, B or full")
        # tails
        keep = self.tail.currentData()
        self.tail.blockSignals(True)
        self.tail.clear()
        self.tail.addItem("none", None)
        if s >= 0 and e >= 0 and self._uses_end():
            try:
                tails = _list_tails(b, s, e)
            except Exception:  # noqa: BLE001
                tails = {}
            for kind in ("ecd", "xcd"):
                for t in tails.get(kind, []):
                    names = tuple(b.name(int(q)) for q in t)
                    self.tail.addItem(f"{kind.upper()}  {' '.join(names)}", names)
        i = self.tail.findData(keep) if keep is not None else 0
        self.tail.setCurrentIndex(max(i, 0))
        self.tail.setEnabled(self.tail.count() > 1)
        self.tail.blockSignals(False)
        self.squaresChanged.emit(s, e if self._uses_end() else -1)
        self._check()

    def _uses_end(self) -> bool:
        return self.closed.isChecked() and self.mode_key() == "exhaustive"

    def _check(self, *_) -> str:
        """Write the widgets into the model and say at once what is wrong ("" when
        nothing)."""
        try:
            self.request()
            msg = ""
        except ValueError as e:
            msg = str(e)
        self.note.setText(msg)
        self.message.emit(msg)
        return msg

    def _values(self) -> dict:
        """The widgets' values, as :class:`knightgui.request.RequestModel` fields."""
        dashes = tuple((self.dash_labels[i].text(), cb.currentText())
                       for i, cb in enumerate(self.dash)
                       if not cb.isHidden() and cb.isEnabled() and cb.currentText() != "off")
        return {"rows": self.rows.value(), "cols": self.cols.value(),
                "square": self.square_lock.isChecked(), "closed": self.closed.isChecked(),
                "mode": self.mode_key(), "start": self.start.text(),
                "end": self.end.currentText() if self.end.currentData() is not None else None,
                "tie": self.tie.currentData() or "", "order": self.order.text(),
                "seed": self.seed.value(), "method": self.method.currentText(),
                "dashes": dashes, "tail": self.tail.currentData(),
                "keep": self.keep.value(), "limit": self.limit.value()}

    def sync(self) -> None:
        """Write the widgets into the model (``ValueError`` when a value is refused)."""
        self.model.update(**self._values())

    # ------------------------------------------------------------- requests
    def request(self) -> Request:
        """The model's validated request (``ValueError`` with a sentence when not valid)."""
        self.sync()
        return self.model.request()

    def _solve_clicked(self):
        try:
            req = self.request()
        except ValueError as e:
            self.note.setText(str(e))
            self.message.emit(str(e))
            return
        self.solveRequested.emit(req)

    # ------------------------------------------------------------- settings
    def state(self) -> dict:
        """The model's fields as plain values (saved in the settings)."""
        try:
            self.sync()
        except ValueError:
            pass
        return self.model.to_dict()

    def set_state(self, st: dict):
        """Restore :meth:`state` output; unknown or bad values keep their defaults."""
        m = RequestModel.from_dict(st).settings
        self.square_lock.setChecked(m.square)
        self.rows.setValue(m.rows)
        self.cols.setValue(m.cols)
        self.closed.setChecked(m.closed)
        self.mode.setCurrentIndex(max(self.mode.findData(m.mode), 0))
        self.start.setText(m.start)
        self.tie.setCurrentIndex(max(self.tie.findData(m.tie), 0))
        self.order.setText(m.order)
        self.seed.setValue(m.seed)
        self.method.setCurrentIndex(max(self.method.findText(m.method), 0))
        self.keep.setValue(m.keep)
        self.limit.setValue(m.limit)
        self._squares_changed()
        i = self.end.findText(m.end or "")
        if i >= 0:
            self.end.setCurrentIndex(i)
        saved = dict(m.dashes)
        raw = st.get("dashes") if isinstance(st, dict) else None
        if isinstance(raw, list) and all(isinstance(d, str) for d in raw):
            # older settings: one state per corner, in corner order
            saved = {self.dash_labels[i].text(): d for i, d in enumerate(raw[:4])}
        for lab, cb in zip(self.dash_labels, self.dash):
            d = saved.get(lab.text())
            if cb.isEnabled() and d in DASH_STATES:
                cb.setCurrentIndex(DASH_STATES.index(d))
        self._check()
