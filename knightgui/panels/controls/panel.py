"""The controls panel: board size, tour kind, squares, rules, dashes, tail; Solve / Cancel.

The panel views and edits a :class:`knightgui.request.model.RequestModel` (``.model``), the
one source of truth: each widget writes its field into the model (:meth:`ControlsPanel._write`)
and every widget is redrawn from the model when it says what changed
(:meth:`ControlsPanel._show`), whoever changed it. What is wrong is said at once through
:attr:`ControlsPanel.message`; only the groups the run uses are shown, and a closed group's
header names the values it holds. The widgets are built in
:mod:`knightgui.panels.controls.layout`.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QVBoxLayout, QWidget

from knightgui.panels.controls.layout import ControlsLayout
from knightgui.request.model import RESULT_FIELDS, Enabled, Request, RequestModel
from knightgui_core.board.dash import DASH_STATES
from knightgui_core.board.squares import Board

#: fields whose change moves the board's size or its start/end markers
_BOARD_FIELDS = frozenset({"rows", "cols", "topology", "leaper"})
_SQUARE_FIELDS = RESULT_FIELDS | {"square"}


def _index_of(box: QComboBox, value: object) -> int:
    """The item of ``box`` whose data is ``value`` (compared in Python: Qt's ``findData``
    misses some tuples), else 0."""
    return next((i for i in range(box.count()) if box.itemData(i) == value), 0)


class ControlsPanel(ControlsLayout, QWidget):
    """The controls of one :class:`~knightgui.request.model.RequestModel` (see the module
    docstring)."""

    solveRequested = Signal(object)    # Request
    cancelRequested = Signal()
    boardChanged = Signal(int, int)    # rows, cols
    squaresChanged = Signal(int, int)  # start, end (flat, -1 = none)
    message = Signal(str)              # for the status bar ("" = all is well)

    def __init__(self, parent: QWidget | None = None, model: RequestModel | None = None):
        """The controls of ``model`` (a new default one when None), built group by group."""
        super().__init__(parent)
        self.model = model if model is not None else RequestModel()
        lay = QVBoxLayout(self)
        self.build(lay)
        self._editors: tuple[QWidget, ...] = (
            self.rows, self.cols, self.square_lock, self.closed, self.topology, self.piece,
            self.mode, self.start,
            self.end, self.tie, self.order, self.seed, self.method, *self.dash, self.tail,
            self.keep, self.limit, self.all_tours, self.symmetry)
        self._connect()
        self._show(frozenset(f for f in self.model.to_dict()))

    def _connect(self) -> None:
        """Each widget writes its one field; the model tells :meth:`_show`."""
        self.rows.valueChanged.connect(lambda v: self._write(rows=v))
        self.cols.valueChanged.connect(lambda v: self._write(cols=v))
        for side in (self.rows, self.cols):
            side.refused.connect(self.message.emit)
        self.square_lock.toggled.connect(lambda v: self._write(square=v))
        self.closed.toggled.connect(lambda v: self._write(closed=v))
        self.mode.currentIndexChanged.connect(lambda _i: self._write(mode=self.mode_key()))
        self.topology.currentIndexChanged.connect(
            lambda _i: self._write(topology=self.topology.currentData()))
        self.piece.activated.connect(lambda _i: self._write(leaper=self._piece_value()))
        line = self.piece.lineEdit()
        if line is not None:
            line.editingFinished.connect(lambda: self._write(leaper=self._piece_value()))
        self.start.editingFinished.connect(lambda: self._write(start=self.start.text()))
        self.end.currentIndexChanged.connect(
            lambda _i: self._write(end=self.end.currentData()) if self.end.currentData()
            is not None else None)
        for cb in self.dash:
            cb.currentIndexChanged.connect(lambda _i: self._write(dashes=self._dash_values()))
        self.tail.currentIndexChanged.connect(lambda _i: self._write(tail=self.tail.currentData()))
        self.tie.currentIndexChanged.connect(lambda _i: self._write(tie=self.tie.currentData() or ""))
        self.method.currentIndexChanged.connect(
            lambda _i: self._write(method=self.method.currentText()))
        self.seed.valueChanged.connect(lambda v: self._write(seed=v))
        self.keep.valueChanged.connect(lambda v: self._write(keep=v))
        self.limit.valueChanged.connect(lambda v: self._write(limit=v))
        self.all_tours.toggled.connect(lambda v: self._write(all_tours=v))
        self.symmetry.currentIndexChanged.connect(
            lambda _i: self._write(symmetry=self.symmetry.currentData() or "none"))
        self.order.textChanged.connect(lambda t: self._write(order=t))
        self.solve_btn.clicked.connect(self.submit)
        self.cancel_btn.clicked.connect(self.cancelRequested.emit)
        self.model.observe(self._show)

    # ----------------------------------------------------------- accessors
    def board(self) -> Board:
        """The model's board."""
        return self.model.board()

    def _piece_value(self) -> str:
        """What the Piece box holds: a listed piece's ``a,b``, or the text typed."""
        text = self.piece.currentText().strip()
        i = self.piece.findText(text)
        return str(self.piece.itemData(i)) if i >= 0 else text

    def mode_key(self) -> str:
        """The mode chosen in the mode box (``single`` or ``exhaustive``)."""
        return str(self.mode.currentData())

    def start_square(self) -> int:
        """Flat start square; -1 when the text is not a square of the board."""
        return self.model.start_square()

    def end_square(self) -> int:
        """Flat end square; -1 when the run has none (an open tour, single tours, every path)."""
        return self.model.end_square() if self.model.enabled().end else -1

    def symmetric_listing(self) -> bool:
        """Whether the run lists the tours a board symmetry keeps: those start anywhere, so
        the Start field is not used."""
        s = self.model.settings
        return s.mode == "exhaustive" and s.all_tours and s.symmetry != "none"

    def marked_squares(self) -> tuple[int, int]:
        """The start and end the board marks for the run as set (flat, -1: none): none for
        the tours a symmetry keeps, no end unless the run takes one."""
        if self.symmetric_listing():
            return -1, -1
        return self.start_square(), self.end_square()

    def set_busy(self, busy: bool) -> None:
        """A run is going on (Cancel is enabled)."""
        self.cancel_btn.setEnabled(busy)

    # -------------------------------------------------------------- setters
    def set_board(self, rows: int, cols: int, board: Board | None = None) -> None:
        """Put the controls on a ``rows`` × ``cols`` board (a tour shown from elsewhere), or
        on ``board`` with its edges and piece."""
        if board is None:
            self._write(square=rows == cols, rows=rows, cols=cols)
            return
        a, b = board.leaper
        self._write(square=board.rows == board.cols, rows=board.rows, cols=board.cols,
                    topology=board.topology, leaper=f"{a},{b}")

    def set_start(self, sq: int) -> None:
        """Make the flat square ``sq`` the start."""
        self._write(start=self.board().name(sq))

    def set_end(self, sq: int) -> str:
        """End the tour on ``sq`` (right- or shift-click), ticking what a closed exhaustive
        run needs; returns what was done in one line ("" when ``sq`` is no move from the
        start, said through :attr:`message`)."""
        b = self.board()
        name = b.name(sq)
        st = self.model.settings
        start = self.start_square()
        try:
            self.model.update(closed=True, mode="exhaustive", all_tours=False, end=name)
        except ValueError:
            moves = ", ".join(self.model.end_choices(closed=True))
            where = b.name(start) if start >= 0 else "?"
            self.message.emit(f"cannot end on {name}: a closed tour ends a knight move from "
                              f"its start {where}" + (f" ({moves})" if moves else ""))
            return ""
        needed = [what for what, was in (("closed tour ticked", st.closed),
                                         ("Exhaustive mode chosen", st.mode == "exhaustive"),
                                         ("every-path listing off", not st.all_tours))
                  if not was]
        return f"End set to {name}" + (f" ({', '.join(needed)}: only a closed exhaustive "
                                       "run takes an end)" if needed else "")

    # ------------------------------------------------------- model ⇄ widgets
    def _write(self, **values: object) -> None:
        """A widget changed: write its field(s) into the model (which tells :meth:`_show`);
        a refused value is said in the note and the widgets go back to the model."""
        try:
            self.model.update(**values)
        except ValueError as e:
            self._say(str(e))
            self._show(frozenset(values))

    @contextmanager
    def _quiet(self) -> Iterator[None]:
        """Widgets set from the model do not write back."""
        blocked = [w.blockSignals(True) for w in self._editors]
        try:
            yield
        finally:
            for w, was in zip(self._editors, blocked):
                w.blockSignals(was)

    def _dash_values(self) -> tuple[tuple[str, str], ...]:
        return tuple((self.dash_labels[i].text(), cb.currentText())
                     for i, cb in enumerate(self.dash)
                     if not cb.isHidden() and cb.currentText() != "off")

    def _show(self, changed: frozenset) -> None:
        """Redraw the widgets from the model (after any change, whoever made it)."""
        m = self.model
        s = m.settings
        en = m.enabled()
        with self._quiet():
            self.rows.setValue(s.rows)
            self.cols.setValue(s.cols)
            self.square_lock.setChecked(s.square)
            self.closed.setChecked(s.closed)
            self.mode.setCurrentIndex(max(self.mode.findData(s.mode), 0))
            self.topology.setCurrentIndex(max(self.topology.findData(s.topology), 0))
            i = self.piece.findData(s.leaper)
            if i >= 0:
                self.piece.setCurrentIndex(i)
            else:
                self.piece.setEditText(s.leaper)
            if self.start.text() != s.start:
                self.start.setText(s.start)
            self.tie.setCurrentIndex(max(self.tie.findData(s.tie), 0))
            if self.order.text() != s.order:
                self.order.setText(s.order)
            self.seed.setValue(s.seed)
            self.method.setCurrentIndex(max(self.method.findText(s.method), 0))
            self.keep.setValue(s.keep)
            self.limit.setValue(s.limit)
            self.all_tours.setChecked(s.all_tours)
            self.all_tours.setEnabled(en.all_tours)
            self.symmetry.setCurrentIndex(max(self.symmetry.findData(s.symmetry), 0))
            # end squares
            self.end.clear()
            if not s.closed:
                self.end.addItem("open tour: tick closed tour", None)
            for name in m.end_choices():
                self.end.addItem(name, name)
            self.end.setCurrentIndex(max(self.end.findData(s.end), 0))
            self.end.setEnabled(en.end)
            # corners: only free ones can be dashed
            states = m.corner_states()
            names = list(states)
            dashes = dict(s.dashes)
            for i, (lab, cb) in enumerate(zip(self.dash_labels, self.dash)):
                shown = i < len(names)
                lab.setVisible(shown)
                cb.setVisible(shown)
                lab.setText(names[i] if shown else "—")
                if not shown:
                    continue
                reason = states[names[i]]
                cb.setEnabled(reason is None)
                cb.setCurrentIndex(DASH_STATES.index(dashes.get(names[i], "off")))
                cb.setToolTip(f"{names[i]} is not free: {reason}" if reason else
                              f"dash corner {names[i]}: off, A, B or full")
            # tails
            self.tail.clear()
            self.tail.addItem("none", None)
            for kind, names_ in m.tail_choices():
                self.tail.addItem(f"{kind.upper()}  {' '.join(names_)}", names_)
            self.tail.setCurrentIndex(_index_of(self.tail, s.tail))
            self.tail.setEnabled(en.tail)
            self._show_groups(en, every=en.exhaustive and s.all_tours)
        if changed & _BOARD_FIELDS:
            self.boardChanged.emit(s.rows, s.cols)
        if changed & (_SQUARE_FIELDS | {"all_tours"}):
            self.squaresChanged.emit(*self.marked_squares())
        self._check()

    def _show_groups(self, en: Enabled, every: bool) -> None:
        """Show what the run as set uses, hide the rest; the dashes' header says which are
        set."""
        for flag, group in self.mode_groups.items():
            on = bool(getattr(en, flag))
            group.setEnabled(on)
            group.setVisible(on)
        self.mode_form.setRowVisible(self.all_tours, en.all_tours)
        self.mode_form.setRowVisible(self.symmetry, every)
        anywhere = self.symmetric_listing()        # the symmetric tours start anywhere
        self.start.setEnabled(not anywhere)
        self.squares_form.setRowVisible(self.start, not anywhere)
        self.squares_form.setRowVisible(self.start_any, anywhere)
        # in Exhaustive mode the End row is always there: disabled, it says how to get one
        self.squares_form.setRowVisible(self.end, en.end or (en.exhaustive and not every))
        self.dash_box.form.setRowVisible(self.tail, en.end)
        self.dash_box.setVisible(not every)
        summary = self._dash_summary(en)
        self.dash_box.set_summary(summary, marked=summary != "none")
        self.fields_scroll.fit_width()

    def _dash_summary(self, en: Enabled) -> str:
        """What the Corner dashes header says: the dashes set and the tail, or "none"."""
        parts = [f"{c} {st}" for c, st in self.model.settings.dashes if st != "off"]
        if en.tail and self.tail.currentData() is not None:
            parts.append(f"tail {self.tail.currentText().split()[0]}")
        return ", ".join(parts) if parts else "none"

    def _say(self, text: str) -> None:
        self.note.setText(text)
        self.message.emit(text)

    def _check(self) -> str:
        """Say at once what is wrong with the request ("" when nothing)."""
        try:
            self.model.request()
            msg = ""
        except ValueError as e:
            msg = str(e)
        self._say(msg)
        return msg

    # ------------------------------------------------------------- requests
    def request(self) -> Request:
        """The model's validated request (``ValueError`` with a sentence when not valid)."""
        return self.model.request()

    def submit(self) -> None:
        """Solve with the controls as they are (the Solve button, Ctrl+R): emits
        :attr:`solveRequested`, or says what is wrong."""
        try:
            req = self.request()
        except ValueError as e:
            self._say(str(e))
            return
        self.solveRequested.emit(req)

    # ------------------------------------------------------------- settings
    def state(self) -> dict:
        """The model's fields as plain values (saved in the settings)."""
        return self.model.to_dict()

    def set_state(self, st: dict) -> None:
        """Restore :meth:`state` output; unknown or bad values keep their current values."""
        self.model.load(st)
