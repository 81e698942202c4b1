"""Recount finished tasks of a count store, and their images under the start's symmetries.

A check on a long count (docs/results/warnsdorff-counts.md, 11×11): pick finished tasks of
one start class from the store (whole subtrees, no work handed on), recount each one in this
process, and recount its image under every symmetry of the board that keeps the start in
place (the ones folding uses). The image's prefix is found by walking the stored subtree's
path square by square with a plain Warnsdorff step written here (not the engine's), mapping
the squares, and reading the move types at the same ties. Every count must equal the stored
one.

    .venv/bin/python docs/tools/recount.py --store counts11.sqlite --size 11 --start f5 \\
        --seconds 0.3,3 --tasks 4 [--first 2] [--plain]

``--seconds`` picks tasks whose stored time lies in that range (longest first); ``--first``
only tasks whose prefix begins with that move type; ``--plain`` recounts without the
transposition table too (every node walked: slower, an independent path through the kernel).
Exit code 0 when every count agrees, 1 when one differs, 2 on bad input.
"""
from __future__ import annotations

import argparse
import json
import sqlite3
import sys

from knightgui_core.tietree.counting import count_kernel as _k
from knightgui_core.tietree.counting.fold import stabilizer
from knightgui_core.tietree.counting.subtrees import CountBoard, count_subtrees
from knightgui_core.tietree.counting.table import TransTable


def walk_of(cb: CountBoard, start: int, prefix: tuple[int, ...]) -> list[int]:
    """The squares after ``start`` up to the last tie choice of ``prefix``."""
    cb._begin(start, prefix)
    k = int(cb.st[_k.ST_K])
    return [int(q) for q in cb.path[2:k + 1]]       # path[1] is the start


def tie_steps(cb: CountBoard, start: int, walk: list[int]) -> list[int]:
    """Indices i of ``walk`` whose square was chosen among tied ones (plain minimum of
    onward exits over the unvisited squares); asserts each step is Warnsdorff's."""
    nbr = cb.board.neighbours
    seen, cur, out = {start}, start, []
    for i, q in enumerate(walk):
        cand = [int(u) for u in nbr[cur] if u >= 0 and int(u) not in seen]
        deg = {u: sum(1 for v in nbr[u] if v >= 0 and int(v) not in seen) for u in cand}
        low = min(deg.values())
        best = [u for u in cand if deg[u] == low]
        if q not in best:
            raise SystemExit(f"step {i + 1} of the stored subtree is not Warnsdorff's")
        if len(best) > 1:
            out.append(i)
        seen.add(q)
        cur = q
    return out


def count(cb: CountBoard, start: int, prefix: tuple[int, ...], plain: bool) -> tuple[int, int]:
    """Tours and dead ends of one whole subtree (a fresh 256 MiB table, or none)."""
    table = None if plain else TransTable(cb.n, 256 << 20)
    c = count_subtrees(cb, start, [prefix], table=table)
    if c.rest:
        raise SystemExit(f"subtree {prefix} did not finish")
    return c.tours, c.dead_ends


def recounts(cb: CountBoard, s: int, prefix: tuple[int, ...], perms: list,
             plain: bool) -> dict[str, tuple[int, int]]:
    """One subtree recounted: directly, without the table when ``plain``, and as its image
    under each symmetry in ``perms``."""
    walk = walk_of(cb, s, prefix)
    ties = tie_steps(cb, s, walk)
    if len(ties) != len(prefix):
        raise SystemExit(f"{prefix}: {len(ties)} ties on its path, not {len(prefix)}")
    got = {"recount": count(cb, s, prefix, False)}
    if plain:
        got["plain"] = count(cb, s, prefix, True)
    for j, g in enumerate(perms, 1):
        chain = [s] + [int(g[q]) for q in walk]
        image = tuple(int(cb.mtype[chain[i], chain[i + 1]]) for i in ties)
        if walk_of(cb, s, image) != chain[1:]:
            raise SystemExit(f"{prefix}: the image prefix does not give the image walk")
        got[f"image {j}"] = count(cb, s, image, False)
    return got


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", required=True)
    ap.add_argument("--size", type=int, required=True)
    ap.add_argument("--start", required=True)
    ap.add_argument("--seconds", default="0.3,3")
    ap.add_argument("--tasks", type=int, default=4)
    ap.add_argument("--first", default="")
    ap.add_argument("--plain", action="store_true")
    a = ap.parse_args(argv)
    try:
        lo, hi = (float(x) for x in a.seconds.split(","))
        cb = CountBoard(a.size, a.size)
        s = cb.square(a.start)
        con = sqlite3.connect(f"file:{a.store}?mode=ro", uri=True)
        name = cb.board.name(s)
        rows = con.execute(
            "SELECT key, result, seconds FROM tasks WHERE key LIKE ? AND key NOT LIKE ? "
            "AND seconds BETWEEN ? AND ? ORDER BY seconds DESC",
            (f"count/v2/{a.size}x{a.size}/{name}/%/{a.first}%", "%/h%", lo, hi)).fetchall()
    except (ValueError, sqlite3.Error) as e:
        print(f"recount: {e}", file=sys.stderr)
        return 2
    rows = [r for r in rows if not json.loads(r[1]).get("next")][:a.tasks]
    if not rows:
        print("recount: no finished whole subtree of that start matches", file=sys.stderr)
        return 2
    perms = stabilizer(cb.board, s)
    print(f"{a.size}x{a.size} {name}: {len(rows)} stored tasks, {len(perms)} symmetries "
          "keep the start (besides the identity)")
    bad = 0
    for key, res, sec in rows:
        stored = json.loads(res)
        want = (int(stored["tours"]), int(stored["dead_ends"]))
        prefixes = [tuple(int(x) for x in p.split(".")) if p != "-" else ()
                    for p in key.rsplit("/", 1)[1].split(";")]      # a task may batch several
        got: dict[str, tuple[int, int]] = {}
        for prefix in prefixes:
            for name_, c in recounts(cb, s, prefix, perms, a.plain).items():
                t, d = got.get(name_, (0, 0))
                got[name_] = (t + c[0], d + c[1])
        ok = all(v == want for v in got.values())
        bad += not ok
        label = ";".join(".".join(map(str, p)) or "-" for p in prefixes)
        print(f"{'ok ' if ok else 'BAD'} {label[:36]:36s} stored "
              f"{want[0]:,} tours {want[1]:,} dead ends ({sec:.1f} s); "
              + ", ".join(f"{k} {v[0]:,}/{v[1]:,}" for k, v in got.items()))
    print("all equal" if not bad else f"{bad} of {len(rows)} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
