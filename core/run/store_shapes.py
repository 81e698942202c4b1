"""What a stored task result must look like before a study's reader touches it.

A row of the store (:mod:`.store`) passes its checksum — nobody changed it by accident — and
then its shape, here: every field a study's reader uses, with its type, its length and the
range of each number, so that a row written by hand with a fresh checksum, by another
version, or by a damaged program is refused in one line (a damaged row) instead of ending
in a ``TypeError`` deep inside the study or handing a kernel an index off its arrays.

The shapes are those the tasks of each study write (the functions named below); a study
whose name is not here has no shape to check (the tests' ``demo`` rows, say).

* ``phadke`` (:func:`knightgui_core.studies.phadke_runner.count_algorithms`): one
  ``[id, solutions, dead_ends, forward_moves]`` per algorithm of the task, the ids those
  of its parameters in their order, the counts whole numbers ≥ 0.
* ``move-orders`` (:func:`knightgui_core.studies.orders_runner.walk_orders`): packed arrays
  ``lengths`` (int16) and ``closed`` (uint8) of shape (orders of the slice, squares),
  lengths 1..squares, closed 0 or 1.
* ``tie-breaks`` (:func:`knightgui_core.studies.tiebreaks_tasks.run_task`): the sizes
  ``n0..n1`` of the task in order and, per size, ``tried`` and ``left_out`` in 0..n²,
  ``completed`` in 0..tried, ``first_fail`` in −1..n²−1, ``fail_len`` in 0..n².
* ``count`` (:func:`knightgui_core.studies.count_study.count_task`): counts ≥ 0,
  probabilities in 0..1, ``next`` groups of prefixes of move types 1..8 (at most 7 a
  square in all, each at most the board long), ``lengths`` by squares visited.
* ``all-tours`` (:func:`knightgui_core.studies.all_tours.all_tours_task`): ``tours`` and
  ``closed`` whole numbers ≥ 0.
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

__all__ = ["MAX_COUNT", "RowShapeError", "SHAPES", "check_row_shape"]

#: the largest count a row may hold (what an int64 holds)
MAX_COUNT = (1 << 63) - 1
#: the largest board side a row's parameters may name
_MAX_SIDE = 100_000


class RowShapeError(InputError):
    """A stored result (or its parameters) not of its study's shape; the message says
    which field and what is wrong, in a few words."""


def _show(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:39] + "…"


def _obj(v: Any, what: str, keys: tuple[str, ...] = ()) -> dict:
    if not isinstance(v, dict):
        raise RowShapeError(f"{what} is not an object")
    for k in keys:
        if k not in v:
            raise RowShapeError(f"{what} lacks {k!r}")
    return v


def _list(v: Any, what: str, length: int | None = None, most: int | None = None) -> list:
    if not isinstance(v, list):
        raise RowShapeError(f"{what} is not a list")
    if length is not None and len(v) != length:
        raise RowShapeError(f"{what} has {len(v):,} entries, not {length:,}")
    if most is not None and len(v) > most:
        raise RowShapeError(f"{what} has {len(v):,} entries, more than {most:,}")
    return v


def _int(v: Any, what: str, lo: int = 0, hi: int = MAX_COUNT) -> int:
    if type(v) is not int:                  # bool is an int to Python, not to a row
        raise RowShapeError(f"{what} is {_show(v)}, not a whole number")
    if not lo <= v <= hi:
        raise RowShapeError(f"{what} is {_show(v)}, outside {lo:,}..{hi:,}")
    return v


def _prob(v: Any, what: str) -> float:
    if type(v) not in (int, float) or not math.isfinite(v) or not -1e-9 <= v <= 1 + 1e-9:
        raise RowShapeError(f"{what} is {_show(v)}, not a probability")
    return float(v)


def _board(params: Any) -> tuple[dict, int]:
    p = _obj(params, "the parameters", ("rows", "cols"))
    return p, (_int(p["rows"], "the parameters' rows", 1, _MAX_SIDE)
               * _int(p["cols"], "the parameters' cols", 1, _MAX_SIDE))


def _packed(v: Any, what: str, kind: str, itemsize: int, shape: tuple[int, int]) -> np.ndarray:
    """A packed array (:func:`knightgui_core.run.runner.pack_array`) of that dtype kind and
    size and that shape; decompressed no further than the bytes the shape holds."""
    d = _obj(v, what, ("dtype", "shape", "zlib"))
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
        whole = z.eof and not z.unconsumed_tail and len(raw) == want
    except (ValueError, binascii.Error, zlib.error):
        whole = False
    if not whole:
        raise RowShapeError(f"{what} does not unpack to {want:,} bytes")
    return np.frombuffer(raw, dtype=dtype).reshape(shape)


def _phadke(params: Any, result: Any) -> None:
    ids = _list(_obj(params, "the parameters", ("ids",))["ids"], "the parameters' ids")
    rows = _list(result, "the result", length=len(ids))
    for j, (row, i) in enumerate(zip(rows, ids)):
        r = _list(row, f"result[{j}]", length=4)
        if type(r[0]) is not int or r[0] != i:
            raise RowShapeError(f"result[{j}] counts algorithm {_show(r[0])}, the task's "
                                f"is {_show(i)}")
        for k in (1, 2, 3):
            _int(r[k], f"result[{j}][{k}]")


def _orders(params: Any, result: Any) -> None:
    p, squares = _board(params)
    lo = _int(_obj(p, "the parameters", ("from", "to"))["from"], "the parameters' from",
              0, 40_320)
    k = _int(p["to"], "the parameters' to", lo, 40_320) - lo
    r = _obj(result, "the result", ("lengths", "closed"))
    lengths = _packed(r["lengths"], "result.lengths", "i", 2, (k, squares))
    closed = _packed(r["closed"], "result.closed", "u", 1, (k, squares))
    if lengths.size and (int(lengths.min()) < 1 or int(lengths.max()) > squares):
        raise RowShapeError(f"result.lengths holds walks outside 1..{squares}")
    if closed.size and int(closed.max()) > 1:
        raise RowShapeError("result.closed holds values other than 0 and 1")


def _tiebreaks(params: Any, result: Any) -> None:
    p = _obj(params, "the parameters", ("n0", "n1"))
    n0 = _int(p["n0"], "the parameters' n0", 1, _MAX_SIDE)
    n1 = _int(p["n1"], "the parameters' n1", n0, _MAX_SIDE)
    names = ("tried", "completed", "left_out", "first_fail", "fail_len")
    r = _obj(result, "the result", ("n", *names))
    sizes = _list(r["n"], "result.n", length=n1 - n0 + 1)
    if sizes != list(range(n0, n1 + 1)) or any(type(n) is not int for n in sizes):
        raise RowShapeError(f"result.n is not the task's sizes {n0}..{n1}")
    cols = {k: _list(r[k], f"result.{k}", length=len(sizes)) for k in names}
    for j, n in enumerate(sizes):
        sq = n * n
        tried = _int(cols["tried"][j], f"result.tried[{j}]", 0, sq)
        _int(cols["completed"][j], f"result.completed[{j}]", 0, tried)
        _int(cols["left_out"][j], f"result.left_out[{j}]", 0, sq)
        _int(cols["first_fail"][j], f"result.first_fail[{j}]", -1, sq - 1)
        _int(cols["fail_len"][j], f"result.fail_len[{j}]", 0, sq)


def _count(params: Any, result: Any) -> None:
    _, squares = _board(params)
    r = _obj(result, "the result", ("tours", "closed", "dead_ends", "p_success", "p_closed",
                                    "forward_moves", "next"))
    for k in ("tours", "closed", "dead_ends", "forward_moves", "probes", "hits"):
        if k in r:
            _int(r[k], f"result.{k}")
    _prob(r["p_success"], "result.p_success")
    _prob(r["p_closed"], "result.p_closed")
    # the subtrees left are the options stored on the tie stack: at most 7 a square
    left = 7 * squares
    for g, group in enumerate(_list(r["next"], "result.next", most=left)):
        _list(group, f"result.next[{g}]", most=left)
        if not group:
            raise RowShapeError(f"result.next[{g}] is empty")
        left -= len(group)
        if left < 0:
            raise RowShapeError(f"result.next holds more than {7 * squares:,} subtrees")
        for i, prefix in enumerate(group):
            for m in _list(prefix, f"result.next[{g}][{i}]", most=squares):
                _int(m, f"a move type of result.next[{g}][{i}]", 1, 8)
    for sq, cell in _obj(r.get("lengths", {}), "result.lengths").items():
        if not (sq.isascii() and sq.isdigit()) or not 0 <= int(sq) <= squares:
            raise RowShapeError(f"result.lengths has {_show(sq)}, not a number of squares")
        paths, prob = _list(cell, f"result.lengths[{sq!r}]", length=2)
        _int(paths, f"result.lengths[{sq!r}] paths")
        _prob(prob, f"result.lengths[{sq!r}] probability")


def _all_tours(params: Any, result: Any) -> None:
    r = _obj(result, "the result", ("tours", "closed"))
    for k in ("tours", "closed", "hits", "nodes"):
        if k in r:
            _int(r[k], f"result.{k}")


#: study name -> check(params, result), raising :class:`RowShapeError`
SHAPES: dict[str, Callable[[Any, Any], None]] = {
    "phadke": _phadke, "move-orders": _orders, "tie-breaks": _tiebreaks, "count": _count,
    "all-tours": _all_tours,
}


def check_row_shape(study: str, params: Any, result: Any) -> None:
    """Raise :class:`RowShapeError` when ``result`` (with the task's ``params``, both parsed
    JSON) is not of ``study``'s shape; nothing for a study without one."""
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
