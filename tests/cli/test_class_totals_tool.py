"""docs/tools/class_totals.py: the board totals docs/results/warnsdorff-counts.md publishes
follow from its per-class tables (classes and their sizes checked against the engine's
symmetry classes)."""
import json
import runpy
from pathlib import Path

import pytest

TOOL = runpy.run_path(str(Path(__file__).parents[2] / "docs" / "tools" / "class_totals.py"))
MAIN = TOOL["main"]


@pytest.mark.parametrize("n,heading,totals", [
    (7, "### 7×7", (388_312, 0, 265_832)),
    (8, "### 8×8", (7_894_584, 1_188_384, 761_520)),        # the known 8×8 figure
    (9, "### 9×9", (458_887_800, 0, 588_888_648)),
    (10, "## 10×10", (117_143_031_736, 13_598_942_920, 6_719_283_960)),
    (11, "## 11×11", (18_771_434_659_016, 0, 26_409_402_373_608)),
])
def test_the_published_totals_follow_from_the_class_tables(n, heading, totals, capsys):
    assert MAIN(["--size", str(n), "--heading", heading, "--json"]) == 0
    t = json.loads(capsys.readouterr().out)
    assert (t["tours"], t["closed"], t["dead_ends"]) == totals
    assert t["starts"] == n * n


TABLE = """# x
## 5×5 by hand
| class | starts | tours per start | closed | dead ends per start | P(success) |
|---|---:|---:|---:|---:|---:|
| a1 | 4 | 32 | 0 | 0 | 1.0 |
| b1 | 8 | 0 | 0 | 10 | 0 |
| c1 | 4 | 10 | 0 | 2 | 0.5 |
| b2 | 4 | 0 | 0 | 7 | 0 |
| c2 | 4 | 4 | 0 | 4 | 0.25 |
| c3 | 1 | 64 | 0 | 0 | 1.0 |

text after
"""


def test_a_table_with_probabilities_gives_the_random_start_means(tmp_path, capsys):
    doc = tmp_path / "c.md"
    doc.write_text(TABLE)
    assert MAIN(["--size", "5", "--heading", "## 5×5", "--doc", str(doc), "--json"]) == 0
    t = json.loads(capsys.readouterr().out)
    assert t["tours"] == 4 * 32 + 4 * 10 + 4 * 4 + 64 and t["dead_ends"] == 80 + 8 + 28 + 16
    assert t["p_success"] == pytest.approx((4 + 2 + 1 + 1) / 25)
    # the larger colour of 5×5: a1, c1, b2, c3 and the like (13 squares)
    assert t["p_success_larger_colour"] == pytest.approx((4 + 2 + 0 + 1) / 13)


@pytest.mark.parametrize("edit,msg", [
    (("| c3 | 1 | 64 | 0 | 0 | 1.0 |\n", ""), "missing classes ['c3']"),
    (("| c3 | 1 |", "| c3 | 2 |"), "class c3: the table says 2 starts, the board 1"),
    (("| c3 | 1 | 64 | 0 | 0 | 1.0 |\n", "| c3 | 1 | 64 | 0 | 0 | 1.0 |\n| c3 | 1 | 1 | 0 | 0 | 1 |\n"),
     "listed twice"),
    (("## 5×5 by hand", "## other"), "no heading"),
])
def test_a_wrong_table_is_one_line_and_exit_2(tmp_path, capsys, edit, msg):
    doc = tmp_path / "c.md"
    doc.write_text(TABLE.replace(*edit))
    assert MAIN(["--size", "5", "--heading", "## 5×5", "--doc", str(doc)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and msg in err[0]
