"""A tour by hand: the play model, free of Qt (tested without a display).

:class:`PlayModel` is written in the manner of :class:`knightgui.request.model.RequestModel`
(typed state, every change checked, observers told which parts changed). It holds the
**path** played and the squares undone, ready to be **redone**; after every move the
**quick verdict** (:func:`~knightgui_core.walks.hand.verdict.quick_verdict`) and the legal
next squares with their onward (Warnsdorff) counts; the rule's **hint** and its ties
(:func:`~knightgui_core.walks.hand.hint.rule_hint`); the **answer** of the last "Can it be
finished?" about this very path; and the **finish**, with its time and moves undone. A
square that is no move is refused with :class:`PlayRefused` (one line);
:meth:`PlayModel.to_dict` / :meth:`PlayModel.from_dict`: a tour file with a partial path."""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from knightgui_core.board.rules import DEFAULT_ORDER, candidates_at
from knightgui_core.board.squares import Board, BoardError
from knightgui_core.board.tour import FORMAT, VERSION, path_pairs
from knightgui_core.system.errors import InputError
from knightgui_core.walks.hand.verdict import PlayError, Verdict, piece_name, play_path, quick_verdict

if TYPE_CHECKING:     # the engine's search modules load numba: imported where they are used
    from knightgui_core.walks.hand.completions import Completions
    from knightgui_core.walks.hand.hint import RuleHint

__all__ = ["PlayModel", "PlayRefused", "PlayObserver", "PLAY_KEY", "LIVE_VERDICT_MAX"]

PlayObserver = Callable[[frozenset], None]
#: the key that marks a tour file as a position being played (a partial path)
PLAY_KEY = "partial"
#: the largest board whose quick verdict is computed where it is asked for; above it (it
#: takes seconds on 2000×2000) the window computes it on its solver thread
LIVE_VERDICT_MAX = 250_000


class PlayRefused(InputError):
    """A square that cannot be played now (a ``ValueError``): the message is one line."""


class PlayModel:
    """The state of a tour made by hand (see the module docstring). ``clock`` gives seconds
    (tests pass their own)."""

    def __init__(self, board: Board | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._board = board if board is not None else Board(8, 8)
        self._clock = clock
        self._observers: list[PlayObserver] = []
        self.tie, self.order, self.seed = "phadke", DEFAULT_ORDER, 0
        self._clear()

    def _clear(self) -> None:
        self._path: list[int] = []
        self._redo: list[int] = []       # squares undone, the next one to redo last
        self.undone = 0                  # moves taken back since the first move
        self._t0: float | None = None
        self._took: float | None = None  # seconds from the first move to the last square
        self._earlier = 0.0              # seconds played before a restore
        self.hint_shown = False
        self._hint: RuleHint | None = None
        self._answer: Completions | None = None
        self._verdict: Verdict | None = None

    # -------------------------------------------------------------- reading
    @property
    def board(self) -> Board:
        """The board played on."""
        return self._board

    @property
    def path(self) -> tuple[int, ...]:
        """The squares played, in order (flat indices)."""
        return tuple(self._path)

    @property
    def redo_squares(self) -> tuple[int, ...]:
        """The squares :meth:`redo` would play, next first."""
        return tuple(reversed(self._redo))

    @property
    def verdict(self) -> Verdict | None:
        """The quick verdict of the path (None before the first move; on a board of more
        than :data:`LIVE_VERDICT_MAX` squares, None until :meth:`set_verdict` gives it)."""
        if self._verdict is None and self._path and self._board.size <= LIVE_VERDICT_MAX:
            self._verdict = quick_verdict(self._board, self._path)
        return self._verdict

    @property
    def verdict_elsewhere(self) -> bool:
        """Whether the verdict is too slow to compute here (the window's thread does it)."""
        return self._board.size > LIVE_VERDICT_MAX

    def set_verdict(self, path: tuple[int, ...], verdict: Verdict) -> bool:
        """Keep a verdict computed elsewhere when it is about this path (False: dropped)."""
        return self._keep(path, "_verdict", verdict)

    def _keep(self, path: tuple[int, ...], name: str, value: object) -> bool:
        if tuple(path) != tuple(self._path):
            return False
        setattr(self, name, value)
        self._tell("answer")
        return True

    def legal(self) -> tuple[tuple[int, int], ...]:
        """The squares the piece may go to next, each with its onward (Warnsdorff) count;
        empty before the first move and when the piece is stuck."""
        if not self._path:
            return ()
        return tuple(candidates_at(self._board, self._path, len(self._path) + 1))

    def hint(self) -> RuleHint | None:
        """The rule's choice and its ties (once per position; None before the first move)."""
        if not self._path:
            return None
        if self._hint is None:
            from knightgui_core.walks.hand.hint import rule_hint
            self._hint = rule_hint(self._board, self._path, self.tie, order=self.order,
                                   seed=self.seed)
        return self._hint

    @property
    def answer(self) -> Completions | None:
        """The exact answer for this path, when one was given (:meth:`set_answer`)."""
        return self._answer

    @property
    def finished(self) -> bool:
        """Whether the path covers the board."""
        return len(self._path) == self._board.size

    @property
    def closed(self) -> bool:
        """Whether the path is a closed tour (covers the board, its ends a move apart)."""
        p = self._path
        return self.finished and len(p) > 2 and self._board.is_knight_move(p[-1], p[0])

    def seconds(self) -> float:
        """Seconds of play: from the first move to now, or to the last square of a tour."""
        if self._took is not None:
            return self._took
        if self._t0 is None:
            return self._earlier
        return self._earlier + self._clock() - self._t0

    def finish_message(self) -> str:
        """One line for a tour completed ("" while it is not)."""
        if not self.finished:
            return ""
        kind = "A closed" if self.closed else "An open"
        s = int(round(self.seconds()))
        took = f"{s // 60} min {s % 60} s" if s >= 60 else f"{s} s"
        undone = f"{self.undone} move{'s' if self.undone != 1 else ''} undone"
        return (f"{kind} tour of the {self._board.rows}×{self._board.cols} board — "
                f"{len(self._path)} squares in {took}, {undone}")

    def name(self, sq: int) -> str:
        """The board's name of a square."""
        return self._board.name(sq)

    # -------------------------------------------------------------- writing
    def observe(self, callback: PlayObserver) -> None:
        """Call ``callback(changed)`` after each change; ``changed`` holds ``"path"``,
        ``"hint"``, ``"answer"``, ``"board"``."""
        self._observers.append(callback)

    def unobserve(self, callback: PlayObserver) -> None:
        """Stop calling ``callback``."""
        self._observers = [c for c in self._observers if c != callback]

    def _tell(self, *changed: str) -> None:
        what = frozenset(changed)
        for cb in list(self._observers):
            cb(what)

    def set_rule(self, tie: str, order: str = DEFAULT_ORDER, seed: int = 0) -> None:
        """The tie rule, move order and seed the hint follows (from the controls)."""
        if (tie, order, seed) != (self.tie, self.order, self.seed):
            self.tie, self.order, self.seed = tie, order, seed
            self._hint = None
            if self.hint_shown:
                self._tell("hint")

    def reset(self, board: Board | None = None) -> None:
        """Start again (on ``board`` when given): an empty path, nothing to redo."""
        changed = ["path", "hint", "answer"]
        if board is not None and board != self._board:
            self._board = board
            changed.append("board")
        self._clear()
        self._tell(*changed)

    def take(self, other: PlayModel) -> None:
        """Become ``other``'s position (an opened file, the settings); observers are told."""
        self._board = other._board
        self._clear()
        self._path, self._redo = list(other._path), list(other._redo)
        self.undone, self._earlier = other.undone, other._earlier
        self._t0, self._took = other._t0, other._took
        self._tell("board", "path", "hint", "answer")

    def _moved(self) -> None:
        self._verdict = None
        self._hint = None
        self._answer = None
        self.hint_shown = False
        if self.finished and self._took is None and self._t0 is not None:
            self._took = self._earlier + self._clock() - self._t0
        elif not self.finished:
            self._took = None
        self._tell("path", "hint", "answer")

    def why_not(self, sq: int) -> str:
        """Why ``sq`` cannot be played next ("" when it can; a visited square can always be
        clicked: it takes the path back to it)."""
        b = self._board
        if not isinstance(sq, int) or isinstance(sq, bool) or not 0 <= sq < b.size:
            return f"{sq!r:.20} is not a square of the {b.rows}×{b.cols} board"
        if not self._path or sq in self._path:
            return ""
        last = self._path[-1]
        if self.finished:
            return "the tour is complete: undo (Ctrl+Z) or click a square of the path"
        if not b.is_knight_move(last, sq):
            return (f"{b.name(last)} to {b.name(sq)} is not a move of the {piece_name(b)}"
                    f"{' on this ' + b.topology if b.topology != 'plane' else ''}")
        return ""

    def click(self, sq: int) -> str:
        """Play ``sq``, or take the path back to it when it is on the path; returns one line
        for the status bar (:class:`PlayRefused` when refused)."""
        if sq in self._path:
            k = self._path.index(sq) + 1
            if k == len(self._path):
                return f"The {piece_name(self._board)} stands on {self.name(sq)}"
            self.back_to(k)
            return f"Back to move {k} ({self.name(sq)}): {len(self._redo)} to redo"
        return self.play(sq)

    def play(self, sq: int) -> str:
        """Play ``sq`` next (:class:`PlayRefused` when it is no move of the piece)."""
        why = self.why_not(sq)
        if why or sq in self._path:
            raise PlayRefused(why or f"{self.name(sq)} is already visited")
        if not self._path:
            self._t0 = self._clock()
        if self._redo and self._redo[-1] == sq:
            self._redo.pop()            # the same move as the one undone: the rest stays
        else:
            self._redo.clear()
        self._path.append(sq)
        self._moved()
        if self.finished:
            return self.finish_message()
        return f"Move {len(self._path)}: {self.name(sq)}"

    def extend(self, squares: tuple[int, ...] | list[int]) -> None:
        """Append ``squares`` (a finish found by the rule), each checked as a move
        (:class:`PlayRefused` when they are not a path on)."""
        try:
            play_path(self._board, [*self._path, *squares])
        except PlayError as e:
            raise PlayRefused(str(e)) from None
        if not self._path and squares:
            self._t0 = self._clock()
        self._path.extend(int(s) for s in squares)
        self._redo.clear()
        self._moved()

    def undo(self) -> bool:
        """Take the last move back (False when there is none)."""
        if not self._path:
            return False
        self._redo.append(self._path.pop())
        self.undone += 1
        if not self._path:
            self._t0, self._earlier = None, 0.0
        self._moved()
        return True

    def redo(self) -> bool:
        """Play the last square undone again (False when there is none)."""
        if not self._redo:
            return False
        sq = self._redo.pop()
        if not self._path:
            self._t0 = self._clock()
        self._path.append(sq)
        self._moved()
        return True

    def back_to(self, k: int) -> None:
        """Undo to move ``k`` (1 ≤ k ≤ the path's length: its first ``k`` squares stay)."""
        if not 1 <= k <= len(self._path):
            raise PlayRefused(f"there is no move {k} to go back to")
        if k == len(self._path):
            return
        taken = self._path[k:]
        del self._path[k:]
        self._redo.extend(reversed(taken))
        self.undone += len(taken)
        self._moved()

    def show_hint(self, shown: bool = True) -> RuleHint | None:
        """Show (or hide) the hint; returns it."""
        hint = self.hint() if shown else None      # PlayError (one line) on too big a board
        self.hint_shown = hint is not None
        self._tell("hint")
        return hint

    def set_answer(self, path: tuple[int, ...], answer: Completions | None) -> bool:
        """Keep ``answer`` when it is about this path (False: dropped)."""
        return self._keep(path, "_answer", answer)

    # -------------------------------------------------------------- saving
    def to_dict(self) -> dict[str, Any]:
        """The position as a tour file's JSON object with a partial path (``"partial":
        true``, ``"redo"``: the squares undone, next first; ``"play"``: moves undone,
        seconds, hint rule)."""
        b = self._board
        d: dict[str, Any] = {"format": FORMAT, "version": VERSION, "rows": b.rows,
                             "cols": b.cols, "closed": self.closed,
                             "path": path_pairs(self._path, b.cols), PLAY_KEY: True,
                             "redo": path_pairs(self.redo_squares, b.cols),
                             "play": {"undone": self.undone,
                                      "seconds": round(self.seconds(), 3), "tie": self.tie},
                             "method": {"source": "played by hand"}}
        if not b.is_classic:
            d["topology"] = b.topology
            d["leaper"] = list(b.leaper)
        return d

    @classmethod
    def from_dict(cls, data: object, clock: Callable[[], float] = time.monotonic) -> PlayModel:
        """The position of a :meth:`to_dict` object; ``ValueError`` (one line) for a bad
        board or path, while a bad ``redo`` or ``play`` part is dropped."""
        if not isinstance(data, dict):
            raise ValueError("a played position is a JSON object")
        if data.get("format") != FORMAT or data.get("version") != VERSION:
            raise ValueError(f"not a knightgui tour (format {data.get('format')!r:.40})")
        try:
            board = Board(data.get("rows"), data.get("cols"),
                          str(data.get("topology", "plane")),
                          tuple(data.get("leaper", (1, 2))))
        except (BoardError, TypeError) as e:
            raise ValueError(f"the position's board: {e}") from None
        path = _squares(board, data.get("path"))
        try:
            play_path(board, path)
        except PlayError as e:
            raise ValueError(f"the position's path: {e}") from None
        model = cls(board, clock)
        model._path = path
        try:                # PlayError is a ValueError: a bad redo is dropped
            redo = _squares(board, data.get("redo", []), allow_empty=True)
            model._redo = list(reversed(redo)) if play_path(board, [*path, *redo]).size else []
        except ValueError:
            pass
        play = data.get("play")
        if isinstance(play, dict):
            u, s, t = play.get("undone"), play.get("seconds"), play.get("tie")
            if isinstance(u, int) and not isinstance(u, bool) and 0 <= u < 2**53:
                model.undone = u
            if isinstance(s, (int, float)) and not isinstance(s, bool) and 0 <= s < 1e9:
                model._earlier = float(s)
            if isinstance(t, str) and len(t) < 40:
                model.tie = t
        model._t0 = None if model.finished else clock()
        model._took = model._earlier if model.finished else None
        return model


def _squares(board: Board, pairs: object, allow_empty: bool = False) -> list[int]:
    """Flat squares of a list of ``[col, row]`` pairs (``ValueError`` naming the bad one)."""
    if not isinstance(pairs, list) or (not pairs and not allow_empty):
        raise ValueError("the position's path must be a list of [col, row] pairs")
    out = []
    for k, p in enumerate(pairs):
        if (not isinstance(p, list) or len(p) != 2 or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in p)
                or not board.contains(p[0], p[1])):
            raise ValueError(f"square {k + 1} of the position, {p!r:.30}, is not a "
                             f"[col, row] of the {board.rows}×{board.cols} board")
        out.append(board.index(p[0], p[1]))
    return out
