"""Write the results pages' tables from their data files in docs/results/data.

    .venv/bin/python docs/tools/gen_results.py          # rewrite the tables in place
    .venv/bin/python docs/tools/gen_results.py --check  # exit 1 when a table is stale

A table on a page of docs/results is the text between ``<!-- table: data/NAME.csv -->`` and
``<!-- end table -->``; this script renders NAME.csv there: the CSV's header as the table's
header, whole numbers with thousands separators and right-aligned, other cells as written.
tests/test_docs.py runs ``--check``, so a figure edited on the page but not in its data file
(or the other way round) fails the docs test."""
from __future__ import annotations

import argparse
import csv
import re
import sys
from pathlib import Path

RESULTS = Path(__file__).resolve().parents[1] / "results"
BLOCK = re.compile(r"(<!-- table: (data/[\w.-]+\.csv) -->\n)(.*?)(<!-- end table -->)", re.S)
NUMBER = re.compile(r"^-?\d+(\.\d+)?$")


def cell(text: str) -> str:
    return f"{int(text):,}" if re.fullmatch(r"-?\d+", text) else text


def render(csv_path: Path) -> str:
    with csv_path.open(newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    head, body = rows[0], rows[1:]
    numeric = [all(not r[k] or NUMBER.match(r[k]) or r[k] == "—" for r in body) for k in range(len(head))]
    out = ["| " + " | ".join(head) + " |",
           "|" + "|".join("---:" if n else "---" for n in numeric) + "|"]
    out += ["| " + " | ".join(cell(c) for c in r) + " |" for r in body]
    return "\n".join(out) + "\n"


def rewrite(text: str) -> str:
    return BLOCK.sub(lambda m: m.group(1) + "\n" + render(RESULTS / m.group(2)) + "\n" + m.group(4),
                     text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if a table is stale")
    ns = ap.parse_args(argv)
    stale = []
    for page in sorted(RESULTS.glob("*.md")):
        text = page.read_text(encoding="utf-8")
        new = rewrite(text)
        if new != text:
            stale.append(page.name)
            if not ns.check:
                page.write_text(new, encoding="utf-8")
    if ns.check and stale:
        print("stale tables in docs/results: " + ", ".join(stale)
              + " (run .venv/bin/python docs/tools/gen_results.py)", file=sys.stderr)
        return 1
    for name in stale:
        print(f"wrote docs/results/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
