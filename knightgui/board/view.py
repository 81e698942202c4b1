"""The board view: one pyqtgraph view for any board from 5×5 to 2000×2000.

Layers, bottom to top, each ONE item for the whole board: the board image (checkerboard, or
colour by move number), the tie highlight, the tour polyline, the move numbers, the start
and end markers, and the candidates' labels. A click sets the start, a shift- or right-click
the end; the wheel and a drag zoom and pan. The whole board stays in view until zoomed or
panned by hand; Zoom to fit (F) fits it again.
"""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import QGraphicsItem, QToolTip
from shiboken6 import isValid

from knightgui.board.images import TIE_RGBA, checker_rgba, colour_lut, moves_rgba, numbers_of
from knightgui.board.items import NumbersItem, TourPathItem
from knightgui.board.marks import CandidatesItem, EdgeLabelsItem, MarkersItem
from knightgui.board.sums import band_px
from knightgui.board.symmetry import SymmetryItem
from knightgui_core.board.leaps import moves_from
from knightgui_core.board.squares import Board

#: In ``auto`` colour mode, boards with at least this many squares are coloured by move.
AUTO_COLOUR_SQUARES = 48 * 48
#: Boards of at most this many squares keep their checkerboard and labels as pixmaps.
CACHED_SQUARES = 48 * 48
COLOUR_MODES = ("auto", "checker", "moves")


class BoardView(pg.GraphicsView):
    """Shows a board and an optional (possibly partial) tour path."""

    squareClicked = Signal(int, bool)  # flat square, True = set the end
    squareHovered = Signal(int)        # flat square, -1 when off the board

    def __init__(self, parent=None):
        super().__init__(parent, background=(250, 250, 248))
        self.vb = pg.ViewBox(lockAspect=True, enableMenu=False, invertY=False,
                             defaultPadding=0.08)
        self.setCentralItem(self.vb)
        self.image = pg.ImageItem(axisOrder="row-major")
        self.ties_image = pg.ImageItem(axisOrder="row-major")
        self.ties_image.setZValue(5)
        self.path_item = TourPathItem()
        self.numbers_item = NumbersItem()
        self.markers = MarkersItem()
        self.candidates = CandidatesItem()
        self.labels = EdgeLabelsItem()
        for it in (self.image, self.ties_image, self.path_item, self.numbers_item,
                   self.markers, self.candidates, self.labels):
            self.vb.addItem(it)
        self.symmetry_item = SymmetryItem()      # every-tour mode's centre or axis
        self.vb.addItem(self.symmetry_item)
        self.rows = self.cols = 0
        self.board = Board(8, 8)     # the board's edges and piece (set_board)
        self.path = np.zeros(0, dtype=np.int32)
        self.closed = self.show_ties = False
        self.numbers = self.ties = self._checker = self._shown_image = None
        self.start_sq = self.end_sq = -1
        self.colour_mode = "auto"
        self.show_numbers = self.show_path = True
        self.colour_map = "viridis"
        self._hover = -1
        self.zoomed_by_hand = False        # a wheel or a drag moved the view: no refit
        self.sums_tip_shown = ""           # the tooltip of the sum under the pointer
        self.vb.sigRangeChangedManually.connect(self._zoomed)
        self.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self.scene().sigMouseClicked.connect(self._on_mouse_clicked)
        self.set_board(8, 8)

    # ------------------------------------------------------------------ state
    def set_board(self, rows: int | None = None, cols: int | None = None, fit: bool = True,
                  board: Board | None = None):
        """A new empty board (clears the tour, keeps the markers that still fit): ``rows`` ×
        ``cols`` of the knight on the plane, or ``board`` (its edges may wrap, its piece may
        be another leaper: moves across an edge are drawn as two halves)."""
        if board is None:
            board = Board(int(rows or 8), int(cols or 8))
        rows, cols = board.rows, board.cols
        changed = (rows, cols) != (self.rows, self.cols)
        self.rows, self.cols = rows, cols
        self.board = board
        self._checker = None
        if changed:
            n = rows * cols
            self.start_sq = self.start_sq if 0 <= self.start_sq < n else -1
            self.end_sq = self.end_sq if 0 <= self.end_sq < n else -1
        self.path = np.zeros(0, dtype=np.int32)
        self.numbers = self.ties = None
        self.candidates.set_candidates([], rows, cols)
        self.labels.set_board(rows, cols)
        self.symmetry_item.set_symmetry(self.symmetry_item.name, rows, cols)
        self._refresh()
        if fit or changed:
            self.fit()

    def set_tour(self, path, closed: bool = False, ties=None, rows: int | None = None,
                 cols: int | None = None, board: Board | None = None):
        """Show ``path`` (flat squares, may be partial). ``ties``: bool per move, or None.
        ``board`` (or ``rows`` and ``cols``, the knight on the plane): the board it is on
        when that is not the board shown."""
        if board is None and rows is not None and cols is not None:
            board = Board(rows, cols) if (rows, cols) != (self.rows, self.cols) else None
        if board is not None and board != self.board:
            self.set_board(board=board)
        self.path = np.asarray(path, dtype=np.int32)
        self.closed = (bool(closed) and len(self.path) == self.rows * self.cols > 2
                       and self.board.is_knight_move(int(self.path[-1]), int(self.path[0])))
        self.ties = None if ties is None else np.asarray(ties, dtype=bool)[: len(self.path)]
        self.numbers = numbers_of(self.path, self.rows, self.cols)
        self._refresh()
        if 0 <= self._hover < self.rows * self.cols:   # the square under the pointer: its
            self.squareHovered.emit(self._hover)       # move and outlets are the new tour's

    def clear_tour(self):
        """Show the empty board."""
        self.set_tour(np.zeros(0, dtype=np.int32))

    def set_symmetry(self, name: str) -> None:
        """Draw the centre or axis of a board symmetry (``""``: none)."""
        self.symmetry_item.set_symmetry(name, self.rows, self.cols)

    def set_markers(self, start: int = -1, end: int = -1):
        """Mark the start and end squares (flat, -1: none)."""
        self.start_sq, self.end_sq = int(start), int(end)
        self._refresh_markers()

    def set_candidates(self, items, chosen: int = -1):
        """Label ``items`` = [(square, outlets), ...] (the candidates of the animation and of
        Watch); a square with a move number keeps it, its outlets go to a corner."""
        nums = self.numbers
        numbered = frozenset() if nums is None else frozenset(
            int(s) for s, _ in items if 0 <= int(s) < nums.size and nums.flat[int(s)] > 0)
        self.candidates.set_candidates(items, self.rows, self.cols, chosen, numbered)

    def set_colour_mode(self, mode: str):
        """Colour the squares: ``auto``, ``checker`` or ``moves`` (by move number)."""
        if mode not in COLOUR_MODES:
            raise ValueError(f"colour mode must be one of {COLOUR_MODES}")
        self.colour_mode = mode
        self._refresh()

    def set_options(self, numbers: bool | None = None, path: bool | None = None,
                    ties: bool | None = None, sums: bool | None = None):
        """Show or hide move numbers, the path, the tie highlight and a whole tour's row and
        column sums."""
        if sums is not None:
            self.numbers_item.set_show_sums(sums)
        for name, on in (("show_numbers", numbers), ("show_path", path), ("show_ties", ties)):
            if on is not None:
                setattr(self, name, bool(on))
        self._refresh()

    def effective_colour_mode(self) -> str:
        """The colouring used now (``auto``: ``moves`` on boards too big for a checkerboard)."""
        if self.colour_mode != "auto":
            return self.colour_mode
        return "moves" if self.rows * self.cols >= AUTO_COLOUR_SQUARES else "checker"

    def fit(self):
        """Zoom so that the whole board, its labels and its sums are in view (F), and stay so
        as the view is resized."""
        self.zoomed_by_hand = False
        rows, cols = max(self.rows, 1), max(self.cols, 1)
        mx, my = 0.08 * cols, 0.08 * rows                # room for the labels
        vp = self.viewport()
        if self.numbers_item.show_sums:
            for _ in range(2):          # the sums' room in squares depends on a square's px
                px = min(vp.width() / (cols + 2 * mx), vp.height() / (rows + 2 * my))
                wide, high = band_px(px, rows, cols)
                if not wide:
                    break
                mx, my = max(0.08 * cols, wide / px), max(0.08 * rows, high / px)
        self.vb.setRange(xRange=(-mx, cols + mx), yRange=(-my, rows + my), padding=0)

    def _zoomed(self, *_: object) -> None:
        self.zoomed_by_hand = True

    def resizeEvent(self, ev) -> None:  # noqa: N802 - Qt's name
        """A new size of the view: the board fits it again (unless zoomed by hand)."""
        super().resizeEvent(ev)
        vb = getattr(self, "vb", None)
        # not while being built (no flag yet) nor taken down (its view box deleted)
        if not getattr(self, "zoomed_by_hand", True) and vb is not None and isValid(vb):
            self.fit()

    # -------------------------------------------------------------- queries
    def square_at(self, x: float, y: float) -> int:
        """The flat square under a point of the scene, or -1."""
        col, row = int(np.floor(x)), int(np.floor(y))
        if 0 <= col < self.cols and 0 <= row < self.rows:
            return row * self.cols + col
        return -1

    def move_number(self, sq: int) -> int:
        """Move number of ``sq`` in the shown path (0 when not visited)."""
        if self.numbers is None or sq < 0:
            return 0
        return int(self.numbers.flat[sq])

    def outlets(self, sq: int) -> int:
        """Outlets of ``sq``: its moves, or in a shown path those still unvisited when the
        piece arrived on it."""
        if sq < 0:
            return 0
        nb = [u for u in moves_from(self.board, sq) if u >= 0]     # no table: no numba
        k, numbers = self.move_number(sq), self.numbers
        if k == 0 or numbers is None:
            return len(nb)
        return sum(1 for s in nb if numbers.flat[s] == 0 or numbers.flat[s] > k)

    # ------------------------------------------------------------- drawing
    def _refresh(self):
        rows, cols = self.rows, self.cols
        dark = None
        if (self.effective_colour_mode() == "moves" and len(self.path) > 1
                and self.numbers is not None):
            lut = colour_lut(self.colour_map)
            rgba, dark = moves_rgba(self.numbers, rows * cols, lut), lut[1]
        else:
            if self._checker is None:
                self._checker = checker_rgba(rows, cols)
            rgba = self._checker
        if rgba is not self._shown_image:   # stepping on a checkerboard: nothing to redo
            self._shown_image = rgba
            self.image.setImage(rgba, autoLevels=False)
            self.image.setRect(0, 0, cols, rows)
        # a small board's checkerboard and edge labels stay the same from tour to tour: kept
        # as pixmaps at screen resolution (redrawn on zoom), a step repaints only the tour
        static = rgba is self._checker and rows * cols <= CACHED_SQUARES
        mode = (QGraphicsItem.CacheMode.DeviceCoordinateCache if static
                else QGraphicsItem.CacheMode.NoCache)
        if self.image.cacheMode() != mode:
            self.image.setCacheMode(mode)
            self.labels.setCacheMode(mode)
        if self.show_ties and self.ties is not None and self.ties.any():
            t = np.zeros((rows, cols, 4), dtype=np.uint8)
            t.reshape(-1, 4)[self.path[self.ties]] = TIE_RGBA
            self.ties_image.setImage(t, autoLevels=False)
            self.ties_image.setRect(0, 0, cols, rows)
            self.ties_image.setVisible(True)
        else:
            self.ties_image.setVisible(False)
        moves = self.effective_colour_mode() == "moves"
        self.path_item.set_style(moves)
        self.path_item.set_path(self.path if self.show_path else None, rows, cols, self.closed,
                                self.numbers, self._steps())
        self.numbers_item.set_numbers(self.numbers if self.show_numbers else None, dark,
                                      rows * cols)
        self._refresh_markers()

    def _steps(self) -> np.ndarray | None:
        """The leap of each move drawn when the board wraps (None on the plane: a move is
        the line between its squares there)."""
        if not self.board.wraps or not self.show_path or len(self.path) < 2:
            return None
        p = self.path
        if self.closed:
            p = np.append(p, p[0])
        try:
            return self.board.move_steps(p)
        except ValueError:      # not a walk of this board (a bug upstream): draw it plainly
            return None

    def _refresh_markers(self):
        """The shown tour's start and end, else the requested ones; a requested start other
        than the tour's is drawn as a ring instead: the start the next Solve uses."""
        items = []
        if len(self.path):
            if self.start_sq >= 0 and self.start_sq != int(self.path[0]):
                items.append((self.start_sq, "want"))
            else:
                items.append((int(self.path[0]), "start"))
            # the end of a tour, or where a partial walk stands (stuck, or being animated)
            items.append((int(self.path[-1]), "end"))
        else:
            items = [(self.start_sq, "start"), (self.end_sq, "end")]
        self.markers.set_markers(items, self.rows, self.cols)

    # --------------------------------------------------------------- mouse
    def _on_mouse_moved(self, pos):
        try:
            p = self.vb.mapSceneToView(pos)
            sq = self.square_at(p.x(), p.y())
            self._show_sums_tip(self.numbers_item.sums_tip(p.x(), p.y()))
        except Exception:  # noqa: BLE001 - never raise out of a Qt slot
            sq = -1
        if sq != self._hover:
            self._hover = sq
            self.squareHovered.emit(sq)

    def _show_sums_tip(self, tip: str) -> None:
        """The tooltip of the row or column sum under the pointer (hidden off them)."""
        if tip == self.sums_tip_shown:
            return
        self.sums_tip_shown = tip
        if tip:
            QToolTip.showText(QCursor.pos(), tip, self.viewport())
        else:
            QToolTip.hideText()

    def _on_mouse_clicked(self, ev):
        try:
            p = self.vb.mapSceneToView(QPointF(ev.scenePos()))
            sq = self.square_at(p.x(), p.y())
            if sq < 0 or ev.double():
                return
            end = (ev.button() == Qt.MouseButton.RightButton
                   or bool(ev.modifiers() & Qt.KeyboardModifier.ShiftModifier))
            if ev.button() in (Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton):
                self.squareClicked.emit(sq, end)
        except Exception:  # noqa: BLE001
            return
