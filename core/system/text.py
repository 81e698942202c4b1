"""Readable messages: long numbers and long lines cut to a size a person can read; strict,
bounded JSON (:func:`strict_loads`: no ``NaN``/``Infinity``, no number beyond what it can
mean, no nesting deeper than :data:`MAX_JSON_DEPTH`, checked before the parser recurses)."""
from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any, NoReturn

import numpy as np

from .errors import InputError

__all__ = ["size_text", "duration_text", "shorten", "short_number", "finite", "strict_dumps",
           "reject_constant", "finite_float", "whole_int", "json_depth", "strict_loads",
           "JsonRefused", "MAX_JSON_DEPTH", "INT64_MAX"]

#: JSON nested deeper than this is refused before it is parsed. knightgui's own files nest at
#: most 5 levels (a solutions file: object, list, record, path, pair); Python's parser would
#: recurse once per level and fail near 1,000 with a ``RecursionError``.
MAX_JSON_DEPTH = 64
#: The largest whole number a file may hold: every count and index knightgui keeps is int64.
INT64_MAX = 2**63 - 1

_LONG_NUMBER = re.compile(r"-?\d{25,}")


def size_text(nbytes: float) -> str:
    """Bytes for a person: ``3.5 GiB`` from 1 GiB up, else whole MiB (at least 1)."""
    if nbytes >= 2**30:
        return f"{nbytes / 2**30:.1f} GiB"
    return f"{max(1, round(nbytes / 2**20))} MiB"


def duration_text(seconds: float) -> str:
    """Seconds for a person: ``40 s`` under a minute and a half, ``25 min`` under an hour
    and a half, else ``2.5 h``."""
    if seconds < 90:
        return f"{max(1, round(seconds))} s"
    if seconds < 5400:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h"


def short_number(digits: str, keep: int = 12) -> str:
    """``"123456789012…(5,000 digits)"`` for a long run of digits; short ones unchanged."""
    sign = "-" if digits.startswith("-") else ""
    d = digits.lstrip("-")
    if len(d) <= 2 * keep:
        return digits
    return f"{sign}{d[:keep]}…({len(d):,} digits)"


def shorten(text: str, limit: int = 300) -> str:
    """``text`` with every number of 25 digits or more abbreviated, then cut to ``limit``
    characters (an ellipsis marks the cut)."""
    text = _LONG_NUMBER.sub(lambda m: short_number(m.group(0)), str(text))
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


def finite(obj: Any) -> Any:
    """``obj`` with every float that is not finite (``inf``, ``nan``) replaced by ``None`` and
    numpy scalars and arrays turned into Python values: what strict JSON can hold."""
    if isinstance(obj, bool) or obj is None or isinstance(obj, (str, int)):
        return obj
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, np.generic):
        return finite(obj.item())
    if isinstance(obj, np.ndarray):
        return finite(obj.tolist())
    if isinstance(obj, Mapping):
        return {k: finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [finite(v) for v in obj]
    return obj


def strict_dumps(obj: Any, **kwargs: Any) -> str:
    """``json.dumps`` that always writes strict JSON: non-finite numbers become ``null``
    (see :func:`finite`), ``allow_nan=False`` as a last guard."""
    kwargs.setdefault("separators", (",", ":"))
    return json.dumps(finite(obj), allow_nan=False, **kwargs)


def reject_constant(name: str) -> NoReturn:
    """``parse_constant`` for ``json.loads``: ``NaN``, ``Infinity`` and ``-Infinity`` are
    not JSON and are refused."""
    raise ValueError(f"{name} is not a JSON number")


def finite_float(text: str) -> float:
    """``parse_float`` for ``json.loads``: a number too large for a float (``1e999``) is
    refused instead of becoming ``inf``."""
    v = float(text)
    if not math.isfinite(v):
        raise ValueError(f"{shorten(text, 40)} is too large a number")
    return v


def whole_int(text: str) -> int:
    """``parse_int`` for ``json.loads``: a whole number within int64, or ``ValueError`` (a
    2**83 index or a 5,000-digit count is refused with one sentence, not an OverflowError
    later)."""
    if len(text) > 20:
        raise ValueError(f"{short_number(text)} is beyond the 64-bit range")
    v = int(text)
    if not -INT64_MAX - 1 <= v <= INT64_MAX:
        raise ValueError(f"{text} is beyond the 64-bit range")
    return v


class JsonRefused(InputError):
    """JSON that :func:`strict_loads` will not parse; ``str()`` is one sentence."""


_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_NOT_BRACKET = bytes(c for c in range(256) if c not in b"[]{}")


def json_depth(data: bytes | str, chunk: int = 1 << 22) -> int:
    """How deep the brackets of JSON text ``data`` nest (strings skipped), found without
    recursion in about 1 s per 100 MB: strings are cut out (one regular expression), every
    other byte but brackets dropped (``bytes.translate``), and the running depth of what is
    left summed by numpy, ``chunk`` brackets at a time."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    b = np.frombuffer(_STRING.sub(b"", raw).translate(None, _NOT_BRACKET), np.uint8)
    depth = deepest = 0
    for k in range(0, len(b), chunk):
        step = 3 - (b[k:k + chunk] & 6).view(np.int8)   # [ and { → +1, ] and } → -1
        run = np.cumsum(step, dtype=np.int32)
        deepest = max(deepest, depth + int(run.max()))
        depth += int(run[-1])
    return deepest


def strict_loads(data: bytes | str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads`` for files and settings from outside: nesting above ``max_depth`` is
    refused before parsing, ``NaN``/``Infinity``, floats beyond the float range and whole
    numbers beyond int64 are refused, bytes must be UTF-8 (a byte-order mark is skipped).
    Anything refused is :class:`JsonRefused` with one sentence."""
    depth = json_depth(data)
    if depth > max_depth:
        raise JsonRefused(f"JSON nested {depth:,} levels deep (at most {max_depth} are read)")
    if isinstance(data, (bytes, bytearray, memoryview)):
        try:
            data = bytes(data).decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise JsonRefused(f"not UTF-8 text (bad byte at offset {e.start})") from None
    try:
        return json.loads(data, parse_constant=reject_constant, parse_float=finite_float,
                          parse_int=whole_int)
    except RecursionError:    # not reached below max_depth; kept as the last guard
        raise JsonRefused("JSON nested too deep") from None
    except ValueError as e:
        raise JsonRefused(f"not valid JSON ({shorten(str(e).splitlines()[0], 120)})") from None
