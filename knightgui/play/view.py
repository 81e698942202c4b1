"""A tour by hand: what play mode draws over the board view's own layers (the path, its
numbers and the candidates' rings are :class:`knightgui.board.view.BoardView`'s).

:class:`PlayMarksItem` marks the squares the quick verdict names: a red cross on a square
lost, a red ring with "end" on one that can only be last, an amber frame on one that rules
out a closed tour, and orange rings on the hint's ties. :class:`PlayOverlay` draws a
:class:`knightgui.play.model.PlayModel`'s position: the path, the legal squares with their
onward counts, those marks, and one finish dimmed.
"""
from __future__ import annotations

import contextlib

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPen

from knightgui.board.items import TourPathItem
from knightgui.board.marks import SquareMarksItem
from knightgui.play.model import PlayModel
from knightgui_core.walks.hand.verdict import ReasonKind, Verdict

__all__ = ["PlayMarksItem", "PlayOverlay", "marks_of"]

#: what each mark means, for the tooltips and the docs
LOST, END, CLOSED, TIE = "lost", "end", "closed", "tie"
_COLOUR = {LOST: QColor(205, 30, 30), END: QColor(205, 30, 30), CLOSED: QColor(220, 140, 0),
           TIE: QColor(240, 120, 0)}


def marks_of(verdict: Verdict | None, ties: tuple[int, ...] = (),
             choice: int = -1) -> dict[int, str]:
    """Square → mark for a verdict and a hint's ties (the choice itself is not marked here:
    the candidates' ring shows it). A square two reasons name keeps the stronger mark."""
    out: dict[int, str] = {}
    for s in ties:
        if s != choice:
            out[int(s)] = TIE
    if verdict is None:
        return out
    for r in verdict.reasons:
        if r.closed_only:
            kind = CLOSED
        elif r.kind in (ReasonKind.ENDS, ReasonKind.DEAD_END):
            kind = END
        else:
            kind = LOST
        for s in r.squares:
            if out.get(int(s)) in (None, TIE, CLOSED) or kind == LOST:
                out[int(s)] = kind
    return out


class PlayMarksItem(SquareMarksItem):
    """The marks of :func:`marks_of`, painted in device pixels (readable at any zoom)."""

    def __init__(self) -> None:
        super().__init__(28)        # over the numbers, under the candidates' rings

    def set_marks(self, marks: dict[int, str], rows: int, cols: int) -> None:
        """Mark the squares of ``marks`` (square → kind) on a ``rows`` × ``cols`` board."""
        self._set_items(sorted(marks.items()), rows, cols)

    def marks(self) -> list[tuple[int, int, str]]:
        """``(col, row, kind)`` of each mark (for tests)."""
        return list(self._items)

    def draw(self, p, t, px: float) -> None:
        """Draw each mark: cross, "end" ring, frame or tie ring."""
        font = QFont()
        font.setBold(True)
        font.setPixelSize(max(int(px * 0.22), 8))
        p.setFont(font)
        for col, row, kind in self._items:
            c = t.map(QPointF(col + 0.5, row + 0.5))
            h = max(px * 0.40, 4.0)
            colour = _COLOUR[kind]
            p.setBrush(Qt.BrushStyle.NoBrush)
            if kind == LOST:
                p.setPen(QPen(colour, max(px * 0.08, 2.0)))
                p.drawLine(QPointF(c.x() - h, c.y() - h), QPointF(c.x() + h, c.y() + h))
                p.drawLine(QPointF(c.x() - h, c.y() + h), QPointF(c.x() + h, c.y() - h))
            elif kind == END:
                p.setPen(QPen(colour, max(px * 0.06, 2.0), Qt.PenStyle.DashLine))
                p.drawEllipse(c, h, h)
                if px >= 24:
                    p.drawText(QRectF(c.x() - h, c.y() + h * 0.2, 2 * h, h * 0.8),
                               Qt.AlignmentFlag.AlignCenter, "end")
            elif kind == CLOSED:
                p.setPen(QPen(colour, max(px * 0.06, 2.0), Qt.PenStyle.DotLine))
                p.drawRect(QRectF(c.x() - h, c.y() - h, 2 * h, 2 * h))
            else:                       # a tie: a thick ring around the candidate's own
                p.setPen(QPen(colour, max(px * 0.1, 3.0)))
                p.drawEllipse(c, h * 1.18, h * 1.18)


class PlayOverlay:
    """Draws a :class:`PlayModel`'s position on a board view (see the module docstring)."""

    def __init__(self, view) -> None:
        self.view = view
        self.marks = PlayMarksItem()
        self.finish = TourPathItem(colour=(90, 90, 200))
        self.finish.setOpacity(0.45)
        self.finish.setZValue(9)        # under the path
        for it in (self.marks, self.finish):
            view.vb.addItem(it)
        self.finish_shown: tuple[int, ...] = ()

    def show(self, model: PlayModel, finish: tuple[int, ...] = ()) -> None:
        """The model's position (see the module docstring), ``finish`` (the squares after
        the path's last) dimmed."""
        v = self.view
        b = model.board
        if v.board != b:
            v.set_board(board=b)
        path = np.asarray(model.path, dtype=np.int32)
        v.set_tour(path, closed=model.closed, board=b)
        hint = model.hint() if model.hint_shown else None
        choice = hint.choice if hint is not None else -1
        v.set_candidates(list(model.legal()), choice)
        verdict = None if model.finished else model.verdict   # a tour: nothing to warn of
        self.marks.set_marks(marks_of(verdict, hint.ties if hint else (), choice),
                             b.rows, b.cols)
        self.show_finish(model, finish)

    def show_finish(self, model: PlayModel, finish: tuple[int, ...]) -> None:
        """Draw ``finish`` dimmed from the piece's square (nothing when empty)."""
        b = model.board
        self.finish_shown = tuple(finish)
        if not finish or not model.path:
            self.finish.set_path(None, b.rows, b.cols)
            return
        p = np.asarray((model.path[-1], *finish), dtype=np.int32)
        steps = None
        if b.wraps:
            with contextlib.suppress(ValueError):
                steps = b.move_steps(p)
        self.finish.set_path(p, b.rows, b.cols, steps=steps)

    def clear(self) -> None:
        """Play mode off: no marks, no candidates, no finish."""
        v = self.view
        self.marks.set_marks({}, v.rows, v.cols)
        self.finish.set_path(None, v.rows, v.cols)
        self.finish_shown = ()
        v.set_candidates([])
