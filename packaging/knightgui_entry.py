"""Entry script of the PyInstaller bundle.

``knightgui`` behaves like the installed command: the CLI with arguments, the window
without. An executable whose name ends in ``-app`` (the windowed ``knightgui-app.exe`` built
on Windows) always opens the window. ``KNIGHTGUI_SMOKE_EXIT_MS`` arms the headless smoke exit
(see ``knightgui.smoke``) even if the app's own code does not.
"""
import multiprocessing
import os
import sys


def _run() -> int:
    from knightgui.__main__ import gui_main, main

    name = os.path.splitext(os.path.basename(sys.executable))[0]
    gui_only = name.endswith("-app")
    if gui_only or len(sys.argv) <= 1:
        from knightgui.smoke import install_when_app_exists

        install_when_app_exists()
        return gui_main() if gui_only else main(sys.argv[1:])
    return main(sys.argv[1:])


if __name__ == "__main__":
    multiprocessing.freeze_support()
    sys.exit(_run())
