"""The request model is Qt-free: it checks each field, tells observers what changed, and
builds a validated Request (no display, no Qt import)."""
from __future__ import annotations

import subprocess
import sys

import pytest

from knightgui.request.model import RESULT_FIELDS, Mode, Request, RequestModel, Settings
from knightgui_core.board.rules import MoveOrder
from knightgui_core.board.tie_rule import TieRule


def test_importing_the_model_does_not_import_qt():
    code = ("import sys, knightgui.request.model; "
            "print(any(m.startswith('PySide6') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "False"


def test_update_tells_observers_exactly_what_changed():
    m = RequestModel()
    seen: list[frozenset] = []
    m.observe(seen.append)
    assert m.update(rows=10) == {"rows", "cols", "start"}  # cols and the corner follow
    assert (m.settings.rows, m.settings.cols, m.settings.start) == (10, 10, "a10")
    assert m.update(rows=10) == frozenset()               # nothing changed: no event
    m.update(square=False)
    m.update(cols=12, start="b3")
    assert seen == [frozenset({"rows", "cols", "start"}), frozenset({"square"}),
                    frozenset({"cols", "start"})]
    assert {"rows", "start"} <= RESULT_FIELDS and "seed" not in RESULT_FIELDS


@pytest.mark.parametrize("field,value", [
    ("rows", 0), ("rows", 2001), ("rows", True), ("rows", 2.5), ("cols", "x"),
    ("mode", "fast"), ("order", "1239"), ("order", 12345678), ("seed", -1),
    ("method", "magic"), ("dashes", (("a1", "half"),)), ("dashes", "a1"),
    ("tail", ("a1",)), ("keep", 5), ("start", "x" * 100), ("closed", "maybe"),
    ("nonsense", 1),
])
def test_a_bad_value_is_refused_with_a_sentence_and_changes_nothing(field, value):
    m = RequestModel()
    before = m.settings
    with pytest.raises(ValueError) as e:
        m.update(**{"limit": 5, field: value})
    assert str(e.value) and "\n" not in str(e.value)
    assert m.settings == before                           # all or nothing


def test_request_validates_the_whole():
    m = RequestModel()
    r = m.request()
    assert isinstance(r, Request) and (r.rows, r.cols, r.start, r.mode) == (8, 8, 56, Mode.SINGLE)
    assert r.tie is TieRule.PHADKE and r.order.digits == "12345678"   # typed, parsed once
    m.update(rows=3)
    with pytest.raises(ValueError, match="(?i)no .*tour|tour"):
        m.request()
    m.update(rows=8, start="z9")
    with pytest.raises(ValueError, match="Start"):
        m.request()
    m.update(start="a8", mode="exhaustive", closed=True)
    assert m.settings.end == "c7"                         # the preferred end, a knight move
    with pytest.raises(ValueError, match="not a knight move"):
        m.update(end="d4")
    assert m.settings.end == "c7"
    m.update(end="c7", order="1234567")
    with pytest.raises(ValueError, match="Move order"):
        m.request()
    m.update(order="87654321", dashes=(("h1", "full"), ("a1", "off")))
    r = m.request()
    assert (r.end, r.order, r.dash_dict()) == (50, MoveOrder((8, 7, 6, 5, 4, 3, 2, 1)),
                                           {"h1": "full"})
    m.update(tie="Roth")
    assert m.request().tie is TieRule.CENTER_FAR
    m.update(tie="no-such-rule")
    with pytest.raises(ValueError, match="Tie rule"):
        m.request()


def test_settings_round_trip_and_hostile_dicts_keep_defaults():
    m = RequestModel()
    m.update(square=False)
    m.update(rows=10, cols=12, closed=True, mode="exhaustive", start="c3", end="e4",
             seed=7, dashes=(("a1", "A"),), tail=("b3", "a1", "c2"))
    again = RequestModel.from_dict(m.to_dict())
    assert again.settings == m.settings
    hostile = {"rows": "many", "cols": None, "square": [], "closed": {"x": 1},
               "mode": 3, "start": None, "order": "99", "seed": "-4", "dashes": [["a1"]],
               "keep": 10**12, "tail": "a1", "tie": 5}
    assert RequestModel.from_dict(hostile).settings == Settings()
    assert RequestModel.from_dict(None).settings == Settings()


def test_below_the_edge_nothing_reads_text_again(monkeypatch):
    """The request is the window's one parser: the solver's calls get indices, a TieRule and a
    MoveOrder, so a square name read again below it would fail here."""
    from knightgui_core.board.squares import Board
    from knightgui_core.tietree.enumeration.enumerator import Enumerator
    from knightgui_core.walks.solve import solve
    req = RequestModel(Settings(mode="exhaustive", closed=True, start="a8", end="c7",
                                tie="roth")).request()
    assert (req.start, req.end, req.tie) == (56, 50, TieRule.CENTER_FAR)

    def no_text(self, text):
        raise AssertionError(f"square {text!r} parsed again below the edge")

    monkeypatch.setattr(Board, "parse", no_text)
    res = solve(req.rows, req.cols, start=req.start, closed=True, tie=req.tie, order=req.order)
    assert res.ok and int(res.path[0]) == 56
    en = Enumerator(req.rows, req.cols, req.start, req.end, req.dash_dict(), req.tail)
    assert (en.start, en.end) == (56, 50)
