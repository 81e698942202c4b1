"""Entry points: ``knightgui`` (CLI, or the window with no arguments) and ``knightgui-app``."""
from __future__ import annotations

import sys


def main(argv=None) -> int:
    """``python -m knightgui``: the command line (no arguments: the window)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv:
        return gui_main()
    from knightgui.cli import run
    return run(argv, notice=True)


def gui_main() -> int:
    """The window's own entry point (``knightgui-app``): no command line parsing."""
    from knightgui.app import main as app_main
    return app_main([])


if __name__ == "__main__":
    sys.exit(main())
