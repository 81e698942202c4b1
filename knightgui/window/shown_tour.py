"""A tour or a walk from elsewhere (a file, the Analysis view) put on the window: its board,
the controls on its start (and its end, when the run as set takes one), and the panels saying
what it is — a walk that did not finish in amber, not in the green of a tour."""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from knightgui_core.board.tour import Tour
from knightgui_core.walks.result import Walk

if TYPE_CHECKING:
    from PySide6.QtWidgets import QStatusBar

    from knightgui.animation.player import ConstructionAnimator
    from knightgui.board.view import BoardView
    from knightgui.panels.controls.panel import ControlsPanel
    from knightgui.panels.counter import CounterPanel, TimingPanel
    from knightgui.panels.options_matrix import OptionsMatrixView
    from knightgui.solutions.results import ResultsPresenter

__all__ = ["show_from_elsewhere", "follow", "Window"]


class Window(Protocol):
    """What :func:`show_from_elsewhere` uses of the window (the explorer window)."""

    animator: ConstructionAnimator
    results: ResultsPresenter
    controls: ControlsPanel
    view: BoardView
    matrix: OptionsMatrixView
    counter: CounterPanel
    timing: TimingPanel

    def statusBar(self) -> QStatusBar: ...  # noqa: N802 - Qt's name


def follow(controls: ControlsPanel, tour: Tour | Walk) -> None:
    """Put ``controls`` on the start of ``tour`` (the board draws one start: no ring for a
    requested start elsewhere) and, for a closed tour when the run takes an end, on its end
    (the End field names the square the tour ends on)."""
    if not len(tour.path):
        return
    controls.set_start(int(tour.path[0]))
    if tour.closed and controls.model.uses_end():
        controls.set_end(int(tour.path[-1]))


def show_from_elsewhere(w: Window, tour: Tour | Walk) -> None:
    """Show ``tour`` (a :class:`Tour`, or a :class:`Walk` that may have got stuck) on
    ``w``'s board, counter, options matrix and timing."""
    walk = isinstance(tour, Walk)
    b = tour.board
    w.animator.stop(restore=False)
    w.results.forget()
    w.controls.set_board(b.rows, b.cols, board=b)
    w.view.set_board(board=b)
    follow(w.controls, tour)          # the controls' changes mark the old figures stale first
    w.results.stale = False           # the figures are this tour's now
    w.results.tour = None if walk else tour
    w.results.ties = None
    if isinstance(tour, Walk):
        w.view.set_tour(tour.path, False)
        w.matrix.clear("Walk from the analysis: no options matrix")
        done = tour.complete
        w.counter.set_counts(state="complete walk" if done else
                             f"incomplete walk: {len(tour):,} of {b.size:,} squares",
                             warning=not done)
        w.counter.show_identity(None)
        w.timing.clear("walk from the analysis")
        w.statusBar().showMessage(tour.message or "incomplete walk")
    else:
        w.view.set_tour(tour.path, tour.closed)
        w.counter.show_identity(tour)
        w.matrix.clear("Tour from elsewhere: no options matrix")
        w.counter.set_counts(state="tour shown")
        w.timing.clear("tour from elsewhere")
