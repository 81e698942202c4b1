"""The main window's old import path, kept for scripts written against it: the window lives
in :mod:`knightgui.window.main`."""
from knightgui.window.main import MainWindow

__all__ = ["MainWindow"]
