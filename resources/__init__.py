"""knightgui's data files: the application icon (SVG and PNG sizes, .ico, .icns), the Linux
desktop entry and the Qt style sheet.

A package only so ``importlib.resources.files("knightgui_resources")`` finds the files the same way
from a source checkout, an installed wheel and the PyInstaller bundle. Use the helpers in
``knightgui.resources`` rather than paths.
"""
