"""The board view's images, built with numpy: the checkerboard and the colour-by-move image
(one gather of packed colours from a pyqtgraph colour map), and the move numbers of a path.
"""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg

__all__ = ["LIGHT", "DARK", "UNVISITED", "TIE_RGBA", "checker_rgba", "colour_lut",
           "colour_index", "moves_rgba", "numbers_of"]

LIGHT = (240, 217, 181)
DARK = (181, 136, 99)
UNVISITED = (205, 205, 205)
TIE_RGBA = (255, 210, 0, 140)


def checker_rgba(rows: int, cols: int) -> np.ndarray:
    """``uint8[rows, cols, 4]`` checkerboard, a1 dark."""
    r = np.arange(rows)[:, None]
    c = np.arange(cols)[None, :]
    dark = ((r + c) & 1) == 0
    out = np.empty((rows, cols, 4), dtype=np.uint8)
    out[...] = LIGHT + (255,)
    out[dark] = DARK + (255,)
    return out


_LUTS: dict[str, tuple[np.ndarray, np.ndarray]] = {}
_UNVISITED32 = np.array([UNVISITED + (255,)], dtype=np.uint8).view(np.uint32)[0]


def colour_lut(name: str = "viridis") -> tuple[np.ndarray, np.ndarray]:
    """``(uint32[256] packed RGBA, bool[256] dark)`` for the colour-by-move mode; ``dark``
    marks colours on which numbers are drawn in white."""
    got = _LUTS.get(name)
    if got is None:
        rgb = pg.colormap.get(name).getLookupTable(0.0, 1.0, 256, alpha=False).astype(np.uint8)
        rgba = np.concatenate([rgb, np.full((256, 1), 255, np.uint8)], axis=1)
        packed = np.ascontiguousarray(rgba).view(np.uint32).reshape(256)
        lum = rgb[:, 0] * 0.299 + rgb[:, 1] * 0.587 + rgb[:, 2] * 0.114
        got = _LUTS[name] = (packed, lum < 140)
    return got


def colour_index(numbers: np.ndarray, total: int) -> np.ndarray:
    """``uint8`` colour index 0..255 of move numbers 1..total (0 for unvisited squares)."""
    scale = np.float32(255.0 / max(total - 1, 1))
    idx = np.multiply(np.maximum(numbers, 1) - 1, scale, dtype=np.float32)
    return idx.astype(np.uint8)


def moves_rgba(numbers: np.ndarray, total: int, lut) -> np.ndarray:
    """Colour-by-move image ``uint8[rows, cols, 4]`` of ``numbers`` (``int32[rows, cols]``,
    0 = unvisited, drawn grey). One gather of packed colours: ~5 ms per million squares."""
    packed, _dark = lut
    rows, cols = numbers.shape
    img = packed[colour_index(numbers, total)]
    if total > 0 and not numbers.all():
        img[numbers <= 0] = _UNVISITED32
    return img.view(np.uint8).reshape(rows, cols, 4)


def numbers_of(path: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """``int32[rows, cols]`` move numbers of a (possibly partial) path; 0 = not visited."""
    out = np.zeros(rows * cols, dtype=np.int32)
    out[path] = np.arange(1, len(path) + 1, dtype=np.int32)
    return out.reshape(rows, cols)
