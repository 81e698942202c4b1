"""Command line (docs/spec.md §10). ``knightgui <command> ...``; no Qt is imported unless an image
is rendered. Each command lives in ``knightgui.commands.<name>`` with ``add_parser(sub)`` and
``run(args) -> int``.

Exit status, one per outcome, the same for every command: 0 done (a tour found or
checked, an enumeration or study finished); 1 no tour (none exists on the board or from the
start, the search found none, ``check``'s file holds a path that is not a tour); 2 bad input
(an argument, a file or a store that cannot be used; one line on stderr). An output stream
that cannot be written is 1 with one line; Ctrl-C 130; SIGTERM 143 and SIGHUP 129 (128 + the
signal, one line: :mod:`knightgui.terminate`), after the same cleanup as Ctrl-C.
"""
from __future__ import annotations

import argparse
import importlib
import sys

from knightgui import __version__
from knightgui.commands._common import CliError, one_line

COMMANDS = ("solve", "enumerate", "study", "check", "warmup")


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2
        raise CliError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    """The ``knightgui`` argument parser with every sub-command."""
    p = _Parser(prog="knightgui", description="Knight's tour explorer (Warnsdorff's rule, "
                "Phadke's exhaustive method). With no arguments, opens the window.",
                epilog="exit status: 0 done, 1 no tour (none exists, none found, or check's "
                       "file is not a tour), 2 bad input (one line on stderr)")
    p.add_argument("--version", action="version", version=f"knightgui {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        mod = importlib.import_module(f".commands.{name}", __package__)
        mod.add_parser(sub)
    return p


def run(argv, notice: bool = False) -> int:
    """Run one command; the exit status. stdout and stderr are guarded
    (:mod:`knightgui.streams`); with ``notice`` (the ``knightgui`` process) a long compile
    of the engine is said on stderr (:mod:`knightgui.compile_notice`)."""
    from knightgui.streams import OutputError, guarded_streams, say_on_stderr
    try:
        with guarded_streams():
            return _run(argv, notice)
    except OutputError as e:
        say_on_stderr(str(e))
        return 1


def _run(argv, notice: bool = False) -> int:
    from knightgui.terminate import Terminated, signals_raise
    try:
        with signals_raise():
            return _command(argv, notice)
    except CliError as e:
        print(one_line(str(e)) if str(e) else "bad input", file=sys.stderr)
        return e.code
    except Terminated as e:
        print(f"terminated ({e.name})", file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except ImportError as e:
        from knightgui_core.system.environment import KernelsMissing
        if not isinstance(e, KernelsMissing):
            raise
        print(one_line(str(e)), file=sys.stderr)
        return 2


def _command(argv, notice: bool) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 0
    if not notice or args.command == "warmup":     # warmup shows its own progress
        return int(args.func(args) or 0)
    from knightgui.compile_notice import compile_notice
    with compile_notice():                  # a long first compile is said on stderr
        return int(args.func(args) or 0)


def main() -> int:
    """Run the command line; returns the exit code (0 done, 1 no tour or output failed, 2 bad
    input)."""
    return run(sys.argv[1:], notice=True)
