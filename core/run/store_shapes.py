"""The one shape of a stored task result: each study declares it, the store checks it both
ways.

A study declares the shape of what its tasks return next to the function they run
(``@result_shape(STUDY)`` on a ``check(params, result)``, built from the checks below). The
store (:mod:`.store`) applies it to every result it writes and to every row it reads back,
after the row's checksum: a study never writes a row it would refuse to read, and a row
written by hand, by another version or by a damaged program is refused in one line instead
of ending in a ``TypeError`` deep inside the study or handing a kernel an index off its
arrays. A check says what the study's reader relies on (types, lengths, ranges), no more. A
study that declares no shape, or whose module is not imported, has its rows checked for
their checksum and JSON only.
"""
from __future__ import annotations

import base64
import binascii
import math
import zlib
from collections.abc import Callable
from typing import Any

import numpy as np

from ..system.errors import InputError

__all__ = ["MAX_COUNT", "MAX_SIDE", "RowShapeError", "SHAPES", "Check", "board_squares",
           "check_row_shape", "whole", "listed", "obj", "packed", "probability",
           "result_shape"]

#: the largest count a row may hold (what an int64 holds)
MAX_COUNT = (1 << 63) - 1
#: the largest board side a row's parameters may name
MAX_SIDE = 100_000

#: ``check(params, result)``: raises :class:`RowShapeError` when ``result`` is not of its
#: study's shape
Check = Callable[[Any, Any], None]
#: study name -> its check (filled by :func:`result_shape` as the studies are imported)
SHAPES: dict[str, Check] = {}


class RowShapeError(InputError):
    """A task result (or its parameters) not of its study's shape; the message says which
    field and what is wrong, in a few words."""


def result_shape(study: str) -> Callable[[Check], Check]:
    """Declare ``check`` as the shape of ``study``'s results (a decorator)."""
    def register(check: Check) -> Check:
        SHAPES[study] = check
        return check
    return register


def check_row_shape(study: str, params: Any, result: Any) -> None:
    """Raise :class:`RowShapeError` when ``result`` (with the task's ``params``, both as
    parsed from their JSON) is not of ``study``'s shape; nothing for a study without one."""
    check = SHAPES.get(study)
    if check is None:
        return
    try:
        check(params, result)
    except RowShapeError:
        raise
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError) as e:
        # a field the checks did not foresee (they are meant to leave nothing to this)
        raise RowShapeError(f"unreadable fields ({type(e).__name__})") from None


def _show(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:39] + "…"


def obj(v: Any, what: str, keys: tuple[str, ...] = ()) -> dict:
    """``v``, a JSON object holding ``keys``."""
    if not isinstance(v, dict):
        raise RowShapeError(f"{what} is not an object")
    for k in keys:
        if k not in v:
            raise RowShapeError(f"{what} lacks {k!r}")
    return v


def listed(v: Any, what: str, length: int | None = None) -> list:
    """``v``, a JSON list (of ``length`` entries when given)."""
    if not isinstance(v, list):
        raise RowShapeError(f"{what} is not a list")
    if length is not None and len(v) != length:
        raise RowShapeError(f"{what} has {len(v):,} entries, not {length:,}")
    return v


def whole(v: Any, what: str, lo: int = 0, hi: int = MAX_COUNT) -> int:
    """``v``, a whole number in ``lo..hi`` (a count by default)."""
    if type(v) is not int:                  # bool is an int to Python, not to a row
        raise RowShapeError(f"{what} is {_show(v)}, not a whole number")
    if not lo <= v <= hi:
        raise RowShapeError(f"{what} is {_show(v)}, outside {lo:,}..{hi:,}")
    return v


def probability(v: Any, what: str) -> float:
    """``v``, a number in 0..1 (to rounding)."""
    if type(v) not in (int, float) or not math.isfinite(v) or not -1e-9 <= v <= 1 + 1e-9:
        raise RowShapeError(f"{what} is {_show(v)}, not a probability")
    return float(v)


def board_squares(params: Any) -> tuple[dict, int]:
    """The parameters ``{"rows", "cols", ...}`` of a task on a board, and its squares."""
    p = obj(params, "the parameters", ("rows", "cols"))
    return p, (whole(p["rows"], "the parameters' rows", 1, MAX_SIDE)
               * whole(p["cols"], "the parameters' cols", 1, MAX_SIDE))


def packed(v: Any, what: str, kind: str, itemsize: int, shape: tuple[int, int]) -> np.ndarray:
    """A packed array (:func:`knightgui_core.run.packed_arrays.pack_array`) of that dtype kind
    and size and that shape; decompressed no further than the bytes the shape holds."""
    d = obj(v, what, ("dtype", "shape", "zlib"))
    try:
        dtype = np.dtype(d["dtype"]) if isinstance(d["dtype"], str) else None
    except TypeError:
        dtype = None
    if dtype is None or dtype.kind != kind or dtype.itemsize != itemsize:
        raise RowShapeError(f"{what} has dtype {_show(d['dtype'])}, not "
                            f"{np.dtype(f'{kind}{itemsize}').name}")
    if d["shape"] != list(shape) or any(type(x) is not int for x in d["shape"]):
        raise RowShapeError(f"{what} has shape {_show(d['shape'])}, not {list(shape)}")
    want = shape[0] * shape[1] * itemsize
    try:
        if not isinstance(d["zlib"], str):
            raise ValueError
        z = zlib.decompressobj()
        raw = z.decompress(base64.b64decode(d["zlib"], validate=True), want + 1)
        complete = z.eof and not z.unconsumed_tail and len(raw) == want
    except (ValueError, binascii.Error, zlib.error):
        complete = False
    if not complete:
        raise RowShapeError(f"{what} does not unpack to {want:,} bytes")
    return np.frombuffer(raw, dtype=dtype).reshape(shape)
