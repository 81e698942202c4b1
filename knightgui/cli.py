"""Command line (SPEC §10). ``knightgui <command> ...``; no Qt is imported unless an image
is rendered. Each command lives in ``knightgui.commands.<name>`` with ``add_parser(sub)`` and
``run(args) -> int``.

Exit status: 0 success, 2 bad input (one line on stderr), 1 no tour found.
"""
from __future__ import annotations

import argparse
import importlib
import sys

from . import __version__
from .commands._common import CliError

COMMANDS = ("solve", "enumerate", "study", "check")


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2
        raise CliError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="knightgui", description="Knight's tour explorer (Warnsdorff's rule, "
                "Phadke's exhaustive method). With no arguments, opens the window.")
    p.add_argument("--version", action="version", version=f"knightgui {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        mod = importlib.import_module(f".commands.{name}", __package__)
        mod.add_parser(sub)
    return p


def run(argv) -> int:
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "command", None):
            parser.print_help()
            return 0
        return int(args.func(args) or 0)
    except CliError as e:
        print(str(e).splitlines()[0] if str(e) else "bad input", file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:           # output piped into `head` and the like
        import os
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except OSError:
            pass
        return 0


def main() -> int:
    return run(sys.argv[1:])
