"""Entry script of the PyInstaller bundle.

``knightgui`` behaves like the installed command: the CLI with arguments, the window
without. An executable whose name ends in ``-app`` (the windowed ``knightgui-app.exe`` built
on Windows) always opens the window. ``KNIGHTGUI_SMOKE_EXIT_MS`` arms the headless smoke exit
(see ``knightgui.smoke``) even if the app's own code does not.

After the window closes, background threads still running (the numba warm-up, which cannot
be interrupted mid-compile) are waited for, bounded: a daemon thread caught inside numba while
the interpreter shuts down crashes the process with SIGSEGV.
"""
import multiprocessing
import os
import sys
import threading
import time

BACKGROUND_WAIT_S = 120.0


def _finish_background_threads(limit_s: float = BACKGROUND_WAIT_S) -> None:
    deadline = time.monotonic() + limit_s
    for t in threading.enumerate():
        if t is not threading.main_thread() and t.is_alive():
            t.join(max(0.0, deadline - time.monotonic()))


def _run() -> int:
    from knightgui.__main__ import gui_main, main

    name = os.path.splitext(os.path.basename(sys.executable))[0]
    gui_only = name.endswith("-app")
    if gui_only or len(sys.argv) <= 1:
        from knightgui.smoke import install_when_app_exists

        install_when_app_exists()
        try:
            return gui_main() if gui_only else main(sys.argv[1:])
        finally:
            _finish_background_threads()
    return main(sys.argv[1:])


if __name__ == "__main__":
    multiprocessing.freeze_support()
    sys.exit(_run())
