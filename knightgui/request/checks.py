"""The validators of the window model's fields (:class:`knightgui.request.model.Settings`): each
takes a raw value (a widget's, a settings file's) and returns it normalised, or raises
``ValueError`` with one sentence naming the field. Qt-free."""
from __future__ import annotations

from collections.abc import Callable, Iterable

from knightgui_core.board.dash import DASH_STATES

__all__ = ["int_check", "bool_check", "choice_check", "text_check", "optional_text_check",
           "dashes_check", "tail_check", "order_check", "leaper_check"]


def int_check(name: str, lo: int, hi: int) -> Callable[[object], int]:
    def check(v: object) -> int:
        try:
            if isinstance(v, bool) or not isinstance(v, (int, str)):
                raise ValueError
            n = int(v)
        except ValueError:
            raise ValueError(f"{name}: a whole number, got {v!r}") from None
        if not lo <= n <= hi:
            raise ValueError(f"{name}: between {lo:,} and {hi:,}, got {n:,}")
        return n
    return check


def bool_check(name: str) -> Callable[[object], bool]:
    def check(v: object) -> bool:
        if isinstance(v, bool):
            return v
        if isinstance(v, str) and v.lower() in ("true", "1", "false", "0"):
            return v.lower() in ("true", "1")
        if isinstance(v, int) and v in (0, 1):
            return bool(v)
        raise ValueError(f"{name}: true or false, got {v!r}")
    return check


def choice_check(name: str, choices: Iterable[str]) -> Callable[[object], str]:
    allowed = tuple(choices)

    def check(v: object) -> str:
        if not isinstance(v, str) or v not in allowed:
            raise ValueError(f"{name}: one of {', '.join(allowed)}, got {v!r}")
        return v
    return check


def text_check(name: str, limit: int = 64) -> Callable[[object], str]:
    def check(v: object) -> str:
        if not isinstance(v, str) or len(v) > limit or "\x00" in v:
            raise ValueError(f"{name}: a short text, got {v!r:.40}")
        return v.strip()
    return check


def optional_text_check(name: str) -> Callable[[object], str | None]:
    inner = text_check(name)

    def check(v: object) -> str | None:
        return None if v is None or v == "" else inner(v)
    return check


def dashes_check(v: object) -> tuple[tuple[str, str], ...]:
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


def tail_check(v: object) -> tuple[str, ...] | None:
    if v is None:
        return None
    if not isinstance(v, (tuple, list)) or not all(isinstance(x, str) for x in v) \
            or not 2 <= len(v) <= 8:
        raise ValueError(f"tail: a few square names, got {v!r:.40}")
    return tuple(v)


def order_check(v: object) -> str:
    if not isinstance(v, str) or len(v) > 8 or any(ch not in "12345678" for ch in v):
        raise ValueError(f"Move order: digits 1..8, got {v!r:.40}")
    return v


def leaper_check(v: object) -> str:
    """The piece as ``"a,b"`` (0 < a < b): from ``"2,3"``, ``"zebra"``, ``(2, 3)``, ``[3, 2]``."""
    from knightgui_core.board.squares import BoardError, parse_leaper
    if isinstance(v, str) and len(v) > 40:
        raise ValueError("Piece: a short text, two whole numbers A,B or a name")
    try:
        a, b = parse_leaper(v)
    except BoardError as e:
        raise ValueError(f"Piece: {e}") from None
    return f"{a},{b}"
