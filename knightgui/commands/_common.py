"""Helpers shared by the CLI commands: errors, JSON output, square parsing, what a long
command says while it works."""
from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

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


@contextmanager
def cli_errors(*errors: type[BaseException], prefix: str = "") -> Iterator[None]:
    """An error of ``errors`` raised inside becomes a :class:`CliError` (exit 2): ``prefix``
    and its text, without the traceback."""
    try:
        yield
    except errors as e:
        raise CliError(f"{prefix}{e}") from None


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
    with cli_errors(BoardError, prefix=f"{what}: "):
        return board.parse(text)


def parse_tie_rule(text: str, what: str = "--tie") -> TieRule:
    """The :class:`~knightgui_core.board.tie_rule.TieRule` an option names, or a
    :class:`CliError`: the CLI's one reader of tie rules."""
    from knightgui_core.board.rules import RuleError, parse_tie
    with cli_errors(RuleError, prefix=f"{what}: "):
        return parse_tie(text)


def parse_move_order(text: object, what: str = "--order") -> MoveOrder:
    """The :class:`~knightgui_core.board.rules.MoveOrder` an option names (8 digits or
    ⟨dx,dy⟩ pairs), or a :class:`CliError`: the CLI's one reader of move orders."""
    from knightgui_core.board.rules import RuleError, parse_order
    with cli_errors(RuleError, prefix=f"{what}: "):
        return parse_order(text)


def write_above(bar: Any, stream: Any, line: str) -> None:
    """``line`` on ``stream``, above ``bar`` when a tqdm bar is drawn there. Never raises: a
    notice must not end the command (a closed or full stderr is the streams' business)."""
    try:
        if bar is not None:
            bar.write(line, file=stream)
        else:
            stream.write(line + "\n")
            stream.flush()
    except Exception:  # noqa: BLE001
        pass


class Activity:
    """What a long command says on stderr while it works: lines (:meth:`say`) and the tqdm bar
    of one stage at a time (:meth:`start`, :meth:`show`, :meth:`close`), a bar only when
    stderr is a terminal, nothing at all with ``--json`` (``quiet``). A line or bar that
    cannot be written is dropped: progress never ends the command."""

    #: seconds between two redraws of the bar
    MININTERVAL = 0.2

    def __init__(self, quiet: bool = False, stream=None, mininterval: float | None = None):
        self.stream = stream or sys.stderr
        self.quiet = bool(quiet)
        try:
            self.tty = bool(self.stream.isatty())
        except (AttributeError, OSError, ValueError):
            self.tty = False
        self.mininterval = self.MININTERVAL if mininterval is None else mininterval
        self._bar = None
        self._ticking: threading.Event | None = None

    def say(self, line: str, always: bool = False) -> None:
        """``line`` on stderr (above the bar when one is drawn): on a terminal, or with
        ``always`` (a stage of minutes or gigabytes) on a pipe too; nothing when quiet."""
        if self.quiet or not (self.tty or always):
            return
        write_above(self._bar, self.stream, line)

    def start(self, label: str, total: float | None = None, unit: str = "it",
              scale: bool = False, tick: bool = False, initial: float = 0) -> None:
        """Open the bar of a stage (the one before it closes): ``label``, ``total`` units
        (None: a running count with its rate), ``scale``: 12.3M rather than 12,300,000,
        ``tick``: only the label and the time so far, redrawn every second by a thread of
        its own until it closes; ``initial``: units done before it opens."""
        self.close()
        if self.quiet or not self.tty:
            return
        try:
            from tqdm import tqdm
            self._bar = tqdm(total=total, desc=label, unit=unit, unit_scale=scale,
                             file=self.stream, dynamic_ncols=True, leave=False,
                             mininterval=self.mininterval, miniters=1, initial=initial,
                             bar_format="{desc} [{elapsed}]" if tick else None)
        except Exception:  # noqa: BLE001
            self._bar = None
            return
        bar = self._bar
        if tick and bar is not None:
            self._ticking = halt = threading.Event()

            def redraw() -> None:
                while not halt.wait(1.0):
                    try:
                        bar.refresh()
                    except Exception:  # noqa: BLE001
                        return
            threading.Thread(target=redraw, name="knightgui-bar-tick", daemon=True).start()

    def show(self, n: float, text: str = "") -> None:
        """Move the bar to ``n`` with ``text`` beside it (nothing without a bar)."""
        bar = self._bar
        if bar is None:
            return
        try:
            if text:
                bar.set_postfix_str(text, refresh=False)
            bar.update(n - bar.n)
        except Exception:  # noqa: BLE001
            pass

    def close(self) -> None:
        """Take the bar off the terminal (its ticking thread stops)."""
        if self._ticking is not None:
            self._ticking.set()
            self._ticking = None
        if self._bar is not None:
            try:
                self._bar.close()
            except Exception:  # noqa: BLE001
                pass
            self._bar = None


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
    with cli_errors(BoardError, prefix="--topology/--leaper: "):
        return Board(rows, cols, getattr(args, "topology", "plane"),
                     getattr(args, "leaper", "1,2"))
