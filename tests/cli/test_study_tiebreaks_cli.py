"""``knightgui study tie-breaks``: trials, per-size rates, every failing n, the rules of the
literature, and the result store."""
import json

import pytest

from knightgui.cli import run

pytest.importorskip("distributed")


def call(capsys, *argv):
    code = run(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_trials_by_n_and_failing_n_in_json(capsys):
    code, out, err = call(capsys, "study", "tie-breaks", "--max", "40", "--rules",
                          "random,first,squirrel,pohl", "--order", "56781234", "--trials", "6",
                          "--json")
    assert code == 0, err
    d = json.loads(out.strip().splitlines()[-1])
    rnd = d["per_rule"]["random"]
    assert rnd["trials"] == 6 and rnd["by_n"]["40"]["walks"] == 6
    assert set(rnd["by_n"]["40"]) >= {"success_rate", "trials", "ci95"}
    assert d["per_rule"]["first"]["failing_n"] == [] and d["per_rule"]["first"]["trials"] == 1
    assert d["per_rule"]["squirrel"]["failing_n"] == []
    assert d["tasks"]["total"] == d["tasks"]["computed"]


def test_store_makes_the_second_run_free(capsys, tmp_path):
    store = str(tmp_path / "runs.sqlite")
    argv = ("study", "tie-breaks", "--max", "90", "--rules", "first,pohl-random",
            "--trials", "3", "--order", "56781234", "--store", store, "--json")
    code, out, err = call(capsys, *argv)
    assert code == 0, err
    a = json.loads(out.strip().splitlines()[-1])
    code, out, err = call(capsys, *argv)
    b = json.loads(out.strip().splitlines()[-1])
    assert b["tasks"] == {"total": a["tasks"]["total"], "from_store": a["tasks"]["total"],
                          "computed": 0}
    assert a["per_rule"] == b["per_rule"]
    assert a["per_rule"]["first"]["failing_n"] == [41, 52, 59, 60, 66, 74, 79, 87, 88]


def test_report_lists_failing_sizes(capsys):
    code, out, _ = call(capsys, "study", "tie-breaks", "--max", "80", "--rules", "first",
                        "--order", "56781234")
    assert code == 0
    assert "failing n: 41, 52, 59, 60, 66, 74, 79" in out


def test_ganzfried_fix_by_name_in_the_study_and_solve(capsys):
    code, out, err = call(capsys, "study", "tie-breaks", "--min", "72", "--max", "76",
                          "--rules", "squirrel,ganzfried", "--starts", "corners", "--json")
    assert code == 0, err
    d = json.loads(out.strip().splitlines()[-1])
    assert d["rules"] == ["squirrel", "squirrel-ganzfried"]
    assert d["per_rule"]["squirrel"]["failing_n"] == [74]
    assert d["per_rule"]["squirrel-ganzfried"]["failing_n"] == []
    assert d["per_rule"]["squirrel-ganzfried"]["walks"] == 4 * 5
    for tie, valid in (("squirrel", False), ("squirrel-ganzfried", True)):
        code, out, err = call(capsys, "solve", "--rows", "74", "--cols", "74", "--tie", tie,
                              "--method", "greedy", "--json", "-q")
        assert code == (0 if valid else 1), err      # 1: no tour found
        assert json.loads(out.strip().splitlines()[-1])["valid"] is valid
    with pytest.raises(SystemExit):
        call(capsys, "solve", "--help")
    out = " ".join(capsys.readouterr().out.split())
    assert "squirrel-ganzfried: Squirrel & Cull 1996 with Ganzfried's fix (2004)" in out
