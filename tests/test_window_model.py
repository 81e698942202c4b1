"""Every field of the window's model round-trips without widgets, and what the controls offer
is computed by the model (issue 24: one typed model)."""
from __future__ import annotations

import dataclasses

import pytest

from knightgui.request.model import Enabled, RequestModel, Settings

#: a value for each field other than its default (and valid together)
OTHER = {"rows": 10, "cols": 12, "square": False, "closed": True, "mode": "exhaustive",
         "start": "b3", "end": "a1", "tie": "first", "order": "87654321", "seed": 7,
         "method": "greedy", "dashes": (("l10", "full"),), "tail": None, "keep": 5000,
         "limit": 99, "all_tours": True, "topology": "torus", "leaper": "2,3",
         "symmetry": "half-turn"}
#: the fields that hold only for the knight on the plane (the dashes) and those that change it
KNIGHTS_PLANE = {"dashes", "tail"}
BOARD_FIELDS = {"topology", "leaper"}


def test_every_field_is_declared_once_with_a_default_and_a_validator():
    names = [f.name for f in dataclasses.fields(Settings)]
    assert sorted(names) == sorted(OTHER)
    for f in dataclasses.fields(Settings):
        assert callable(f.metadata["check"]), f.name
        assert f.metadata["check"](getattr(Settings(), f.name)) == getattr(Settings(), f.name)


@pytest.mark.parametrize("name", sorted(OTHER))
def test_each_field_round_trips_through_update_and_the_settings_dict(name):
    m = RequestModel()
    if name in ("end", "tail", "dashes"):
        m.update(square=False, rows=10, cols=12, closed=True, mode="exhaustive", start="b3")
    if name == "cols":
        m.update(square=False)
    m.update(**{name: OTHER[name]})
    assert getattr(m.settings, name) == OTHER[name]
    again = RequestModel.from_dict(m.to_dict())
    assert again.settings == m.settings


@pytest.mark.parametrize("leave_out", [BOARD_FIELDS, KNIGHTS_PLANE | {"end"}])
def test_the_whole_settings_dict_round_trips_and_loads_into_a_live_model(leave_out):
    values = {k: v for k, v in OTHER.items() if k not in leave_out}
    m = RequestModel()
    m.update(**values)
    assert {k: v for k, v in dataclasses.asdict(m.settings).items() if k in values} == values
    other = RequestModel()
    seen: list[frozenset] = []
    other.observe(seen.append)
    other.load(m.to_dict())
    assert other.settings == m.settings and len(seen) == 1     # one event for the whole


def test_another_board_drops_the_dashes_and_offers_its_own_ends():
    m = RequestModel()
    m.update(dashes=(("h1", "full"),), closed=True, mode="exhaustive", start="a1")
    assert m.settings.dashes and set(m.end_choices()) == {"b3", "c2"}
    changed = m.update(topology="torus")
    assert m.settings.dashes == () and {"topology", "dashes"} <= changed
    assert set(m.end_choices()) == {"b3", "c2", "h3", "g2", "b7", "c8", "h7", "g8"}
    assert set(m.corner_states().values()) == {"the dashes are the knight's on the plane"}
    req = m.request()
    assert req.topology == "torus" and req.board().wraps
    m.update(leaper="zebra", topology="plane", end=None)
    assert m.settings.leaper == "2,3" and set(m.end_choices()) == {"c4", "d3"}
    with pytest.raises(ValueError, match="colour"):
        RequestModel(Settings(leaper="1,3")).request()


def test_the_square_lock_keeps_columns_with_rows_either_way():
    m = RequestModel()
    m.update(rows=10)
    assert (m.settings.rows, m.settings.cols) == (10, 10)
    m.update(cols=12)
    assert (m.settings.rows, m.settings.cols) == (12, 12)
    m.update(square=False, cols=9)
    assert (m.settings.rows, m.settings.cols) == (12, 9)
    m.update(square=True)
    assert (m.settings.rows, m.settings.cols) == (12, 12)


def test_end_choices_are_the_knight_moves_from_the_start_and_follow_it():
    m = RequestModel()
    assert m.end_choices() == ()                              # open tour
    m.update(closed=True, mode="exhaustive")
    assert m.end_choices() == ("b6", "c7")                    # from a8, by column
    assert m.settings.end == "c7" and m.end_square() == m.board().parse("c7")
    m.update(end="b6")
    m.update(start="d4")                                      # b6 is no longer a move away
    assert m.end_choices() == ("b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5")
    assert m.settings.end == "b3"
    m.update(start="a8")                                      # back: the last chosen end
    assert m.settings.end == "b6"
    m.update(closed=False)
    assert m.settings.end is None and m.end_square() == -1


def test_the_start_is_named_the_board_s_way_and_bad_text_is_kept_for_a_message():
    m = RequestModel()
    m.update(start="3,7")
    assert m.settings.start == "c7" and m.start_square() == m.board().parse("c7")
    m.update(start="zz99")
    assert m.settings.start == "zz99" and m.start_square() == -1
    with pytest.raises(ValueError, match="Start"):
        m.request()
    m.update(start="")
    assert m.start_square() == 0


def test_corner_states_say_which_corners_can_be_dashed_and_why_not():
    m = RequestModel()
    states = m.corner_states()
    assert list(states) == ["a1", "a8", "h8", "h1"]
    assert states["a8"] is not None and "a8" in states["a8"]
    assert states["h1"] is None
    m.update(dashes=(("h1", "full"), ("a8", "A")))            # a8 is not free: dropped
    assert m.settings.dashes == (("h1", "full"),)
    m.update(start="g3")                                      # an approach cell of h1
    assert m.corner_states()["h1"] is not None and m.settings.dashes == ()
    m.update(start="zz9")
    assert set(m.corner_states().values()) == {"no start square"}


def test_tail_choices_and_enabled_boxes_follow_mode_closed_and_end():
    m = RequestModel()
    assert m.enabled() == Enabled(rules=True, exhaustive=False, end=False, tail=False,
                                  all_tours=False)
    m.update(mode="exhaustive", closed=True, start="b8", end="a6")
    tails = m.tail_choices()
    assert tails and all(kind in ("ecd", "xcd") and names[-1] == "a6" for kind, names in tails)
    assert m.enabled() == Enabled(rules=False, exhaustive=True, end=True, tail=True,
                                  all_tours=True)
    m.update(tail=tails[0][1])
    assert m.request().tail == tuple(m.board().parse(q) for q in tails[0][1])
    m.update(end="c6")                                        # that tail ends elsewhere
    assert m.settings.tail is None or m.settings.tail in {t for _k, t in m.tail_choices()}
    m.update(mode="single")
    assert m.tail_choices() == () and m.settings.tail is None


def test_old_settings_with_one_dash_state_per_corner_still_load():
    m = RequestModel.from_dict({"rows": 8, "start": "a8", "dashes": ["off", "off", "off",
                                                                    "full"]})
    assert m.settings.dashes == (("h1", "full"),)


@pytest.mark.parametrize("data", [None, [], "x", {"rows": "many"}, {"end": 3},
                                  {"dashes": [["a1"]]}, {"tail": "a1"}, {"nonsense": 1}])
def test_hostile_settings_keep_the_defaults(data):
    assert RequestModel.from_dict(data).settings == Settings()


def test_every_tour_is_an_exhaustive_run_of_open_paths_on_small_boards():
    m = RequestModel()
    m.update(mode="exhaustive", all_tours=True, rows=6, start="a1")
    r = m.request()
    assert r.all_tours and r.tail is None
    m.update(closed=True)
    assert not m.enabled().end and not m.enabled().tail
    with pytest.raises(ValueError, match="untick"):
        m.request()
    m.update(closed=False, rows=12)
    with pytest.raises(ValueError, match="at most 128 squares"):
        m.request()
    m.update(mode="single", rows=8)
    assert not m.request().all_tours and not m.enabled().all_tours
