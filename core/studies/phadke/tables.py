"""Tables of Phadke's study (docs/spec.md §6): per algorithm, per combination (the paper's Table 1),
per start with symmetric copies and full-board totals (Table 2), family totals beside the
paper's figures; CSV export (atomic writes)."""
from __future__ import annotations

import csv
import io
import os
from pathlib import Path

from ...system.files import write_text
from . import (
    COMBOS,
    COPIES,
    CORNER_ORDER,
    FAMILIES,
    PAPER,
    PAPER_FULL_BOARD,
    PAPER_GRAND_TOTAL,
    PAPER_STRICT_FULL_BOARD,
    StudyResult,
    in_family,
)


def algorithm_rows(result: StudyResult) -> list[dict]:
    """One row per finished algorithm: id, family, start, end, dash state per corner
    ('-' when the corner is not free or carries the tail), tail, solutions, dead ends,
    forward moves."""
    rows = []
    for a in result.algorithms:
        if a.id not in result.counts:
            continue
        sol, dead, fwd = result.counts[a.id]
        d = dict(a.dashes)
        rows.append({"id": a.id, "family": a.family, "start": a.start, "end": a.end,
                     **{c: d.get(c, "-") for c in CORNER_ORDER},
                     "tail": " ".join(a.tail) if a.tail else "", "solutions": sol,
                     "dead_ends": dead, "forward_moves": fwd})
    return rows


def _present_families(result):
    fams = {a.family for a in result.algorithms}
    return [f for f in FAMILIES if f in fams or (f == "cd" and "strict" in fams and "cd" in fams)]


def family_records(result: StudyResult) -> dict[str, dict]:
    """The study's JSON per family (``--json`` and the API's ``to_dict()`` alike): algorithms
    run, solutions and the paper's figures, with the full board's for the strict family."""
    out = {}
    for r in family_totals(result):
        rec = {k: r[k] for k in ("algorithms", "solutions", "paper_solutions", "paper_algorithms")}
        if "full_board" in r:
            rec["full_board"] = r["full_board"]
            rec["paper_full_board"] = r["paper_full_board"]
        out[r["family"]] = rec
    return out


def family_totals(result: StudyResult) -> list[dict]:
    """Per family: algorithms run, solutions, the paper's runs and solutions, difference.
    'cd' includes the strict runs (the paper's 736). A 'total' row comes last when more
    than one family ran."""
    out = []
    for f in _present_families(result):
        ids = [a.id for a in result.algorithms if in_family(a, f)]
        done = [i for i in ids if i in result.counts]
        sol = sum(result.counts[i][0] for i in done)
        pr, ps = PAPER[f]
        row = {"family": f, "algorithms": len(done), "solutions": sol,
               "dead_ends": sum(result.counts[i][1] for i in done),
               "forward_moves": sum(result.counts[i][2] for i in done),
               "paper_algorithms": pr, "paper_solutions": ps,
               "difference": sol - ps, "complete": len(done) == len(ids)}
        if f == "strict":
            row["full_board"] = strict_full_board(result)
            row["paper_full_board"] = PAPER_STRICT_FULL_BOARD
        out.append(row)
    top = [r for r in out if r["family"] != "strict"]
    if len(top) > 1:
        sol = sum(r["solutions"] for r in top)
        out.append({"family": "total", "algorithms": sum(r["algorithms"] for r in top),
                    "solutions": sol, "paper_algorithms": sum(r["paper_algorithms"] for r in top),
                    "paper_solutions": PAPER_GRAND_TOTAL, "difference": sol - PAPER_GRAND_TOTAL,
                    "full_board": sum(r["full_board"] for r in start_table(result)),
                    "paper_full_board": PAPER_FULL_BOARD,
                    "complete": all(r["complete"] for r in top)})
    return out


def combo_table(result: StudyResult) -> list[dict]:
    """The paper's Table 1: per start/end combination, solutions per family and in all."""
    fams = [f for f in FAMILIES if f != "strict"] if any(
        a.family != "strict" for a in result.algorithms) else []
    rows = []
    for s, ends in COMBOS:
        for e in ends:
            row = {"start": s, "end": e, "strict": 0, **dict.fromkeys(fams, 0), "total": 0}
            for a in result.algorithms:
                if a.start != s or a.end != e or a.id not in result.counts:
                    continue
                n = result.counts[a.id][0]
                if a.family == "strict":
                    row["strict"] += n
                for f in fams:
                    if in_family(a, f):
                        row[f] += n
                row["total"] += n
            rows.append(row)
    return rows


def start_table(result: StudyResult) -> list[dict]:
    """The paper's Table 2: per unique start, copies, strict and all solutions, and the
    same multiplied by the copies (full board)."""
    by_combo = {(r["start"], r["end"]): r for r in combo_table(result)}
    rows = []
    for s, ends in COMBOS:
        strict = sum(by_combo[(s, e)]["strict"] for e in ends)
        total = sum(by_combo[(s, e)]["total"] for e in ends)
        k = COPIES[s]
        rows.append({"start": s, "copies": k, "ends": len(ends), "strict": strict,
                     "total": total, "strict_full_board": strict * k, "full_board": total * k})
    return rows


def strict_full_board(result: StudyResult) -> int:
    """Strict solutions over the whole board: each start's strict count times its copies."""
    return sum(r["strict_full_board"] for r in start_table(result))


def _csv(rows) -> str:
    buf = io.StringIO()
    if rows:
        w = csv.DictWriter(buf, fieldnames=list(rows[0].keys()), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    return buf.getvalue()


def export_csv(result: StudyResult, folder: str | os.PathLike[str]) -> list[Path]:
    """Write algorithms.csv, combos.csv (Table 1), starts.csv (Table 2) and families.csv
    into ``folder``, each atomically. Returns the paths."""
    tables = (("algorithms", algorithm_rows(result)), ("combos", combo_table(result)),
              ("starts", start_table(result)), ("families", family_totals(result)))
    return [write_text(Path(folder) / f"{name}.csv", _csv(rows), make_parents=True)
            for name, rows in tables]


def format_families(result: StudyResult) -> str:
    """Family totals beside the paper's, as aligned text."""
    lines = [f"{'family':<10}{'runs':>8}{'solutions':>14}{'paper':>14}{'difference':>12}"]
    for r in family_totals(result):
        lines.append(f"{r['family']:<10}{r['algorithms']:>8,}{r['solutions']:>14,}"
                     f"{r['paper_solutions']:>14,}{r['difference']:>+12,}"
                     + ("" if r["complete"] else "  (incomplete)"))
        if "full_board" in r:
            lines.append(f"{'  board':<10}{'':>8}{r['full_board']:>14,}"
                         f"{r['paper_full_board']:>14,}"
                         f"{r['full_board'] - r['paper_full_board']:>+12,}")
    return "\n".join(lines)
