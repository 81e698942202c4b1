"""Write docs/reference/cli.md from the command line's own parser.

    .venv/bin/python docs/tools/gen_cli.py          # rewrite the page
    .venv/bin/python docs/tools/gen_cli.py --check  # exit 1 when the page is out of date

Every command and subcommand's ``--help`` text, at 88 columns, in the order the parser lists
them, then the object each command prints with ``--json`` (the result type whose
``to_dict()`` it is and its keys, from ``knightgui/commands/json_shapes.py``);
tests/test_docs.py runs ``--check``, so a flag added to the parser fails the docs test until
the page is regenerated."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

PAGE = Path(__file__).resolve().parents[1] / "reference" / "cli.md"

HEAD = """# Command-line reference

`knightgui COMMAND [options]`; with no command it opens the window. This page is generated
from the parser itself (`.venv/bin/python docs/tools/gen_cli.py`; the docs test fails when it
is out of date), so it lists every command and flag as the program has them. Worked examples
with their output are in the [command-line cookbook](../guide/command-line.md).

## Exit status and output

| status | meaning |
|---:|---|
| 0 | done (a tour found, a count finished, a file that is a tour) |
| 1 | no tour: none exists on the board or from the start (said at once), the search found none, or `check` read a path that is not a tour |
| 2 | bad input: one line on stderr saying what is wrong |

With `--json` the last line of stdout is one JSON object, the `to_dict()` of the command's
result type ([the `--json` objects](#the-json-objects) below); counts in it are exact JSON
integers however long. Messages (progress bars, "compiling the engine (once)…") go to
stderr only. Squares are named `a1` (column letters as in spreadsheets: a…z, aa, ab, …, and
the row; `a1` is the bottom-left corner) or `col,row` counted from 1. What the commands
refuse and why is listed in [What is refused](refused.md); tour and solution files are
described in [File formats](file-formats.md).
"""  # noqa: E501 - a table row of the page


def _subparsers(p: argparse.ArgumentParser):
    for a in p._actions:
        if isinstance(a, argparse._SubParsersAction):
            seen = set()
            for name, sp in a.choices.items():
                if id(sp) not in seen:
                    seen.add(id(sp))
                    yield name, sp


JSON_HEAD = """
## The `--json` objects

Each command's `--json` line is the `to_dict()` of one result type of the
[Python API](api.md#the-answers), built by the same function the API uses: the API's answer
to the same question (the function named below) is the same object, the timings
(`seconds`, `wall_seconds`) aside. The keys are listed in the order printed; a key in
*sometimes* is there only as said.
"""


def render_json_shapes() -> str:
    """The section of the ``--json`` objects: per command, its result type and keys."""
    import knightgui_core.api_results as results
    from knightgui.commands.json_shapes import SHAPES
    out = [JSON_HEAD]
    for shape in SHAPES:
        doc = " ".join((getattr(results, shape.result).__doc__ or "").split("\n\n")[0].split())
        api = f" (the API: `knightgui_core.{shape.api}`)" if shape.api else ""
        out.append(f"\n### `{shape.command} --json`\n\n`{shape.result}.to_dict()`{api}: {doc}\n\n"
                   f"- keys: {', '.join(f'`{k}`' for k in shape.keys)}\n")
        if shape.optional:
            out.append(f"- sometimes: {', '.join(f'`{k}`' for k in shape.optional)} "
                       f"({shape.when})\n")
        if shape.more:
            out.append(f"- also: {shape.more}\n")
    return "".join(out)


def render() -> str:
    os.environ["COLUMNS"] = "88"
    from knightgui.cli import build_parser
    root = build_parser()
    out = [HEAD]

    def section(title: str, parser: argparse.ArgumentParser, level: int) -> None:
        parser.prog = title
        out.append(f"\n{'#' * level} `{title}`\n\n```text\n{parser.format_help().rstrip()}\n```\n")
        for name, sp in _subparsers(parser):
            section(f"{title} {name}", sp, level + 1)

    section("knightgui", root, 2)
    out.append(render_json_shapes())
    return "".join(out)


def main(argv: list[str] | None = None) -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--check", action="store_true", help="exit 1 if the page is stale")
    ns = args.parse_args(argv)
    text = render()
    if ns.check:
        if not PAGE.is_file() or PAGE.read_text(encoding="utf-8") != text:
            print(f"{PAGE} is out of date: run .venv/bin/python docs/tools/gen_cli.py",
                  file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(text, encoding="utf-8")
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
