"""The per-column figures of a frontier count through slices, from its ``--json`` line.

    knightgui study count --all-tours --rows 8 --cols 8 --closed-only --method frontier \\
        --spill DIR --json > result.json
    .venv/bin/python docs/tools/frontier_columns.py result.json > docs/results/data/NAME.csv

One row a column: the states after it, the most states one of its cells read, the most rows
one cell wrote and their size on disk (the slices a cell writes, beside the ones it reads),
the slices of its largest cell, wall and CPU seconds summed over its cells, and the peak
resident memory. The last row sums the whole run."""
from __future__ import annotations

import json
import sys
from collections import defaultdict

HEAD = ["column", "states after it", "most states in a cell", "most rows written by a cell",
        "most MiB written by a cell", "most slices", "wall s", "CPU s", "peak RSS GiB"]


def rows(record: dict) -> list[list[str]]:
    """The CSV rows (see the module) of one ``--json`` record of a spilled count."""
    by_column: dict[int, list[dict]] = defaultdict(list)
    for cell in record["slices"]:
        by_column[int(cell["column"])].append(cell)
    after = record.get("column_states", [])
    out = []
    for c in sorted(by_column):
        cells = by_column[c]
        out.append([str(c), str(after[c - 1]) if c - 1 < len(after) else "—",
                    str(max(x["states_in"] for x in cells)),
                    str(max(x["rows_out"] for x in cells)),
                    str(round(max(x["bytes_out"] for x in cells) / 2**20)),
                    str(max(x["slices"] for x in cells)),
                    f"{sum(x['seconds'] for x in cells):.0f}",
                    f"{sum(x['cpu'] for x in cells):.0f}",
                    f"{max(x['peak_rss'] for x in cells) / 2**30:.2f}"])
    every = record["slices"]
    out.append(["all", "—", str(max(x["states_in"] for x in every)),
                str(max(x["rows_out"] for x in every)),
                str(round(max(x["bytes_out"] for x in every) / 2**20)),
                str(max(x["slices"] for x in every)),
                f"{sum(x['seconds'] for x in every):.0f}",
                f"{sum(x['cpu'] for x in every):.0f}",
                f"{max(x['peak_rss'] for x in every) / 2**30:.2f}"])
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    with open(argv[0], encoding="utf-8") as f:
        record = json.loads(f.read().strip().splitlines()[-1])
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
