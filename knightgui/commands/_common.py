"""Helpers shared by the CLI commands: errors, JSON output, square parsing, progress bars."""
from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

from knightgui_core.system.errors import InputError

if TYPE_CHECKING:      # the engine is imported inside each command (start-up: docs/architecture.md)
    from knightgui_core.board.rules import MoveOrder
    from knightgui_core.board.tie_rule import TieRule

EXIT_OK, EXIT_NOT_FOUND, EXIT_BAD_INPUT = 0, 1, 2


class CliError(InputError):
    """Bad input: printed as one line on stderr, exit status ``code`` (2 by default)."""

    def __init__(self, message: str, code: int = EXIT_BAD_INPUT):
        super().__init__(message)
        self.code = code


def one_line(text: str, limit: int = 300) -> str:
    """The first line of ``text``, cut to ``limit`` characters (a 5,000-digit number in a
    message is shortened, not echoed whole): what goes to stderr."""
    from knightgui_core.system.text import shorten
    lines = str(text).splitlines()
    return shorten(lines[0], limit) if lines else ""


def say_not_found(text: str) -> int:
    """The "no tour" outcome: ``text`` as one line on stderr; returns exit status 1."""
    print(one_line(text), file=sys.stderr)
    return EXIT_NOT_FOUND


def emit_json(obj) -> None:
    """Print one JSON object as the last line of stdout: strict JSON (a number that is not
    finite is written as null, never as Infinity or NaN)."""
    from knightgui_core.system.text import strict_dumps
    sys.stdout.write(strict_dumps(obj, default=_jsonable) + "\n")
    sys.stdout.flush()


def _jsonable(o):
    import numpy as np
    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return float(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")


def positive_int(name: str, value, lo: int = 1, hi: int = 1_000_000) -> int:
    """An option's whole number in ``lo`` … ``hi``, or a :class:`CliError` that says which option and
    why."""
    try:
        v = int(value)
    except (TypeError, ValueError):
        raise CliError(f"{name} must be a whole number, got {value!r}") from None
    if not lo <= v <= hi:
        raise CliError(f"{name} must be between {lo} and {hi}, got {v}")
    return v


def parse_square(board, text, what: str = "square") -> int:
    """A square of the board from its name or ``col,row``, or a :class:`CliError`."""
    from knightgui_core.board.squares import BoardError
    try:
        return board.parse(text)
    except BoardError as e:
        raise CliError(f"{what}: {e}") from None


def parse_tie_rule(text: str, what: str = "--tie") -> TieRule:
    """The :class:`~knightgui_core.board.tie_rule.TieRule` an option names, or a
    :class:`CliError`: the CLI's one reader of tie rules."""
    from knightgui_core.board.rules import RuleError, parse_tie
    try:
        return parse_tie(text)
    except RuleError as e:
        raise CliError(f"{what}: {e}") from None


def parse_move_order(text: object, what: str = "--order") -> MoveOrder:
    """The :class:`~knightgui_core.board.rules.MoveOrder` an option names (8 digits or
    ⟨dx,dy⟩ pairs), or a :class:`CliError`: the CLI's one reader of move orders."""
    from knightgui_core.board.rules import RuleError, parse_order
    try:
        return parse_order(text)
    except RuleError as e:
        raise CliError(f"{what}: {e}") from None


class Progress:
    """A one-line progress bar on stderr, drawn only when stderr is a terminal."""

    def __init__(self, label: str, total: float | None = None, stream=None):
        self.label, self.total = label, total
        self.stream = stream or sys.stderr
        self.enabled = hasattr(self.stream, "isatty") and self.stream.isatty()
        self._last = 0.0
        self._t0 = time.perf_counter()

    def __call__(self, done: float, total: float | None = None, extra: str = "") -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self._last < 0.1:
            return
        self._last = now
        total = total if total is not None else self.total
        el = now - self._t0
        if total:
            frac = min(max(done / total, 0.0), 1.0)
            bar = "#" * int(frac * 30)
            self.stream.write(f"\r{self.label} [{bar:<30}] {frac * 100:5.1f}% {el:6.1f}s {extra}")
        else:
            self.stream.write(f"\r{self.label} {done:,.0f} {el:6.1f}s {extra}")
        self.stream.flush()

    def close(self) -> None:
        """End the progress line (a newline when one was drawn)."""
        if self.enabled:
            self.stream.write("\r\033[K")
            self.stream.flush()


def add_board_options(p) -> None:
    """``--topology`` and ``--leaper``: the board's edges and the piece (the knight on the
    plane when left out)."""
    p.add_argument("--topology", default="plane", metavar="plane|cylinder|torus",
                   help="the board's edges: plane (default), cylinder (the columns wrap) or "
                        "torus (the rows wrap too)")
    p.add_argument("--leaper", default="1,2", metavar="A,B",
                   help="the piece: an (A,B)-leaper, 0 < A < B (default 1,2: the knight; "
                        "camel 1,3, zebra 2,3, giraffe 1,4; names work too)")


def board_of(args, rows: int, cols: int):
    """The :class:`knightgui_core.board.squares.Board` the options name, or a
    :class:`CliError` with one sentence."""
    from knightgui_core.board.squares import Board, BoardError
    try:
        return Board(rows, cols, getattr(args, "topology", "plane"),
                     getattr(args, "leaper", "1,2"))
    except BoardError as e:
        raise CliError(f"--topology/--leaper: {e}") from None
