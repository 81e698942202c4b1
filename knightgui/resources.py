"""The application's data files (icon, desktop entry, style sheet), found through
``importlib.resources`` so they load the same way from a checkout, a wheel and the
PyInstaller bundle: the top-level ``resources/`` folder, installed as the package
``knightgui_resources`` (the icon's SVGs, ``icons/knightgui-N.png`` for N in
:data:`ICON_SIZES` with their ``.ico`` and ``.icns``, ``knightgui.desktop``,
``knightgui.qss``). Only :func:`app_icon` needs Qt.
"""
from __future__ import annotations

import atexit
import contextlib
from importlib import resources as _ir
from pathlib import Path

PACKAGE = "knightgui_resources"
APP_ID = "knightgui"  # icon name, desktop file name, WM class
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)

_keep = contextlib.ExitStack()  # holds temporary copies if the package is ever zipped
atexit.register(_keep.close)


def _path(*parts: str) -> Path:
    """A real file-system path to a file of the ``resources`` package."""
    node = _ir.files(PACKAGE).joinpath(*parts)
    if not node.is_file():
        raise FileNotFoundError(f"knightgui resource missing: {'/'.join(parts)}"
                                + (f" ({node})" if isinstance(node, Path) else ""))
    if isinstance(node, Path):
        return node
    return Path(_keep.enter_context(_ir.as_file(node)))


def icon_path(size: int = 256) -> Path:
    """PNG of the application icon, ``size`` x ``size`` pixels; ``size`` in ``ICON_SIZES``."""
    if size not in ICON_SIZES:
        raise ValueError(f"no {size} px icon; sizes are {', '.join(map(str, ICON_SIZES))}")
    return _path("icons", f"{APP_ID}-{size}.png")


def svg_path(small: bool = False) -> Path:
    """The icon's SVG source (``small=True``: the variant drawn for 16-48 px)."""
    return _path(f"{APP_ID}-small.svg" if small else f"{APP_ID}.svg")


def desktop_entry_path() -> Path:
    """The Linux ``.desktop`` entry (its ``Exec`` names ``knightgui-app`` on PATH)."""
    return _path(f"{APP_ID}.desktop")


def platform_icon_path(kind: str) -> Path:
    """``kind`` 'ico' (Windows) or 'icns' (macOS): the icon in that container."""
    if kind not in ("ico", "icns"):
        raise ValueError("kind must be 'ico' or 'icns'")
    return _path("icons", f"{APP_ID}.{kind}")


def style_sheet() -> str:
    """The application's Qt style sheet (text)."""
    return _path(f"{APP_ID}.qss").read_text(encoding="utf-8")


def app_icon():
    """``QIcon`` holding every PNG size, so each place (title bar, task bar, dock, alt-tab)
    picks a sharp one. Needs a ``QGuiApplication``."""
    from PySide6.QtCore import QSize
    from PySide6.QtGui import QIcon

    icon = QIcon()
    for s in ICON_SIZES:
        icon.addFile(str(icon_path(s)), QSize(s, s))
    return icon


def apply_identity(app) -> None:
    """Give ``app`` the window icon and the desktop file name (Wayland app id / menu entry)
    so the running window matches the installed desktop entry."""
    app.setWindowIcon(app_icon())
    if hasattr(app, "setDesktopFileName"):
        app.setDesktopFileName(APP_ID)
