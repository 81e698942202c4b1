"""A tour by hand: play mode in the window.

:class:`PlayController` joins the Qt-free :class:`knightgui.play.model.PlayModel` to the
window: the Mode box's "Play" (Ctrl+P) turns it on; a click on the board plays the square
(the first is the start, a square of the path takes the path back to it), the board shows
the position (:class:`knightgui.play.view.PlayOverlay`), and the Play group and menu give
Undo, Redo, Hint, "Can it be finished?" and "Finish it". Both searches run on the solver
thread (:class:`knightgui.worker.PlayRequest`), cancelled by the next move, New, Esc or
leaving play. Every answer is one status line; the position is kept by
:mod:`knightgui.play.files`.
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QAction

from knightgui.play.files import PlayFiles
from knightgui.play.model import PlayModel, PlayRefused
from knightgui.play.view import PlayOverlay
from knightgui.request.model import RESULT_FIELDS
from knightgui.window.actions import action
from knightgui.worker import PlayRequest

if TYPE_CHECKING:     # the engine's search modules load numba: imported where they are used
    from knightgui_core.walks.hand.completions import Completions
    from knightgui_core.walks.hand.finish import RuleFinish

log = logging.getLogger("knightgui.window")
__all__ = ["PlayController", "PLAY_STAGES"]

#: the warm-up stages play needs before its first click (an empty cache)
PLAY_STAGES = ("neighbour tables", "a tour by hand")


#: the tooltip of "Can it be finished?" and "Finish it" while the tour is complete
_COMPLETE_TIP = ("the tour is complete: every square is visited, nothing is left to finish "
                 "(Undo, Ctrl+Z, takes a move back)")


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


class PlayController(QObject):
    """Play mode of one main window (see the module docstring)."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.w = window
        self.model = PlayModel(window.controls.board())
        self.overlay = PlayOverlay(window.view)
        self.group = window.controls.play_box
        self.active = False
        self._gen = -1                   # the generation of our request on the solver thread
        self._asking: PlayRequest | None = None
        self._finish: tuple[int, ...] = ()     # the example finish drawn dimmed
        self._other_mode = "single"
        self._budget = 10.0                   # seconds the last count was given
        self._is_busy = False                 # a count or a finish runs on the thread
        self._ask_tip = self.group.ask_btn.toolTip()
        self._finish_tip = self.group.finish_btn.toolTip()
        self._make_actions()
        self._ask_act_tip = self.act_ask.toolTip()
        self._finish_act_tip = self.act_finish.toolTip()
        g = self.group
        for btn, slot in ((g.undo_btn, self.undo), (g.redo_btn, self.redo),
                          (g.hint_btn, self.hint), (g.new_btn, self.new),
                          (g.ask_btn, self.ask), (g.finish_btn, self.finish)):
            btn.clicked.connect(slot)
        # a click plays in play mode, and sets the start (or end) otherwise
        window.view.squareClicked.disconnect(window._square_clicked)
        window.view.squareClicked.connect(self._clicked)
        window.worker.playDone.connect(self._answered)
        window.worker.failed.connect(self._failed)
        window.controls.cancelRequested.connect(self.cancel)
        window.act.cancel.triggered.connect(self.cancel)
        window.controls.model.observe(self._controls_changed)
        self.model.observe(self._model_changed)
        self.files = PlayFiles(self)         # File ▸ Open and Save, the settings
        self._controls_changed(frozenset({"mode"}))
        # the window sets its board after restoring the settings: a restored position then
        QTimer.singleShot(0, lambda: self._redraw() if self.active else None)

    def _make_actions(self) -> None:
        w = self.w

        def A(text: str, slot, key: str, tip: str, checkable: bool = False) -> QAction:
            return action(w, text, slot, key, checkable, tip)

        self.act_mode = A("Play a tour by hand", self.toggle_mode, "Ctrl+P",
                          "play mode: click the squares of a tour yourself", True)
        self.act_undo = A("Undo move", self.undo, "Ctrl+Z", "take the last move back")
        self.act_redo = A("Redo move", self.redo, "Ctrl+Shift+Z", "play the move undone again")
        self.act_hint = A("Hint", self.hint, "H", "the rule's next square and its ties")
        self.act_ask = A("Can it be finished?", self.ask, "C",
                         "count the ways to finish the path (on the solver thread)")
        self.act_finish = A("Finish it", self.finish, "", "the rule finishes the tour "
                            "(Solve, Ctrl+R, does the same in play mode)")
        bar = w.menuBar()
        menu = bar.addMenu("&Play")
        help_menu = next((a for a in bar.actions() if a.text() == "&Help"), None)
        if help_menu is not None:               # Play before Help
            bar.insertMenu(help_menu, menu)
        menu.addAction(self.act_mode)
        menu.addSeparator()
        for a in (self.act_undo, self.act_redo, self.act_hint, self.act_ask, self.act_finish):
            menu.addAction(a)
        self.menu = menu

    # ------------------------------------------------------------ the mode
    def toggle_mode(self, *_: object) -> None:
        """Play mode on or off (Ctrl+P): the Mode box follows."""
        m = self.w.controls.model
        if self.act_mode.isChecked():
            if m.settings.mode != "play":
                self._other_mode = m.settings.mode
            m.update(mode="play")
        else:
            m.update(mode=self._other_mode if self._other_mode != "play" else "single")

    def _controls_changed(self, changed: frozenset) -> None:
        st = self.w.controls.model.settings
        if changed & {"tie", "order", "seed"}:
            self.model.set_rule(st.tie, st.order, st.seed)
        on = st.mode == "play"
        if on and (changed & {"rows", "cols", "topology", "leaper"} or not self.active):
            board = self.w.controls.board()
            if board != self.model.board:
                self._stop_asking()
                self.model.reset(board)
        if on != self.active:
            self._enter() if on else self._leave()
        elif on and changed & RESULT_FIELDS:
            self._panels()
        self.act_mode.setChecked(on)
        for a in (self.act_undo, self.act_redo, self.act_hint):
            a.setEnabled(on)
        self._enable_questions()

    def _enter(self) -> None:
        w = self.w
        self.active = True
        w.results.cancel()
        w.watcher.stop(quiet=True)
        w.animator.stop(restore=False)
        st = w.controls.model.settings
        self.model.set_rule(st.tie, st.order, st.seed)
        self._redraw()
        self._panels()
        if not w.engine.when_ready(PLAY_STAGES, lambda: None, "play"):
            self.say(w.engine.wait_text())
        elif not self.model.path:
            self.say("Play: click a square to start; the numbers are the onward moves")
        else:
            self.say(f"Play: {self.position_text()}")

    def _panels(self) -> None:
        """The solver's docks say what play mode is, each in its own words."""
        w = self.w
        w.matrix.clear("Play mode: a tour by hand — no options matrix (Exhaustive mode "
                       "shows one for each tour)")
        w.counter.set_counts(state="Your moves: the Play group in the Controls panel "
                                   "(Solve finishes the tour by the rule)")
        w.counter.show_identity(None)
        w.timing.clear("play mode")

    def _leave(self) -> None:
        self.active = False
        self._stop_asking()
        self.overlay.clear()
        self.w.view.clear_tour()
        self.say("Play mode off — press Solve (Ctrl+R)")

    # ------------------------------------------------------------ moves
    def _clicked(self, sq: int, as_end: bool) -> None:
        if not self.active:
            self.w._square_clicked(sq, as_end)
            return
        if not self.w.engine.ready(PLAY_STAGES):
            self.say(self.w.engine.wait_text())
            return
        first = not self.model.path
        try:
            text = self.model.click(sq)
        except PlayRefused as e:
            self.say(f"Refused: {e}")
            return
        if first:
            self.w.controls.set_start(sq)
        self.say(text if self.model.finished else f"{text} — {self.position_text()}")

    def undo(self, *_: object) -> None:
        """Take the last move back (Ctrl+Z)."""
        if self.active:
            self.say("Undone — " + self.position_text() if self.model.undo()
                      else "Nothing to undo")

    def redo(self, *_: object) -> None:
        """Play the last move undone again (Ctrl+Shift+Z)."""
        if self.active:
            self.say("Redone — " + self.position_text() if self.model.redo()
                      else "Nothing to redo")

    def new(self, *_: object) -> None:
        """Clear the board: the next click is a new start."""
        if self.active:
            self._stop_asking()
            self.model.reset()
            self.say("New tour: click a square to start")

    def hint(self, *_: object) -> None:
        """Show the rule's next square and the squares tying with it (H); again hides it."""
        if not self.active:
            return
        if not self.model.path:
            self.say("Hint: click a start square first")
            return
        try:
            h = self.model.show_hint(not self.model.hint_shown)
        except ValueError as e:                  # PlayError: a board too big for hints
            self.say(f"Refused: {e}")
            return
        if h is None:
            self.say("Hint hidden")
            return
        if h.choice < 0:
            self.say("Hint: the piece has no square left to go to")
            return
        n = self.model.name
        onward = dict(h.ranked)[h.choice]
        others = [n(s) for s in h.ties if s != h.choice]
        tie = (f"; {', '.join(others)} tie{'s' if len(others) == 1 else ''} with it, "
               f"the {h.rule.label} rule breaks the tie" if others else "; no tie")
        self.say(f"Hint: {n(h.choice)} ({_plural(onward, 'onward move')}){tie}"
                  + (f" ({h.note})" if h.note else ""))

    # ------------------------------------------------------- thread questions
    def ask(self, *_: object) -> None:
        """"Can it be finished?" (C): every finish counted on the solver thread."""
        if not self.active:
            return
        m = self.model
        if not m.path:
            self.say("Can it be finished? Click a start square first")
            return
        from knightgui_core.walks.hand.completions import completions
        board, path, budget = m.board, m.path, float(self.group.budget.value())
        self._budget = budget
        self._submit(PlayRequest("completions", path, lambda cancel: completions(
            board, list(path), budget, cancel)),
            f"Counting the ways to finish (at most {budget:.0f} s)…")

    def finish(self, *_: object) -> None:
        """"Finish it" (Solve in play mode): the rule's walk from here, backtracking when
        stuck, on the solver thread."""
        if not self.active:
            return
        m = self.model
        if not m.path:
            self.say("Finish it: click a start square first")
            return
        if m.finished:
            self.say(m.finish_message())
            return
        from knightgui_core.walks.hand.finish import FINISH_MAX, finish_by_rule
        st = self.w.controls.model.settings
        board, path, closed = m.board, m.path, st.closed
        budget = max(1_000_000, 4 * min(board.size, FINISH_MAX))
        self._submit(PlayRequest("finish", path, lambda cancel: finish_by_rule(
            board, list(path), st.tie, budget, closed=closed, order=st.order, seed=st.seed,
            cancel=cancel)), f"The rule is finishing the {'closed ' if closed else ''}tour…")

    def _submit(self, req: PlayRequest, text: str) -> None:
        self._asking = req
        self._gen = self.w.worker.submit(req)
        if req.kind != "verdict":
            self._busy(True)
            self.say(text)

    def cancel(self, *_: object) -> None:
        """Stop the question being answered (Esc, Cancel)."""
        if self._asking is not None:
            self._stop_asking()
            self.say("Cancelled")

    def _stop_asking(self) -> None:
        if self._asking is not None and self.w.worker.generation == self._gen:
            self.w.worker.cancel()
        self._asking = None
        self._busy(False)

    def _busy(self, busy: bool) -> None:
        self._is_busy = busy
        self.w.controls.set_busy(busy)
        self.w.act.cancel.setEnabled(busy)
        self._enable_questions()

    def _enable_questions(self) -> None:
        """"Can it be finished?" and "Finish it" act while the tour is not complete (the
        buttons while no question runs, the menu items in play mode), else say why."""
        done = self.active and self.model.finished
        g = self.group
        for widget, tip in ((g.ask_btn, self._ask_tip), (g.finish_btn, self._finish_tip)):
            widget.setEnabled(not self._is_busy and not done)
            widget.setToolTip(_COMPLETE_TIP if done else tip)
        for a, tip in ((self.act_ask, self._ask_act_tip),
                       (self.act_finish, self._finish_act_tip)):
            a.setEnabled(self.active and not done)
            a.setToolTip(_COMPLETE_TIP if done else tip)

    def _failed(self, gen: int, message: str, _bad_input: bool) -> None:
        if gen == self._gen and self._asking is not None:
            self._asking = None
            self._busy(False)
            self.say(f"Refused: {message}")

    def _answered(self, gen: int, req: PlayRequest, answer: object) -> None:
        if gen != self._gen or req is not self._asking:
            return
        self._asking = None
        self._busy(False)
        if req.path != self.model.path:          # the path moved on meanwhile
            return
        # numba loads with these: never at window creation (test_first_frame_comes_before_numba)
        from knightgui_core.walks.hand.completions import Completions
        from knightgui_core.walks.hand.finish import RuleFinish
        from knightgui_core.walks.hand.verdict import Verdict
        if isinstance(answer, Completions):
            self.model.set_answer(req.path, answer)
            self.say(self._answer_text(answer))
        elif isinstance(answer, Verdict):
            self.model.set_verdict(req.path, answer)
            if answer.reasons:
                self.say(self.position_text())
        elif isinstance(answer, RuleFinish):
            if answer.found and answer.finish is not None:
                self.model.extend(answer.finish)
                self.say(self._finished_text(answer))
            else:
                self.say(answer.message[0].upper() + answer.message[1:])

    def _finished_text(self, f: RuleFinish) -> str:
        """What "Finish it" did, in plain words."""
        kind = "closed tour" if self.model.closed else "tour"
        moves = _plural(len(f.finish or ()), "move")
        backed = (f", backing out of {_plural(f.dead_ends, 'dead end')} on the way"
                  if f.dead_ends else "")
        return (f"Warnsdorff's rule finished the {kind} in {moves}{backed}; undo (Ctrl+Z) "
                "walks back into it")

    def _answer_line(self, a: Completions) -> str:
        """The answer of "Can it be finished?" in the Play group's short line."""
        if a.extendable is False:
            return "Cannot be finished"
        if a.counted and a.open is not None and a.closed is not None:
            return f"Can be finished: {_plural(a.open, 'way')} ({a.closed:,} closed)"
        if a.extendable:
            return f"Can be finished (ways not counted within {self._budget:g} s)"
        return f"Finish unknown within {self._budget:g} s"

    def _answer_text(self, a: Completions) -> str:
        if a.extendable is False:
            why = next((r.sentence for r in a.verdict.reasons if not r.closed_only), "")
            return "No finish exists" + (f": {why}" if why else f" ({a.nodes:,} moves searched)")
        if a.counted and a.open is not None and a.closed is not None:
            counts = (f"{_plural(a.open, 'way')} to finish, "
                      f"{a.closed:,} of them closed")
        else:
            counts = (f"how many ways is unknown within the {self._budget:g} s budget "
                      f"({a.nodes:,} moves searched)")
        if a.extendable:
            return f"Can still be finished: {counts}; one finish is drawn dimmed"
        return (f"Unknown within the {self._budget:g} s budget: no finish found and none "
                f"ruled out ({a.nodes:,} moves searched)")

    # ------------------------------------------------------------ drawing
    def _model_changed(self, changed: frozenset) -> None:
        if "path" in changed and self._asking is not None:
            self._stop_asking()            # a new move cancels the question
        m = self.model
        if "path" in changed and self.active and m.path and m.verdict_elsewhere:
            from knightgui_core.walks.hand.verdict import quick_verdict
            board, path = m.board, m.path  # a big board: the verdict on the solver thread
            self._submit(PlayRequest("verdict", path, lambda cancel: quick_verdict(
                board, list(path))), "")
        if "board" in changed and self.active and self.w.view.board != self.model.board:
            self.w.view.set_board(board=self.model.board)
        if self.active:
            self._redraw()

    def _redraw(self) -> None:
        a = self.model.answer
        finish = a.example if a is not None and a.example else ()
        self._finish = tuple(finish)
        self.overlay.show(self.model, self._finish)
        self.group.undo_btn.setEnabled(bool(self.model.path))
        self.group.redo_btn.setEnabled(bool(self.model.redo_squares))
        self._enable_questions()
        self.group.info.setText(self._group_text("Click a square to start"))

    def _group_text(self, empty: str) -> str:
        """The Play group's line: the position and what "Can it be finished?" is doing or
        answered for this very path; ``empty`` before the first move."""
        m = self.model
        if not m.path:
            return empty
        text = self.position_text()
        asking = self._asking
        if asking is not None and asking.kind == "completions" and asking.path == m.path:
            return f"{text}\nCan it be finished? Counting (at most {self._budget:g} s)…"
        if m.answer is not None and not m.finished:
            return f"{text}\n{self._answer_line(m.answer)}"
        return text

    def position_text(self) -> str:
        m = self.model
        if not m.path:
            return "no move yet"
        if m.finished:
            return m.finish_message()
        v = m.verdict
        free = m.board.size - len(m.path)
        text = f"move {len(m.path)}, {free:,} free"
        if v is None:
            return text + " — checking the position…"
        if v.lost:
            why = next(r.sentence for r in v.reasons if not r.closed_only)
            return f"{text} — lost: {why}"
        if v.closed_lost:
            text += " — a closed tour is no longer possible"
        return text

    def say(self, text: str) -> None:
        self.w.statusBar().showMessage(text)
        if self.active:
            self.group.info.setText(self._group_text(text))

    def adopt(self, model: PlayModel, enter: bool = True) -> None:
        """Take ``model``'s position: the controls move to its board, play mode turns on
        when ``enter`` (``ValueError`` when the window cannot draw its board)."""
        self._stop_asking()
        c = self.w.controls
        b = model.board
        if b != c.board():
            c.set_board(b.rows, b.cols, board=b)
        if b != c.board():
            raise ValueError(f"the window does not draw a {b.rows}×{b.cols} board")
        self.model.take(model)
        c.set_start(model.path[0])
        if enter:
            c.model.update(mode="play")
