"""Board totals from a per-class table of docs/results/warnsdorff-counts.md.

The per-class tables list one start per symmetry class with the figures *per start*; a
board's totals are the sum over the classes of (starts in the class) × (figure per start).
This script reads the first table after a heading, checks its classes and their sizes against
the engine's own symmetry classes (`start_classes`), and prints the totals: tours, closed
tours, dead ends, and — when the table has a P(success) column — P(success) for a uniformly
random start and for a random start on the larger colour (odd boards).

    .venv/bin/python docs/tools/class_totals.py --size 11 --heading "## 11×11" [--json]

Exit code 0, or 2 with one line when the table is missing, incomplete or wrong.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from fractions import Fraction
from pathlib import Path

from knightgui_core.board.squares import Board
from knightgui_core.tietree.counting.subtrees import start_classes

DOC = Path(__file__).resolve().parents[1] / "results" / "warnsdorff-counts.md"


class TableError(ValueError):
    """The table is not there or does not add up to the board."""


def read_table(text: str, heading: str) -> list[dict[str, str]]:
    """The rows of the first markdown table after the first line starting with ``heading``,
    as dicts keyed by the header's cells."""
    lines = text.splitlines()
    at = next((i for i, ln in enumerate(lines) if ln.startswith(heading)), None)
    if at is None:
        raise TableError(f"no heading starting with {heading!r}")
    i = next((j for j in range(at + 1, len(lines)) if lines[j].startswith("| class |")), None)
    if i is None:
        raise TableError(f"no table of classes after {heading!r}")
    cells = [c.strip() for c in lines[i].strip("|").split("|")]
    rows = []
    for ln in lines[i + 2:]:
        if not ln.startswith("|"):
            break
        rows.append(dict(zip(cells, (c.strip() for c in ln.strip("|").split("|")))))
    return rows


def _int(text: str) -> int:
    return int(re.sub(r"[^\d]", "", text.replace("**", "")))


def totals(rows: list[dict[str, str]], size: int) -> dict[str, object]:
    """Sum the table over its classes; checks every class of the board is there once, with
    the number of starts the engine gives it."""
    board = Board(size, size)
    classes = {board.name(rep): len(m) for rep, m in
               start_classes(size, size, range(board.size)).items()}
    named = {r["class"]: r for r in rows}
    if len(named) != len(rows):
        raise TableError("a class is listed twice")
    missing = sorted(set(classes) - set(named))
    extra = sorted(set(named) - set(classes))
    if missing or extra:
        raise TableError(f"{size}x{size} table: missing classes {missing or 'none'}, "
                         f"not classes {extra or 'none'}")
    closed_col = "closed per start" if "closed per start" in rows[0] else "closed"
    out: dict[str, object] = {"size": size, "classes": len(rows), "starts": board.size}
    for key, col in (("tours", "tours per start"), ("closed", closed_col),
                     ("dead_ends", "dead ends per start")):
        out[key] = sum(classes[c] * _int(r[col]) for c, r in named.items())
    for c, r in named.items():
        if _int(r["starts"]) != classes[c]:
            raise TableError(f"class {c}: the table says {r['starts']} starts, the board "
                             f"{classes[c]}")
    if "P(success)" in rows[0]:
        p = {c: Fraction(r["P(success)"].replace("**", "")) for c, r in named.items()}
        out["p_success"] = float(sum(classes[c] * p[c] for c in p) / board.size)
        larger = [c for c in p if sum(board.coords(board.square(c))) % 2 == 0]
        n_larger = sum(classes[c] for c in larger)
        if size % 2 == 1:
            out["p_success_larger_colour"] = float(sum(classes[c] * p[c] for c in larger)
                                                   / n_larger)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, required=True)
    ap.add_argument("--heading", required=True, help="text the heading line starts with")
    ap.add_argument("--doc", default=str(DOC))
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    try:
        t = totals(read_table(Path(a.doc).read_text(encoding="utf-8"), a.heading), a.size)
    except (OSError, ValueError, KeyError) as e:
        print(f"class_totals: {e}", file=sys.stderr)
        return 2
    if a.json:
        print(json.dumps(t))
    else:
        for k, v in t.items():
            print(f"{k:24s} {v:,}" if isinstance(v, int) else f"{k:24s} {v:.9f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
