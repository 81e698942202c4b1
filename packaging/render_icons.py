"""Render the application icon's PNG sizes (and the Windows .ico / macOS .icns) from the SVGs.

    .venv/bin/python packaging/render_icons.py          # writes resources/icons/*
    .venv/bin/python packaging/render_icons.py --check  # exit 1 if a committed PNG is stale

Sizes up to ``SMALL_MAX`` come from ``resources/knightgui-small.svg`` (a 4x4 board and two
moves, readable at 16 px); larger ones from ``resources/knightgui.svg`` (the full 6x6 tour).
Rendering uses QtSvg (part of PySide6-Essentials), headless. The .ico and .icns files are
plain containers of the PNGs, written here byte by byte (both formats accept PNG entries).
"""
from __future__ import annotations

import argparse
import os
import struct
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parent.parent
RES = ROOT / "resources"
OUT = RES / "icons"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
SMALL_MAX = 48
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# icns entry types holding PNG data, by pixel size (ic10 is 512@2x = 1024 px; not shipped)
ICNS_TYPES = {16: b"icp4", 32: b"icp5", 64: b"icp6", 128: b"ic07", 256: b"ic08", 512: b"ic09"}


def source_for(size: int) -> Path:
    return RES / ("knightgui-small.svg" if size <= SMALL_MAX else "knightgui.svg")


def render(size: int):
    """QImage (ARGB32 premultiplied, transparent background) of the icon at ``size`` px."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    if QGuiApplication.instance() is None:  # QSvgRenderer needs a Gui application
        render._app = QGuiApplication([sys.argv[0]])
    renderer = QSvgRenderer(str(source_for(size)))
    if not renderer.isValid():
        raise SystemExit(f"cannot parse {source_for(size)}")
    img = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(Qt.GlobalColor.transparent)
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(p)
    p.end()
    return img


def png_bytes(img) -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    if not img.save(buf, "PNG"):
        raise SystemExit("PNG encoding failed")
    buf.close()
    return bytes(data)


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    """ICO container with PNG-compressed entries (Windows Vista and later)."""
    sizes = [s for s in ICO_SIZES if s in pngs]
    head = struct.pack("<HHH", 0, 1, len(sizes))
    offset = 6 + 16 * len(sizes)
    entries, blobs = b"", b""
    for s in sizes:
        blob = pngs[s]
        dim = 0 if s >= 256 else s  # 0 means 256 in the directory
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(blob), offset)
        offset += len(blob)
        blobs += blob
    return head + entries + blobs


def icns_bytes(pngs: dict[int, bytes]) -> bytes:
    body = b""
    for s, kind in ICNS_TYPES.items():
        if s in pngs:
            body += kind + struct.pack(">I", 8 + len(pngs[s])) + pngs[s]
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def difference(a, b) -> float:
    """Mean absolute difference of two same-size images over all RGBA channels, 0..255."""
    from PySide6.QtGui import QImage

    a = a.convertToFormat(QImage.Format.Format_RGBA8888)
    b = b.convertToFormat(QImage.Format.Format_RGBA8888)
    if a.size() != b.size():
        return 255.0
    ba = bytes(a.constBits())[: a.sizeInBytes()]
    bb = bytes(b.constBits())[: b.sizeInBytes()]
    return sum(abs(x - y) for x, y in zip(ba, bb)) / len(ba)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true",
                    help="compare the committed PNGs with a fresh render instead of writing")
    args = ap.parse_args(argv)
    if args.check:
        from PySide6.QtGui import QImage

        stale = []
        for s in SIZES:
            have = QImage(str(OUT / f"knightgui-{s}.png"))
            d = difference(render(s), have)
            print(f"{s:4d} px  mean difference {d:.2f}")
            if have.isNull() or d > 2.0:
                stale.append(s)
        if stale:
            print(f"stale or missing: {stale}; run packaging/render_icons.py", file=sys.stderr)
            return 1
        return 0
    OUT.mkdir(parents=True, exist_ok=True)
    pngs = {}
    for s in SIZES:
        pngs[s] = png_bytes(render(s))
        (OUT / f"knightgui-{s}.png").write_bytes(pngs[s])
    (OUT / "knightgui.ico").write_bytes(ico_bytes(pngs))
    (OUT / "knightgui.icns").write_bytes(icns_bytes(pngs))
    print(f"wrote {len(SIZES)} PNGs, knightgui.ico and knightgui.icns to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
