"""numpy arrays in a task's JSON result: ``{"dtype", "shape", "zlib"}``, the bytes
zlib-compressed and in base64 (what the move-order study's tasks return, and what the store
keeps; :mod:`.store_shapes` checks a stored one before it is unpacked)."""
from __future__ import annotations

import base64
import zlib
from collections.abc import Mapping
from typing import Any

import numpy as np

__all__ = ["PACK_LEVEL", "pack_array", "unpack_array"]

#: zlib level of :func:`pack_array`. Level 1 packs the 484 kB of an 8×8 move-order task
#: (2520 orders × 64 starts, int16 lengths and uint8 flags) in 1.8 ms to 37 kB, level 6 in
#: 13.8 ms to 21 kB (this machine, one core); the reader takes any level, so stores written
#: at level 6 read as before.
PACK_LEVEL = 1


def pack_array(a: np.ndarray) -> dict[str, Any]:
    """A numpy array as a small JSON object (zlib-compressed bytes in base64)."""
    a = np.ascontiguousarray(a)
    return {"dtype": a.dtype.str, "shape": list(a.shape),
            "zlib": base64.b64encode(zlib.compress(a.tobytes(), PACK_LEVEL)).decode("ascii")}


def unpack_array(d: Mapping[str, Any]) -> np.ndarray:
    """The array :func:`pack_array` packed (a new, writable array). ValueError if malformed."""
    try:
        dtype = np.dtype(str(d["dtype"]))
        shape = tuple(int(x) for x in d["shape"])
        raw = zlib.decompress(base64.b64decode(str(d["zlib"]), validate=True))
        return np.frombuffer(raw, dtype=dtype).reshape(shape).copy()
    except (KeyError, TypeError, ValueError, zlib.error) as e:
        raise ValueError(f"not a packed array: {e}") from None
