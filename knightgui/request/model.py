"""The window's request model, free of Qt (tested without a display).

:class:`RequestModel` is the editable state behind the controls panel and the window's one
source of truth: panels write a field per widget signal with :meth:`RequestModel.update`
(checked and normalised, a bad value a ``ValueError`` sentence, and what follows applied at
once: an end no longer a move from the start, a dash on a corner no longer free, a tail
that no longer exists), views observe it (:meth:`RequestModel.observe`) and redraw from it.
The model computes the options the controls offer (:meth:`RequestModel.end_choices`,
:meth:`~RequestModel.corner_states`, :meth:`~RequestModel.tail_choices`,
:meth:`~RequestModel.enabled`), checks the whole into the frozen :class:`Request` the
solver thread receives (:meth:`RequestModel.request`), and is saved as
:meth:`RequestModel.to_dict` and restored by :meth:`RequestModel.load`, which skips bad
values. :class:`Request` and :class:`Settings` are declared in :mod:`knightgui.request.types`.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, fields, replace
from typing import Any

from knightgui.request.checks import int_check
from knightgui.request.types import (
    ALL_TOURS_MAX,
    CHECKS,
    KNIGHTS_PLANE_ONLY,
    MAX_SIDE,
    MODES,
    PREFERRED_END,
    RESULT_FIELDS,
    Enabled,
    Mode,
    Request,
    Settings,
)
from knightgui_core.board.dash import corners as _corners
from knightgui_core.board.dash import free_corners as _free_corners
from knightgui_core.board.dash import list_tails as _list_tails
from knightgui_core.board.existence import known_answer, why_no_tour
from knightgui_core.board.leaps import moves_from
from knightgui_core.board.rules import TIE_RULES, RuleError, parse_order
from knightgui_core.board.squares import MOVES, Board, BoardError, parse_coords, square_name
from knightgui_core.board.tie_rule import TieRule, UnknownTieRule

__all__ = ["RequestModel", "Observer", "Mode", "MODES", "ALL_TOURS_MAX", "MAX_SIDE",
           "RESULT_FIELDS", "KNIGHTS_PLANE_ONLY", "Request", "Settings", "Enabled"]

Observer = Callable[[frozenset], None]


def _same_corner(s: Settings, rows: int, cols: int) -> str | None:
    """The same corner of the new size when the start is a corner (a8 on 8×8 becomes a100
    on 100×100), else None (the start stays as typed)."""
    coords = parse_coords(s.start.strip())
    if coords is None or (rows, cols) == (s.rows, s.cols):
        return None
    col, row = coords
    if col not in (0, s.cols - 1) or row not in (0, s.rows - 1):
        return None
    return square_name(0 if col == 0 else cols - 1, 0 if row == 0 else rows - 1)


def _parse(b: Board, what: str, text: str) -> int:
    """The square ``text`` names on ``b``; ``ValueError`` "What: why" when none."""
    try:
        return b.parse(text)
    except BoardError as e:
        raise ValueError(f"{what}: {e}") from None


class RequestModel:
    """Editable, observable request state (see the module docstring)."""

    def __init__(self, settings: Settings | None = None) -> None:
        self._s = settings or Settings()
        self._observers: list[Observer] = []
        self._preferred_end = PREFERRED_END

    # -------------------------------------------------------------- reading
    @property
    def settings(self) -> Settings:
        """The current values (a frozen snapshot: read fields as ``settings.rows``)."""
        return self._s

    def board(self) -> Board:
        """The board of ``rows`` × ``cols``, its edges and its piece."""
        return Board(self._s.rows, self._s.cols, self._s.topology, self.leaper_pair())

    def start_square(self) -> int:
        """Flat index of the start; 0 when the start is empty (the first corner), -1 when the
        text is not a square of the board."""
        text = self._s.start.strip()
        if not text:
            return 0
        try:
            return self.board().parse(text)
        except BoardError:
            return -1

    def uses_end(self) -> bool:
        """Whether the run takes an end square: a closed tour in exhaustive mode."""
        return self._s.closed and self._s.mode == "exhaustive"

    def end_choices(self, closed: bool | None = None) -> tuple[str, ...]:
        """The squares a closed tour may end on, a move from the start, by column then row
        (empty for an open tour or a bad start; ``closed`` True: as if it were closed)."""
        s = self.start_square()
        if not (self._s.closed if closed is None else closed) or s < 0:
            return ()
        b = self.board()
        col, row = b.coords(s)
        if not b.is_classic:        # wrapping edges, other leaps: the board's own moves
            ends = sorted(b.coords(u) for u in moves_from(b, s) if u >= 0)
        else:
            ends = sorted((col + dc, row + dr) for dc, dr in MOVES
                          if b.contains(col + dc, row + dr))
        return tuple(b.name(b.index(c, r)) for c, r in ends)

    def end_square(self) -> int:
        """Flat index of the end, -1 when there is none (an open tour)."""
        e = self._s.end
        if e is None or e not in self.end_choices():
            return -1
        return self.board().parse(e)

    def corner_states(self) -> dict[str, str | None]:
        """Each corner of the board (bottom-left, clockwise) → None when it can be dashed,
        else the reason it cannot (a corner the start, the end or their approach cells use)."""
        b = self.board()
        names = [c.name for c in _corners(b)]
        s = self.start_square()
        if not b.is_classic:
            return {n: KNIGHTS_PLANE_ONLY for n in names}
        if s < 0:
            return {n: "no start square" for n in names}
        e = self.end_square() if self.uses_end() else -1
        try:
            free = _free_corners(b, s, e if e >= 0 else None)
        except Exception:  # noqa: BLE001 - a board without corners to dash: none is free
            free = {}
        return {n: free.get(n, "no start square") for n in names}

    def tail_choices(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """The ECD/XCD tails of this start and end: ``(kind, square names)`` pairs, kind
        ``"ecd"`` or ``"xcd"`` (none unless a closed exhaustive run has an end)."""
        s, e = self.start_square(), self.end_square()
        if s < 0 or e < 0 or not self.uses_end():
            return ()
        b = self.board()
        if not b.is_classic:
            return ()
        try:
            tails = _list_tails(b, s, e)
        except Exception:  # noqa: BLE001 - no tail for this board
            return ()
        return tuple((kind, tuple(b.name(int(q)) for q in t))
                     for kind in ("ecd", "xcd") for t in tails.get(kind, []))

    def enabled(self) -> Enabled:
        """Which controls apply now."""
        exhaustive = self._s.mode == "exhaustive"
        every = exhaustive and self._s.all_tours
        return Enabled(rules=not exhaustive, exhaustive=exhaustive,
                       end=self.uses_end() and not every,
                       tail=bool(self.tail_choices()) and not every, all_tours=exhaustive,
                       play=self._s.mode == "play")

    # -------------------------------------------------------------- writing
    def observe(self, callback: Observer) -> None:
        """Call ``callback(changed field names)`` after every update that changes something."""
        self._observers.append(callback)

    def unobserve(self, callback: Observer) -> None:
        """Stop calling ``callback``."""
        self._observers = [c for c in self._observers if c != callback]

    def update(self, **values: object) -> frozenset:
        """Set fields (each checked and normalised first: nothing is set when one value is
        bad, which raises ``ValueError``), then apply what follows from them (see the module
        docstring); returns the names that changed, which observers receive."""
        unknown = set(values) - set(CHECKS)
        if unknown:
            raise ValueError(f"unknown field(s): {', '.join(sorted(unknown))}")
        clean: dict[str, Any] = {k: CHECKS[k](v) for k, v in values.items()}
        square = clean.get("square", self._s.square)
        if square and "rows" in clean and "cols" not in clean:
            clean["cols"] = clean["rows"]
        elif square and "cols" in clean and "rows" not in clean:
            clean["rows"] = clean["cols"]
        elif square and clean.get("square") and "rows" not in clean and "cols" not in clean:
            clean["cols"] = self._s.rows
        old, preferred = self._s, self._preferred_end
        if "start" not in clean and ("rows" in clean or "cols" in clean):
            corner = _same_corner(old, clean.get("rows", old.rows), clean.get("cols", old.cols))
            if corner is not None:
                clean["start"] = corner
        self._s = replace(old, **clean)
        end = clean.get("end")
        if end is not None and self._s.closed:
            b = self.board()
            try:
                end = b.name(b.parse(end))
            except BoardError as e:
                self._s = old
                raise ValueError(f"End: {e}") from None
            if end not in self.end_choices():
                self._s = old
                start = self._s.start or "the first corner"
                raise ValueError(f"End: {end} is not a knight move from the start "
                                 f"{start}")
            self._s = replace(self._s, end=end)
            self._preferred_end = end
        try:
            self._follow()
        except Exception:
            self._s, self._preferred_end = old, preferred
            raise
        changed = frozenset(f.name for f in fields(Settings)
                            if getattr(old, f.name) != getattr(self._s, f.name))
        if changed:
            for cb in list(self._observers):
                cb(changed)
        return changed

    def _follow(self) -> None:
        """Apply what follows from the values: the start named as the board names it, an
        end among the end choices (the preferred one when it is one), dashes only on free
        corners, a tail only when it exists."""
        s = self._s
        coords = parse_coords(s.start.strip())
        b = self.board()
        if coords is not None and b.contains(*coords):
            self._s = s = replace(s, start=b.name(b.index(*coords)))
        ends = self.end_choices()
        if not s.closed:
            end = None
        elif s.end in ends:
            end = s.end
        elif self._preferred_end in ends:
            end = self._preferred_end
        else:
            end = ends[0] if ends else None
        if end != s.end:
            self._s = s = replace(s, end=end)
        free = self.corner_states()
        fix: dict[str, Any] = {}
        dashes = tuple((c, st) for c, st in s.dashes if free.get(c, "") is None)
        if dashes != s.dashes:
            fix["dashes"] = dashes
        if s.tail is not None and s.tail not in {t for _k, t in self.tail_choices()}:
            fix["tail"] = None
        if fix:
            self._s = replace(s, **fix)

    def load(self, data: object) -> frozenset:
        """Take the values of a :meth:`to_dict` (settings, possibly old or edited by hand):
        every good value is set at once, a bad or missing one keeps its current value;
        returns what changed."""
        if not isinstance(data, dict):
            return frozenset()
        good: dict[str, Any] = {}
        for f in fields(Settings):
            if f.name not in data:
                continue
            value = data[f.name]
            if f.name == "dashes" and isinstance(value, list) and all(
                    isinstance(d, str) for d in value):
                # older settings: one state per corner, in corner order
                value = tuple(zip(self._corner_names(data), value))
            try:
                good[f.name] = CHECKS[f.name](value)
            except (ValueError, TypeError):
                pass
        if good.get("square", self._s.square) and "rows" in good:
            good["cols"] = good["rows"]
        return self.update(**good)

    def _corner_names(self, data: dict) -> list[str]:
        try:
            rows = int_check("rows", 1, MAX_SIDE)(data.get("rows", self._s.rows))
            cols = int_check("cols", 1, MAX_SIDE)(data.get("cols", rows))
        except (ValueError, TypeError):
            rows, cols = self._s.rows, self._s.cols
        return [c.name for c in _corners(Board(rows, cols))]

    def leaper_pair(self) -> tuple[int, int]:
        """The piece as ``(a, b)``."""
        a, b = (int(v) for v in self._s.leaper.split(","))
        return a, b

    # ------------------------------------------------------------ requests
    def request(self) -> Request:
        """The validated :class:`Request`, or ``ValueError`` with one sentence."""
        s = self._s
        b = self.board()
        if b.is_classic:
            why = why_no_tour(b.rows, b.cols, s.closed)
        else:
            known, what = known_answer(b, s.closed)
            why = what if known is False else None
        if why:
            raise ValueError(why[0].upper() + why[1:])
        start = _parse(b, "Start", s.start) if s.start else None
        end = None
        if s.mode == "exhaustive":
            if start is None:
                start = 0
            if s.closed:
                if not s.end:
                    raise ValueError("Choose an end square: a knight move from the start")
                end = _parse(b, "End", s.end)
                if not b.is_knight_move(start, end):
                    raise ValueError(f"End: {b.name(end)} is not a move from the "
                                     f"start {b.name(start)}")
        try:
            order = parse_order(s.order)
        except RuleError:
            raise ValueError("Move order: the 8 digits 1..8, each once (e.g. 12345678)") from None
        try:
            tie = TieRule.parse(s.tie)
        except UnknownTieRule:
            raise ValueError(f"Tie rule: one of {', '.join(TIE_RULES)}, got {s.tie!r}") from None
        exhaustive = s.mode == "exhaustive"
        every = exhaustive and s.all_tours
        sym = s.symmetry if every else "none"
        if every:
            if s.closed and sym == "none":
                raise ValueError("Every path from the start lists open tours, the closed "
                                 "ones among them: untick 'closed tour', or choose a "
                                 "symmetry to list closed symmetric tours")
            if sym in ("quarter-turn", "diagonal") and b.rows != b.cols:
                raise ValueError(f"Symmetry: the {sym} maps only a square board onto itself")
            if sym != "none" and b.topology != "plane":
                raise ValueError("Symmetry: symmetric tours are counted on the plane board only")
            if b.size > ALL_TOURS_MAX:
                raise ValueError(f"Every tour: boards of at most {ALL_TOURS_MAX} squares "
                                 f"({b.rows}×{b.cols} has {b.size:,})")
        tail = None
        if exhaustive and not every and s.tail is not None:
            tail = tuple(_parse(b, "Tail", q) for q in s.tail)
        return Request(rows=b.rows, cols=b.cols, mode=Mode(s.mode), start=start, end=end,
                       closed=s.closed, tie=tie, order=order, seed=s.seed, method=s.method,
                       dashes=s.dashes, tail=tail, keep=s.keep, limit=s.limit,
                       all_tours=every, topology=b.topology, leaper=b.leaper,
                       symmetry="" if sym == "none" else sym)

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
        model.load(data)
        return model
