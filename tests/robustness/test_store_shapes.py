"""A store row of the wrong shape under a valid checksum is a damaged row (issue 34, part 5).

The checksum says a row was not changed by accident; a row written by hand with a fresh
checksum (or by a damaged program) can still hold anything. Every such row must be refused
the way the store refuses any damage — StoreError, one line naming the file and the row,
exit 2 on the command line — never a TypeError deep inside a study, a wrong table, or a
kernel handed a prefix off its arrays. Real SQLite files, rows rewritten with sqlite3."""
from __future__ import annotations

import base64
import json
import shutil
import sqlite3
import zlib

import numpy as np
import pytest

from knightgui.cli import run
from knightgui_core.run.runner import pack_array
from knightgui_core.run.store import ResultStore, StoreError, row_checksum
from knightgui_core.run.store_shapes import SHAPES
from knightgui_core.studies import all_tours, count_study, tiebreaks
from knightgui_core.studies import phadke as P
from knightgui_core.studies.orders import runner as orders_runner
from knightgui_core.studies.phadke import runner as phadke_runner

pytestmark = pytest.mark.timeout(120)

TIE = dict(n_min=5, rules=["first", "random"], scheduler="threads")
COUNT = dict(options=count_study.CountOptions(budget=60, lengths=True), scheduler="threads")


def _fill(st: ResultStore) -> dict:
    """Every study, small, into ``st``; what each answered."""
    return {
        "phadke": phadke_runner.run_study(P.algorithms("strict"), store=st,
                                          scheduler="threads")[0].counts,
        "move-orders": orders_runner.run_study(5, "first", store=st,
                                               scheduler="threads")[0].lengths,
        "tie-breaks": tiebreaks.run_tiebreaks(9, store=st, **TIE).completed,
        "count": count_study.run_count(6, 6, "a1", store=st, **COUNT).per_start,
        "all-tours": all_tours.run_all_tours(4, 5, store=st, scheduler="threads").per_start,
    }


@pytest.fixture(scope="module")
def filled(tmp_path_factory):
    """A store holding every study's real rows (closed: the file is whole), and the answers."""
    p = tmp_path_factory.mktemp("shapes") / "all.sqlite"
    with ResultStore(p) as st:
        first = _fill(st)
    return p, first


@pytest.fixture
def store(filled, tmp_path):
    """A fresh copy of the filled store."""
    p = tmp_path / "s.sqlite"
    shutil.copy(filled[0], p)
    return p


def test_every_study_has_a_shape_and_its_own_rows_pass_it(filled, tmp_path):
    studies = {phadke_runner.STUDY, orders_runner.STUDY, tiebreaks.STUDY, count_study.STUDY,
               all_tours.STUDY}
    assert studies <= set(SHAPES)
    p = tmp_path / "again.sqlite"
    shutil.copy(filled[0], p)
    with ResultStore(p) as st:
        assert {s: st.count(s) > 0 for s in studies} == dict.fromkeys(studies, True)
        assert st.verify() == st.count()
        again = _fill(st)                              # every task read back, none computed
        assert st.count() == ResultStore(filled[0], readonly=True).count()
    for k, v in filled[1].items():
        assert np.array_equal(v, again[k]) if isinstance(v, np.ndarray) else v == again[k], k


def _cli(capsys, argv) -> tuple[int, str]:
    code = run(argv)
    return code, capsys.readouterr().err


def _row(p, study: str, where: str = "") -> tuple[str, dict, object]:
    con = sqlite3.connect(p)
    key, params, result = con.execute(
        f"SELECT key, params, result FROM tasks WHERE study = ? {where} ORDER BY key LIMIT 1",
        (study,)).fetchone()
    con.close()
    return key, json.loads(params), json.loads(result)


def _rewrite(p, key: str, result_text) -> None:
    """Put ``result_text`` in the row ``key`` under a valid checksum."""
    con = sqlite3.connect(p)
    k, study, params = con.execute("SELECT key, study, params FROM tasks WHERE key = ?",
                                   (key,)).fetchone()
    text = result_text if isinstance(result_text, str) else json.dumps(result_text)
    con.execute("UPDATE tasks SET result = ?, checksum = ? WHERE key = ?",
                (text, row_checksum(k, study, params, text), key))
    con.commit()
    con.close()


def _set(obj, path, value):
    obj = json.loads(json.dumps(obj))
    target = obj
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return obj


def _repacked(packed, change):
    a = np.frombuffer(zlib.decompress(base64.b64decode(packed["zlib"])),
                      dtype=packed["dtype"]).reshape(packed["shape"]).copy()
    return pack_array(change(a))


def _bomb(packed):
    return dict(packed, zlib=base64.b64encode(zlib.compress(b"\0" * (64 << 20))).decode())


#: study -> {name: (the row to take (SQL), change(result) -> new result or raw JSON text,
#: words the message holds)}
MUTATIONS = {
    "phadke": {
        "a number, not rows": ("", lambda r: 5, "wrong shape"),
        "an object": ("", lambda r: {}, "wrong shape"),
        "a row short": ("", lambda r: r[:-1], "entries"),
        "three counts": ("", lambda r: _set(r, [0], r[0][:3]), "entries"),
        "a negative count": ("", lambda r: _set(r, [0, 1], -1), "outside"),
        "a fraction": ("", lambda r: _set(r, [0, 1], 1.5), "whole number"),
        "a boolean": ("", lambda r: _set(r, [0, 2], True), "whole number"),
        "a text": ("", lambda r: _set(r, [0, 3], "7"), "whole number"),
        "beyond int64": ("", lambda r: _set(r, [0, 1], 1 << 64), "outside"),
        "another algorithm": ("", lambda r: _set(r, [0, 0], r[0][0] + 1), "algorithm"),
    },
    "move-orders": {
        "a list": ("", lambda r: [], "wrong shape"),
        "no closed": ("", lambda r: {"lengths": r["lengths"]}, "lacks 'closed'"),
        "float lengths": ("", lambda r: _set(r, ["lengths"], _repacked(
            r["lengths"], lambda a: a.astype(np.float64))), "dtype"),
        "other shape": ("", lambda r: _set(r, ["lengths"], _repacked(
            r["lengths"], lambda a: a[:, :-1])), "shape"),
        "not base64": ("", lambda r: _set(r, ["closed", "zlib"], "!!!"), "unpack"),
        "a zlib bomb": ("", lambda r: _set(r, ["closed"], _bomb(r["closed"])), "unpack"),
        "a walk of 0 squares": ("", lambda r: _set(r, ["lengths"], _repacked(
            r["lengths"], lambda a: np.where(a == a.max(), 0, a))), "1..25"),
        "a walk too long": ("", lambda r: _set(r, ["lengths"], _repacked(
            r["lengths"], lambda a: a + 100)), "1..25"),
        "closed 2": ("", lambda r: _set(r, ["closed"], _repacked(
            r["closed"], lambda a: a + 2)), "0 and 1"),
    },
    "tie-breaks": {
        "a text": ("", lambda r: '"x"', "wrong shape"),
        "other sizes": ("", lambda r: _set(r, ["n"], [n + 1 for n in r["n"]]), "sizes"),
        "a short column": ("", lambda r: _set(r, ["tried"], r["tried"][:-1]), "entries"),
        "more completed than tried": ("", lambda r: _set(r, ["completed", 0],
                                                        r["tried"][0] + 1), "outside"),
        "a failure off the board": ("", lambda r: _set(r, ["first_fail", 0], 25), "outside"),
        "a negative count": ("", lambda r: _set(r, ["left_out", 0], -1), "outside"),
    },
    "count": {
        "a move type 9": ("AND result LIKE '%next\":[[%'",
                          lambda r: _set(r, ["next", 0, 0, 0], 9), "1..8"),
        "a move type as text": ("AND result LIKE '%next\":[[%'",
                                lambda r: _set(r, ["next", 0, 0, 0], "1"), "whole number"),
        "next not a list": ("", lambda r: _set(r, ["next"], "abc"), "not a list"),
        "an empty group": ("", lambda r: _set(r, ["next"], [[]]), "empty"),
        "a probability of 2": ("", lambda r: _set(r, ["p_success"], 2.0), "probability"),
        "a NaN probability": ("", lambda r: json.dumps(_set(r, ["p_closed"], 7)).replace(
            '"p_closed": 7', '"p_closed": NaN'), "probability"),
        "negative tours": ("", lambda r: _set(r, ["tours"], -3), "outside"),
        "no forward moves": ("", lambda r: {k: v for k, v in r.items()
                                            if k != "forward_moves"}, "lacks"),
        "lengths by a name": ("", lambda r: _set(r, ["lengths"], {"x": [1, 0.5]}),
                              "number of squares"),
        "lengths past the board": ("", lambda r: _set(r, ["lengths"], {"37": [1, 0.5]}),
                                   "number of squares"),
        "a prefix longer than the board": ("", lambda r: _set(r, ["next"], [[[1] * 37]]),
                                           "more than 36"),
    },
    "all-tours": {
        "tours as text": ("", lambda r: _set(r, ["tours"], "12"), "whole number"),
        "no closed": ("", lambda r: {"tours": r["tours"]}, "lacks 'closed'"),
        "negative": ("", lambda r: _set(r, ["tours"], -1), "outside"),
    },
}
CASES = [(s, name) for s, cases in MUTATIONS.items() for name in cases]


@pytest.mark.parametrize("study,name", CASES)
def test_a_result_of_the_wrong_shape_is_a_damaged_row(store, study, name):
    where, change, words = MUTATIONS[study][name]
    key, params, result = _row(store, study, where)
    with ResultStore(store) as st:                        # the row as written: it passes
        assert st.get_many({key: (study, params)}) == {key: result}
    _rewrite(store, key, change(result))
    with ResultStore(store) as st:
        with pytest.raises(StoreError) as e:
            st.get_many({key: (study, params)})
        with pytest.raises(StoreError) as e2:
            st.verify()
    msg = str(e.value)
    assert "\n" not in msg and str(store) in msg and repr(key) in msg, msg
    assert "wrong shape" in msg and words in msg, msg
    assert str(e2.value) == msg


# The columns are TEXT: SQLite turns a number put there into text, but keeps a BLOB (and a
# NULL where the schema allows one) as it is.
@pytest.mark.parametrize("sql,words", [
    ("UPDATE tasks SET result = CAST(result AS BLOB) WHERE key = ?",
     "holds a result of the wrong type (bytes)"),
    ("UPDATE tasks SET study = CAST(study AS BLOB) WHERE key = ?",
     "holds a study of the wrong type (bytes)"),
    ("UPDATE tasks SET checksum = CAST(checksum AS BLOB) WHERE key = ?",
     "holds a checksum of the wrong type (bytes)"),
    ("UPDATE tasks SET key = NULL WHERE key = ?", "row None holds a key of the wrong type"),
])
def test_a_column_of_the_wrong_type_is_a_damaged_row(store, capsys, sql, words):
    key, params, _ = _row(store, "phadke")
    con = sqlite3.connect(store)
    con.execute(sql, (key,))
    con.commit()
    con.close()
    with ResultStore(store) as st:
        calls = [st.verify]
        if "key = NULL" not in sql:
            calls.append(lambda: st.get_many({key: ("phadke", params)}))
        for call in calls:
            with pytest.raises(StoreError) as e:
                call()
            assert str(store) in str(e.value) and words in str(e.value), str(e.value)
    if "result" in sql:
        code, err = _cli(capsys, ["study", "phadke", "--family", "strict", "--store",
                                  str(store)])
        assert code == 2 and words in err and len(err.strip().splitlines()) == 1, err[-600:]


@pytest.mark.parametrize("what,text,words", [
    ("result nested too deep", "[" * 100_000 + "]" * 100_000, "result that is not JSON"),
    ("a 5,000-digit number", "[[1, " + "9" * 5000 + ", 0, 0]]", "result that is not JSON"),
])
def test_a_result_json_cannot_hold_is_a_damaged_row(store, what, text, words):
    key, params, _ = _row(store, "phadke")
    _rewrite(store, key, text)
    with ResultStore(store) as st:
        with pytest.raises(StoreError) as e:
            st.get_many({key: ("phadke", params)})
    assert words in str(e.value) and repr(key) in str(e.value)


def test_parameters_that_are_not_json_are_a_damaged_row(store):
    key, _, result = _row(store, "all-tours")
    con = sqlite3.connect(store)
    study, rj = con.execute("SELECT study, result FROM tasks WHERE key = ?", (key,)).fetchone()
    con.execute("UPDATE tasks SET params = ?, checksum = ? WHERE key = ?",
                ("{not json", row_checksum(key, study, "{not json", rj), key))
    con.commit()
    con.close()
    with ResultStore(store) as st:
        with pytest.raises(StoreError, match="parameters that are not JSON"):
            st.verify()


# ---------------------------------------------------------------- through the studies
@pytest.mark.parametrize("study,name,argv", [
    ("phadke", "a number, not rows", ["study", "phadke", "--family", "strict"]),
    ("phadke", "a row short", ["study", "phadke", "--family", "strict", "--json"]),
    ("move-orders", "closed 2", ["study", "move-orders", "--size", "5"]),
    ("move-orders", "a zlib bomb", ["study", "move-orders", "--size", "5"]),
])
def test_the_command_line_says_damaged_row_in_one_line_exit_2(store, capsys, study, name,
                                                             argv):
    where, change, _ = MUTATIONS[study][name]
    key, _, result = _row(store, study, where)
    _rewrite(store, key, change(result))
    code, err = _cli(capsys, argv + ["--store", str(store)])
    assert code == 2, err[-600:]
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err[-600:]
    assert lines[0].startswith(f"--store: {store}: row {key!r} holds a result of the wrong "
                               "shape (")


def test_the_studies_refuse_a_damaged_row_before_using_it(store):
    cases = [("count", "a move type 9", lambda st: count_study.run_count(6, 6, "a1", store=st,
                                                                        **COUNT)),
             ("tie-breaks", "other sizes", lambda st: tiebreaks.run_tiebreaks(9, store=st,
                                                                             **TIE)),
             ("all-tours", "tours as text", lambda st: all_tours.run_all_tours(
                 4, 5, store=st, scheduler="threads"))]
    for study, name, again in cases:
        where, change, words = MUTATIONS[study][name]
        key, _, result = _row(store, study, where)
        _rewrite(store, key, change(result))
        with ResultStore(store) as st:
            with pytest.raises(StoreError) as e:
                again(st)
        assert repr(key) in str(e.value) and words in str(e.value), (study, str(e.value))
        _rewrite(store, key, result)                       # put it back for the next one
