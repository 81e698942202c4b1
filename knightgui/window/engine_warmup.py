"""The engine's warm-up as the window sees it: run in a daemon thread from the first frame,
shown in the status bar, waited for by a feature whose kernels are not ready yet.

* :class:`EngineWarmUp` runs :func:`knightgui_core.warmup.warm_up` (named stages, one per
  feature); its thread only calls the engine and emits a signal, handled on the GUI thread,
  which alone touches widgets. :meth:`EngineWarmUp.when_ready` holds a feature until its
  stages are done (those stages first), :meth:`EngineWarmUp.forget` drops it (Cancel).
* :class:`EngineStatus`: the status bar's "Preparing the engine — n of m" label (at most
  its width, whole in its tooltip) and bar, hidden when the warm-up is over.
* :func:`stages_for`: the stages a window request needs.

One warm-up a process (:func:`engine`: the window, the Analysis view and ``knightgui.app``);
in the bundle every stage is done at once (the kernels are compiled ahead of time).
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QHBoxLayout, QProgressBar, QStatusBar, QWidget

from knightgui.window.status_line import ElidedLabel
from knightgui_core.warmup import STAGES, Stage, default_jobs, warm_up

if TYPE_CHECKING:
    from knightgui.request.model import Request

log = logging.getLogger("knightgui.warmup")

#: what the status bar says while a feature waits for its kernels
WAIT_TEXT = "Preparing the engine: this first run waits for it"


def progress_text(done: int, total: int, name: str) -> str:
    """The status bar's line while the warm-up runs."""
    return f"Preparing the engine — {done} of {total}" + (f" ({name})" if name else "")


class EngineWarmUp(QObject):
    """The process's warm-up (see the module docstring). ``stages``: the stage list (None:
    the engine's own, :data:`knightgui_core.warmup.STAGES`; tests give slow fake ones)."""

    #: done, total, the stage now running ("" when the warm-up is over); GUI thread
    progressed = Signal(int, int, str)
    #: the warm-up is over; GUI thread
    finished = Signal()
    _reported = Signal(int, int, str)        # from the warm-up thread, delivered queued

    def __init__(self, stages: Sequence[Stage] | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self._stages = None if stages is None else tuple(stages)
        self.worker: threading.Thread | None = None
        self.total = len(STAGES if stages is None else stages)
        self.done = 0
        self.over = False
        self.ready_names: set[str] = set()
        self.current = ""
        self._wanted: tuple[str, ...] = ()   # read by the warm-up thread between stages
        self._pending: dict[str, tuple[frozenset[str], Callable[[], object]]] = {}
        self._reported.connect(self._on_report)

    # ------------------------------------------------------------------ running
    def start(self) -> threading.Thread:
        """Start the warm-up thread (once; later calls return the same thread)."""
        if self.worker is None:
            self.worker = threading.Thread(target=self._run, name="knightgui-warm-up",
                                           daemon=True)
            self.worker.start()
            self.progressed.emit(0, self.total, "")   # shown before numba is loaded
        return self.worker

    def _run(self) -> None:
        """The warm-up thread: the engine's stages; every report goes through a signal."""
        try:
            warm_up(self._reported.emit, self._stages, first=lambda: self._wanted,
                    jobs=default_jobs())
        except BaseException:  # noqa: BLE001 - the window must never wait for a dead thread
            log.warning("the engine's warm-up stopped", exc_info=True)
            self._reported.emit(self.total, self.total, "")

    def _on_report(self, done: int, total: int, name: str) -> None:
        if self.current and done > self.done:
            self.ready_names.add(self.current)
        self.current, self.done, self.total = name, done, total
        if done >= total and not name:
            self.over = True
        self.progressed.emit(done, total, name)
        for key, (names, callback) in list(self._pending.items()):
            if self.ready(names):
                del self._pending[key]
                self._update_wanted()
                try:
                    callback()
                except Exception:  # noqa: BLE001 - one feature's failure stops no other
                    log.exception("a feature that waited for the engine failed")
        if self.over:
            self.finished.emit()

    # ----------------------------------------------------------------- features
    def ready(self, names: Iterable[str]) -> bool:
        """Whether a feature needing the stages ``names`` may start now: the warm-up is over
        (or its thread has ended) or never started, or each of them is done."""
        if self.worker is None or self.over or not self.worker.is_alive():
            return True
        return set(names) <= self.ready_names

    def when_ready(self, names: Iterable[str], callback: Callable[[], object],
                   key: str) -> bool:
        """Call ``callback`` now if :meth:`ready` (True), else once the stages ``names``
        are done, those stages first (False). A later call with the same ``key`` replaces
        this one."""
        wanted = frozenset(names)
        if self.ready(wanted):
            self._pending.pop(key, None)
            self._update_wanted()
            callback()
            return True
        self._pending[key] = (wanted, callback)
        self._update_wanted()
        return False

    def waiting(self, key: str) -> bool:
        """Whether a feature under ``key`` waits for the engine."""
        return key in self._pending

    def forget(self, key: str) -> bool:
        """Drop the waiting feature under ``key`` (Cancel); True when there was one."""
        had = self._pending.pop(key, None) is not None
        self._update_wanted()
        return had

    def _update_wanted(self) -> None:
        wanted: list[str] = []
        for names, _ in self._pending.values():
            wanted += sorted(n for n in names if n not in wanted)
        self._wanted = tuple(wanted)

    def wait_text(self) -> str:
        """The status line of a feature that waits (the progress is beside it)."""
        return WAIT_TEXT


#: what the progress widget's tooltip says the warm-up is
_ABOUT = ("The engine's kernels are compiled the first time (about a minute, once; "
          "`knightgui warmup` does it at install) and loaded from the cache after that. A "
          "feature asked for meanwhile starts when its kernels are ready.")


class EngineStatus(QWidget):
    """The status bar's warm-up progress: "Preparing the engine — n of m (stage)" and a small
    bar; hidden until the warm-up reports and once it is over."""

    def __init__(self, warm: EngineWarmUp, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("engine_status")
        self.label = ElidedLabel()
        self.label.setObjectName("engine_progress")
        # room for the usual line; a longer stage name ends in "…" (whole in the tooltip)
        # rather than taking the width the status message needs
        self.label.setMaximumWidth(self.label.fontMetrics().horizontalAdvance(
            progress_text(10, 10, "every tie followed")) + 4)
        self.bar = QProgressBar()
        self.bar.setMaximumWidth(110)
        self.bar.setMaximumHeight(14)
        self.bar.setTextVisible(False)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 6, 0)
        row.addWidget(self.label)
        row.addWidget(self.bar)
        self.setToolTip(_ABOUT)
        warm.progressed.connect(self.show_progress)
        if warm.worker is not None and not warm.over and warm.total:
            self.show_progress(warm.done, warm.total, warm.current)
        else:
            self.setVisible(False)

    def show_progress(self, done: int, total: int, name: str) -> None:
        """Show ``done`` of ``total`` stages (hidden and cleared when all are done)."""
        if done >= total and not name:
            self.label.clear()
            self.setVisible(False)
            return
        text = progress_text(done, total, name)
        self.label.setText(text)
        self.setToolTip(f"{text}\n\n{_ABOUT}")
        self.bar.setRange(0, max(total, 1))
        self.bar.setValue(done)
        self.setVisible(True)


def stages_for(req: Request, watch: bool = False) -> tuple[str, ...]:
    """The warm-up stages a window request needs (``watch``: it is watched)."""
    classic = (req.topology, tuple(req.leaper)) == ("plane", (1, 2))
    if req.mode == "exhaustive":
        if req.all_tours:
            return ("every tour",)
        names = ["every tie followed"]
        if req.rows * req.cols > 64:           # the general kernels (bitboards hold 64)
            names.append("every tie followed, over 64 squares")
        return (*names, "watch") if watch else tuple(names)
    if watch:
        return ("watch",)
    if not classic:
        return ("other boards and pieces",)
    names = ["tours"]
    if req.closed:
        names.append("closed tours")
    small = req.rows * req.cols <= 64 * 64
    if req.method == "backtrack" or getattr(req.tie, "switching", False) or (
            req.method == "auto" and small and not req.closed):
        names.append("backtracking")
    # closed boards are built from the pieces "closed tours" compiles; open ones and strips
    # of 3 or 4 rows from those of "huge boards"
    if req.method == "construct" or min(req.rows, req.cols) <= 4 or (not small and not req.closed):
        names.append("huge boards")
    return tuple(names)


#: the stage each study of the Analysis view needs (by the kind its page runs)
STUDY_STAGES: dict[str, tuple[str, ...]] = {"orders": ("move orders",),
                                            "tiebreaks": ("tie-break studies",),
                                            "count": ("tour counts",),
                                            "frontier": ("every tour",)}

_ENGINE: EngineWarmUp | None = None


def engine() -> EngineWarmUp:
    """The process's one :class:`EngineWarmUp` (made on first use, on the GUI thread)."""
    global _ENGINE
    if _ENGINE is None:
        _ENGINE = EngineWarmUp()
    return _ENGINE


def show_in(bar: QStatusBar) -> tuple[EngineWarmUp, EngineStatus]:
    """The process's warm-up and its progress, added to the status bar ``bar``."""
    warm = engine()
    status = EngineStatus(warm)
    bar.addPermanentWidget(status)
    return warm, status
