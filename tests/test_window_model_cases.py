"""More cases for the window's model without a widget (beside test_window_model.py): set,
read back, saved and restored (through JSON, as the settings store it), refused with a
sentence when bad; and the options the controls offer (end squares, free corners, ECD/XCD
tails, enabled controls) against cases worked out by hand or by a plain knight-move
generator written here."""
from __future__ import annotations

import json
from dataclasses import fields

import pytest

from knightgui.request.model import Enabled, RequestModel, Settings
from knightgui_core.board.rules import METHODS, TIE_RULES

#: (setup, field, value, value read back) — setup puts the model where the field applies
CASES = [
    ({}, "rows", 10, 10),
    ({"square": False}, "cols", 12, 12),
    ({}, "square", False, False),
    ({}, "closed", True, True),
    ({}, "mode", "exhaustive", "exhaustive"),
    ({}, "start", " c3 ", "c3"),
    ({"mode": "exhaustive", "closed": True}, "end", "b6", "b6"),
    ({}, "tie", TIE_RULES[-1], TIE_RULES[-1]),
    ({}, "order", "87654321", "87654321"),
    ({}, "seed", 7, 7),
    ({}, "method", METHODS[-1], METHODS[-1]),
    ({}, "dashes", (("h1", "full"), ("a1", "off")), (("h1", "full"),)),
    ({"mode": "exhaustive", "closed": True, "start": "f5"}, "end", "h6", "h6"),
    ({"mode": "exhaustive", "closed": True, "start": "f5", "end": "d4"},
     "tail", ["b3", "a1", "c2", "d4"], ("b3", "a1", "c2", "d4")),
    ({}, "keep", 200, 200),
    ({}, "limit", 5, 5),
    ({"mode": "exhaustive"}, "all_tours", True, True),
    ({}, "topology", "cylinder", "cylinder"),
    ({}, "leaper", "giraffe", "1,4"),
    ({"mode": "exhaustive", "all_tours": True}, "symmetry", "quarter-turn", "quarter-turn"),
]


def test_every_field_has_a_case():
    assert {f.name for f in fields(Settings)} == {c[1] for c in CASES}


@pytest.mark.parametrize("setup,name,value,back", CASES, ids=[c[1] for c in CASES])
def test_each_field_round_trips(setup, name, value, back):
    m = RequestModel()
    m.update(**setup)
    assert getattr(m.settings, name) != back                # the case changes something
    seen: list[frozenset] = []
    m.observe(seen.append)
    changed = m.update(**{name: value})
    assert getattr(m.settings, name) == back and name in changed and seen == [changed]
    again = RequestModel.from_dict(json.loads(json.dumps(m.to_dict())))
    assert again.settings == m.settings


BAD = [("rows", -3), ("cols", 2001), ("square", "perhaps"), ("closed", 2), ("mode", "quick"),
       ("start", None), ("end", 5), ("tie", 3), ("order", "0"), ("seed", 2**31),
       ("method", ""), ("dashes", (("a1", "B", "x"),)), ("tail", ["a1"] * 9),
       ("keep", 99), ("limit", -1), ("all_tours", "yes please"), ("topology", "klein"),
       ("leaper", "2,2"), ("symmetry", "glide")]


def test_every_field_has_a_bad_case():
    assert {f.name for f in fields(Settings)} == {b[0] for b in BAD}


@pytest.mark.parametrize("name,value", BAD, ids=[b[0] for b in BAD])
def test_a_bad_value_is_one_sentence_naming_its_field(name, value):
    m = RequestModel()
    with pytest.raises(ValueError) as e:
        m.update(**{name: value})
    text = str(e.value)
    assert "\n" not in text and name.split("_")[0] in text.lower()
    assert m.settings == Settings()


def _knight(sq: str, rows: int = 8, cols: int = 8) -> set[str]:
    """Plain knight moves by square name (column letters a.., rows from 1 at the bottom)."""
    c, r = ord(sq[0]) - ord("a"), int(sq[1:]) - 1
    out = set()
    for dc, dr in ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)):
        if 0 <= c + dc < cols and 0 <= r + dr < rows:
            out.add(f"{chr(ord('a') + c + dc)}{r + dr + 1}")
    return out


def test_end_squares_offered():
    m = RequestModel()
    assert m.end_choices() == ()                            # open tour: no end
    m.update(closed=True)
    assert m.end_choices() == ("b6", "c7")                  # a8: by column, then row
    m.update(start="d4")
    assert set(m.end_choices()) == _knight("d4") and len(m.end_choices()) == 8
    m.update(start="z9")
    assert m.end_choices() == ()


def test_free_corners():
    m = RequestModel()
    assert m.corner_states() == {"a1": None, "a8": "S (a8) is the corner", "h8": None, "h1": None}
    m.update(start="g3")                                    # an approach cell of h1
    st = m.corner_states()
    assert [k for k, v in st.items() if v is not None] == ["h1"] and "approach" in st["h1"]
    m.update(start="z9")
    assert set(m.corner_states().values()) == {"no start square"}
    m.update(rows=2, start="a1")
    assert m.corner_states() == {}                          # too narrow to dash


def _plain_tails(start: str, end: str) -> set[tuple[str, tuple[str, ...]]]:
    """ECD: (approach, corner, approach, end); XCD: (approach, corner, approach, x, end)."""
    approach = {"a1": ("b3", "c2"), "a8": ("b6", "c7"), "h8": ("g6", "f7"), "h1": ("g3", "f2")}
    out = set()
    for corner, (p, q) in approach.items():
        for a1, a2 in ((p, q), (q, p)):
            if end in _knight(a2):
                out.add(("ecd", (a1, corner, a2, end)))
            for x in _knight(a2):
                if x not in (start, end, a1, corner) and end in _knight(x):
                    out.add(("xcd", (a1, corner, a2, x, end)))
    return out


def test_tails_offered():
    m = RequestModel()
    m.update(mode="exhaustive", closed=True, start="f5", end="d4")
    tails = m.tail_choices()
    assert {t for k, t in tails if k == "ecd"} == {("b3", "a1", "c2", "d4"), ("c2", "a1", "b3", "d4")}
    assert set(tails) == _plain_tails("f5", "d4") and len(tails) == len(set(tails))
    m.update(mode="single")
    assert m.tail_choices() == ()                           # only closed exhaustive runs


def test_enabled_controls():
    m = RequestModel()
    assert m.enabled() == Enabled(rules=True, exhaustive=False, end=False, tail=False,
                                  all_tours=False)
    m.update(mode="exhaustive", closed=True, start="f5", end="d4")
    assert m.enabled() == Enabled(rules=False, exhaustive=True, end=True, tail=True,
                                  all_tours=True)
    m.update(closed=False, all_tours=True)
    assert m.enabled() == Enabled(rules=False, exhaustive=True, end=False, tail=False,
                                  all_tours=True)


def test_what_follows_a_change():
    m = RequestModel()
    m.update(mode="exhaustive", closed=True, start="f5", end="d4", dashes=(("h8", "A"),),
             tail=("b3", "a1", "c2", "d4"))
    m.update(start="g6")                                    # h8 no longer free, d4 no end
    s = m.settings
    assert s.dashes == () and s.end in m.end_choices() and s.tail is None


def test_old_settings_still_load():
    """Older settings kept one dash state per corner (a1, a8, h8, h1 order) and may carry
    keys the model no longer has: the dashes are read by corner, unknown keys are skipped."""
    old = {"rows": 8, "cols": 8, "start": "d4", "dashes": ["off", "A", "off", "full"],
           "speed": 3, "mode": "single"}
    m = RequestModel.from_dict(old)
    assert m.settings.dashes == (("a8", "A"), ("h1", "full")) and m.settings.start == "d4"
    old["start"] = "a8"                                     # a8 is the start: not free
    assert RequestModel.from_dict(old).settings.dashes == (("h1", "full"),)
