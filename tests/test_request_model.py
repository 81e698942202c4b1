"""The request model is Qt-free: it checks each field, tells observers what changed, and
builds a validated Request (no display, no Qt import)."""
from __future__ import annotations

import subprocess
import sys

import pytest

from knightgui.request import RESULT_FIELDS, Request, RequestModel, Settings


def test_importing_the_model_does_not_import_qt():
    code = ("import sys, knightgui.request; "
            "print(any(m.startswith('PySide6') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "False"


def test_update_tells_observers_exactly_what_changed():
    m = RequestModel()
    seen: list[frozenset] = []
    m.observe(seen.append)
    assert m.update(rows=10) == {"rows", "cols"}          # square board: cols follow
    assert (m.settings.rows, m.settings.cols) == (10, 10)
    assert m.update(rows=10) == frozenset()               # nothing changed: no event
    m.update(square=False)
    m.update(cols=12, start="b3")
    assert seen == [frozenset({"rows", "cols"}), frozenset({"square"}),
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
    assert isinstance(r, Request) and (r.rows, r.cols, r.start, r.mode) == (8, 8, "a8", "single")
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
    assert (r.end, r.order, r.dash_dict()) == ("c7", "87654321", {"h1": "full"})
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
