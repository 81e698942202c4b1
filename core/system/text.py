"""Readable messages: long numbers and long lines cut to a size a person can read."""
from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any, NoReturn

import numpy as np

__all__ = ["shorten", "short_number", "finite", "strict_dumps", "reject_constant", "finite_float"]

_LONG_NUMBER = re.compile(r"-?\d{25,}")


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
