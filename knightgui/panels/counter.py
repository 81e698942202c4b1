"""Solution counter and timing panels."""
from __future__ import annotations

import time

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QFormLayout, QLabel, QSizePolicy, QWidget

from knightgui_core.board.canonical import canonical_id, symmetry_order

EXHAUSTED_TEXT = "All Solutions Exhausted"
_STATE_STYLE = "color: #1f6f2f; font-weight: bold;"
#: amber: figures that no longer match the controls, a walk that did not finish, no tour
_WARN_STYLE = "color: #9a5b00; font-weight: bold;"
#: lines the Tour id keeps room for (id, symmetry, what the tour repeats: that one may wrap
#: once) and the state line
IDENTITY_LINES = 4
STATE_LINES = 2


def format_seconds(seconds: float) -> str:
    """A duration as the Timing panel and the status bar show it: 12.3 ms, 1.25 s."""
    if seconds < 1:
        return f"{seconds * 1000:.1f} ms"
    return f"{seconds:.2f} s"


def _fmt(n) -> str:
    return "—" if n is None else f"{int(n):,}"


def dock_width(*labels: QLabel) -> None:
    """Each label takes the width its dock has, whatever its text (it wraps there, or is
    cut): a long text never widens the dock, which would shrink the board."""
    for label in labels:
        label.setSizePolicy(QSizePolicy.Policy.Ignored, label.sizePolicy().verticalPolicy())


def _set(label: QLabel, text: str):
    """Change a label only when its text changes (each change may re-lay out the panel)."""
    if label.text() != text:
        label.setText(text)


class CounterPanel(QWidget):
    """Current solution / found so far / total, and "All Solutions Exhausted" when done."""

    def __init__(self, parent=None):
        super().__init__(parent)
        f = QFormLayout(self)
        big = QFont()
        big.setPointSize(big.pointSize() + 4)
        big.setBold(True)
        self.current = QLabel("—")
        self.current.setFont(big)
        self.current.setMinimumWidth(self.current.fontMetrics().horizontalAdvance("99,999,999"))
        self.found = QLabel("—")
        self.total = QLabel("—")
        self.state = QLabel("")
        self.state.setWordWrap(True)
        self.state.setStyleSheet(_STATE_STYLE)
        self.identity = QLabel("—")
        self.identity.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.identity.setWordWrap(True)    # its lines never widen the dock (the board would shrink)
        self.identity.setToolTip("The tour's canonical id: equal for tours that are the same "
                                 "up to the board's turns and mirrors and reversal (a closed "
                                 "tour: the same cycle from any start, either way round); "
                                 "and how many of the board's symmetries map it onto itself")
        dock_width(self.current, self.found, self.total, self.state, self.identity)
        f.addRow("Solution", self.current)
        f.addRow("Found so far", self.found)
        f.addRow("Total", self.total)
        f.addRow("Tour id", self.identity)
        f.addRow(self.state)
        # room for every line the id and the state may take: the dock never clips them
        line = self.fontMetrics().lineSpacing()
        for label, lines in ((self.identity, IDENTITY_LINES), (self.state, STATE_LINES)):
            label.setMinimumHeight(lines * line)
            label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.values = {"current": None, "found": None, "total": None, "exhausted": False}

    #: tours of more squares than this are not given an id (it would hold up the window)
    IDENTITY_MAX_SQUARES = 40_000

    def show_identity(self, tour) -> None:
        """The canonical id and symmetry of the shown tour (a Tour, or None: "—")."""
        if (tour is None or len(getattr(tour, "path", ())) == 0
                or tour.board.size > self.IDENTITY_MAX_SQUARES
                or len(tour.path) != tour.board.size):
            _set(self.identity, "—")
            return
        b = tour.board
        sym = symmetry_order(b, tour.path)
        total = 8 if b.rows == b.cols else 4
        text = (f"{canonical_id(b, tour.path)}\n"
                + (f"symmetric under {sym} of {total}" if sym > 1 else "no symmetry"))
        same = (getattr(tour, "method", None) or {}).get("same_as")
        if same:
            text += f"\n{same}"
        _set(self.identity, text)

    def mark_stale(self, why: str):
        """No counts and no tour id: the controls no longer match the last run (in amber)."""
        self.set_counts(state=why, warning=True)
        self.show_identity(None)

    def set_counts(self, current=None, found=None, total=None, exhausted=False,
                   stored=None, state: str | None = None, warning: bool = False):
        """Show the current solution, how many were found, the total when known and a state
        line (``warning``: in amber, for what did not succeed; green otherwise)."""
        style = _WARN_STYLE if warning else _STATE_STYLE
        if self.state.styleSheet() != style:
            self.state.setStyleSheet(style)
        self.values = {"current": current, "found": found, "total": total,
                       "exhausted": bool(exhausted)}
        _set(self.current, _fmt(current))
        extra = "" if stored is None or found is None or stored >= found else \
            f"  ({stored:,} kept for stepping)"
        _set(self.found, _fmt(found) + extra)
        _set(self.total, _fmt(total) if exhausted or total is not None else
             "not known yet" if found is not None else "—")
        _set(self.state, f"{EXHAUSTED_TEXT} — last solution {_fmt(total)}" if exhausted
             else state or "")
        self._fit_state()

    def _fit_state(self) -> None:
        """A state longer than its two lines gets the room it needs (the dock follows the
        panel's minimum height, not a wrapped label's)."""
        lab = self.state
        need = max(STATE_LINES * lab.fontMetrics().lineSpacing(),
                   lab.heightForWidth(lab.width()) if lab.isVisible() else 0)
        if lab.minimumHeight() != need:
            lab.setMinimumHeight(need)

    def text(self) -> str:
        """The panel's figures on one line (for the status bar and tests)."""
        return " | ".join(w.text() for w in (self.current, self.found, self.total, self.state))


class TimingPanel(QWidget):
    """Solve time, solutions per second, dead ends, forward moves, and a running clock."""

    def __init__(self, parent=None):
        super().__init__(parent)
        f = QFormLayout(self)
        self.labels = {}
        for key, text in (("status", "Status"), ("elapsed", "Elapsed"), ("time", "Solve time"),
                          ("rate", "Solutions/s"), ("dead_ends", "Dead ends"),
                          ("forward", "Forward moves"), ("method", "Method"),
                          ("nodes", "Nodes")):
            lab = QLabel("—")
            lab.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            lab.setWordWrap(True)
            dock_width(lab)
            self.labels[key] = lab
            f.addRow(text, lab)
        self._t0: float | None = None
        self._paused_at: float | None = None
        self._timer = QTimer(self)
        self._timer.setInterval(100)
        self._timer.timeout.connect(self._tick)

    def start(self, what: str):
        """A run began: the clock starts ticking."""
        self.clear(what)
        self._t0 = time.perf_counter()
        self._timer.start()

    def clear(self, status: str):
        """Forget the last run (its figures no longer match the controls)."""
        self._timer.stop()
        self._t0 = self._paused_at = None
        for lab in self.labels.values():
            lab.setText("—")
        self.labels["status"].setText(status)

    def stop(self, status: str):
        """The run ended (``status`` says how); the clock stops."""
        self._timer.stop()
        self._tick()
        self._t0 = self._paused_at = None
        self.labels["status"].setText(status)

    def pause(self, status: str = "paused") -> None:
        """The run is paused: the clock stops where it is (:meth:`resume` goes on)."""
        if self._t0 is None or self._paused_at is not None:
            return
        self._timer.stop()
        self._tick()
        self._paused_at = time.perf_counter()
        self.labels["status"].setText(status)

    def resume(self, status: str) -> None:
        """Go on after :meth:`pause`: the paused time is not counted."""
        if self._t0 is None or self._paused_at is None:
            return
        self._t0 += time.perf_counter() - self._paused_at
        self._paused_at = None
        self.labels["status"].setText(status)
        self._timer.start()

    @property
    def running(self) -> bool:
        """Whether the clock is ticking."""
        return self._timer.isActive()

    def _tick(self):
        if self._t0 is not None:
            now = time.perf_counter() if self._paused_at is None else self._paused_at
            self.labels["elapsed"].setText(f"{now - self._t0:.1f} s")

    #: what the Method row says for each kind of exhaustive run
    METHODS = {False: "Phadke's options matrix (every tie followed)",
               True: "every knight's path (backtracking with cuts, any rule)"}

    #: what the Dead ends row says when the search does not count them
    NOT_COUNTED = "not counted (every-path search)"

    def set_enumeration(self, solutions: int, dead_ends: int | None, forward: int,
                        seconds: float, all_tours: bool = False):
        """Solutions, dead ends (None: the search does not count them), forward moves
        (nodes, for every path) and their rates so far."""
        self.labels["time"].setText(format_seconds(seconds))
        rate = solutions / seconds if seconds > 0 else 0.0
        self.labels["rate"].setText(f"{rate:,.0f}")
        self.labels["dead_ends"].setText(self.NOT_COUNTED if dead_ends is None
                                         else f"{dead_ends:,}")
        self.labels["forward"].setText(f"{forward:,}")
        self.labels["method"].setText(self.METHODS[bool(all_tours)])

    def set_single(self, seconds: float, method: str, nodes: int):
        """Time, method and nodes of a single solve."""
        self.labels["time"].setText(format_seconds(seconds))
        self.labels["method"].setText(method)
        self.labels["nodes"].setText(f"{nodes:,}")
        for k in ("rate", "dead_ends", "forward"):
            self.labels[k].setText("—")
