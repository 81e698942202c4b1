"""Saving a plot of the Analysis view as PNG or SVG through pyqtgraph's exporters
(:func:`export_plot`), with the one fix pyqtgraph's SVG exporter needs for Qt 6.11's paths,
applied for the length of an export (:func:`svg_path_shim`)."""
from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from knightgui.export import encode_png
from knightgui_core.system.files import check_write_target, write_bytes, write_text

__all__ = ["export_plot", "svg_path_shim"]


def _close_paths_explicitly(node) -> None:
    """Qt 6.11's SVG generator ends closed paths with a ``Z`` token, which pyqtgraph 0.14's SVG
    exporter cannot parse (pyqtgraph issue 3485: "not enough values to unpack"); write each
    ``Z`` as a line back to its sub-path's first point instead (the same outline)."""
    for el in node.getElementsByTagName("path"):
        tokens = el.getAttribute("d").split()
        if "Z" not in tokens and "z" not in tokens:
            continue
        out, start = [], None
        for tok in tokens:
            if tok[0] in "Mm":
                start = tok[1:]
            if tok in ("Z", "z"):
                if start:
                    out.append("L" + start)
            else:
                out.append(tok)
        el.setAttribute("d", " ".join(out))


@contextmanager
def svg_path_shim() -> Iterator[Any]:
    """pyqtgraph's SVG exporter module, its ``correctCoordinates`` made to rewrite each ``Z``
    first (:func:`_close_paths_explicitly`) for the length of one export, then put back."""
    mod: Any = importlib.import_module("pyqtgraph.exporters.SVGExporter")
    original = mod.correctCoordinates

    def correct(node, defs, item, options):
        _close_paths_explicitly(node)
        return original(node, defs, item, options)

    mod.correctCoordinates = correct
    try:
        yield mod
    finally:
        mod.correctCoordinates = original


def export_plot(widget, filename) -> Path:
    """Save a plot widget as a PNG (twice its size on screen) or an SVG, by the file's suffix,
    written by :mod:`knightgui_core.system.files` (a whole file or none). Raises
    ``ValueError`` for another suffix and ``OSError`` (one sentence) when it cannot write; a
    folder, a link, a device or a FIFO at the name is refused before anything is drawn."""
    path = Path(filename)
    suffix = path.suffix.lower()
    if suffix not in (".png", ".svg"):
        raise ValueError(f"export as .png or .svg, not {path.name!r}")
    check_write_target(path)
    scene = widget.scene()
    if suffix == ".svg":
        with svg_path_shim() as mod:
            svg = mod.SVGExporter(scene).export(toBytes=True)
        write_text(path, svg.decode("utf-8"), make_parents=True)
        return path
    from pyqtgraph.exporters import ImageExporter
    ex = ImageExporter(scene)
    ex.parameters()["width"] = 2 * max(widget.width(), 1)
    write_bytes(path, encode_png(ex.export(toBytes=True)), make_parents=True)
    return path
