"""The per-column figures of a frontier count through slices, from its ``--json`` line.

    knightgui study count --all-tours --rows 8 --cols 8 --closed-only --method frontier \\
        --spill DIR --json > result.json
    .venv/bin/python docs/tools/frontier_columns.py result.json > docs/results/data/NAME.csv

One row a column: the states after it, the most states one of its cells read, the most rows
one cell wrote and their size on disk (the slices a cell writes, beside the ones it reads),
the slices of its largest cell, wall and CPU seconds summed over its cells, and the peak
resident memory. The last row sums the whole run.

A count stopped before its end (Ctrl+C, a time limit) prints no ``--json`` line: give its
stderr instead (the per-cell lines), and the columns it reached are read from there (the
last one marked when it is unfinished).

    .venv/bin/python docs/tools/frontier_columns.py --log run.log"""
from __future__ import annotations

import json
import re
import sys
from collections import defaultdict

HEAD = ["column", "states after it", "most states in a cell", "most rows written by a cell",
        "most MiB written by a cell", "most slices", "wall s", "CPU s", "peak RSS GiB"]


def _figures(cells: list[dict]) -> list[str]:
    """The columns after the first two for these cells: most states, rows and MiB a cell,
    most slices, summed wall and CPU seconds, peak RSS."""
    return [str(max(x["states_in"] for x in cells)), str(max(x["rows_out"] for x in cells)),
            str(round(max(x["bytes_out"] for x in cells) / 2**20)),
            str(max(x["slices"] for x in cells)),
            f"{sum(x['seconds'] for x in cells):.0f}", f"{sum(x['cpu'] for x in cells):.0f}",
            f"{max(x['peak_rss'] for x in cells) / 2**30:.2f}"]


def rows(record: dict) -> list[list[str]]:
    """The CSV rows (see the module) of one ``--json`` record of a spilled count."""
    by_column: dict[int, list[dict]] = defaultdict(list)
    for cell in record["slices"]:
        by_column[int(cell["column"])].append(cell)
    after = record.get("column_states", [])
    out = []
    per_column = record.get("cells_per_column")
    for c in sorted(by_column):
        cells = by_column[c]
        label = str(c)
        if per_column and len(cells) < per_column:     # a stopped count's last column
            label = f"{c} ({len(cells)} of {per_column} cells)"
        out.append([label, str(after[c - 1]) if c - 1 < len(after) else "—", *_figures(cells)])
    out.append(["all", "—", *_figures(record["slices"])])
    return out


#: one cell's line on a spilled count's stderr (knightgui_core.frontier.spill.spill_line)
CELL_LINE = re.compile(
    r"cell (?P<cell>\d+) of \d+ \(column (?P<column>\d+)\): (?P<slices>\d+) slice\(s\), "
    r"(?P<states_in>[\d,]+) states in \((?P<rows_in>[\d,]+) rows read\), (?P<rows_out>[\d,]+) "
    r"rows out in \d+ slice\(s\), (?P<mib>[\d,]+) MiB written, (?P<seconds>[\d.]+) s, CPU "
    r"(?P<cpu>[\d.]+) s, .*peak RSS (?P<rss>[\d.]+) GiB")


def from_log(text: str) -> dict:
    """A record of the shape ``rows`` reads, from the per-cell lines of a count's stderr;
    the columns after the last one it finished are left out."""
    cells = []
    for m in CELL_LINE.finditer(text):
        g = {k: v.replace(",", "") for k, v in m.groupdict().items()}
        cells.append({"cell": int(g["cell"]) - 1, "column": int(g["column"]),
                      "slices": int(g["slices"]), "states_in": int(g["states_in"]),
                      "rows_out": int(g["rows_out"]), "bytes_out": int(g["mib"]) << 20,
                      "seconds": float(g["seconds"]), "cpu": float(g["cpu"]),
                      "peak_rss": float(g["rss"]) * 2**30})
    if not cells:
        return {"slices": []}
    per_column = max(sum(1 for c in cells if c["column"] == 1), 1)
    # the states after column c are what the first cell of column c + 1 reads
    firsts = {c["column"]: c["states_in"] for c in cells if c["cell"] % per_column == 0}
    after = [firsts[c + 1] for c in range(1, max(firsts)) if c + 1 in firsts]
    return {"slices": cells, "column_states": after, "cells_per_column": per_column}


def main(argv: list[str]) -> int:
    if len(argv) not in (1, 2) or (len(argv) == 2 and argv[0] != "--log"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    with open(argv[-1], encoding="utf-8") as f:
        text = f.read()
    record = from_log(text) if argv[0] == "--log" else json.loads(text.strip().splitlines()[-1])
    if not record.get("slices"):
        print("no per-cell figures: the count did not go through slices (--spill)",
              file=sys.stderr)
        return 1
    print(",".join(HEAD))
    for r in rows(record):
        print(",".join(r))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
