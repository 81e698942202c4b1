"""The window's request model, free of Qt (tested without a display).

Two types, in the manner of napari's models and Qt views:

* :class:`Request` — a frozen, validated description of one computation (a single tour or an
  exhaustive enumeration); the solver thread (:mod:`knightgui.worker`) receives it.
* :class:`RequestModel` — the editable state behind the controls panel. Panels write fields
  with :meth:`RequestModel.update` (each value is checked and normalised, a bad one raises
  ``ValueError`` with a sentence); views register a callback with
  :meth:`RequestModel.observe` and receive the set of field names that changed.
  :meth:`RequestModel.request` checks the whole (board exists, start on the board, end a
  knight move from it, the move order) and returns the :class:`Request`.

Settings are stored as :meth:`RequestModel.to_dict` and restored with
:meth:`RequestModel.from_dict`, which skips missing or malformed values.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from knightgui_core.board.squares import Board, BoardError
from knightgui_core.board.dash import DASH_STATES
from knightgui_core.board.existence import why_no_tour
from knightgui_core.board.rules import METHODS, TIE_RULES

MODES: tuple[str, ...] = ("single", "exhaustive")
MAX_SIDE = 2000
#: fields whose change makes the shown results (timing, counter, options matrix) stale
RESULT_FIELDS = frozenset({"rows", "cols", "mode", "start", "end", "closed"})


@dataclass(frozen=True)
class Request:
    """Everything the solver needs for one run; built by :meth:`RequestModel.request`."""

    rows: int
    cols: int
    mode: str = "single"            # "single" | "exhaustive"
    start: str | None = None
    end: str | None = None
    closed: bool = False
    tie: str = "phadke"
    order: str = "12345678"
    seed: int = 0
    method: str = "auto"            # knightgui_core.walks.solve methods: auto, greedy, backtrack, construct
    dashes: tuple = ()              # ((corner name, state), ...) with state in A/B/full
    tail: tuple | None = None       # ECD/XCD tail squares (names), or None
    keep: int = 1_000_000           # solutions kept in memory for stepping
    limit: int = 0                  # stop after this many solutions (0 = all)

    def dash_dict(self) -> dict[str, str]:
        """The dashes as ``{corner name: state}``, without the ``off`` ones."""
        return {k: v for k, v in self.dashes if v != "off"}


def _int(name: str, lo: int, hi: int) -> Callable[[object], int]:
    def check(v: object) -> int:
        if isinstance(v, bool) or not isinstance(v, (int, str)):
            raise ValueError(f"{name}: a whole number, got {v!r}")
        try:
            n = int(v)
        except ValueError:
            raise ValueError(f"{name}: a whole number, got {v!r}") from None
        if not lo <= n <= hi:
            raise ValueError(f"{name}: between {lo:,} and {hi:,}, got {n:,}")
        return n
    return check


def _bool(name: str) -> Callable[[object], bool]:
    def check(v: object) -> bool:
        if isinstance(v, bool):
            return v
        if isinstance(v, str) and v.lower() in ("true", "1", "false", "0"):
            return v.lower() in ("true", "1")
        if isinstance(v, int) and v in (0, 1):
            return bool(v)
        raise ValueError(f"{name}: true or false, got {v!r}")
    return check


def _choice(name: str, choices: Iterable[str]) -> Callable[[object], str]:
    allowed = tuple(choices)

    def check(v: object) -> str:
        if not isinstance(v, str) or v not in allowed:
            raise ValueError(f"{name}: one of {', '.join(allowed)}, got {v!r}")
        return v
    return check


def _text(name: str, limit: int = 64) -> Callable[[object], str]:
    def check(v: object) -> str:
        if not isinstance(v, str) or len(v) > limit or "\x00" in v:
            raise ValueError(f"{name}: a short text, got {v!r:.40}")
        return v.strip()
    return check


def _optional_text(name: str) -> Callable[[object], str | None]:
    inner = _text(name)

    def check(v: object) -> str | None:
        return None if v is None or v == "" else inner(v)
    return check


def _dashes(v: object) -> tuple[tuple[str, str], ...]:
    if isinstance(v, dict):
        v = tuple(v.items())
    if not isinstance(v, (tuple, list)):
        raise ValueError(f"dashes: (corner, state) pairs, got {v!r:.40}")
    out = []
    for item in v:
        if (not isinstance(item, (tuple, list)) or len(item) != 2
                or not all(isinstance(x, str) for x in item) or item[1] not in DASH_STATES):
            raise ValueError(f"dashes: (corner, state) pairs with a state in "
                             f"{'/'.join(DASH_STATES)}, got {item!r:.40}")
        if item[1] != "off":
            out.append((item[0], item[1]))
    return tuple(out)


def _tail(v: object) -> tuple[str, ...] | None:
    if v is None:
        return None
    if not isinstance(v, (tuple, list)) or not all(isinstance(x, str) for x in v) \
            or not 2 <= len(v) <= 8:
        raise ValueError(f"tail: a few square names, got {v!r:.40}")
    return tuple(v)


def _order(v: object) -> str:
    if not isinstance(v, str) or len(v) > 8 or any(ch not in "12345678" for ch in v):
        raise ValueError(f"Move order: digits 1..8, got {v!r:.40}")
    return v


_CHECKS: dict[str, Callable[[object], object]] = {
    "rows": _int("rows", 1, MAX_SIDE),
    "cols": _int("cols", 1, MAX_SIDE),
    "square": _bool("square"),
    "closed": _bool("closed"),
    "mode": _choice("mode", MODES),
    "start": _text("start"),
    "end": _optional_text("end"),
    "tie": _text("tie"),   # the tie rules grow; request() checks the name
    "order": _order,
    "seed": _int("seed", 0, 2**31 - 1),
    "method": _choice("method", METHODS),
    "dashes": _dashes,
    "tail": _tail,
    "keep": _int("keep", 100, 5_000_000),
    "limit": _int("limit", 0, 2_000_000_000),
}


@dataclass(frozen=True)
class Settings:
    """The values the controls edit (one snapshot of a :class:`RequestModel`)."""

    rows: int = 8
    cols: int = 8
    square: bool = True
    closed: bool = False
    mode: str = "single"
    start: str = "a8"
    end: str | None = None
    tie: str = "phadke"
    order: str = "12345678"
    seed: int = 0
    method: str = "auto"
    dashes: tuple = ()
    tail: tuple | None = None
    keep: int = 1_000_000
    limit: int = 0


Observer = Callable[[frozenset], None]


class RequestModel:
    """Editable, observable request state (see the module docstring)."""

    def __init__(self, settings: Settings | None = None) -> None:
        self._s = settings or Settings()
        self._observers: list[Observer] = []

    # -------------------------------------------------------------- reading
    @property
    def settings(self) -> Settings:
        return self._s

    def __getattr__(self, name: str) -> Any:
        if name in _CHECKS:
            return getattr(self._s, name)
        raise AttributeError(name)

    def board(self) -> Board:
        return Board(self._s.rows, self._s.cols)

    # -------------------------------------------------------------- writing
    def observe(self, callback: Observer) -> None:
        """Call ``callback(changed field names)`` after every update that changes something."""
        self._observers.append(callback)

    def unobserve(self, callback: Observer) -> None:
        self._observers = [c for c in self._observers if c != callback]

    def update(self, **values: object) -> frozenset:
        """Set fields (each checked and normalised first: nothing is set when one value is
        bad, which raises ``ValueError``); returns the names that changed."""
        unknown = set(values) - set(_CHECKS)
        if unknown:
            raise ValueError(f"unknown field(s): {', '.join(sorted(unknown))}")
        clean: dict[str, Any] = {k: _CHECKS[k](v) for k, v in values.items()}
        if clean.get("square", self._s.square) and "rows" in clean and "cols" not in clean:
            clean["cols"] = clean["rows"]
        changed = frozenset(k for k, v in clean.items() if getattr(self._s, k) != v)
        if changed:
            self._s = replace(self._s, **{k: clean[k] for k in changed})
            for cb in list(self._observers):
                cb(changed)
        return changed

    # ------------------------------------------------------------ requests
    def request(self) -> Request:
        """The validated :class:`Request`, or ``ValueError`` with one sentence."""
        s = self._s
        b = self.board()
        why = why_no_tour(b.rows, b.cols, s.closed)
        if why:
            raise ValueError(why[0].upper() + why[1:])
        start = None
        if s.start:
            try:
                start = b.name(b.parse(s.start))
            except BoardError as e:
                raise ValueError(f"Start: {e}") from None
        end = None
        if s.mode == "exhaustive":
            if start is None:
                start = b.name(0)
            if s.closed:
                if not s.end:
                    raise ValueError("Choose an end square: a knight move from the start")
                try:
                    e_sq = b.parse(s.end)
                except BoardError as e:
                    raise ValueError(f"End: {e}") from None
                if not b.is_knight_move(b.parse(start), e_sq):
                    raise ValueError(f"End: {b.name(e_sq)} is not a knight move from the "
                                     f"start {start}")
                end = b.name(e_sq)
        if sorted(s.order) != list("12345678"):
            raise ValueError("Move order: the 8 digits 1..8, each once (e.g. 12345678)")
        if s.tie not in TIE_RULES:
            raise ValueError(f"Tie rule: one of {', '.join(TIE_RULES)}, got {s.tie!r}")
        exhaustive = s.mode == "exhaustive"
        return Request(rows=b.rows, cols=b.cols, mode=s.mode, start=start, end=end,
                       closed=s.closed, tie=s.tie, order=s.order, seed=s.seed,
                       method=s.method, dashes=s.dashes,
                       tail=s.tail if exhaustive else None, keep=s.keep, limit=s.limit)

    # ------------------------------------------------------------ settings
    def to_dict(self) -> dict:
        """Plain values (JSON-friendly) of every field."""
        d = asdict(self._s)
        d["dashes"] = [list(p) for p in self._s.dashes]
        d["tail"] = list(self._s.tail) if self._s.tail is not None else None
        return d

    @classmethod
    def from_dict(cls, data: object) -> RequestModel:
        """A model from :meth:`to_dict` output; unknown, missing or bad values keep their
        defaults (settings files may be old or edited by hand)."""
        model = cls()
        if not isinstance(data, dict):
            return model
        for f in fields(Settings):
            if f.name in data and f.name != "cols":
                try:
                    model.update(**{f.name: data[f.name]})
                except (ValueError, TypeError):
                    pass
        if "cols" in data and not model.square:
            try:
                model.update(cols=data["cols"])
            except (ValueError, TypeError):
                pass
        return model
