"""``knightgui study move-orders`` and ``knightgui study tie-breaks`` (docs/spec.md §10)."""
import csv
import io
import json

import pytest

from knightgui.cli import run
from knightgui_core.studies.orders import run_orders

MOVE_ORDER_KEYS = ("orders", "walks", "failed_walks", "orders_with_failure",
                   "max_failures_per_order", "closed_walks", "seconds")


def call(capsys, *argv):
    code = run(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def last_json(out):
    return json.loads(out.strip().splitlines()[-1])


def test_move_orders_json_contract(capsys):
    code, out, err = call(capsys, "study", "move-orders", "--size", "6", "--json")
    assert code == 0
    d = last_json(out)
    for key in MOVE_ORDER_KEYS:
        assert key in d, key
    assert d["orders"] == 40320 and d["walks"] == 40320 * 36
    assert isinstance(d["seconds"], float) and d["seconds"] > 0
    ref = run_orders(6, "first").summary().to_dict()
    for key in MOVE_ORDER_KEYS[:-1]:
        assert d[key] == ref[key], key
    assert sum(d["distribution"]) == 40320
    assert sum(d["failures_per_start"].values()) == d["failed_walks"]
    assert "\r" not in err and "[#" not in err  # no progress bar when stderr is not a tty


def test_move_orders_last_matches_first_totals(capsys):
    _, out1, _ = call(capsys, "study", "move-orders", "--size", "5", "--json")
    _, out2, _ = call(capsys, "study", "move-orders", "--size", "5", "--tie", "last", "--json")
    a, b = last_json(out1), last_json(out2)
    assert a["tie"] == "first" and b["tie"] == "last"
    for key in MOVE_ORDER_KEYS[:-1]:
        assert a[key] == b[key]


def test_move_orders_csv_files_and_text_report(tmp_path, capsys):
    f, g = tmp_path / "o.csv", tmp_path / "s.csv"
    code, out, _ = call(capsys, "study", "move-orders", "--size", "6", "--csv", str(f),
                        "--starts-csv", str(g), "--worst", "3")
    assert code == 0
    assert "failed walks" in out and "Worst orders" in out and "⟨" in out
    rows = list(csv.reader(io.StringIO(f.read_text(encoding="utf-8"))))
    assert rows[0][:4] == ["index", "order", "matrix", "failed_walks"]
    assert len(rows) == 40321 and rows[1][1] == "12345678"
    srows = list(csv.reader(io.StringIO(g.read_text(encoding="utf-8"))))
    assert len(srows) == 37
    assert sum(int(r[3]) for r in srows[1:]) == sum(int(r[3]) for r in rows[1:])


@pytest.mark.parametrize("argv,needle", [
    (["--size", "0"], "--size"), (["--size", "x"], "--size"), (["--size", "17"], "--size"),
    (["--tie", "middle"], "--tie"), (["--csv", "out.txt"], ".csv"),
])
def test_move_orders_bad_input_exits_2(capsys, argv, needle):
    code, out, err = call(capsys, "study", "move-orders", *argv)
    assert code == 2
    assert needle in err and len(err.strip().splitlines()) == 1


# ---------------------------------------------------------------------------- tie-breaks
def test_tie_breaks_json_and_csv(tmp_path, capsys):
    f = tmp_path / "tb.csv"
    code, out, err = call(capsys, "study", "tie-breaks", "--max", "40", "--rules",
                          "first,lookahead", "--json", "--table", "--csv", str(f))
    assert code == 0
    d = last_json(out)
    assert d["rules"] == ["first", "lookahead"] and d["n_min"] == 5 and d["n_max"] == 40
    assert set(d["first_failing_n"]) == {"first", "lookahead"}
    assert d["per_rule"]["first"]["walks"] == 36
    assert len(d["table"]) == 72
    rows = list(csv.DictReader(io.StringIO(f.read_text(encoding="utf-8"))))
    assert len(rows) == 72
    la = [int(r["n"]) for r in rows if r["rule"] == "lookahead"
          and int(r["completed"]) < int(r["starts"])]
    assert d["first_failing_n"]["lookahead"] == (min(la) if la else None)


def test_tie_breaks_text_report(capsys):
    code, out, _ = call(capsys, "study", "tie-breaks", "--max", "20", "--starts", "corners",
                        "--rules", "phadke,center-far")
    assert code == 0 and "first failing n" in out and "center-far" in out


def test_tie_breaks_png_draws_the_success_plot(tmp_path, capsys):
    from PySide6.QtGui import QImage

    f = tmp_path / "success.png"
    code, out, err = call(capsys, "study", "tie-breaks", "--max", "70", "--rules",
                          "first,lookahead,construction", "--png", str(f))
    assert code == 0, err
    img = QImage(str(f))
    assert not img.isNull() and img.width() == 1100 and img.height() == 640
    # the strip has red (failures of "first" from n = 61) and green cells
    colours = {img.pixelColor(x, y).name() for x in range(0, img.width(), 4)
               for y in range(0, img.height() // 3, 4)}
    assert "#c82828" in colours and "#3ca050" in colours
    assert not list(tmp_path.glob(".*tmp*"))          # written atomically


@pytest.mark.parametrize("argv,needle", [
    (["--max", "2001"], "--max"), (["--max", "8", "--trials", "0"], "--trials"),
    (["--min", "9", "--max", "8"], "--min"), (["--max", "8", "--store", "/dev/null"], "--store"),
    (["--starts", "edge"], "--starts"), (["--rules", "nope"], "nope"),
    (["--order", "123"], "order"), (["--csv", "x.txt"], ".csv"),
    (["--png", "x.jpg"], ".png"), (["--max", "8", "--png", "/nonexistent/dir/x.png"], "cannot write"),
])
def test_tie_breaks_bad_input_exits_2(capsys, argv, needle):
    code, out, err = call(capsys, "study", "tie-breaks", *argv)
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1


def test_move_orders_walk_shows_the_convention_walks(capsys):
    order = "⟨1,2⟩⟨2,1⟩⟨1,−2⟩⟨2,−1⟩⟨−1,2⟩⟨−2,1⟩⟨−1,−2⟩⟨−2,−1⟩"
    code, out, _ = call(capsys, "study", "move-orders", "--walk", order, "--from", "a8",
                        "--json")
    d = last_json(out)
    assert code == 0 and d["order"] == "12438756" and d["complete"] and d["closed"]
    assert d["path"][:3] == [[0, 7], [2, 6], [0, 5]]  # a8, c7, a6: 1, 2, 3 of the tour
    code, out, _ = call(capsys, "study", "move-orders", "--walk", order, "--from", "d7")
    assert code == 0 and "stuck on a3 after 60 of 64 squares" in out
    code, _, err = call(capsys, "study", "move-orders", "--walk", "1234", "--from", "a1")
    assert code == 2 and "order" in err
