"""The application's data files: icon sizes, desktop entry, style sheet, platform icons,
all found through importlib.resources (knightgui.resources)."""
from __future__ import annotations

import configparser
import importlib.util
import shutil
import struct
import subprocess
from importlib import resources as ir
from pathlib import Path

import pytest

from knightgui import resources as kr

ROOT = Path(__file__).resolve().parent.parent


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize("size", kr.ICON_SIZES)
def test_every_icon_size_is_a_png_of_that_size(size):
    path = kr.icon_path(size)
    assert path.is_file()
    assert _png_size(path) == (size, size)


def test_icon_sizes_cover_the_desktop_range():
    assert {16, 24, 32, 48, 64, 128, 256, 512} <= set(kr.ICON_SIZES)


@pytest.mark.parametrize("size", [0, 20, 1024, -16])
def test_unknown_icon_size_is_refused(size):
    with pytest.raises(ValueError, match="sizes are"):
        kr.icon_path(size)


def test_files_come_from_the_resources_package():
    folder = ir.files("knightgui_resources")
    assert kr.icon_path(64) == Path(str(folder.joinpath("icons", "knightgui-64.png")))
    assert kr.desktop_entry_path().parent == Path(str(folder))


def test_svgs_are_svg_documents():
    for small in (False, True):
        text = kr.svg_path(small).read_text(encoding="utf-8")
        assert "<svg" in text and text.rstrip().endswith("</svg>")
        assert 'baseProfile="tiny"' in text  # what QtSvg renders


def _desktop_entry() -> configparser.ConfigParser:
    cp = configparser.ConfigParser(interpolation=None)
    cp.optionxform = str  # keys are case-sensitive
    cp.read_string(kr.desktop_entry_path().read_text(encoding="utf-8"))
    return cp


def test_desktop_entry_has_the_keys_a_menu_needs():
    entry = _desktop_entry()["Desktop Entry"]
    assert entry["Type"] == "Application"
    assert entry["Name"] == "knightgui"
    assert entry["Exec"].split()[0] == "knightgui-app"
    assert entry["Icon"] == kr.APP_ID
    assert entry["Terminal"] == "false"
    assert entry["Categories"].endswith(";")
    assert entry["StartupWMClass"] == kr.APP_ID


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None,
                    reason="desktop-file-validate not installed (apt: desktop-file-utils)")
def test_desktop_entry_passes_desktop_file_validate():
    r = subprocess.run(["desktop-file-validate", str(kr.desktop_entry_path())],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "error" not in (r.stdout + r.stderr).lower()


def test_ico_holds_png_entries_that_fit_the_file():
    data = kr.platform_icon_path("ico").read_bytes()
    reserved, kind, count = struct.unpack("<HHH", data[:6])
    assert (reserved, kind) == (0, 1) and count >= 5
    sizes = []
    for i in range(count):
        w, h, _, _, _, _, length, offset = struct.unpack("<BBBBHHII", data[6 + 16 * i: 22 + 16 * i])
        assert offset + length <= len(data)
        assert data[offset:offset + 8] == b"\x89PNG\r\n\x1a\n"
        sizes.append(w or 256)
    assert 16 in sizes and 256 in sizes


def test_icns_length_and_entries_are_consistent():
    data = kr.platform_icon_path("icns").read_bytes()
    assert data[:4] == b"icns"
    assert struct.unpack(">I", data[4:8])[0] == len(data)
    pos, kinds = 8, []
    while pos < len(data):
        kind, length = data[pos:pos + 4], struct.unpack(">I", data[pos + 4:pos + 8])[0]
        assert length > 8 and data[pos + 8:pos + 16] == b"\x89PNG\r\n\x1a\n"
        kinds.append(kind)
        pos += length
    assert pos == len(data)
    assert b"ic07" in kinds and b"ic09" in kinds  # 128 and 512 px


def test_style_sheet_parses_without_qt_warnings(qapp):
    from PySide6.QtCore import qInstallMessageHandler
    from PySide6.QtWidgets import QGroupBox, QLabel, QVBoxLayout, QWidget

    text = kr.style_sheet()
    assert text.count("{") == text.count("}") > 0
    messages = []
    previous = qInstallMessageHandler(lambda mode, ctx, msg: messages.append(msg))
    try:
        w = QWidget()
        w.setStyleSheet(text)
        box = QGroupBox("options", w)
        QVBoxLayout(box).addWidget(QLabel("x"))
        w.ensurePolished()
        box.ensurePolished()
        w.grab()  # paint once so the sheet is really applied
    finally:
        qInstallMessageHandler(previous)
    assert not [m for m in messages if "style" in m.lower() or "parse" in m.lower()], messages


def test_app_icon_offers_every_size(qapp):
    icon = kr.app_icon()
    assert not icon.isNull()
    sizes = {s.width() for s in icon.availableSizes()}
    assert set(kr.ICON_SIZES) <= sizes
    pm = icon.pixmap(48, 48)
    assert pm.width() == 48 and not pm.toImage().isNull()


def test_apply_identity_sets_window_icon_and_desktop_name(qapp):
    kr.apply_identity(qapp)
    assert not qapp.windowIcon().isNull()
    assert qapp.desktopFileName() == kr.APP_ID


def _render_module():
    spec = importlib.util.spec_from_file_location("render_icons", ROOT / "packaging" / "render_icons.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("size", [16, 48, 64, 256])
def test_committed_pngs_are_renders_of_the_svgs(qapp, size):
    from PySide6.QtGui import QImage

    render = _render_module()
    fresh = render.render(size)
    have = QImage(str(kr.icon_path(size)))
    assert render.difference(fresh, have) <= 2.0, "run packaging/render_icons.py"
    # and the picture is not blank: the corner is transparent, the middle is opaque
    assert have.pixelColor(0, 0).alpha() < 40
    assert have.pixelColor(size // 2, size // 2).alpha() == 255
